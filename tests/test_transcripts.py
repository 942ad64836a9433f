"""Pasted terminal sessions, mails and mangled copies read as well as bundles."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from advisor.collect.command_line import identify_command
from advisor import platform_registry as platforms
from advisor.collect.commands import commands
from conftest import CAPTURES, examples, review, run_cli

BUNDLES = sorted(p for p in CAPTURES.iterdir() if p.is_dir() and not p.name.startswith("sosreport"))


def _command(cid: str) -> str:
    base, _, item = cid.partition("@")
    special = {"ethtool-k": f"ethtool -k {item}", "ethtool-c": f"ethtool -c {item}", "ethtool-i": f"ethtool -i {item}",
               "nwmgr-vmtu": f"nwmgr -g -A vmtu -c {item}", "nwmgr-attrs": f"nwmgr -g -A all -c {item}",
               "lanadmin-vmtu": f"lanadmin -x vmtu {item}", "lanscan": "lanscan", "sysctl-net": "sysctl -a",
               "release": "cat /etc/release"}
    if base.startswith("driver-"):
        return f"cat /kernel/drv/{base[len('driver-'):]}.conf"
    if base not in special and item:  # a per-domain or per-interface output names its item last: virsh vcpupin web1
        return f"{platforms.outputs()[base].output.line} {item}"
    return special.get(base) or commands()[base]


def _transcript(bundle: Path, host: str) -> str:
    """The bundle as an administrator's terminal session on that host."""
    from advisor.collect.offline import Loader

    with Loader() as loader:
        [capture] = loader.load(bundle)
    out: list[str] = []
    for cid, output in capture.outputs.items():
        if cid == "ndd-tcp":
            for line in output.text().splitlines():
                name, value = line.replace("=", " ").split()
                out += [f"root@{host}:~# ndd -get /dev/tcp {name}", value]
            continue
        out += [f"root@{host}:~# {_command(cid)}", *output.text().rstrip("\n").split("\n")]
    return "\n".join(out) + "\n"


def _findings(report) -> set[tuple]:
    return {(f.rule, f.subject, f.severity.value, f.observed, f.message) for h in report.hosts for f in h.findings}


@pytest.mark.parametrize("bundle", BUNDLES, ids=lambda p: p.name)
def test_a_bundle_pasted_as_a_session_gives_the_same_findings(tmp_path: Path, bundle: Path) -> None:
    host = bundle.name
    pasted = tmp_path / "session.txt"
    pasted.write_text(_transcript(bundle, host))
    from_bundle, from_paste = review(bundle), review(pasted)
    assert [h.host for h in from_paste.hosts] == [host]
    assert from_paste.hosts[0].errors == []
    assert _findings(from_paste) == _findings(from_bundle)


@pytest.mark.parametrize("prompt", [
    "root@t5:~# ", "t5# ", "# ", "$ ", "bash-3.2# ", "-bash-4.1$ ", "[root@t5 OVS]# ", "t5:/root # ",
    "{0} root@t5:/ # ", "example$ ", "\x1b[01;32mroot@t5\x1b[00m:\x1b[01;34m~\x1b[00m# "])
def test_prompts_in_the_wild(tmp_path: Path, prompt: str) -> None:
    paste = tmp_path / "p.txt"
    paste.write_text(f"Hello, here is the output.\n\n{prompt}ldm -V\nLogical Domains Manager (v 3.0.0.2)\n"
                     f"{prompt}kstat -p | grep dring_mode\nvnet:0:vnetldc0x0:dring_mode\t1\n")
    [host] = review(paste).hosts
    assert host.errors == []
    assert {f.rule for f in host.findings} >= {"ldoms.dring-mode"}
    assert host.skipped[0] == "line 1: not command output (text around the commands)"


def test_mail_quoting_crlf_colour_backspaces_and_double_spacing(tmp_path: Path) -> None:
    body = ["primary# ldm -V", "Logical Domains Manager (v 3.0.0.2)", "primary# kstat -p | grep dring_mode",
            "vnet:0:vnetldc0x0:dring_mode\t1", "vnet:0:vnetldc0x3:dring_mode\t4"]
    plain = review(_write(tmp_path / "plain.txt", "\n".join(body) + "\n"))
    mangled = ["> > " + line for line in body]
    mangled[0] = "> > p\bpr\bri\bim\bma\bar\bry\by# \x1b[1mldm\x1b[0m -V"  # man-style bold, colour
    text = "\r\n\r\n".join(mangled) + "\r\n"
    quoted = review(_write(tmp_path / "mail.txt", "On Monday you wrote:\r\n" + text))
    assert _findings(quoted) == _findings(plain) and _findings(plain)
    indented = review(_write(tmp_path / "indented.txt", "".join(f"    {line}\n" for line in body)))
    assert _findings(indented) == _findings(plain)


