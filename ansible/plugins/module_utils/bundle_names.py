# Copyright: advisor contributors
# Apache License 2.0 (see the advisor repository's pyproject.toml)
"""Where a host's bundle lives on the controller: shared by the bundle and gate actions."""

from __future__ import annotations

import os


def safe_name(host: str) -> str:
    """The host's file name (as `advisor collect` names its folders): other characters become _."""
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in host) or "host"


def bundle_path(folder: str, host: str) -> str:
    """<folder>/<host>.tar.gz, a relative folder taken from the folder ansible-playbook was started in."""
    return os.path.join(os.path.abspath(os.path.expanduser(folder)), f"{safe_name(host)}.tar.gz")
