"""What a remediation script of a machine of logical domains guards against
(report/script.py): a delayed reconfiguration left pending, a domain left
stopped, part 2 run before the control domain has rebooted.

cancel-reconf is the 3.x guides' name ("Delayed Reconfiguration", Oracle VM
Server for SPARC 3.2 Administration Guide); the Logical Domains 1.2 and 1.3
guides call it cancel-operation reconf."""

from __future__ import annotations

import shlex

from advisor.shell import shell_word


class LdomsGuards:
    elsewhere = "the control domain"  # where a guest's ldm steps run, when virtinfo did not name it

    def pending(self, domain: str) -> str:
        word = shlex.quote(domain)
        return (f"{domain} has changes pending in a delayed reconfiguration, and ldm refuses changes to other domains "
                f"until it reboots: reboot it to apply them, or drop them with ldm cancel-reconf {word} "
                f"(Logical Domains 1.x: ldm cancel-operation reconf {word})")

    def stopped(self, domain: str) -> str:
        return f"{domain} was stopped by this script and not started again: ldm start {shlex.quote(domain)} when ready"

    def still_pending(self, control: str) -> list[str]:
        """Part 2 stops if the control domain has not rebooted: the third FLAGS
        letter of `ldm list` is d during a delayed reconfiguration."""
        word = shell_word(control)
        return [f"flags=`ldm list {word} | awk 'NR == 2 {{ print $3 }}'`",
                'case "$flags" in',
                f"    ??d*) printf '%s is still in a delayed reconfiguration: reboot it, then run part 2\\n' {word} >&2; "
                f"exit 1 ;;",
                "esac"]


GUARDS = LdomsGuards()
