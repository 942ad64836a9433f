# Copyright: advisor contributors
# Apache License 2.0 (see the advisor repository's pyproject.toml)
# The work is done by the action plugin of the same name, on the controller;
# this file holds its documentation.

from __future__ import annotations

DOCUMENTATION = r"""
module: bundle
short_description: Collect one host's advisor capture bundle onto the controller
description:
  - Asks the host C(uname -s), sends it advisor's collector script for that platform
    (Solaris, Linux or Xen dom0, HP-UX), runs it with C(/bin/sh) and writes the bundle it
    prints as C(<dest>/<host>.tar.gz) on the controller, for C(advisor review).
  - The script runs only advisor's allowlisted read-only commands; the same table writes
    C(advisor collect) and C(advisor collector-script). No Python is needed on the host.
  - A host that cannot be collected (unreachable, refused, an unknown platform, a failed
    collector) leaves a bundle that records Ansible's reason, which C(advisor review)
    reports as not collected.
  - The bundle is replaced on every run, so that its manifest says when the host was last
    collected. The task reports C(changed) only when what the bundle says of the host differs
    from the bundle already there (the sha256 of each output and of the manifest, less the
    time of collection, are compared).
  - In check mode the host is collected all the same (every command is read-only) and the
    bundle checked, but nothing is written on the controller; C(changed) says whether the
    bundle would differ.
version_added: 0.1.0
author: advisor contributors (!UNKNOWN)
options:
  dest:
    description: Folder on the controller that receives C(<host>.tar.gz); created private (0700) when missing.
    type: path
    required: true
  scripts:
    description: Folder holding the collector scripts C(collect-<platform>[-<privilege>].sh) (the advisor role's files).
    type: path
    required: true
  privilege:
    description:
      - How the script runs C(ldm) and C(ndd) on Solaris when the task does not use C(become)
        (C(sudo -n) never waits for a password). With C(become), leave it at C(none).
    type: str
    choices: [none, sudo, pfexec]
    default: none
  fail_uncollected:
    description: Fail the host when it cannot be collected (after recording why); C(false) only warns.
    type: bool
    default: true
  host:
    description: The host's name in the bundle and its file name; defaults to C(inventory_hostname).
    type: str
  command_timeout:
    description:
      - Seconds one command may take on the host. The script stops a command past it and records it as
        timed out; the bundle keeps what the others printed (C(advisor review) then exits 3, incomplete).
        Keep it well under the task's C(timeout), which drops the whole host.
    type: int
    default: 300
  sample:
    description:
      - Seconds after which the script reads the host's counters (C(kstat -p) on Solaris, C(cat /proc/net/dev)
        and C(ethtool -S) on Linux, C(lanadmin -g) on HP-UX) a second time, for rates (1 to 600; C(0) reads them
        once). The bundle keeps each second reading as C(<id>~2.txt) (C(kstat-p~2.txt)) and its manifest both
        times. The task's C(timeout) must allow for the wait.
    type: int
    default: 0
notes:
  - The script keeps at most 512 MiB of one command's output (16 MiB for a per-interface command in all) and
    prints at most 64 MiB of compressed bundle, so a host cannot exhaust the controller's memory.
  - Honours C(become) (C(sudo), or C(community.general.pfexec) on Solaris) for the whole script.
attributes:
  check_mode:
    description: Can run in check mode, changing nothing.
    support: full
    details: The host is collected (read-only commands); nothing is written on the controller.
"""

EXAMPLES = r"""
- name: Collect a capture bundle
  advisor.fleet.bundle:
    dest: "{{ advisor_captures }}"
    scripts: "{{ role_path }}/files"
"""

RETURN = r"""
bundle:
  description: Path of the bundle written on the controller (in check mode, where it would be written).
  returned: when collected
  type: str
platform:
  description: The collector's platform (solaris, linux, hpux).
  returned: when collected
  type: str
not_collected:
  description: Why the host was not collected (also written into its bundle).
  returned: when not collected and fail_uncollected is false
  type: str
"""
