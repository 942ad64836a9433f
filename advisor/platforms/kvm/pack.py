"""KVM hosts run through libvirt: which host CPUs each guest vCPU may run on
(`virsh vcpupin`) and which host interface backs each guest NIC (`virsh
domiflist`). Built on Linux: bridges, ethtool, ip link and their rules come from there.

The guests they show are the host's `kvm_guests` facts. No rule reads them yet (no
published study backs one), so the pack declares no change operations and no rules."""

import re

from advisor.platform_spec import Command, Loop, Output, Pack, Pattern

_DOMAINS = "virsh list --name"  # one running domain a line, then a blank line


def _each_domain(command: str) -> Loop:
    """Over the running domains `virsh list --name` lists, one a line: a name may hold blanks."""
    return Loop(_DOMAINS, f"{command} \"$i\"", by_line=True)


PACK = Pack(
    name="kvm",
    title="KVM hosts (libvirt)",
    extends="linux",
    outputs=(
        # The listing names no domain: known by its bundle file name only (virsh-vcpupin@<domain>.txt).
        Output("virsh-vcpupin", "virsh vcpupin", parser="virsh:parse_vcpupin", family="virsh vcpupin",
               per_item=True),
        # The same: virsh-domiflist@<domain>.txt.
        Output("virsh-domiflist", "virsh domiflist", parser="virsh:parse_domiflist", family="virsh domiflist",
               per_item=True),
        Output("virsh-list", "virsh list --all", parser="virsh:parse_list", family="virsh list",
               recognised_by=(Pattern(r"\A[ \t]*Id[ \t]+Name[ \t]+State[ \t]*\n[ \t]*-{4,}[ \t]*$", re.M),)),
    ),
    collect=(
        Command("virsh-list", "virsh list --all"),
        Command.each("virsh-vcpupin", _each_domain("virsh vcpupin")),
        Command.each("virsh-domiflist", _each_domain("virsh domiflist")),
    ),
    lines=(("virsh", "lines:command_id"),),
    reads=(("host.kvm_guests", "virsh list --all, and virsh vcpupin and virsh domiflist of each guest"),),
    facts="facts:build",
    record="records:KvmHost",
    rules=False,
)