def _write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode())
    return path


def test_two_hosts_in_one_file_are_two_reports(tmp_path: Path) -> None:
    paste = _write(tmp_path / "two.txt", "t5a# ldm -V\nLogical Domains Manager (v 3.0.0.2)\n"
                                         "t5b# ldm -V\nLogical Domains Manager (v 3.4.0.3)\n")
    report = review(paste)
    assert [h.host for h in report.hosts] == ["t5a", "t5b"]
    assert [h.detected.ldm_version for h in report.hosts] == ["3.0.0.2", "3.4.0.3"]


def test_a_filtered_output_judges_what_it_shows_and_never_passes_by_omission(tmp_path: Path) -> None:
    enough = review(_write(tmp_path / "a.txt", "# kstat -p | grep dring_mode\nvnet:0:vnetldc0x0:dring_mode\t4\n"))
    statuses = {r.status for r in enough.hosts[0].results if r.rule == "ldoms.dring-mode"}
    assert statuses == {"pass"}
    narrow = review(_write(tmp_path / "b.txt", "# kstat -p | grep vnetldc0x0\nvnet:0:vnetldc0x0:dring_mode\t4\n"))
    [result] = [r for r in narrow.hosts[0].results if r.rule == "ldoms.dring-mode"]
    assert result.status == "unknown" and result.missing == ["kstat -p"]
    assert "filtered (`kstat -p | grep vnetldc0x0`)" in (result.reason or "")
    failing = review(_write(tmp_path / "c.txt", "# kstat -p | grep vnetldc0x0\nvnet:0:vnetldc0x0:dring_mode\t1\n"))
    assert [f.rule for f in failing.hosts[0].findings] == ["ldoms.dring-mode"]  # what it shows still fails


def test_a_segment_that_cannot_be_read_is_named_and_the_rest_is_reported(tmp_path: Path) -> None:
    paste = _write(tmp_path / "t.txt", "primary# ldm -V\nLogical Domains Manager (v 3.0.0.2)\n"
                                       "primary# ldm list -l\nthis is not a listing\nat all\n"
                                       "primary# kstat -p | grep dring_mode\nvnet:0:vnetldc0x0:dring_mode\t1\n")
    res = run_cli("review", str(paste))
    assert res.returncode == 2
    [line] = [ln for ln in res.stderr.splitlines() if "t.txt" in ln]
    assert line.startswith(f"advisor: {paste}:4") and "(lines 3-5: `ldm list -l`)" in line
    assert "ldoms.dring-mode" in res.stdout and "ldoms.software-level" in res.stdout
    assert "Traceback" not in res.stderr


def test_evidence_names_the_line_of_the_pasted_file(tmp_path: Path) -> None:
    paste = _write(tmp_path / "t.txt", "Hi,\n\n# ldm -V\nLogical Domains Manager (v 3.0.0.2)\n")
    [finding] = [f for f in review(paste).hosts[0].findings if f.rule == "ldoms.software-level"]
    assert finding.evidence == [f"{paste}:4"]


def test_a_bundle_file_holds_another_form_of_its_command(tmp_path: Path) -> None:
    bundle = tmp_path / "t5"
    shutil.copytree(CAPTURES / "t5-primary-tuned", bundle)
    (bundle / "ldm-list-l-p.txt").rename(bundle / "ldm-list-l.txt")  # the parseable form under the human form's name
    assert _findings(review(bundle)) == _findings(review(CAPTURES / "t5-primary-tuned"))
    [host] = review(bundle).hosts
    assert host.errors == [] and host.status == "clean"


@pytest.mark.parametrize("line, cid, filtered", [
    ("ldm ls -l ldg1", "ldm-list-l", "ldm ls -l ldg1"),  # one domain of several: partial
    ("ldm list -l -p", "ldm-list-l-p", None),
    ("sudo /usr/sbin/ldm ls-bindings -e", "ldm-list-l", None),  # the sections of ldm list -l
    ("dladm show-linkprop -p cpus net0", "dladm-show-linkprop", "dladm show-linkprop -p cpus net0"),
    ("ndd -get /dev/tcp tcp_recv_hiwat", "ndd-tcp", None),
    ("ethtool -k eth1", "ethtool-k@eth1", None),
    ("nwmgr -g -A vmtu -c lan0", "nwmgr-vmtu@lan0", None),
    ("lanscan -v", "lanscan-v", None),
    ("kstat -p|grep lso", "kstat-p", "grep lso"),
    ("kstat -p | egrep 'dring|lso' | head -20", "kstat-p", "egrep dring|lso | head -20"),
    ("pfexec kstat -p vnet:::dring_mode", "kstat-p", "kstat -p vnet:::dring_mode"),
])
def test_the_command_line_says_what_printed_it(line: str, cid: str, filtered: str | None) -> None:
    cmd = identify_command(line)
    assert cmd is not None and cmd.command_id == cid and cmd.filtered == filtered


