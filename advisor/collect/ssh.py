"""SSH connections for live collection (paramiko is imported here only).

Host keys are checked against known_hosts: an unknown key is refused unless
the user opted in (`--accept-new-host-keys`, OpenSSH's accept-new); a changed
key is always refused. `~/.ssh/config` is honoured for Host aliases, HostName,
User, Port, IdentityFile, ProxyJump (any number of hops) and ConnectTimeout.
Keys come from -i, IdentityFile, ssh-agent or the default key files; advisor
never asks for or handles a password or passphrase.
"""

from __future__ import annotations

import getpass
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import paramiko

from advisor import datafile

from advisor.collect.limits import MAX_OUTPUT_BYTES
from advisor.errors import InputError, excerpt


class CollectError(Exception):
    """This host cannot be collected; the message says why, in one line."""


class CommandTimeout(Exception):
    pass


@dataclass
class SshOptions:
    ssh_config: Path | None = None
    known_hosts: Path | None = None
    accept_new_host_keys: bool = False
    identity: Path | None = None
    port: int | None = None
    user: str | None = None
    connect_timeout: float = 10.0
    command_timeout: float = 300.0
    config_exec: bool = False  # let `Match exec` in the ssh_config run its command (--ssh-config-exec)
    sample: float | None = None  # --sample: seconds between the two readings of the counters (collect/sampling.py)

    def check_files(self) -> None:
        """The files named on the command line are regular files: paramiko
        would read a FIFO or a device without end."""
        if self.ssh_config is not None:
            datafile.regular(self.ssh_config, InputError, f"--ssh-config {self.ssh_config}")
        for flag, path in (("--known-hosts", self.known_hosts), ("-i", self.identity)):
            if path is not None and path.exists():  # a known_hosts to be made by --accept-new-host-keys
                datafile.regular(path, InputError, f"{flag} {path}")
        _config(self)  # a file no host can use is said once, before any connects


@dataclass
class Endpoint:
    """Where to connect, after ~/.ssh/config."""

    alias: str
    hostname: str
    port: int
    user: str
    identities: list[str] = field(default_factory=list)
    jumps: list[str] = field(default_factory=list)
    connect_timeout: float = 10.0


def _config(options: SshOptions) -> paramiko.SSHConfig:
    """The ssh_config, read as advisor follows it. `Match exec` runs a command
    of the file's while hosts are looked up: refused unless the user asks
    for it (--ssh-config-exec)."""
    path = options.ssh_config or Path("~/.ssh/config").expanduser()
    if options.ssh_config is None and not path.exists():
        return paramiko.SSHConfig()
    text = datafile.read_text(path, InputError)
    if not options.config_exec:
        for number, line in enumerate(text.splitlines(), 1):
            words = line.replace("=", " ").split()
            if words and words[0].lower() == "match" and "exec" in (w.lower() for w in words[1:]):
                raise InputError(f"{path}:{number}: Match exec runs a command while hosts are looked up; advisor "
                                 f"does not run it unless given --ssh-config-exec")
    try:
        return paramiko.SSHConfig.from_text(text)
    except paramiko.ConfigParseError as exc:  # a keyword without its value, a line of `=` alone
        bad = str(exc).removeprefix("Unparsable line ").strip()
        at = next((str(n) for n, line in enumerate(text.splitlines(), 1) if line.strip() == bad), "?")
        raise InputError(f"{path}:{at}: not an ssh_config line (a keyword and its value): "
                         f"{excerpt(bad, 40)!r}") from None


# Keywords whose command advisor never runs: it connects by ProxyJump only.
_COMMANDS = ("proxycommand", "localcommand")


def _number(cfg: dict, key: str, kind: type, alias: str, options: SshOptions, default: object = None):
    """An ssh_config number, or one clear error naming the file, the host and the key."""
    text = cfg.get(key, default)
    try:
        value = kind(text)
    except (TypeError, ValueError):
        value = None
    if value is None or not 0 < value < (65536 if key == "port" else 86400):
        where = options.ssh_config or "~/.ssh/config"
        raise InputError(f"{where}: Host {alias}: {key} {str(text)[:40]!r} is not a valid number")
    return value


