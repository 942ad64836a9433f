"""A real OpenSSH sshd on loopback addresses, serving stub Solaris hosts.

One sshd listens on 127.0.0.2 and up (one address per simulated host) on an
unprivileged port, with a throwaway host key and user key. The stub commands
(tests/stubhost/stub.sh under each tool's name) come first on the PATH of every
session and answer from the bundle assigned to the address connected to.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

STUB = Path(__file__).parent / "stubhost" / "stub.sh"
TOOLS = ["uname", "cat", "virtinfo", "psrinfo", "pkg", "showrev", "ldm", "dladm", "kstat", "ipadm", "ndd", "sudo", "pfexec",
         "ip", "brctl", "sysctl", "lspci", "xl", "xm", "ethtool", "lanscan", "nwmgr", "lanadmin"]
SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path.with_suffix(".pub").read_text().split()[0:2]  # type: ignore[return-value]


class Sshd:
    def __init__(self, root: Path, addresses: list[str], *, extra_config: str = "", name: str = "sshd"):
        self.root = root
        self.addresses = addresses
        self.port = free_port()
        root.mkdir(parents=True, exist_ok=True)
        (root / "hosts").mkdir(exist_ok=True)
        self.bin = root / "bin"
        self.bin.mkdir(exist_ok=True)
        for tool in TOOLS:
            target = self.bin / tool
            if not target.exists():
                target.symlink_to(STUB)
        self.hostkey = root / f"{name}_host_key"
        self.key_type, self.key_b64 = keygen(self.hostkey)
        self.userkey = root / "user_key"
        if not self.userkey.exists():
            keygen(self.userkey)
        (root / "authorized_keys").write_text(self.userkey.with_suffix(".pub").read_text())  # shared by servers in root
        Path("/run/sshd").mkdir(parents=True, exist_ok=True)  # privilege separation directory
        listen = "\n".join(f"ListenAddress {a}" for a in addresses)
        self.config = root / f"{name}_config"
        self.config.write_text(f"""Port {self.port}
{listen}
HostKey {self.hostkey}
AuthorizedKeysFile {root}/authorized_keys
PidFile {root}/{name}.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin yes
AllowTcpForwarding yes
MaxStartups 200:30:300
MaxSessions 50
SetEnv PATH={self.bin}:/usr/bin:/bin ADVISOR_STUB_ROOT={root} HOME={root}
LogLevel ERROR
Subsystem sftp internal-sftp
{extra_config}
""")
        self.log = root / f"{name}.log"
        self.proc = subprocess.Popen([SSHD, "-D", "-e", "-f", str(self.config)], stdout=subprocess.DEVNULL,
                                     stderr=self.log.open("w"))
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"sshd exited: {self.log.read_text()}")
            try:
                with socket.create_connection((self.addresses[0], self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("sshd did not start")

    def known_hosts_line(self, address: str) -> str:
        return f"[{address}]:{self.port} {self.key_type} {self.key_b64}\n"

    def assign(self, address: str, bundle: Path, *flags: str) -> None:
        host = self.root / "hosts" / address
        if host.exists():
            shutil.rmtree(host)
        shutil.copytree(bundle, host, ignore=shutil.ignore_patterns("manifest.yaml"))
        for flag in flags:
            name, _, value = flag.partition("=")
            (host / f".{name}").write_text(value)

    def sent(self) -> list[str]:
        log = self.root / "sent.log"
        return log.read_text().splitlines() if log.exists() else []

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def ssh_config(path: Path, entries: dict[str, dict[str, str]]) -> Path:
    lines = []
    for alias, opts in entries.items():
        lines.append(f"Host {alias}")
        lines += [f"    {k} {v}" for k, v in opts.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def env_user() -> str:
    import getpass

    return os.environ.get("USER") or getpass.getuser()
