"""The `advisor` command line (verbs and exit statuses are a contract: DESIGN.md)."""

# No `from __future__ import annotations` here: typer reads every command's
# signature at each run, and string annotations would be compiled again one by
# one (some 260 compiles, 30 M instructions a run); evaluated once at import,
# they cost nothing more.
import copy
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from advisor import scratch
from advisor.errors import AdvisorError

app = typer.Typer(add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="Network-tuning advisor and configuration auditor for virtualized hosts.")


def _plain_help_types() -> None:
    """Help shows what to type (FILE, N, high|medium), never Python type names
    such as <list[Path]> or <bool>: options show their metavar, choices their
    values, flags and arguments nothing beside their name."""
    for cls in (getattr(typer.core, "TyperOption", None), getattr(typer.core, "TyperArgument", None)):
        if cls is None or not hasattr(cls, "display_type_rich"):
            continue
        original = cls.display_type_rich

        def display(self, ctx, _original=original):
            if isinstance(self, typer.core.TyperArgument) or getattr(self, "is_flag", False):
                return None
            if self.metavar is not None:
                return self.metavar
            shown = _original(self, ctx)
            return shown.strip("<>") if shown and "|" in shown else None

        cls.display_type_rich = display


_plain_help_types()


def _version(value: bool) -> None:
    if value:
        from advisor import __version__

        typer.echo(f"advisor {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print the version and exit.")] = False,
          no_color: Annotated[bool, typer.Option("--no-color", help="No colour, even on a terminal (as NO_COLOR=1).")] = False) -> None:
    """Network-tuning advisor and configuration auditor for virtualized hosts."""
    if no_color:
        import os

        os.environ["NO_COLOR"] = "1"
rules_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="The rule catalogue with its sources.")
app.add_typer(rules_app, name="rules")

EXIT_OK, EXIT_GATE, EXIT_INPUT = 0, 1, 2


class FailOn(str, Enum):
    critical = "critical"
    high = "high"
    medium = "medium"
    low = "low"
    info = "info"
    never = "never"


def _die(message: str) -> None:
    from advisor.errors import printable

    # the message may quote captures (a host name from uname): escapes and line breaks are shown escaped
    typer.echo(f"advisor: {printable(message)}", err=True)
    raise typer.Exit(EXIT_INPUT)


