"""One parser module per command family; this table says which reads what."""

from __future__ import annotations

from typing import Any, Callable

from advisor.collect.capture import RawOutput
from advisor.plans import constraints_xml, yaml_plan
from advisor.parsers import (dladm, driver_conf, etc_system, hpux, ldm_list, ldm_parseable, linux_net, solaris_info,
                             tcp_props, xen)

Parser = Callable[[RawOutput], Any]

PARSERS: dict[str, Parser] = {
    "uname-a": lambda o: solaris_info.parse_uname(o.text()),
    "release": lambda o: solaris_info.parse_release(o.text()),
    "virtinfo": lambda o: solaris_info.parse_virtinfo(o.text()),
    "psrinfo-pv": lambda o: solaris_info.parse_psrinfo(o.text()),
    "pkg-entire": lambda o: solaris_info.parse_pkg_entire(o.text()),
    "showrev-p": lambda o: solaris_info.parse_showrev(o.text()),
    "ldm-version": lambda o: solaris_info.parse_ldm_version(o.text()),
    "ldm-list-l": lambda o: ldm_list.parse(o.text()),
    "ldm-list-l-p": lambda o: ldm_parseable.parse(o.text()),
    "dladm-show-phys": lambda o: dladm.parse_show_phys(o.text()),
    "dladm-show-dev": lambda o: dladm.parse_show_phys(o.text()),
    "dladm-show-linkprop": lambda o: dladm.parse_show_linkprop(o.text(), o.command),
    "etc-system": lambda o: etc_system.parse(o.text()),
    "ndd-tcp": lambda o: tcp_props.parse_ndd(o.text()),
    "ipadm-show-prop-tcp": lambda o: tcp_props.parse_ipadm(o.text()),
    "xl-vcpu-list": lambda o: xen.parse_vcpu_list(o.text()),
    "xm-vcpu-list": lambda o: xen.parse_vcpu_list(o.text()),
    "xl-info": lambda o: xen.parse_info(o.text()),
    "xm-info": lambda o: xen.parse_info(o.text()),
    "xl-list": lambda o: xen.parse_list(o.text()),
    "xm-list": lambda o: xen.parse_list(o.text()),
    "brctl-show": lambda o: linux_net.parse_brctl(o.text()),
    "ip-link": lambda o: linux_net.parse_ip_link(o.text()),
    "ethtool-k": lambda o: linux_net.parse_ethtool_k(o.text()),
    "ethtool-c": lambda o: linux_net.parse_ethtool_c(o.text()),
    "sysctl-net": lambda o: linux_net.parse_sysctl(o.text()),
    "lspci-vv": lambda o: linux_net.parse_lspci(o.text()),
    "lanscan": lambda o: hpux.parse_lanscan(o.text()),
    "lanscan-v": lambda o: hpux.parse_lanscan_v(o.text()),
    "nwmgr-vmtu": lambda o: hpux.parse_vmtu(o.text()),
    "nwmgr": lambda o: hpux.parse_nwmgr_list(o.text()),
    "nwmgr-attrs": lambda o: hpux.parse_nwmgr_attrs(o.text()),
    "plan": lambda o: yaml_plan.parse(o.text(), o.file, o.path.parent),
    "ldm-list-constraints-x": lambda o: constraints_xml.parse(o.text(), o.file),
    "lanadmin-vmtu": lambda o: hpux.parse_vmtu(o.text()),
}


def parser_for(command_id: str) -> Parser | None:
    """`ethtool-k@eth0` is read by the ethtool-k parser."""
    if command_id.startswith("driver-"):
        return lambda o: driver_conf.parse(o.text())
    return PARSERS.get(command_id.split("@", 1)[0])
