# Copyright: advisor contributors
# Apache License 2.0 (see the advisor repository's pyproject.toml)
"""Review the collected bundles with advisor on the controller and fail on its gate (advisor.fleet.gate).

Runs `advisor gate` on the controller (never on a host), with relative paths
taken from the folder ansible-playbook was started in, as advisor.fleet.bundle
takes them. advisor's exit status is the task's result: 0 passes; 1 (the gate
failed), 2 (unreadable input) and 3 (a host not collected) fail the task with
advisor's one-line verdict.
"""

from __future__ import annotations

import os
import subprocess

from ansible.plugins.action import ActionBase
from ansible_collections.advisor.fleet.plugins.module_utils.bundle_names import bundle_path

ARGUMENTS = {
    "captures": {"type": "path", "required": True},
    "hosts": {"type": "list", "elements": "str"},
    "reports": {"type": "path", "required": True},
    "formats": {"type": "str", "default": "json,html"},
    "fail_on": {"type": "str", "default": "medium",
                "choices": ["critical", "high", "medium", "low", "info", "never"]},
    "min_score": {"type": "float"},
    "command": {"type": "str", "default": "advisor"},
}
MEANING = {1: "the gate failed", 2: "input advisor could not read", 3: "a host was not collected"}


def gate_argv(args: dict) -> list[str]:
    reports = os.path.abspath(os.path.expanduser(args["reports"])).rstrip("/") + "/"  # a folder: one report per format
    if args.get("hosts"):  # exactly these hosts' bundles: never another run's left in the folder
        inputs = [bundle_path(args["captures"], host) for host in args["hosts"]]
    else:
        inputs = [os.path.abspath(os.path.expanduser(args["captures"]))]
    argv = [args["command"], "gate", *inputs, "--format", args["formats"], "--output", reports, "--fail-on", args["fail_on"]]
    if args.get("min_score") is not None:
        argv += ["--min-score", f"{args['min_score']:g}"]
    return argv


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _requires_connection = False  # everything happens on the controller
    _supports_check_mode = False

    def run(self, tmp=None, task_vars=None):
        _valid, args = self.validate_argument_spec(argument_spec=ARGUMENTS)
        result = super().run(tmp, task_vars)
        argv = gate_argv(args)
        try:
            done = subprocess.run(argv, capture_output=True, text=True, check=False)
        except OSError as exc:
            result.update(failed=True, msg=f"{argv[0]}: cannot run advisor ({exc.strerror})", cmd=argv)
            return result
        lines = done.stderr.splitlines()
        verdict = next((line for line in reversed(lines) if line.startswith("advisor gate:")), lines[-1] if lines else "")
        result.update(changed=False, rc=done.returncode, cmd=argv, stderr_lines=lines, verdict=verdict,
                      reports=argv[argv.index("--output") + 1])
        if done.returncode != 0:
            meaning = MEANING.get(done.returncode, "advisor failed")
            # 2 and 3 say what advisor could not read or collect; 1 is the verdict itself
            said = [line.removeprefix("advisor: ") for line in lines if line.startswith("advisor: ")]
            detail = "; ".join(said[:5]) + (f"; {len(said) - 5} more" if len(said) > 5 else "")
            result.update(failed=True, msg=f"advisor gate exited {done.returncode} ({meaning}): "
                                           f"{detail if done.returncode in (2, 3) and detail else verdict}")
        return result