PolicyOpt = Annotated[Optional[Path], typer.Option("--policy", metavar="FILE", help="Policy YAML: parameter overrides and intents.")]
RulesOpt = Annotated[Optional[list[Path]], typer.Option("--rules", metavar="DIR", help="Extra rule pack directory (repeatable).")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", metavar="FORMATS", help="table, json, sarif, junit, markdown, html, script; several with commas and -o DIR.")]
def _output_path(value: str) -> Path:
    """-o DIR/ (with a trailing slash) is always a folder: made now, so that every writer sees a folder."""
    path = Path(value)
    if value.endswith(("/", "\\")) and not path.is_dir():
        try:
            path.mkdir(parents=True)
        except OSError as exc:
            raise typer.BadParameter(f"{value}: cannot create folder ({exc.strerror})") from None
    return path


OutputOpt = Annotated[Optional[Path], typer.Option("--output", "-o", parser=_output_path, metavar="FILE|DIR/",
                                                   help="Write the report to this file, or into this folder (DIR/).")]
FailOnOpt = Annotated[FailOn, typer.Option("--fail-on", help="Exit 1 when a finding of this severity or worse exists.")]
MinScoreOpt = Annotated[Optional[float], typer.Option("--min-score", metavar="N", help="Exit 1 when a host scores below this.")]
BaselineOpt = Annotated[Optional[Path], typer.Option("--baseline", metavar="FILE", help="A previous JSON report: report only new findings, list fixed ones.")]
CompactOpt = Annotated[bool, typer.Option("--compact", help="One line per rule that fails, no details.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Only the verdict and the counts.")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", min=0, metavar="N", help="Review in this many processes (0: as many as the work is worth, up to one per CPU).")]


@app.command()
def review(
    paths: Annotated[list[Path], typer.Argument(metavar="PATH", help="Bundle folders, .tar.gz bundles, Explorer archives, pasted sessions or loose output files.")],
    fmt: FormatOpt = "table",
    output: OutputOpt = None,
    fail_on: FailOnOpt = FailOn.never,
    min_score: MinScoreOpt = None,
    policy: PolicyOpt = None,
    rules: RulesOpt = None,
    jobs: JobsOpt = 0,
    baseline: BaselineOpt = None,
    compact: CompactOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Review saved captures and report scored findings.

    Offline: bundles, archives, sosreports, pasted sessions, loose outputs.

    \b
    Example: advisor review fixtures/captures/t5-primary-untuned -f json,html -o reports/
    """
    _review(paths, fmt, output, fail_on, min_score, policy, rules, jobs, baseline, gate=False, compact=compact,
            quiet=quiet)


def _review(paths: list[Path], fmt: str, output: Path | None, fail_on: FailOn, min_score: float | None,
            policy: Path | None, rules: list[Path] | None, jobs: int, baseline: Path | None, gate: bool,
            compact: bool = False, quiet: bool = False) -> None:
    run_review = _command("advisor.commands.review").run_review
    try:
        code = run_review(paths, fmt, output, fail_on.value, min_score, policy, rules or [],
                          jobs, gate=gate, baseline_path=baseline,
                          mode="quiet" if quiet else "compact" if compact else "full")
    except AdvisorError as exc:
        _die(str(exc))
    raise typer.Exit(code)


HostsArg = Annotated[Optional[list[str]], typer.Argument(metavar="HOST", help="Hosts: host, user@host, or ~/.ssh/config aliases.")]
PortOpt = Annotated[Optional[int], typer.Option("--port", "-p", metavar="PORT", help="SSH port of the named hosts.")]
IdentityOpt = Annotated[Optional[Path], typer.Option("--identity", "-i", metavar="FILE", help="Private key file (else IdentityFile, ssh-agent, default keys).")]
HostsFileOpt = Annotated[Optional[Path], typer.Option("--hosts-file", metavar="FILE", help="File with one host per line.")]
InventoryOpt = Annotated[Optional[Path], typer.Option("--inventory", metavar="FILE", help="JSON from `ansible-inventory --list`.")]
ParallelOpt = Annotated[int, typer.Option("--parallel", min=1, metavar="N", help="Hosts collected at once.")]
AcceptNewOpt = Annotated[bool, typer.Option("--accept-new-host-keys", help="Accept and record unknown host keys (never changed ones).")]
KnownHostsOpt = Annotated[Optional[Path], typer.Option("--known-hosts", metavar="FILE", help="known_hosts file (default ~/.ssh/known_hosts).")]
SshConfigOpt = Annotated[Optional[Path], typer.Option("--ssh-config", metavar="FILE", help="ssh_config file (default ~/.ssh/config).")]
SshExecOpt = Annotated[bool, typer.Option("--ssh-config-exec", help="Let Match exec in the ssh_config run its command (refused otherwise).")]
def _privileged() -> str:
    """The read-only tools the platform packs say need privileges: `ldm, ndd`."""
    from advisor import platform_registry

    return ", ".join(sorted({t for f in platform_registry.families().values() for t in f.privileged}))


SudoOpt = Annotated[bool, typer.Option("--sudo", help=f"Run the tools that need privileges ({_privileged()}) with `sudo -n` (never prompts).")]
PfexecOpt = Annotated[bool, typer.Option("--pfexec", help=f"Run the tools that need privileges ({_privileged()}) with pfexec (Solaris RBAC).")]
ConnectTimeoutOpt = Annotated[float, typer.Option("--connect-timeout", min=1, metavar="SECONDS", help="Seconds to connect and authenticate.")]
CommandTimeoutOpt = Annotated[float, typer.Option("--command-timeout", min=1, metavar="SECONDS", help="Seconds each command may run.")]
def _sampled() -> str:
    """The counter outputs the families read twice: `kstat -p on solaris; cat /proc/net/dev, ethtool -S on linux`."""
    from advisor import platform_registry

    said = []
    for name in platform_registry.families():
        lines = [platform_registry.outputs()[c.id].output.line for c in platform_registry.collected(name) if c.sampled]
        if lines:
            said.append(f"{', '.join(dict.fromkeys(lines))} on {name}")
    return "; ".join(said)


SampleOpt = Annotated[Optional[str], typer.Option("--sample", metavar="DURATION", help=f"Read the counters again this long after the first time (1s to 10m, e.g. 30s), for rates: {_sampled()}.")]


def _live_setup(hosts, port, identity, hosts_file, inventory, accept_new, known_hosts, ssh_config, sudo, pfexec,
                connect_timeout, command_timeout, config_exec=False, sample=None):
    from advisor.collect.sampling import parse_duration
    from advisor.collect.ssh import SshOptions
    from advisor.collect.targets import from_hosts_file, from_inventory, parse_spec
    from advisor.errors import InputError

    if sudo and pfexec:
        raise InputError("--sudo and --pfexec exclude each other")
    targets = [parse_spec(h) for h in hosts or []]
    if hosts_file:
        targets += from_hosts_file(hosts_file)
    if inventory:
        targets += from_inventory(inventory)
    if not targets:
        raise InputError("no hosts: name some, or give --hosts-file or --inventory")
    options = SshOptions(ssh_config=ssh_config, known_hosts=known_hosts, accept_new_host_keys=accept_new,
                         identity=identity, port=port, connect_timeout=connect_timeout, command_timeout=command_timeout,
                         config_exec=config_exec, sample=parse_duration(sample) if sample is not None else None)
    options.check_files()
    return targets, options, "sudo" if sudo else "pfexec" if pfexec else None


@app.command()
def gate(
    paths: Annotated[list[Path], typer.Argument(metavar="PATH", help="Capture bundles of freshly built hosts, or planned configurations (YAML plans, ldm list-constraints -x XML).")],
    fmt: FormatOpt = "table",
    output: OutputOpt = None,
    fail_on: Annotated[FailOn, typer.Option("--fail-on", help="Fail on a finding of this severity or worse.")] = FailOn.medium,
    min_score: MinScoreOpt = None,
    policy: PolicyOpt = None,
    rules: RulesOpt = None,
    jobs: JobsOpt = 0,
    baseline: BaselineOpt = None,
    compact: CompactOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Review for pipelines: exit 1 and a one-line verdict.

    Strict defaults; the verdict goes to stderr.

    \b
    Example: advisor gate plans/ -f junit,sarif -o reports/
    """
    _review(paths, fmt, output, fail_on, min_score, policy, rules, jobs, baseline, gate=True, compact=compact,
            quiet=quiet)


@app.command()
def diff(
    old: Annotated[Path, typer.Argument(metavar="OLD", help="Before: a JSON report, or captures (bundle, archive, kstat dump).")],
    new: Annotated[Path, typer.Argument(metavar="NEW", help="After: the same kind of input.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, json or markdown.", metavar="FORMAT")] = "table",
    output: OutputOpt = None,
    fail_on: Annotated[FailOn, typer.Option("--fail-on", help="Exit 1 when a new (or more severe) finding is at least this severe.")] = FailOn.never,
    policy: PolicyOpt = None,
    rules: RulesOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Compare even when the two sides are different hosts.")] = False,
) -> None:
    """Fixed, new and changed findings between two runs.

    Also the score change per host; for two captures, the movement of the
    kstat counters the rules rely on.

    \b
    Example: advisor diff before.json after.json --fail-on high
    """
    run_diff = _command("advisor.commands.diff").run_diff
    try:
        code = run_diff(old, new, fmt, output, fail_on.value, policy, rules or [], force)
    except AdvisorError as exc:
        _die(str(exc))
    raise typer.Exit(code)


@app.command()
def audit(
    hosts: HostsArg = None,
    port: PortOpt = None,
    identity: IdentityOpt = None,
    hosts_file: HostsFileOpt = None,
    inventory: InventoryOpt = None,
    parallel: ParallelOpt = 16,
    save_capture: Annotated[Optional[Path], typer.Option("--save-capture", metavar="DIR", help="Keep the bundles in this folder.")] = None,
    accept_new_host_keys: AcceptNewOpt = False,
    known_hosts: KnownHostsOpt = None,
    ssh_config: SshConfigOpt = None,
    ssh_config_exec: SshExecOpt = False,
    sudo: SudoOpt = False,
    pfexec: PfexecOpt = False,
    connect_timeout: ConnectTimeoutOpt = 10.0,
    command_timeout: CommandTimeoutOpt = 300.0,
    sample: SampleOpt = None,
    fmt: FormatOpt = "table",
    output: OutputOpt = None,
    fail_on: FailOnOpt = FailOn.never,
    min_score: MinScoreOpt = None,
    policy: PolicyOpt = None,
    rules: RulesOpt = None,
    jobs: JobsOpt = 0,
) -> None:
    """Audit live hosts over SSH (read-only commands).

    Collects, then reports as review does.

    \b
    Example: advisor audit t5a t5b --sudo --fail-on high
    """
    run_audit = _command("advisor.commands.audit").run_audit
    try:
        targets, options, privilege = _live_setup(hosts, port, identity, hosts_file, inventory, accept_new_host_keys,
                                                  known_hosts, ssh_config, sudo, pfexec, connect_timeout, command_timeout,
                                                  ssh_config_exec, sample)
        code = run_audit(targets, options, privilege, parallel, save_capture, fmt, output, fail_on.value,
                         min_score, policy, rules or [], jobs)
    except AdvisorError as exc:
        _die(str(exc))
    raise typer.Exit(code)


@app.command()
def collect(
    hosts: HostsArg = None,
    out_dir: Annotated[Path, typer.Option("--output", "-o", help="Folder for the bundles (one per host).", metavar="DIR")] = Path("captures"),
    port: PortOpt = None,
    identity: IdentityOpt = None,
    hosts_file: HostsFileOpt = None,
    inventory: InventoryOpt = None,
    parallel: ParallelOpt = 16,
    accept_new_host_keys: AcceptNewOpt = False,
    known_hosts: KnownHostsOpt = None,
    ssh_config: SshConfigOpt = None,
    ssh_config_exec: SshExecOpt = False,
    sudo: SudoOpt = False,
    pfexec: PfexecOpt = False,
    connect_timeout: ConnectTimeoutOpt = 10.0,
    command_timeout: CommandTimeoutOpt = 300.0,
    sample: SampleOpt = None,
) -> None:
    """Save capture bundles of live hosts for a later review.

    Each bundle has a manifest.yaml.

    \b
    Example: advisor collect t5-primary -o captures/
    """
    run_collect = _command("advisor.commands.audit").run_collect
    try:
        targets, options, privilege = _live_setup(hosts, port, identity, hosts_file, inventory, accept_new_host_keys,
                                                  known_hosts, ssh_config, sudo, pfexec, connect_timeout, command_timeout,
                                                  ssh_config_exec, sample)
        code = run_collect(targets, options, privilege, parallel, out_dir)
    except AdvisorError as exc:
        _die(str(exc))
    raise typer.Exit(code)


if TYPE_CHECKING:
    Platform = Enum
else:  # the collector script's --platform choices: every platform pack that collects
    from advisor import platform_registry as _packs

    Platform = Enum("Platform", {name: name for name in _packs.script_platforms()}, type=str)


@app.command("collector-script")
def collector_script(
    platform: Annotated[Platform, typer.Option("--platform", help="Platform of the hosts the script will run on.")],
    sudo: SudoOpt = False,
    pfexec: PfexecOpt = False,
) -> None:
    """Write a POSIX sh script that collects a bundle.

    For hosts advisor cannot reach over SSH.

    \b
    Example: advisor collector-script --platform solaris > collect.sh
    """
    script = _command("advisor.collect.script")
    from advisor.errors import InputError

    try:
        if sudo and pfexec:
            raise InputError("--sudo and --pfexec exclude each other")
        text = script.render(platform.value, "sudo" if sudo else "pfexec" if pfexec else None)
        with _command("advisor.commands.stdout").to_stdout() as out:
            out.write(text)
    except AdvisorError as exc:
        _die(str(exc))


@rules_app.command("list")
def rules_list(rules: RulesOpt = None) -> None:
    """List every rule: id, severity, subject, title.

    \b
    Example: advisor rules list
    """
    list_rules = _command("advisor.commands.rules").list_rules
    try:
        list_rules(rules or [])
    except AdvisorError as exc:
        _die(str(exc))


@rules_app.command("show")
def rules_show(rule_id: Annotated[str, typer.Argument(help="Rule id, e.g. ldoms.dring-mode")], rules: RulesOpt = None,
               cel: Annotated[bool, typer.Option("--cel", help="Show each condition as CEL too, for rule authors.")] = False
               ) -> None:
    """Show one rule: rationale, when it fails, remediation, source.

    \b
    Example: advisor rules show ldoms.dring-mode
    """
    show_rule = _command("advisor.commands.rules").show_rule
    try:
        show_rule(rule_id, rules or [], cel)
    except AdvisorError as exc:
        _die(str(exc))


_collector_paused = False


def _command(module: str):
    """Imports the module that does a command's work. main() pauses the cyclic
    garbage collector while the modules load: they allocate some 300,000 objects
    that live as long as the process, and tracing them again and again costs
    about 2% of a review. From here on it runs, without tracing those (gc.freeze).
    With _leave, this saves 14% of a one-bundle review (bench/README.md)."""
    global _collector_paused
    import importlib

    loaded = importlib.import_module(module)
    if _collector_paused:
        import gc

        gc.freeze()
        gc.enable()
        _collector_paused = False
    return loaded


def main() -> None:
    import gc
    import os

    global _collector_paused
    if gc.isenabled():
        gc.disable()
        _collector_paused = True
    # pydantic looks up plugins by scanning every installed package's metadata
    # at its first model; advisor's models are its own business. A user's
    # explicit setting is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    scratch.remove_on_stop()
    _leave(run(sys.argv[1:]))


def _app_for(args: list[str]) -> typer.Typer:
    """The app with only the command `args` names: typer turns every command's
    signature into options at each run, some 29 M instructions for all of
    advisor's, 2% of a one-bundle review, where one command's costs a tenth of
    that. Anything else (`--help`, `--version`, a mistyped name) gets them all."""
    name = args[0] if args else ""
    commands = [c for c in app.registered_commands
                if (c.name or typer.main.get_command_name(c.callback.__name__ if c.callback else "")) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    named = copy.copy(app)  # the same settings and callback (--version, --no-color)
    named.registered_commands, named.registered_groups = commands, groups
    return named


def run(args: list[str]) -> int:
    """One command line, run in this process, and its exit status: what main()
    runs, and what the fast tier of the tests calls."""
    try:
        _app_for(args)(args=args, prog_name="advisor")
    except SystemExit as exc:
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
            return 1
        return exc.code or EXIT_OK
    return EXIT_OK


def _leave(code: int) -> None:
    """Ends the process once its output is flushed, without tearing the
    interpreter down: freeing every loaded module's objects one by one takes
    longer than reviewing a bundle. By now every report is written and closed
    and every scratch folder removed (each is a context manager)."""
    import os

    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)  # a profiler or coverage writes its data at the normal exit
    for stream in (sys.stdout, sys.stderr):
        try:
            if not stream.closed:
                stream.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass
    os._exit(code or 0)