def test_a_line_naming_the_command_before_its_output(tmp_path: Path) -> None:
    """Report scripts and mails name a command on a line of its own (`Output from
    /etc/lanscan -v:`); a label naming anything else stays text around the outputs."""
    paste = _write(tmp_path / "t.txt", "Output from my health script:\nall good\n\n"
                                       "Output from uname -a:\nSunOS db1 5.10 Generic_147147-26 sun4v sparc\n\n"
                                       "output of `kstat -p | grep dring_mode` :\nvnet:0:vnetldc0x0:dring_mode\t1\n")
    [host] = review(paste).hosts
    assert host.host == "db1" and host.errors == []
    assert [f.rule for f in host.findings] == ["ldoms.dring-mode"]
    assert host.skipped == ["lines 1-2: not command output (text around the commands)"]


def test_one_ndd_call_naming_several_parameters(tmp_path: Path) -> None:
    """ndd prints each value alone, in the order named, a blank line between
    (as Oracle's Grid Infrastructure guide for Solaris shows); a count that does
    not match is not guessed at."""
    from advisor.collect import origins
    from advisor.collect.offline import Loader
    from advisor.facts.build import build

    paste = _write(tmp_path / "t.txt", "# uname -a\nSunOS db1 5.10 Generic_147147-26 sun4v sparc\n"
                                       "# /usr/sbin/ndd -get /dev/tcp tcp_recv_hiwat tcp_max_buf\n\n400000\n\n1048576\n")
    with Loader() as loader:
        [capture] = loader.load(paste)
        facts = build(capture).facts
    assert facts.tcp is not None
    assert (facts.tcp["tcp_recv_hiwat"].current, facts.tcp["tcp_max_buf"].current) == ("400000", "1048576")
    assert facts.tcp_recv_buf == 400000
    assert origins.locate_evidence(facts.evidence["tcp_recv_buf"], capture.origins) == f"{paste}:5"
    short = _write(tmp_path / "short.txt", "# uname -a\nSunOS db1 5.10 Generic_147147-26 sun4v sparc\n"
                                           "# ndd -get /dev/tcp tcp_recv_hiwat tcp_max_buf\n400000\n")
    res = run_cli("review", str(short))
    assert res.returncode == 2 and f"advisor: {short}:4" in res.stderr and "Traceback" not in res.stderr


def test_commands_advisor_does_not_read_are_skipped(tmp_path: Path) -> None:
    paste = _write(tmp_path / "t.txt", "# hostname\nt5\n# ldm -V\nLogical Domains Manager (v 3.0.0.2)\n"
                                       "# ldm -V | wc -l\n5\n")
    [host] = review(paste).hosts
    assert host.errors == [] and host.detected.ldm_version == "3.0.0.2"
    assert not any("hostname" in s for s in host.skipped)  # a bare `# hostname` is not taken for a prompt


from hypothesis import given, settings, strategies as st  # noqa: E402

_PIECES = st.sampled_from(["primary# ", "# ", "$ ", "> ", "| ", "\r", "\x1b[1m", "\b", "\t", "  ", "\n", "ldm -V",
                           "kstat -p | grep ", "dring_mode", "ethtool -k ", "eth0", "ndd -get /dev/tcp x", "'", '"',
                           "vnet:0:vnetldc0x0:dring_mode\t1", "Logical Domains Manager (v 3.0)", "Script started on"])


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=40))
def test_splitting_never_raises_on_arbitrary_text(parts: list[str]) -> None:
    from advisor.collect import transcript

    text = "".join(parts)
    found = transcript.split(text)
    if found is not None:
        for seg in found.segments:
            assert seg.command.command_id and seg.prompt_line >= 1
            assert all(ln.number >= seg.prompt_line for ln in seg.lines)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=80))
