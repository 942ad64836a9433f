"""Solaris 10 and 11: links, TCP properties, /etc/system, driver files, kstat."""

import re

from advisor.platform_spec import Command, Family, Output, Pack, Pattern, Subject

NDD_TCP = ("for p in tcp_recv_hiwat tcp_xmit_hiwat tcp_max_buf; do "
           "v=`ndd -get /dev/tcp $p` || exit 1; echo \"$p $v\"; done")

PACK = Pack(
    name="solaris",
    title="Oracle Solaris 10 and 11",
    family=Family("solaris", uname="SunOS", reboot="shutdown -y -g0 -i6", privileged=frozenset({"ldm", "ndd"}),
                  path=("/opt/SUNWldm/bin",)),  # Logical Domains 1.x
    outputs=(
        # a dump's first line is enough to know it
        Output("kstat-p", "kstat -p", joinable=True, parser="kstat_wanted:scan_output", family="kstat -p", given="output",
               recognised_by=(Pattern(r"\A[A-Za-z_][\w.,-]*:\d+:[^:\t\n]*:\S[^\t\n]*?(?:\t|[^\S\n]+)\S"),),
               explorer=("netinfo/kstat-p.out",), sampled=True),
        Output("psrinfo-pv", "psrinfo -pv", parser="info:parse_psrinfo",
               recognised_by=(Pattern(r"^The (?:\S+ )?physical processor has", re.M),)),
        Output("pkg-entire", "pkg info entire", parser="info:parse_pkg_entire", proves_family=True,
               recognised_by=(Pattern(r"^[ \t]*Name:\s*(?:pkg://\w+/)?entire\s*$", re.M),
                              Pattern(r"^[ \t]*(?:pkg://[\w.-]+/)?entire@[\d.]+(?:,[\d.]+)?-[\d.]+", re.M),  # pkg list -v
                              Pattern(r"^[ \t]*NAME \(PUBLISHER\)[ \t]+VERSION[ \t]+IFO[ \t]*\n(?:.*\n)*?"  # pkg list
                                      r"[ \t]*entire(?:[ \t]+\([\w.-]+\))?[ \t]+[\d.]+-[\d.]+[ \t]", re.M)),
               explorer=("patch+pkg/pkg_info-l.out",)),
        Output("showrev-p", "showrev -p", joinable=True, parser="info:parse_showrev", family="showrev -p", proves_family=True,
               recognised_by=(Pattern(r"\A\s*Patch:\s*\d{6}-\d{2}"),)),
        Output("dladm-show-phys", "dladm show-phys", form_of="dladm-show-phys", parser="dladm:parse_show_phys", family="dladm show-phys",
               recognised_by=(Pattern(r"^LINK\s+MEDIA\s+STATE\s+SPEED", re.M),)),
        Output("dladm-show-link", "dladm show-link"),
        Output("dladm-show-dev", "dladm show-dev", form_of="dladm-show-phys", parser="dladm:parse_show_phys",  # Solaris 10: what show-phys is on 11
               recognised_by=(Pattern(r"^\S+\s+link:\s*\S+\s+speed:\s*\d+\s*Mbps", re.M),)),
        Output("dladm-show-linkprop", "dladm show-linkprop", parser="dladm:parse_linkprop_output", given="output",
               family="dladm show-linkprop",
               recognised_by=(Pattern(r"^LINK\s+PROPERTY\s+(?:PERM\s+)?VALUE", re.M),
                              Pattern(r'^[ \t]*LINK="[^"\n]*"[ \t]+PROPERTY="', re.M),  # Solaris 10 -c
                              # the `-c -o link,property,...` form, when nothing else knew the file
                              Pattern(r"\A(?=[^:\n]+:[^:\n]+:[^:\n]*:)(?:.*\n)*?\S+:(?:mtu|cpus|rxfanout|rx-fanout|speed):",
                                      re.M, last=True))),
        # rings and groups: known, not yet read by any rule
        Output("dladm-show-phys-h", "dladm show-phys -H", form_of="dladm-show-phys",
               recognised_by=(Pattern(r"^[ \t]*LINK[ \t]+(?:RINGTYPE[ \t]+RINGS|GROUP[ \t]+TYPE[ \t]+NUM-RINGS)[ \t]+CLIENTS",
                                      re.M),)),
        Output("ipadm-show-prop-tcp", "ipadm show-prop tcp", parser="tcp_props:parse_ipadm", family="ipadm show-prop tcp",
               recognised_by=(Pattern(r"^PROTO\s+PROPERTY\s+PERM\s+CURRENT", re.M),)),
        Output("ndd-tcp", "ndd -get /dev/tcp tcp_recv_hiwat tcp_xmit_hiwat tcp_max_buf", joinable=True, parser="tcp_props:parse_ndd",
               family="ndd -get /dev/tcp", recognised_by=(Pattern(r"\A\s*tcp_\w+\s*(?:=\s*)?\d+\s*$", re.M),),
               explorer=("netinfo/ndd/tcp.out",)),
        Output("etc-system", "cat /etc/system", joinable=True, parser="etc_system:parse", family="/etc/system",
               recognised_by=(Pattern(r"^[ \t]*set\s+(?:\w+:)?\w+\s*=", re.M),), explorer=("etc/system",)),
        Output("driver-{name}", "cat /kernel/drv/{name}.conf", parser="driver_conf:parse", file="driver-{name}.conf"),
    ),
    collect=(
        Command("uname-a", "uname -a"),
        Command("release", "cat /etc/release"),
        Command("psrinfo-pv", "psrinfo -pv"),
        Command("pkg-entire", "pkg info entire"),
        Command("showrev-p", "showrev -p"),
        Command("dladm-show-phys", "dladm show-phys"),
        Command("dladm-show-dev", "dladm show-dev"),
        Command("dladm-show-linkprop", "dladm show-linkprop -c -o link,property,perm,value,effective,default,possible",
                fallback="dladm show-linkprop"),
        Command("kstat-p", "kstat -p", sampled=True),
        Command("etc-system", "cat /etc/system"),
        Command("ndd-tcp", NDD_TCP),
        Command("ipadm-show-prop-tcp", "ipadm show-prop tcp"),
        Command("driver-ixgbe", "cat /kernel/drv/ixgbe.conf"),
        Command("driver-nxge", "cat /kernel/drv/nxge.conf"),
        Command("driver-ixgbevf", "cat /kernel/drv/ixgbevf.conf"),
    ),
    lines=(("kstat", "lines:kstat"), ("dladm", "lines:dladm"), ("ipadm", "lines:ipadm"), ("ndd", "lines:ndd"),
           ("cat", "lines:shown_file"), ("more", "lines:shown_file"), ("less", "lines:shown_file"),
           ("psrinfo", "lines:psrinfo"), ("pkg", "lines:pkg"), ("showrev", "lines:patches"), ("patchadd", "lines:patches")),
    subjects=(Subject("link", "links", "link", lambda lk: f"link {lk.name}@{lk.domain}" if lk.domain else f"link {lk.name}"),),
    reads=(
        ("host.sru", "pkg info entire"),
        ("host.patches", "showrev -p"),
        ("host.solaris_minor", "pkg info entire or uname -a"),
        ("host.solaris_", "uname -a or /etc/release"),
        ("host.vcpus", "psrinfo -pv"),
        ("host.cpu_model", "psrinfo -pv"),
        ("host.system", "/etc/system"),
        ("host.tcp_lso", "kstat -p (tcp:0:tcpstat)"),
        ("host.rates", "kstat -p, two samples (advisor audit --sample 30s)"),
        ("host.tcp_recv_buf", "ndd -get /dev/tcp (Solaris 10) or ipadm show-prop tcp (Solaris 11)"),
        ("host.tcp_drift", "ipadm show-prop tcp"),
        ("host.tcp", "ndd -get /dev/tcp or ipadm show-prop tcp"),
        ("host.links", "dladm show-phys and dladm show-linkprop"),
        ("host.driver_conf", "/kernel/drv/<driver>.conf"),
        ("link.rxfanout_effective", "dladm show-linkprop (rxfanout / rx-fanout)"),
        ("link.mtu", "dladm show-linkprop (mtu)"),
        ("link.", "dladm show-phys and dladm show-linkprop"),
    ),
    record="records:SolarisHost",
    facts="facts:build",
    changes="changes",
    changed=("links", "tcp", "tcp_drift", "system", "driver_conf"),
    detected=(("sru", "sru", "SRU {}"),),
    counters="counters:tcp_counters",
)
