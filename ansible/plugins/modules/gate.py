# Copyright: advisor contributors
# Apache License 2.0 (see the advisor repository's pyproject.toml)
# The work is done by the action plugin of the same name, on the controller;
# this file holds its documentation.

from __future__ import annotations

DOCUMENTATION = r"""
module: gate
short_description: Review advisor capture bundles on the controller and fail on advisor's gate
description:
  - Runs C(advisor gate) on the controller over the bundles advisor.fleet.bundle wrote, writes
    one report per format into a folder, and fails when advisor's exit status is not 0
    (1 the gate failed, 2 unreadable input, 3 a host not collected), with advisor's verdict.
  - Relative paths are taken from the folder ansible-playbook was started in.
version_added: 0.1.0
author: advisor contributors (!UNKNOWN)
options:
  captures:
    description: The folder of bundles (C(<host>.tar.gz)).
    type: path
    required: true
  hosts:
    description:
      - Review only these hosts' bundles (C(<captures>/<host>.tar.gz)), not every bundle in the folder,
        so that bundles left by another run are never judged.
    type: list
    elements: str
  reports:
    description: The folder that receives one report per format.
    type: path
    required: true
  formats:
    description: Report formats, comma-separated, as advisor's --format (table, json, html, markdown, junit, sarif, script).
    type: str
    default: json,html
  fail_on:
    description: Fail on a finding of this severity or worse.
    type: str
    choices: [critical, high, medium, low, info, never]
    default: medium
  min_score:
    description: Also fail when a host scores under this.
    type: float
  command:
    description: advisor on the controller (a path, or a name on its PATH).
    type: str
    default: advisor
notes:
  - Skipped in check mode, which writes nothing on the controller (the review writes its reports there).
attributes:
  check_mode:
    description: Can run in check mode, changing nothing.
    support: none
    details: Skipped; the review writes reports on the controller.
"""

EXAMPLES = r"""
- name: Review and gate
  advisor.fleet.gate:
    captures: captures
    reports: reports
    fail_on: high
  run_once: true
"""

RETURN = r"""
rc:
  description: advisor's exit status.
  returned: when advisor ran
  type: int
verdict:
  description: advisor gate's one-line verdict.
  returned: when advisor ran
  type: str
reports:
  description: The folder the reports were written into.
  returned: when advisor ran
  type: str
"""