def test_command_lines_never_raise(line: str) -> None:
    identify_command(line)


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_a_mutated_pasted_session_never_raises(tmp_path_factory, data) -> None:
    """Lines dropped, duplicated, quoted or cut anywhere in a real session: one
    report, errors as lines, never an exception."""
    lines = _transcript(CAPTURES / "t5-primary-untuned", "t5").split("\n")
    for _ in range(data.draw(st.integers(0, 6))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "quote", "cut", "prompt"]))
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "quote":
            lines[i] = "> " + lines[i]
        elif op == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, max(0, len(lines[i]))))]
        else:
            lines.insert(i, "t6# ldm list -l")
    path = tmp_path_factory.mktemp("m") / "paste.txt"
    path.write_text("\n".join(lines))
    report = review(path)
    assert report.hosts and all(isinstance(e, str) for h in report.hosts for e in h.errors)


@pytest.mark.parametrize("text", [
    "cpu_info:0:cpu_info0:cpu_fru\thc:///component=\ncpu_info:0:cpu_info0:cpu_type\tsparcv9\n"
    "cpu_info:1:cpu_info1:cpu_fru\thc:///component=\ncpu_info:1:cpu_info1:cpu_type\tsparcv9\n",
    "primary# ldm set-vsw mtu=9000 primary-vsw0\nprimary# ldm set-vnet mtu=9000 vnet0 ldg1\n",
    "net.ipv4.tcp_rmem = 4096 87380 6291456\nnet.ipv4.ip_local_reserved_ports =\nnet.core.somaxconn = 128\n",
    "DOMAIN|name=ldg1|state=inactive|flags=|cons=|ncpu=|mem=|util=|uptime=\n|pid=8|free=100|pm=\n",
    "======== ====== ============ =========== ========= ==========\nlan900 UP 0x001A4B06E90C hp_apa 1500\n",
    "timeout=20 retries=3D\nfoo=C0FFEE\n",
])
def test_text_with_equals_signs_is_not_taken_for_quoted_printable(text: str) -> None:
    from advisor.collect.cleanup import clean

    assert [ln.text for ln in clean(text)] == [t.rstrip() for t in text.rstrip("\n").split("\n")]


def test_a_quoted_printable_mail_body_is_decoded_and_keeps_its_line_numbers() -> None:
    from advisor.collect.cleanup import clean

    body = ("Name                                ID  VCPU   CPU State Time(s) Affinity (=\nHard / Soft)\n"
            "Domain-0                             0     2    5   r--     28.7     5 / al=\nl\n"
            "xen_commandline        : console=3Dcom1 dom0_vcpus_pin\n")
    assert [(ln.number, ln.text) for ln in clean(body)] == [
        (1, "Name                                ID  VCPU   CPU State Time(s) Affinity (Hard / Soft)"),
        (3, "Domain-0                             0     2    5   r--     28.7     5 / all"),
        (5, "xen_commandline        : console=com1 dom0_vcpus_pin")]


def test_a_declared_quoted_printable_part_is_decoded_up_to_its_boundary() -> None:
    from advisor.collect.cleanup import clean

    mail = ("Subject: xl info\nContent-Transfer-Encoding: quoted-printable\n\nxen_commandline : dom0_mem=3D4096M =\n"
            "dom0_vcpus_pin\n--000000000000b94d3a060a0f85ba\nContent-Transfer-Encoding: base64\n\nPGRpdiBk=3D\n")
    texts = [ln.text for ln in clean(mail)]
    assert "xen_commandline : dom0_mem=4096M dom0_vcpus_pin" in texts
    assert "PGRpdiBk=3D" in texts  # after the boundary: another part, left as it is


def _ethtool_mail() -> str:
    sample = Path(__file__).parent / "real/ethtool-k/netdev-2019-tg3-gentoo-qp-ethtool-a-g-c-k-l-bare-commands.txt"
    return sample.read_text(encoding="utf-8").partition("\n---\n")[2]


