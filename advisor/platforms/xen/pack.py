"""Xen dom0s: Oracle VM for x86 and upstream Xen, through xl or xm. Built on Linux."""

import re

from advisor.platform_spec import Command, Output, Pack, Pattern, Subject

# xl first shipped with Xen 4.0: Xen 3 and xend's own fields (system, sockets_per_node, xen_params) are xm's
_XM_INFO = Pattern(r"\A(?=(?:.*\n)*?[ \t]*(?:host|nr_cpus)[ \t]+:)"
                   r"(?=(?:.*\n)*?[ \t]*(?:xen_major[ \t]+:[ \t]*[0-3][ \t]*$|(?:system|sockets_per_node|xen_params)[ \t]+:))",
                   re.M)
# the first line that may open the listing is taken once (atomic): a later one finds a subset of what follows it
_XL_INFO = Pattern(r"\A(?>(?:.*\n)*?[ \t]*(?:host|release|nr_cpus|xen_major)[ \t]+:.*\n)"
                   r"(?:.*\n)*?[ \t]*(?:nr_cpus|xen_major|xen_version)[ \t]+:")

PACK = Pack(
    name="xen",
    title="Xen dom0s (Oracle VM for x86)",
    extends="linux",
    outputs=(
        Output("xl-vcpu-list", "xl vcpu-list", parser="xen:parse_vcpu_list", family="vcpu-list",
               recognised_by=(Pattern(r"^[ \t]*Name\s+ID\s+VCPU\s+CPU\s+State\s+Time\(s\)\s+Affinity\s*\(Hard", re.M),)),
        Output("xm-vcpu-list", "xm vcpu-list", parser="xen:parse_vcpu_list", family="vcpu-list",
               recognised_by=(Pattern(r"^[ \t]*Name\s+ID\s+VCPUs?\s+CPU\s+State\s+Time\(s\)\s+CPU\s+Affinity", re.M),)),
        Output("xl-list", "xl list", parser="xen:parse_list",
               recognised_by=(Pattern(r"^[ \t]*Name\s+ID\s+Mem(?:\(MiB\))?\s+VCPUs\s+State\s+Time\(s\)", re.M),)),
        Output("xm-list", "xm list", parser="xen:parse_list"),
        Output("xm-info", "xm info", joinable=True, parser="xen:parse_info", family="xm info", recognised_by=(_XM_INFO,)),
        Output("xl-info", "xl info", joinable=True, parser="xen:parse_info", family="xl info", recognised_by=(_XL_INFO,)),
    ),
    collect=(
        Command("xl-info", "xl info", fallback="xm info", fallback_id="xm-info"),
        Command("xl-list", "xl list", fallback="xm list", fallback_id="xm-list"),
        Command("xl-vcpu-list", "xl vcpu-list", fallback="xm vcpu-list", fallback_id="xm-vcpu-list"),
    ),
    lines=(("xm", "lines:xm"), ("xl", "lines:xl")),
    subjects=(
        Subject("pcpu", "pcpus", "cpu", lambda p: f"pcpu {p.cpu}"),
        Subject("xen-vcpu", "xen_guest_vcpus", "vcpu", lambda v: f"vcpu {v.domain}/{v.vcpu}"),
    ),
    reads=(
        ("host.xen_nr_cpus", "xm info or xl info"),
        ("host.pcpus", "xl vcpu-list or xm vcpu-list"),
        ("host.xen_", "xl vcpu-list or xm vcpu-list"),
    ),
    facts="facts:build",
    record="records:XenHost",
    kind="xen dom0",  # its facts give the host the role `xen dom0 (...)`
    changes="changes",
    changed=("xen_guest_vcpus", "pcpus"),
)