def resolve(target: str, options: SshOptions, *, hostname: str | None = None, port: int | None = None,
            user: str | None = None, top_level: bool = True) -> Endpoint:
    """`[user@]alias` -> endpoint, through ~/.ssh/config. Command-line -p/-i/user
    apply to the target itself, not to jump hosts."""
    at_user, _, alias = target.rpartition("@")
    cfg = _config(options).lookup(alias)
    ran = [k for k in _COMMANDS if k in cfg and str(cfg[k]).lower() != "none"]
    if ran:
        where = options.ssh_config or "~/.ssh/config"
        raise InputError(f"{where}: Host {alias}: advisor does not run {' or '.join(ran)} commands (to go through "
                         f"another host, use ProxyJump)")
    jumps = [j.strip() for j in cfg.get("proxyjump", "").split(",") if j.strip() and j.strip() != "none"]
    timeout = _number(cfg, "connecttimeout", float, alias, options) if "connecttimeout" in cfg else options.connect_timeout
    chosen_port = port or (options.port if top_level else None) or _number(cfg, "port", int, alias, options, 22)
    chosen_user = user or at_user or (options.user if top_level else None) or cfg.get("user") or getpass.getuser()
    identities = [str(options.identity)] if (top_level and options.identity) else list(cfg.get("identityfile", []))
    return Endpoint(alias=alias, hostname=hostname or cfg.get("hostname", alias), port=chosen_port,
                    user=chosen_user, identities=[str(Path(i).expanduser()) for i in identities],
                    jumps=jumps, connect_timeout=timeout)


class KnownHosts:
    """known_hosts shared by the threads of one run; new keys are appended
    only when the user opted in."""

    def __init__(self, options: SshOptions):
        self.path = options.known_hosts or Path("~/.ssh/known_hosts").expanduser()
        self.accept_new = options.accept_new_host_keys
        self.lock = threading.Lock()

    def policy(self) -> paramiko.MissingHostKeyPolicy:
        known = self

        class _Policy(paramiko.MissingHostKeyPolicy):
            def missing_host_key(self, client, hostname, key):  # type: ignore[no-untyped-def]
                if not known.accept_new:
                    raise CollectError(f"unknown host key for {hostname} ({key.get_name()}); refused: add it to "
                                       f"{known.path} or use --accept-new-host-keys")
                with known.lock:
                    known.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                    with known.path.open("a") as fh:
                        fh.write(f"{hostname} {key.get_name()} {key.get_base64()}\n")
                client.get_host_keys().add(hostname, key.get_name(), key)

        return _Policy()

    def load_into(self, client: paramiko.SSHClient) -> None:
        if self.path.is_file():
            client.load_host_keys(str(self.path))
        system = Path("/etc/ssh/ssh_known_hosts")
        if system.is_file():
            client.load_system_host_keys(str(system))


