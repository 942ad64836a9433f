"""Which output a command line prints: `ldm ls -l ldg1`, `kstat -p | grep lso`,
`ethtool -k eth1`, `sudo /usr/sbin/ldm list -l -p` ...

The arguments carry meaning (the interface of `ethtool -k eth1`, the property
of `ndd -get`), and a pipe through grep, egrep, head or tail makes the output
partial: what it shows is read, and the filter is kept so that rules needing
what was filtered out say so.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from functools import lru_cache

FILTERS = {"grep", "egrep", "fgrep", "head", "tail", "more", "less", "sort", "cat"}
_PRIVILEGE = {"sudo", "pfexec", "doas"}


@dataclass(frozen=True)
class Command:
    command_id: str
    line: str  # as typed, without the prompt
    filtered: str | None = None  # the filter stages (`grep dring_mode`), when the output is partial
    grep: str | None = None  # the pattern of a plain grep filter
    argument: str | None = None  # ndd's properties (space-separated), ldm's domain


_ETHTOOL = {"-k": "k", "--show-features": "k", "--show-offload": "k", "-c": "c", "--show-coalesce": "c",
            "-i": "i", "--driver": "i",
            # recognised, read by no rule yet: pause, ring sizes, channels (set aside as unused)
            "-a": "a", "--show-pause": "a", "-g": "g", "--show-ring": "g", "-l": "l", "--show-channels": "l"}

def _stages(line: str) -> list[list[str]]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|;&<>")
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:  # an unbalanced quote: take the words as they are
        tokens = line.replace("|", " | ").split()
    stages: list[list[str]] = [[]]
    for tok in tokens:
        if tok in ("|", "||"):
            stages.append([])
        elif tok in (";", "&&", "&", ">", ">>", "<", "2>", "2>&1"):
            break
        else:
            stages[-1].append(tok)
    return [s for s in stages if s]


def _words(argv: list[str]) -> list[str]:
    while argv and (argv[0] in _PRIVILEGE or argv[0].startswith("-") and argv[0] in ("-n", "-E")):
        argv = argv[1:]
    if argv[:3] == ["ip", "netns", "exec"] and len(argv) > 4:  # the command run in a network namespace
        argv = argv[4:]
    if argv:
        argv = [argv[0].rsplit("/", 1)[-1], *argv[1:]]
    return argv


def _flags(args: list[str]) -> set[str]:
    """-lp and -l -p alike: the set of single-letter flags, and long options whole."""
    out: set[str] = set()
    for a in args:
        if a.startswith("--"):
            out.add(a)
        elif a.startswith("-") and len(a) > 1:
            out.update(f"-{c}" for c in a[1:])
    return out


def _plain(args: list[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def _ldm(args: list[str]) -> tuple[str | None, str | None]:
    if not args:
        return None, None
    sub, rest = args[0], args[1:]
    flags, plain = _flags(rest), _plain(rest)
    if sub in ("-V", "--version", "version"):
        return "ldm-version", None
    if sub in ("list", "ls", "list-domain", "ls-dom"):
        domain = plain[0] if len(plain) == 1 else None
        if "-p" in flags:
            return ("ldm-list-l-p" if "-l" in flags else None), domain
        if {"-o", "-e", "-S"} & flags and "-l" not in flags:
            return None, None  # chosen sections, or the short form with more columns: not read
        return ("ldm-list-l" if "-l" in flags else "ldm-list"), domain
    if sub in ("list-bindings", "ls-bindings"):  # the same sections as `ldm list -l`, with the bindings
        domain = plain[0] if len(plain) == 1 else None
        return ("ldm-list-l-p" if "-p" in flags else "ldm-list-l"), domain
    if sub in ("list-constraints", "ls-constraints"):
        domain = plain[0] if len(plain) == 1 else None
        return ("ldm-list-constraints-x" if "-x" in flags else "ldm-list-constraints-p" if "-p" in flags
                else "ldm-list-constraints"), (None if "-x" in flags else domain)
    if sub in ("list-io", "ls-io") and not {"-p", "-d"} & flags:  # -p and device properties (-d): not read
        return "ldm-list-io", None
    if sub in ("list-devices", "ls-devices"):  # -a, -p and a resource type (core, cpu, memory) all read alike
        return "ldm-list-devices", None
    return None, None


def _dladm(args: list[str]) -> tuple[str | None, bool]:
    """The command id and whether options narrow it to some links or properties."""
    if not args:
        return None, False
    sub, rest = args[0], args[1:]
    if sub != "show-linkprop" and {"-p", "-o"} & _flags(rest):
        return None, False  # parseable or chosen fields: only show-linkprop's -c -o form is read
    narrowed = bool(_plain([a for a in rest if a not in _option_values(rest)])) or "-p" in _flags(rest)
    if sub == "show-phys" and "-H" in _flags(rest):
        sub = "show-phys -H"  # the rings and groups of each link, not its speed
    ids = {"show-phys": "dladm-show-phys", "show-link": "dladm-show-link", "show-dev": "dladm-show-dev",
           "show-linkprop": "dladm-show-linkprop", "show-phys -H": "dladm-show-phys-h"}
    return ids.get(sub), narrowed


def _option_values(args: list[str]) -> set[str]:
    """Values given to options that take one (-p PROP, -o FIELDS)."""
    values: set[str] = set()
    for i, a in enumerate(args[:-1]):
        if a in ("-p", "-o", "-P", "-c", "-A", "-I", "-S") or (a.startswith("-") and a[-1] in "po" and len(a) > 2):
            values.add(args[i + 1])
    return values


def _interface(args: list[str], option: str) -> str | None:
    for i, a in enumerate(args[:-1]):
        if a == option:
            return args[i + 1]
    return None


@lru_cache(maxsize=4096)  # a pasted session repeats its commands; each line is asked about more than once
def identify_command(line: str) -> Command | None:
    stages = _stages(line)
    if not stages:
        return None
    argv = _words(stages[0])
    if not argv:
        return None
    cmd, args = argv[0], argv[1:]
    flags = _flags(args)
    cid: str | None = None
    narrowed = False
    argument = None
    if cmd == "ldm":
        cid, argument = _ldm(args)
        narrowed = argument is not None and cid != "ldm-list-devices"  # one domain of several
    elif cmd == "kstat":
        cid = "kstat-p" if "-p" in flags else None
        narrowed = bool(_plain(args)) or bool({"-m", "-i", "-n", "-s", "-c"} & flags)
    elif cmd == "dladm":
        cid, narrowed = _dladm(args)
    elif cmd == "ipadm" and args[:1] == ["show-prop"] and "tcp" in args:
        cid, narrowed = "ipadm-show-prop-tcp", "-p" in flags
    elif cmd == "ndd" and "/dev/tcp" in args and "?" not in args and "\\?" not in args:  # `?` lists names
        props = [a for a in _plain(args) if a != "/dev/tcp"]
        cid, argument = "ndd-tcp", " ".join(props) or None
    elif cmd in ("cat", "more", "less") and args:
        cid = {"/etc/system": "etc-system", "/etc/release": "release", "/etc/os-release": "release",
               "/etc/*release": "release", "/etc/*-release": "release"}.get(args[-1])
        if m := re.fullmatch(r"/kernel/drv/(\w+)\.conf", args[-1]):
            cid = f"driver-{m.group(1)}"
    elif cmd == "virtinfo" and ("-a" in flags or "-p" in flags):  # plain virtinfo lists environments
        cid = "virtinfo"
    elif cmd == "psrinfo" and {"-p", "-v"} <= flags:
        cid = "psrinfo-pv"
    elif cmd == "pkg" and args[:1] in (["info"], ["list"]) and "entire" in args:  # list: the FMRI or a table row
        cid = "pkg-entire"
    elif (cmd == "showrev" or cmd == "patchadd") and "-p" in flags:
        cid = "showrev-p"  # patchadd -p prints the same Patch: lines
    elif cmd == "uname" and "-a" in flags:
        cid = "uname-a"
    elif cmd in ("xm", "xl") and args:
        cid = {"vcpu-list": f"{cmd}-vcpu-list", "info": f"{cmd}-info", "list": f"{cmd}-list",
               "li": f"{cmd}-list"}.get(args[0])
        narrowed = cid is not None and cid.endswith("vcpu-list") and len(args) > 1
        if cid is not None and cid.endswith("info") and len(_plain(args[1:])) == 1:
            narrowed, argument = True, _plain(args[1:])[0]  # `xl info nr_cpus` prints that field's value alone
    elif cmd == "brctl" and args[:1] == ["show"]:
        cid, narrowed = "brctl-show", len(args) > 1
    elif cmd == "ip" and ("link" in args[:3] or "l" in args[:1]):
        cid, narrowed = "ip-link", "dev" in args or len(_plain(args)) > 2
    elif cmd == "ethtool" and len(args) == 2 and args[0] in _ETHTOOL:
        cid = f"ethtool-{_ETHTOOL[args[0]]}@{args[1]}"
    elif cmd == "sysctl":
        cid, narrowed = "sysctl-net", "-a" not in flags
    elif cmd == "lspci" and "-vv" in args or (cmd == "lspci" and "-vvv" in args):
        cid, narrowed = "lspci-vv", "-s" in flags or "-d" in flags
    elif cmd == "lanscan":
        cid = "lanscan-v" if "-v" in flags else "lanscan-iap" if {"-a", "-i", "-p"} & flags else "lanscan"
    elif cmd == "nwmgr":
        cid = _nwmgr(args, flags)
    elif cmd == "lanadmin" and len(args) >= 3 and args[0] == "-x" and args[1] == "vmtu":
        cid = f"lanadmin-vmtu@{args[2]}"
    elif cmd == "lanadmin" and len(args) >= 2 and args[0] == "-g" and args[1:-1] in ([], ["mibstats"]):
        cid = f"lanadmin-g@{args[-1]}"
    elif cmd == "lanadmin" and len(args) == 3 and args[0] == "-x" and args[1] in ("-i", "-v", "-m"):
        cid = f"lanadmin-apa@{args[2]}"  # HP APA's displays: one aggregate's ports (-i, -v), every aggregate's (-m)
    if cid is None:
        cid = _of_a_pack(cmd, args)
    if cid is None:
        return None
    filters = stages[1:]
    grep = None
    if filters:
        names = [_words(s)[0] if _words(s) else "" for s in filters]
        if any(n not in FILTERS for n in names):
            return None  # piped into something else: its output is not this command's
        if len(filters) == 1 and names[0] in ("grep", "egrep", "fgrep"):
            words = [w for w in filters[0][1:] if not w.startswith("-")]
            grep = words[0] if words else None
        narrowed = True
    shown = " | ".join(" ".join(s) for s in filters) or None
    if narrowed and shown is None:
        shown = " ".join(argv)
    return Command(cid, line.strip(), shown if narrowed else None, grep, argument)


def _of_a_pack(cmd: str, args: list[str]) -> str | None:
    """The output a pack says a command line of its tool prints (Pack.lines)."""
    from advisor import platforms

    for p in platforms.packs():
        for tool, ref in p.lines:
            if tool == cmd and (cid := platforms.load(p, ref)(args)) is not None:
                return str(cid)
    return None


def _nwmgr(args: list[str], flags: set[str]) -> str | None:
    card = _interface(args, "-c")
    if card is None and _interface(args, "-S") == "apa" and (instance := _interface(args, "-I")):
        card = f"lan{instance}"  # an APA aggregate by its instance number
    if not args or (card is None and set(args) <= {"-g", "--get"}):  # the interface listing
        return "nwmgr"
    if "-s" in flags or "--set" in args or "--sa" in args:
        return None
    attrs = _interface(args, "-A")
    if card and attrs == "vmtu":
        return f"nwmgr-vmtu@{card}"
    if card and (attrs or "-v" in flags):  # -g (get) is the default action
        return f"nwmgr-attrs@{card}"
    if _interface(args, "-S") == "apa" and set(args) - {_interface(args, "-I")} <= {"-g", "--get", "-S", "apa", "-I"}:
        return "nwmgr-apa"  # the APA table: every aggregate, or the one -I names
    return None
