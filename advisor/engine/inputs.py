"""Which command output provides each fact, to name what is missing in `unknown`."""

from __future__ import annotations

from functools import cache

_BY_PREFIX: list[tuple[str, str]] = [
    ("host.ldm_version", "ldm -V"),
    ("host.sru", "pkg info entire"),
    ("host.patches", "showrev -p"),
    ("host.solaris_minor", "pkg info entire or uname -a"),
    ("host.solaris_", "uname -a or /etc/release"),
    ("host.arch", "uname -a or /etc/release"),
    ("host.roles", "virtinfo -a"),
    ("host.is_control_domain", "virtinfo -a or ldm list -l"),
    ("host.is_guest_domain", "virtinfo -a"),
    ("host.vcpus", "psrinfo -pv"),
    ("host.cpu_model", "psrinfo -pv"),
    ("host.system", "/etc/system"),
    ("host.tcp_lso", "kstat -p (tcp:0:tcpstat)"),
    ("host.tcp_recv_buf", "ndd -get /dev/tcp (Solaris 10) or ipadm show-prop tcp (Solaris 11)"),
    ("host.tcp_drift", "ipadm show-prop tcp"),
    ("host.tcp", "ndd -get /dev/tcp or ipadm show-prop tcp"),
    ("host.links", "dladm show-phys and dladm show-linkprop"),
    ("host.ldcs", "kstat -p"),
    ("host.driver_conf", "/kernel/drv/<driver>.conf"),
    ("host.xen_nr_cpus", "xm info or xl info"),
    ("host.pcpus", "xl vcpu-list or xm vcpu-list"),
    ("host.xen_", "xl vcpu-list or xm vcpu-list"),
    ("host.bridges", "brctl show and ip -o link"),
    ("host.interfaces", "ethtool -k of each interface"),
    ("host.ip_forward", "sysctl -a (net.)"),
    ("host.pci_cards", "lspci -vv"),
    ("bridge.", "brctl show and ip -o link"),
    ("interface.", "ethtool -k of each interface"),
    ("pci-card.ports_up", "ethtool -i of each interface and ip -o link"),
    ("pci-card.", "lspci -vv"),
    ("host.lan_interfaces", "lanscan; lanscan -q (or nwmgr on 11i v3)"),
    ("host.hpux_release", "uname -a"),
    ("lan.driver", "lanscan -v (or nwmgr on 11i v3)"),
    ("lan.vmtu", "nwmgr -g -A vmtu -c lanN (11i v3) or lanadmin -x vmtu PPA"),
    ("lan.tso_supported", "lanscan -v (the driver) or nwmgr -g -A vmtu -c lanN (11i v3)"),
    ("lan.members", "lanscan -q (or lanadmin -x -i PPA, nwmgr -S apa -I PPA -v)"),
    ("lan.speed_mbps", "nwmgr -g -A all -c lanN (11i v3) or lanadmin -g PPA"),
    ("lan.tx_cko", "nwmgr -g -A all -c lanN (11i v3)"),
    ("lan.", "lanscan; lanscan -q"),
    ("host.local_mapin", "ldm list -l of this domain (run on its control domain)"),
    ("host.domains", "ldm list -l"),
    ("host.vswitches", "ldm list -l"),
    ("host.vnets", "ldm list -l"),
    ("domain.ten_gbe_ports", "dladm show-phys of the domain (link speeds behind its vsws)"),
    ("domain.uses_10gbe", "dladm show-phys of the domain or of its service domain (link speeds)"),
    ("domain.ten_gbe_links", "dladm show-phys of the service domain (speed behind the vsw)"),
    ("domain.whole_core_constraint", "ldm list -l (CONSTRAINT section, ldm 3.x)"),
    ("domain.whole_cores", "ldm list -l and psrinfo -pv (threads per core)"),
    ("domain.", "ldm list -l"),
    ("vsw.net_dev_", "dladm show-phys / dladm show-linkprop of the service domain"),
    ("vsw.", "ldm list -l"),
    ("vnet.", "ldm list -l"),
    ("link.rxfanout_effective", "dladm show-linkprop (rxfanout / rx-fanout)"),
    ("link.mtu", "dladm show-linkprop (mtu)"),
    ("link.", "dladm show-phys and dladm show-linkprop"),
    ("ldc.", "kstat -p (vnet/vsw LDC statistics)"),
]