class Session:
    """An authenticated connection to one host, through its jump hosts."""

    def __init__(self, endpoint: Endpoint, options: SshOptions, known: KnownHosts | None = None):
        self.endpoint = endpoint
        self.options = options
        self.known = known or KnownHosts(options)
        self.clients: list[paramiko.SSHClient] = []

    def __enter__(self) -> "Session":
        try:
            chain = [resolve(h, self.options, top_level=False) for h in self.endpoint.jumps] + [self.endpoint]
            sock = None
            for i, ep in enumerate(chain):
                client = self._connect(ep, sock)
                if i + 1 < len(chain):
                    sock = self._tunnel(client, chain[i + 1], ep)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for client in reversed(self.clients):
            client.close()

    @staticmethod
    def _tunnel(via: paramiko.SSHClient, nxt: Endpoint, hop: Endpoint) -> paramiko.Channel:
        transport = via.get_transport()
        assert transport is not None
        try:
            return transport.open_channel("direct-tcpip", (nxt.hostname, nxt.port), ("127.0.0.1", 0),
                                          timeout=nxt.connect_timeout)
        except (paramiko.SSHException, OSError) as exc:
            raise CollectError(f"jump host {hop.alias} cannot reach {nxt.hostname}:{nxt.port} ({exc})") from None

    def _connect(self, ep: Endpoint, sock: paramiko.Channel | None) -> paramiko.SSHClient:
        client = paramiko.SSHClient()
        self.known.load_into(client)
        client.set_missing_host_key_policy(self.known.policy())
        self.clients.append(client)
        where = f"{ep.user}@{ep.hostname}:{ep.port}"
        try:
            client.connect(ep.hostname, port=ep.port, username=ep.user, key_filename=ep.identities or None,
                           timeout=ep.connect_timeout, banner_timeout=ep.connect_timeout,
                           auth_timeout=ep.connect_timeout, sock=sock, allow_agent=True,
                           look_for_keys=not ep.identities, passphrase=None)
        except CollectError:
            raise
        except paramiko.BadHostKeyException:
            raise CollectError(f"host key for {ep.hostname} has changed; refused (if the change is expected, "
                               f"remove the old key from {self.known.path})") from None
        except paramiko.PasswordRequiredException:
            raise CollectError(f"{where}: the key needs a passphrase; load it into ssh-agent") from None
        except paramiko.AuthenticationException:
            raise CollectError(f"{where}: authentication failed (keys and ssh-agent tried; advisor uses no passwords)") from None
        except (socket.timeout, TimeoutError):
            raise CollectError(f"{where}: connection timed out after {ep.connect_timeout:g} s") from None
        except (paramiko.SSHException, OSError, EOFError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if "No authentication methods available" in reason:
                raise CollectError(f"{where}: no key to authenticate with (give -i or IdentityFile, "
                                   f"or load a key into ssh-agent)") from None
            raise CollectError(f"{where}: cannot connect ({reason})") from None
        return client

    def run(self, line: str, sink: Callable[[bytes], object], timeout: float | None = None,
            max_bytes: int = MAX_OUTPUT_BYTES) -> tuple[int | None, str]:
        """Exit status and stderr of one command, its stdout given to `sink` as it
        arrives (a host may print hundreds of megabytes; held in memory, that
        times --parallel hosts is more than a machine has). CommandTimeout when
        it runs longer than the timeout (the channel is closed); CollectError
        past max_bytes of stdout."""
        transport = self.clients[-1].get_transport()
        if transport is None or not transport.is_active():
            raise CollectError(f"{self.endpoint.alias}: connection lost")
        limit = timeout or self.options.command_timeout
        wait = self.endpoint.connect_timeout
        unanswered: list[bool] = []

        def give_up() -> None:  # paramiko waits for the server's answer to exec without a time limit
            unanswered.append(True)
            try:
                chan.close()
            except (paramiko.SSHException, OSError, EOFError):  # the connection went first: closed all the same
                pass

        try:
            chan = transport.open_session(timeout=wait)
            timer = threading.Timer(wait, give_up)
            timer.daemon = True
            timer.start()
            try:
                chan.exec_command(line)
            finally:
                timer.cancel()
        except (paramiko.SSHException, OSError, EOFError) as exc:
            if unanswered:
                raise CollectError(f"{self.endpoint.alias}: no answer to a command request in {wait:g} s") from None
            raise CollectError(f"{self.endpoint.alias}: connection lost ({exc})") from None
        return _read(chan, limit, self.endpoint.alias, wait, sink, max_bytes)


MAX_STDERR_BYTES = 64 << 10  # a manifest keeps 2,000 characters of it


def disk_error(alias: str, exc: OSError) -> CollectError:
    """This machine's disk failing to keep a host's output (full, a file size limit): not the connection."""
    return CollectError(f"{alias}: cannot keep the output here ({exc.strerror or exc})")


def _read(chan: paramiko.Channel, limit: float, alias: str, grace: float, sink: Callable[[bytes], object],
          max_bytes: int) -> tuple[int | None, str]:
    """Reads until the exit status comes (or the channel closes). Once the output
    has ended, the status is waited for, at most `grace` seconds: a host that ends
    the output and never sends it would otherwise keep this loop spinning."""
    deadline = time.monotonic() + limit
    size, err = 0, bytearray()
    chan.settimeout(0.2)

    def take_stderr() -> None:  # what is kept of stderr is its start: the rest is read and dropped
        chunk = chan.recv_stderr(65536)
        err.extend(chunk[:max(MAX_STDERR_BYTES - len(err), 0)])

    try:
        while True:
            if chan.recv_stderr_ready():  # one chunk a turn: endless stderr must not keep the deadline from being checked
                take_stderr()
            try:
                data = chan.recv(1 << 16)
            except socket.timeout:
                data = None
            if data:
                size += len(data)
                if size > max_bytes:
                    raise CollectError(f"{alias}: output larger than {max_bytes:,} bytes; stopped")
                try:
                    sink(data)
                except OSError as exc:  # this machine's disk, not the connection
                    raise disk_error(alias, exc) from None
            elif data == b"":  # the output has ended: its exit status follows, or the channel closes
                left = deadline - time.monotonic()
                if not chan.status_event.wait(max(min(grace, left), 0)):
                    if grace < left:
                        raise CollectError(f"{alias}: the output of a command ended, but no exit status came "
                                           f"in {grace:g} s")
                    raise CommandTimeout()
                while chan.recv_stderr_ready() and time.monotonic() <= deadline:
                    take_stderr()
                break
            if time.monotonic() > deadline:
                raise CommandTimeout()
        return chan.recv_exit_status(), err.decode("utf-8", errors="replace")
    except (OSError, EOFError, paramiko.SSHException) as exc:
        raise CollectError(f"{alias}: connection lost during a command ({exc})") from None
    finally:
        chan.close()
