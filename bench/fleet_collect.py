"""Benchmark: collect a simulated fleet with `advisor collect` and with Ansible.

Starts N stub Solaris hosts on loopback (the test suite's sshd harness: real
OpenSSH servers on 127.0.2.x, at most 16 addresses each), then collects the
same allowlisted commands from all of them twice:

- `advisor collect --inventory ... --parallel P`;
- `ansible-playbook` with one `raw` task per command, `forks = P`
  (ansible-core from PyPI, OpenSSH client with ControlPersist).

- the Ansible collection (ansible/, installed with ansible-galaxy):
  `ansible-playbook advisor.fleet.collect`, which sends the collector script
  and brings back one bundle per host, `forks = P`.

Prints the wall time of each and the ratios. Not a test; needs sshd and
ansible-core (installed with advisor's test extras):

    python bench/fleet_collect.py --hosts 100
    python bench/fleet_collect.py --hosts 100 --ansible /other/venv/bin/ansible-playbook
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from sshd_harness import Sshd  # noqa: E402

from advisor.collect import allowlist  # noqa: E402

BUNDLE = ROOT / "fixtures" / "captures" / "t5-primary-tuned"


def start_fleet(work: Path, hosts: int) -> tuple[list[Sshd], dict[str, Sshd]]:
    addresses = [f"127.0.{2 + i // 250}.{1 + i % 250}" for i in range(hosts)]
    servers = [Sshd(work / "fleet", addresses[n:n + 16], name=f"sshd{n}") for n in range(0, hosts, 16)]
    serving = {a: s for s in servers for a in s.addresses}
    for a, s in serving.items():
        s.assign(a, BUNDLE)
    return servers, serving


def _beside(tool: str) -> str | None:
    path = Path(sys.executable).parent / tool
    return str(path) if path.exists() else None


def timed(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> float:
    start = time.perf_counter()
    res = subprocess.run(cmd, env={**os.environ, **(env or {})}, capture_output=True, text=True, cwd=cwd)
    elapsed = time.perf_counter() - start
    if res.returncode != 0:
        sys.exit(f"{cmd[0]} failed ({res.returncode}):\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", type=int, default=100)
    ap.add_argument("--parallel", type=int, default=32)
    ap.add_argument("--ansible", default=shutil.which("ansible-playbook") or _beside("ansible-playbook"),
                    help="ansible-playbook to compare with")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="advisor-bench-"))
    servers, serving = start_fleet(work, args.hosts)
    try:
        known = work / "known_hosts"
        known.write_text("".join(s.known_hosts_line(a) for a, s in serving.items()))
        key = servers[0].userkey
        inventory = work / "inventory.json"
        inventory.write_text(json.dumps({
            "_meta": {"hostvars": {a: {"ansible_port": s.port, "ansible_user": "root"} for a, s in serving.items()}},
            "fleet": {"hosts": list(serving)}}))
        advisor = shutil.which("advisor") or str(Path(sys.executable).parent / "advisor")
        t_adv = timed([advisor, "collect", "--inventory", str(inventory), "-i", str(key), "--known-hosts", str(known),
                       "--parallel", str(args.parallel), "-o", str(work / "captures")])
        print(f"advisor collect: {args.hosts} hosts, {len(allowlist.SOLARIS) + 1} commands each: {t_adv:7.2f} s")
        if not args.ansible:
            print("ansible-playbook not found: pass --ansible")
            return
        ini = work / "hosts.ini"
        ini.write_text("[fleet]\n" + "".join(f"{a} ansible_port={s.port}\n" for a, s in serving.items()))
        tasks = [{"name": c.id, "raw": c.line, "register": c.id.replace("-", "_"), "failed_when": False}
                 for c in (allowlist.DETECT, *allowlist.SOLARIS)]
        play = work / "collect.yml"
        play.write_text(json.dumps([{"hosts": "fleet", "gather_facts": False, "tasks": tasks}]))
        env = {"ANSIBLE_FORKS": str(args.parallel), "ANSIBLE_HOST_KEY_CHECKING": "True",
               "ANSIBLE_SSH_ARGS": f"-o ControlMaster=auto -o ControlPersist=60s -o UserKnownHostsFile={known}",
               "ANSIBLE_REMOTE_USER": "root", "ANSIBLE_PRIVATE_KEY_FILE": str(key),
               "ANSIBLE_LOCAL_TEMP": str(work / "ansible-tmp"), "ANSIBLE_REMOTE_TMP": str(work / "remote-tmp"),
               "ANSIBLE_HOME": str(work / "ansible-home"), "ANSIBLE_STDOUT_CALLBACK": "minimal",
               "ANSIBLE_COLLECTIONS_PATH": str(work / "collections")}
        t_ans = timed([args.ansible, "-i", str(ini), str(play)], env)
        print(f"ansible raw:     {args.hosts} hosts, same commands:            {t_ans:7.2f} s")
        galaxy = str(Path(args.ansible).parent / "ansible-galaxy")
        timed([galaxy, "collection", "install", str(ROOT / "ansible"), "-p", str(work / "collections")], env)
        (work / "run").mkdir()
        t_col = timed([args.ansible, "-i", str(ini), "advisor.fleet.collect"], env, cwd=work / "run")
        bundles = len(list((work / "run" / "captures").glob("*.tar.gz")))
        print(f"collection:      {args.hosts} hosts, same commands, {bundles} bundles: {t_col:7.2f} s")
        print(f"advisor collect is {t_ans / t_adv:.1f}x faster than ansible raw, {t_col / t_adv:.1f}x faster "
              f"than the collection")
    finally:
        for s in servers:
            s.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
