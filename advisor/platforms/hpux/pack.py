"""HP-UX 11i: LAN interfaces and APA aggregates, TSO and checksum offload, MTU."""

import re

from advisor.platform_spec import Command, Family, Loop, Output, Pack, Pattern, Subject

# nwmgr is 11i v3's: its commands stop at once elsewhere (v1/v2 take the lanadmin fallback).
_V3_ONLY = "[ `uname -r` = B.11.31 ] || exit 1; "


def _each_lan(command: str) -> Loop:
    """Over the lanN interfaces lanscan lists, on 11i v3 only."""
    return Loop("lanscan -i | awk '{print $1}'", f"{command} -c $i", guard=_V3_ONLY)


PACK = Pack(
    name="hpux",
    title="HP-UX 11i",
    family=Family("hpux", uname="HP-UX", reboot="shutdown -r -y 0", path=("/usr/contrib/bin",)),  # gzip on some installs
    outputs=(
        Output("lanscan-v", "lanscan -v", parser="lan:parse_lanscan_v", family="lanscan",
               recognised_by=(Pattern(r"\A\s*-{20,}\s*\nHardware Station"),)),
        Output("lanscan", "lanscan; lanscan -q", parser="lan:parse_lanscan", family="lanscan",
               recognised_by=(Pattern(r"\A\s*Hardware Station\s+Crd\s+Hdw"),
                              # `lanscan -q` alone: PPA numbers only, one interface a line; an aggregate's line
                              # (lan900 and up) lists its members after it, and is what tells this from other numbers
                              Pattern(r"\A(?=(?>[ \t]*(?:\d+(?:[ \t]+\d+)*[ \t]*)?(?:\n|\Z))*+\Z)"  # numbers only
                                      r"(?>[^\n]*\n)*?[ \t]*9\d\d(?:[ \t]+\d{1,3})+[ \t]*(?:\n|\Z)"))),
        Output("lanscan-iap", "lanscan -iap", parser="lan:parse_lanscan_iap", family="lanscan",
               recognised_by=(Pattern(r"\A\s*(?:0x[0-9A-Fa-f]{12}[ \t]+)?lan\d+(?:[ \t]+snap\d+)?(?:[ \t]+\d+)?[ \t]*$",
                                      re.M),)),
        Output("nwmgr-apa", "nwmgr -S apa", parser="lan:parse_nwmgr_apa", family="nwmgr -S apa",
               recognised_by=(Pattern(r"^[ \t]*Class[ \t][^\n]*\n[ \t]*Instance[ \t][^\n]*\n[ \t]*=+(?:[ \t]+=+){3,}[ \t]*\n"
                                      r"[ \t]*lan\d+[ \t]", re.M),)),
        Output("nwmgr", "nwmgr", parser="lan:parse_nwmgr_list", family="nwmgr",
               recognised_by=(Pattern(r"^[ \t]*=+(?:[ \t]+=+){3,}[ \t]*\n[ \t]*[a-z]+\d+\s+\S+\s+0x[0-9A-Fa-f]+\s", re.M),)),
        Output("nwmgr-attrs", "nwmgr -g -A all", parser="lan:parse_nwmgr_attrs", family="nwmgr -g -A all", per_item=True,
               recognised_by=(Pattern(r"\A\s*(lan\d+) current values\s*:?\s*$", re.M),)),
        Output("nwmgr-vmtu", "nwmgr -g -A vmtu", parser="lan:parse_vmtu", family="nwmgr -g -A vmtu", per_item=True),
        Output("lanadmin-vmtu", "lanadmin -x vmtu", parser="lan:parse_vmtu", family="lanadmin -x vmtu", per_item=True),
        Output("lanadmin-g", "lanadmin -g", parser="lan:parse_lanadmin_mib_output", given="output",
               family="lanadmin -g", per_item=True, sampled=True,
               recognised_by=(Pattern(r"^[ \t]*LAN INTERFACE STATUS DISPLAY[ \t]*\n(?:[^\n]*\n){0,4}?[ \t]*PPA Number[ \t]*=[ \t]*"
                                      r"(\d+)", re.M),)),
        Output("lanadmin-apa", "lanadmin -x -i", parser="lan:parse_lanadmin_apa", family="lanadmin -x -i", per_item=True,
               recognised_by=(Pattern(r"^[ \t]*(?:Link Aggregate PPA #|\[0\] ppa)[ \t]*:[ \t]*(\d+)[ \t]*$", re.M),)),
    ),
    collect=(
        Command("uname-a", "uname -a"),
        Command("lanscan", "lanscan; lanscan -q"),
        Command("lanscan-v", "lanscan -v"),
        Command("nwmgr", f"{_V3_ONLY}nwmgr"),
        Command.each("nwmgr-vmtu", _each_lan("nwmgr -g -A vmtu"),
                     fallback=Loop("lanscan -p", "lanadmin -x vmtu $i"), fallback_id="lanadmin-vmtu"),
        Command.each("nwmgr-attrs", _each_lan("nwmgr -g -A all")),  # speed, link state, checksum offload
        # MIB-II counters per PPA, read twice with --sample for rates (issue #29)
        Command.each("lanadmin-g", Loop("lanscan -p", "lanadmin -g $i"), sampled=True),
    ),
    lines=(("lanscan", "lines:lanscan"), ("nwmgr", "lines:nwmgr"), ("lanadmin", "lines:lanadmin")),
    subjects=(Subject("lan", "lan_interfaces", "interface", lambda lan: f"interface {lan.name}"),),
    reads=(
        ("host.lan_interfaces", "lanscan; lanscan -q (or nwmgr on 11i v3)"),
        ("host.hpux_release", "uname -a"),
        ("lan.driver", "lanscan -v (or nwmgr on 11i v3)"),
        ("lan.vmtu", "nwmgr -g -A vmtu -c lanN (11i v3) or lanadmin -x vmtu PPA"),
        ("lan.tso_supported", "lanscan -v (the driver) or nwmgr -g -A vmtu -c lanN (11i v3)"),
        ("lan.members", "lanscan -q (or lanadmin -x -i PPA, nwmgr -S apa -I PPA -v)"),
        ("lan.speed_mbps", "nwmgr -g -A all -c lanN (11i v3) or lanadmin -g PPA"),
        ("lan.tx_cko", "nwmgr -g -A all -c lanN (11i v3)"),
        ("host.rates", "lanadmin -g PPA of each interface, two samples (advisor audit --sample 30s)"),
        ("lan.", "lanscan; lanscan -q"),
    ),
    facts="facts:build",
    record="records:HpuxHost",
    changes="changes",
    changed=("lan_interfaces",),
)
