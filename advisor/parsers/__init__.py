"""One parser module per command family; this table says which reads what.

A parser's module is imported the first time an output of its family is read:
a review of a Solaris bundle never loads the HP-UX or Xen parsers."""

from __future__ import annotations

import importlib
from typing import Any, Callable

from advisor.collect.capture import RawOutput

Parser = Callable[[RawOutput], Any]


def _text(module: str, function: str) -> Parser:
    """A parser of the output's text alone: `module.function(text)`."""
    def parse(output: RawOutput) -> Any:
        return getattr(importlib.import_module(f"advisor.parsers.{module}"), function)(output.text())

    parse.__qualname__ = f"{module}.{function}"
    return parse


def _raw(module: str, function: str) -> Parser:
    """A parser that reads the output with its command line: `module.function(output)`."""
    def parse(output: RawOutput) -> Any:
        return getattr(importlib.import_module(f"advisor.parsers.{module}"), function)(output)

    parse.__qualname__ = f"{module}.{function}"
    return parse


def _linkprop(o: RawOutput) -> Any:
    from advisor.parsers import dladm

    return dladm.parse_show_linkprop(o.text(), o.command)


def _plan(o: RawOutput) -> Any:
    from advisor.plans import yaml_plan

    return yaml_plan.parse(o.text(), o.file, o.path.parent)


def _constraints(o: RawOutput) -> Any:
    from advisor.plans import constraints_xml

    return constraints_xml.parse(o.text(), o.file)


PARSERS: dict[str, Parser] = {
    "uname-a": _text("solaris_info", "parse_uname"),
    "release": _text("solaris_info", "parse_release"),
    "virtinfo": _text("solaris_info", "parse_virtinfo"),
    "psrinfo-pv": _text("solaris_info", "parse_psrinfo"),
    "pkg-entire": _text("solaris_info", "parse_pkg_entire"),
    "showrev-p": _text("solaris_info", "parse_showrev"),
    "ldm-version": _text("solaris_info", "parse_ldm_version"),
    "ldm-list-l": _raw("ldm_list", "parse_output"),
    "ldm-list": _raw("ldm_list", "parse_output"),
    "ldm-list-constraints": _raw("ldm_list", "parse_constraints"),
    "ldm-list-constraints-p": _text("ldm_parseable", "parse_constraints"),
    "ldm-list-io": _text("ldm_io", "parse"),
    "ldm-list-l-p": _text("ldm_parseable", "parse"),
    "ldm-list-devices": _text("ldm_devices", "parse"),
    "dladm-show-phys": _text("dladm", "parse_show_phys"),
    "dladm-show-dev": _text("dladm", "parse_show_phys"),
    "dladm-show-linkprop": _linkprop,
    "etc-system": _text("etc_system", "parse"),
    "ndd-tcp": _text("tcp_props", "parse_ndd"),
    "ipadm-show-prop-tcp": _text("tcp_props", "parse_ipadm"),
    "xl-vcpu-list": _text("xen", "parse_vcpu_list"),
    "xm-vcpu-list": _text("xen", "parse_vcpu_list"),
    "xl-info": _text("xen", "parse_info"),
    "xm-info": _text("xen", "parse_info"),
    "xl-list": _text("xen", "parse_list"),
    "xm-list": _text("xen", "parse_list"),
    "brctl-show": _text("linux_net", "parse_brctl"),
    "ip-link": _text("linux_net", "parse_ip_link"),
    "ethtool-k": _text("linux_net", "parse_ethtool_k"),
    "ethtool-i": _text("linux_net", "parse_ethtool_i"),
    "ethtool-c": _text("linux_net", "parse_ethtool_c"),
    "sysctl-net": _text("linux_net", "parse_sysctl"),
    "lspci-vv": _text("linux_net", "parse_lspci"),
    "lanscan": _text("hpux", "parse_lanscan"),
    "lanscan-v": _text("hpux", "parse_lanscan_v"),
    "lanscan-iap": _text("hpux", "parse_lanscan_iap"),
    "lanadmin-g": _text("hpux", "parse_lanadmin_mib"),
    "lanadmin-apa": _text("hpux", "parse_lanadmin_apa"),
    "nwmgr-apa": _text("hpux", "parse_nwmgr_apa"),
    "nwmgr-vmtu": _text("hpux", "parse_vmtu"),
    "nwmgr": _text("hpux", "parse_nwmgr_list"),
    "nwmgr-attrs": _text("hpux", "parse_nwmgr_attrs"),
    "plan": _plan,
    "ldm-list-constraints-x": _constraints,
    "lanadmin-vmtu": _text("hpux", "parse_vmtu"),
}


def parser_for(command_id: str) -> Parser | None:
    """`ethtool-k@eth0` is read by the ethtool-k parser."""
    if command_id.startswith("driver-"):
        return _text("driver_conf", "parse")
    return PARSERS.get(command_id.split("@", 1)[0])
