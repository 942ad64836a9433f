"""The platform packs, one folder each (see docs/platforms.md): what each declares is in its
pack.py, read by advisor.platform_registry, which is all the rest of advisor knows of them."""