@pytest.mark.parametrize("form", ["bare", "prompted-tab-indented"])
def test_ethtool_queries_separated_only_by_their_command_lines(tmp_path: Path, form: str) -> None:
    """-c, -k and plain `ethtool eth0` (its speed) are read for their interface;
    -a, -g and -l are recognised and set aside as read by no rule yet; other
    queries (-n, -t, -T, --show-eee) end the output before them and are skipped."""
    from advisor.collect.offline import Loader

    text = _ethtool_mail()
    if form != "bare":
        text = "".join(f"\t# {ln}\n" if ln.startswith("ethtool") else f"\t{ln}\n" for ln in text.split("\n"))
    pasted = tmp_path / "mail.txt"
    pasted.write_text(text, encoding="utf-8")
    with Loader() as loader:
        [capture] = loader.load(pasted)
        texts = {cid: out.text() for cid, out in capture.outputs.items()}
    assert set(texts) == {f"ethtool-{f}@eth0" for f in "agckl"} | {"ethtool@eth0"}
    assert texts["ethtool@eth0"].startswith("Settings for eth0:") and "Speed: 1000Mb/s" in texts["ethtool@eth0"]
    assert texts["ethtool@eth0"].rstrip().endswith("Link detected: yes")
    assert texts["ethtool-c@eth0"].startswith("Coalesce parameters for eth0:")
    assert texts["ethtool-k@eth0"].rstrip().endswith("tls-hw-record: off [fixed]")
    assert texts["ethtool-g@eth0"].rstrip().endswith("TX:\t\t511")
    report = review(pasted)
    host = report.hosts[0]
    assert host.errors == [] and host.detected.inputs == ["ethtool-c@eth0", "ethtool-k@eth0", "ethtool@eth0"]
    assert [u.split("`")[1] for u in host.unused] == ["ethtool -a eth0", "ethtool -g eth0", "ethtool -l eth0"]
    skipped = " ".join(host.skipped)
    assert all(f"`ethtool {q}eth0`" in skipped for q in ("-n ", "-t ", "-T ", "--show-eee "))
    assert "`ethtool eth0`" not in skipped


@pytest.mark.parametrize("line, cid", [("ethtool -a eth0", "ethtool-a@eth0"), ("ethtool --show-ring em1", "ethtool-g@em1"),
                                       ("sudo ethtool -l enp6s0f1", "ethtool-l@enp6s0f1"), ("ethtool eth0", "ethtool@eth0"),
                                       ("sudo ethtool bond0", "ethtool@bond0")])
def test_ethtool_pause_ring_and_channels_are_recognised(line: str, cid: str) -> None:
    found = identify_command(line)
    assert found is not None and found.command_id == cid


def test_xl_info_of_one_field_and_a_grep_keeping_a_few_lines_are_read_together(tmp_path: Path) -> None:
    """`xl info NAME` prints NAME's bare value (tools/xl/xl_info.c, maybe_printf); a grep keeps a
    few `key : value` lines: what they show is read, as one partial xl info."""
    from advisor.collect.offline import Loader
    from advisor.platforms.xen.parsers.xen import parse_info

    pasted = tmp_path / "dom0.txt"
    pasted.write_text("[root@dom0 ~]# xl info nr_cpus\n8\n[root@dom0 ~]# xl info | egrep 'xen_version|commandline'\n"
                      "xen_version            : 4.14.0\nxen_commandline        : placeholder dom0_vcpus_pin\n")
    with Loader() as loader:
        [capture] = loader.load(pasted)
        out = capture.outputs["xl-info"]
        info = parse_info(out.text())
    assert out.filtered is not None
    assert (info.int("nr_cpus"), info.get("xen_version")) == (8, "4.14.0")
    assert capture.origins[out.file].lines[:1] == [2]  # the value's line in the pasted file
    report = review(pasted)
    assert report.hosts[0].errors == [] and report.hosts[0].detected.domain_roles == ["xen dom0 (Xen 4.14.0, xl)"]


def test_xl_info_of_a_name_that_starts_several_fields_is_refused_in_one_line(tmp_path: Path) -> None:
    pasted = tmp_path / "dom0.txt"
    pasted.write_text("[root@dom0 ~]# xl info cc_compile\ngcc (GCC) 10.2.1\nuser\n[unknown]\nWed Dec 16 2020\n")
    [error] = review(pasted).hosts[0].errors
    assert "looks like `xl info NAME`" in error and "run xl info" in error


def test_a_per_interface_output_pasted_without_its_prompt_shows_its_command_line(tmp_path: Path) -> None:
    """`Features for bond0:` alone is known by content as ethtool-k@bond0; it was printed by `ethtool -k bond0`."""
    from advisor.collect.commands import command_line
    from advisor.collect.offline import Loader

    real = (Path(__file__).parent / "real" / "ethtool-k" / "insights-core-bond0-features.txt").read_text()
    pasted = tmp_path / "ticket.txt"
    pasted.write_text("  " + real.split("\n---\n", 1)[1].replace("\n", "\n  "))  # indented, as a mail quotes it
    with Loader() as loader:
        [capture] = loader.load(pasted)
        [output] = capture.outputs.values()
    assert (output.command_id, output.command) == ("ethtool-k@bond0", "ethtool -k bond0")
    assert command_line("nwmgr-vmtu@lan0") == "nwmgr -g -A vmtu -c lan0"  # as the collection's loop runs it
    assert command_line("lanadmin-apa@900") == "lanadmin -x -i 900"  # collected by no loop: the command and the item
