"""What any Unix host says of itself: `uname -a` and its release file. Every
family collects them; the family a host belongs to is read from them first."""

import re

from advisor.platform_spec import Output, Pack, Pattern

PACK = Pack(
    name="unix",
    title="Any Unix host",
    outputs=(
        Output("uname-a", "uname -a", parser="identity:parse_uname",
               recognised_by=(Pattern(r"\A\s*SunOS\s+\S+\s+5\.\d+\s"), Pattern(r"\A\s*(?:Linux|HP-UX)\s+\S+\s+\S+")),
               sosreport=("sos_commands/kernel/uname_-a",)),
        Output("release", "cat /etc/release", parser="identity:parse_release",
               recognised_by=(Pattern(r"\A\s*(?:(?:Oracle\s+)?Solaris\s+\d+|OpenSolaris\s+20|OpenIndiana\s)"),
                              Pattern(r"^(?:NAME|PRETTY_NAME)=", re.M)),
               sosreport=("etc/os-release",)),
    ),
    lines=(("uname", "lines:uname"), ("cat", "lines:shown_file"), ("more", "lines:shown_file"), ("less", "lines:shown_file")),
    reads=(
        ("host.arch", "uname -a or /etc/release"),
    ),
    facts="facts:identify",
    rules=False,
)