# For plans: the plan key (docs/plans.md) that would provide the fact.
_PLAN_KEYS: list[tuple[str, str]] = [
    ("host.ldm_version", "plan: software.ldm"),
    ("host.sru", "plan: software.sru"),
    ("host.patches", "plan: software.patches"),
    ("host.solaris_", "plan: software.solaris"),
    ("host.cpu_model", "plan: hardware.model"),
    ("host.vcpus", "plan: cores or vcpus of the control domain"),
    ("domain.whole_cores", "plan: domains[].cores (vcpus alone do not fix which cores a domain owns)"),
    ("domain.vcpus", "plan: domains[].cores or vcpus, and hardware.threads_per_core"),
    ("domain.ten_gbe_ports", "plan: speed of each link the domain owns (domains[].links, or net_dev_speed of its vsws)"),
    ("domain.uses_10gbe", "plan: speed of the links behind the vsws (links[].speed or vsws[].net_dev_speed)"),
    ("domain.ten_gbe_links", "plan: speed of the links behind the vsws (links[].speed or vsws[].net_dev_speed)"),
    ("domain.memory_gb", "plan: domains[].memory"),
    ("domain.extended_mapin_space", "plan: domains[].extended_mapin_space"),
    ("domain.", "plan: domains[]"),
    ("vsw.net_dev_mtu", "plan: the MTU of the vsw's net_dev (links[].mtu or vsws[].net_dev_mtu)"),
    ("vsw.inter_vnet_link", "plan: vsws[].inter_vnet_link (or software.ldm, which decides its default)"),
    ("vsw.", "plan: vsws[]"),
    ("vnet.", "plan: vnets[]"),
    ("link.mtu", "plan: links[].mtu or vfs[].mtu"),
    ("link.", "plan: links[]"),
]


_FAMILY = {"ldm-list-l": "ldm list -l", "ldm-list-l-p": "ldm list -l", "ldm-list": "ldm list", "ndd-tcp": "ndd -get /dev/tcp",
           "ipadm-show-prop-tcp": "ipadm show-prop tcp", "kstat-p": "kstat -p", "sysctl-net": "sysctl -a",
           "ip-link": "ip -o link", "etc-system": "/etc/system", "ethtool-k": "ethtool -k", "ethtool-c": "ethtool -c", "ethtool-i": "ethtool -i",
           "nwmgr-vmtu": "nwmgr -g -A vmtu", "nwmgr-attrs": "nwmgr -g -A all", "lanadmin-vmtu": "lanadmin -x vmtu",
           "lanscan-iap": "lanscan", "lanadmin-g": "lanadmin -g", "lanadmin-apa": "lanadmin -x -i",
           "nwmgr-apa": "nwmgr -S apa",
           "dladm-show-phys": "dladm show-phys", "dladm-show-linkprop": "dladm show-linkprop",
           "lanscan": "lanscan", "lanscan-v": "lanscan", "nwmgr": "nwmgr", "lspci-vv": "lspci -vv",
           "brctl-show": "brctl show", "xl-vcpu-list": "vcpu-list", "xm-vcpu-list": "vcpu-list",
           "showrev-p": "showrev -p", "xl-info": "xl info", "xm-info": "xm info"}


def command_family(command_id: str) -> str:
    """How the missing inputs of rules name a command's output (`kstat-p` -> `kstat -p`)."""
    base = command_id.split("@", 1)[0]
    return _FAMILY.get(base, base)


@cache  # the rule packs name 107 distinct facts 284 times
def input_for(path: str, kind: str = "capture") -> str:
    """`s.extended_mapin_space` on a domain -> 'ldm list -l' (for a plan: its key)."""
    if kind == "plan":
        return next((key for prefix, key in _PLAN_KEYS if path.startswith(prefix)),
                    f"not stated in the plan ({path.removeprefix('host.')})")
    for prefix, command in _BY_PREFIX:
        if path.startswith(prefix):
            return command
    return path
