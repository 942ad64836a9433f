"""Linux hosts: bridges, offloads, MTUs, PCIe cards. A Xen dom0 is one too."""

import re

from advisor.platform_spec import Command, Family, Loop, Output, Pack, Pattern, Subject


# Another ethtool query of one interface (`ethtool -T eth0`, `ethtool -m eth0`): it ends the output before it.
_OTHER_LINES = (Pattern(r"^ethtool(?:[ \t]+--?[A-Za-z][\w-]*)?[ \t]+[A-Za-z][\w.:@-]*$"),)


def _each_interface(command: str) -> Loop:
    """Over the interfaces `ip -o link` lists (peer suffixes dropped)."""
    return Loop("ip -o link | awk -F': ' '{print $2}' | sed 's/@.*//'", f"{command} \"$i\"")


PACK = Pack(
    name="linux",
    title="Linux hosts",
    family=Family("linux", uname="Linux", reboot="shutdown -r now"),
    outputs=(
        Output("brctl-show", "brctl show", parser="net:parse_brctl", family="brctl show",
               recognised_by=(Pattern(r"\A\s*bridge name\s+bridge id\s+STP enabled", re.I),),
               sosreport=("sos_commands/networking/brctl_show",)),
        Output("ip-link", "ip -o link", parser="net:parse_ip_link", family="ip -o link",
               recognised_by=(Pattern(r"\A\s*\d+:\s+[^:\s]+:\s+<[A-Z_,-]*>\s+mtu\s+\d+"),),
               sosreport=("sos_commands/networking/ip_-d_address", "sos_commands/networking/ip_address")),
        Output("sysctl-net", "sysctl -a (net.)", joinable=True, parser="net:parse_sysctl", family="sysctl -a",
               recognised_by=(Pattern(r"\A\s*net\.[\w.-]+\s*=", re.M),
                              # the whole `sysctl -a`: Linux's top-level names, in order, then net.*
                              Pattern(r"\A\s*(?:abi|crypto|debug|dev|fs|kernel|sunrpc|user|vm)\.[\w.-]+\s*=.*\n"
                                      r"(?:.*\n)*?net\.[\w.-]+\s*=")),
               sosreport=("sos_commands/kernel/sysctl_-a",)),
        Output("lspci-vv", "lspci -vv", parser="net:parse_lspci", family="lspci -vv",
               recognised_by=(Pattern(r"\A(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]\s+[^:\n]+:", re.I),),
               sosreport=("sos_commands/pci/lspci_-nnvv", "sos_commands/pci/lspci_-nvv")),
        Output("ethtool-k", "ethtool -k", parser="net:parse_ethtool_k", family="ethtool -k", per_item=True,
               recognised_by=(Pattern(r"^(?:Features|Offload parameters) for ([A-Za-z0-9_.:-]+):", re.M),),
               sosreport=("sos_commands/networking/ethtool_-k_{item}",)),
        Output("ethtool-c", "ethtool -c", parser="net:parse_ethtool_c", family="ethtool -c", per_item=True,
               recognised_by=(Pattern(r"^Coalesce parameters for ([A-Za-z0-9_.:-]+):", re.M),),
               sosreport=("sos_commands/networking/ethtool_-c_{item}",)),
        # the link's speed (for the share of line rate a sampled link carries), duplex and state
        Output("ethtool", "ethtool", parser="net:parse_ethtool_settings", family="ethtool IFACE", per_item=True,
               recognised_by=(Pattern(r"^[ \t]*Settings for ([A-Za-z0-9_.:-]+):[ \t]*$", re.M),),
               sosreport=("sos_commands/networking/ethtool_{item}",)),
        Output("ethtool-i", "ethtool -i", parser="net:parse_ethtool_i", family="ethtool -i", per_item=True,
               sosreport=("sos_commands/networking/ethtool_-i_{item}",)),
        # counters, read twice with --sample for rates (issue #29); no time in either: the manifest's taken_at
        Output("proc-net-dev", "cat /proc/net/dev", parser="counters:parse_proc_net_dev", given="output",
               family="cat /proc/net/dev", sampled=True,
               recognised_by=(Pattern(r"^[ \t]*Inter-\|[ \t]*Receive[ \t]*\|[ \t]*Transmit[ \t]*\n[ \t]*face[ \t]*\|",
                                      re.M),)),
        # `ethtool -S` does not name its interface: the file name (or the typed command line) does
        Output("ethtool-stats", "ethtool -S", parser="counters:parse_ethtool_stats", given="output",
               family="ethtool -S", per_item=True, sampled=True),
        # -a, -g, -l: read by no rule yet
        Output("ethtool-a", "ethtool -a", per_item=True,
               recognised_by=(Pattern(r"^Pause parameters for ([A-Za-z0-9_.:-]+):", re.M),)),
        Output("ethtool-g", "ethtool -g", per_item=True,
               recognised_by=(Pattern(r"^Ring parameters for ([A-Za-z0-9_.:-]+):", re.M),)),
        Output("ethtool-l", "ethtool -l", per_item=True,
               recognised_by=(Pattern(r"^Channel parameters for ([A-Za-z0-9_.:-]+):", re.M),)),
    ),
    collect=(
        Command("uname-a", "uname -a"),
        Command("release", "cat /etc/os-release"),
        Command("ip-link", "ip -o link"),
        Command("brctl-show", "brctl show"),
        Command("sysctl-net", "sysctl -a 2>/dev/null | grep '^net\\.'"),
        Command("lspci-vv", "lspci -vv"),
        Command.each("ethtool-k", _each_interface("ethtool -k")),
        Command.each("ethtool-c", _each_interface("ethtool -c")),
        Command.each("ethtool-i", _each_interface("ethtool -i")),
        Command.each("ethtool", _each_interface("ethtool")),
        Command("proc-net-dev", "cat /proc/net/dev", sampled=True),
        Command.each("ethtool-stats", _each_interface("ethtool -S"), sampled=True),
    ),
    lines=(("brctl", "lines:brctl"), ("ip", "lines:ip"), ("ethtool", "lines:ethtool"), ("sysctl", "lines:sysctl"),
           ("lspci", "lines:lspci"), ("cat", "lines:shown_file"), ("more", "lines:shown_file"),
           ("less", "lines:shown_file")),
    other_lines=_OTHER_LINES,
    subjects=(
        Subject("bridge", "bridges", "bridge", lambda b: f"bridge {b.name}"),
        Subject("interface", "interfaces", "interface", lambda i: f"interface {i.name}"),
        Subject("pci-card", "pci_cards", "card", lambda c: f"pci {c.card}"),
    ),
    reads=(
        ("host.bridges", "brctl show and ip -o link"),
        ("host.interfaces", "ethtool -k of each interface"),
        ("host.ip_forward", "sysctl -a (net.)"),
        ("host.pci_cards", "lspci -vv"),
        ("host.rates", "cat /proc/net/dev and ethtool -S of each interface, two samples (advisor audit --sample 30s); "
                       "ethtool of each interface for its line rate"),
        ("bridge.", "brctl show and ip -o link"),
        ("interface.", "ethtool -k of each interface"),
        ("pci-card.ports_up", "ethtool -i of each interface and ip -o link"),
        ("pci-card.", "lspci -vv"),
    ),
    facts="facts:build",
    record="records:LinuxHost",
    changes="changes",
    changed=("interfaces", "bridges"),
)
