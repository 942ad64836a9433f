"""Planned configurations: YAML plans and `ldm list-constraints -x` XML."""
