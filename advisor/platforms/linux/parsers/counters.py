"""Linux traffic counters, read twice for rates (issue #29): `cat /proc/net/dev`
and `ethtool -S IFACE`. Neither output says when it was printed: the time is
the manifest's `taken_at` of the reading, kept with the record."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from advisor.collect.capture import RawOutput
from advisor.errors import ParseError

# The kernel's columns after `name:` (net/core/net-procfs.c dev_seq_printf_stats)
NET_DEV_COLUMNS = ("rx_bytes", "rx_packets", "rx_errs", "rx_drop", "rx_fifo", "rx_frame", "rx_compressed",
                   "rx_multicast", "tx_bytes", "tx_packets", "tx_errs", "tx_drop", "tx_fifo", "tx_colls",
                   "tx_carrier", "tx_compressed")
_HEADER = re.compile(r"^\s*Inter-\|")
_FACE = re.compile(r"^\s*face\s*\|")
# `%6s:` right-aligned; a long name unpadded; a name may hold a colon (`ibr10:30:`), and an old
# kernel's wide byte count touches the colon (`eth0:68210035552`): the name ends at the last
# colon before the 16 numbers
_ROW = re.compile(r"^\s*(?P<name>\S+?):\s*(?P<values>\d+(?:[ \t]+\d+){15})[ \t]*$")


@dataclass
class NetDev:
    """`/proc/net/dev`: each interface's 16 counters, by NET_DEV_COLUMNS name."""

    interfaces: dict[str, dict[str, int]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # interface -> its line
    taken_at: float | None = None  # POSIX seconds, from the manifest


def parse_proc_net_dev(output: RawOutput) -> NetDev:
    found = NetDev(taken_at=getattr(output, "taken_at", None))
    headed = False
    for number, line in enumerate(output.text().splitlines(), 1):
        if _HEADER.match(line) or _FACE.match(line):
            if found.interfaces:  # a second dump pasted after the first: its own sample, not read here
                break
            headed = True
            continue
        if not line.strip():
            continue
        m = _ROW.match(line)
        if m is None:
            if not headed:
                continue  # a prompt or command line before the table
            raise ParseError(f"not a /proc/net/dev line: {line.strip()[:40]!r}", line=number)
        name = m.group("name")
        if name not in found.interfaces:
            found.interfaces[name] = dict(zip(NET_DEV_COLUMNS, map(int, m.group("values").split()), strict=True))
            found.lines[name] = number
    if not found.interfaces:
        raise ParseError("expected /proc/net/dev: the 'Inter-|' heading and a line per interface")
    return found


# `     name: value`; a name may hold `: ` (`[0]: rx_bytes`, `rxq0: rx_pkts`) or spaces
# (vmxnet3 `TSO pkts tx`): the value is after the last `: `
_STAT = re.compile(r"^[ \t]*(?P<name>\S(?:[^\n]*\S)?):[ \t]+(?P<value>\d+)[ \t]*$")
_NIC = re.compile(r"^\s*NIC statistics:\s*$")


@dataclass
class EthtoolStats:
    """`ethtool -S IFACE`: the driver's counters by name, as printed (a queue block's
    counters, vmxnet3 `Tx Queue#: 0`, are prefixed with the block: `Tx Queue#: 0/TSO pkts tx`)."""

    stats: dict[str, int] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    taken_at: float | None = None


def parse_ethtool_stats(output: RawOutput) -> EthtoolStats:
    found = EthtoolStats(taken_at=getattr(output, "taken_at", None))
    block = ""
    headed = False
    for number, line in enumerate(output.text().splitlines(), 1):
        s = line.strip()
        if not s:
            continue
        if _NIC.match(line):
            if found.stats:  # a second reading pasted after the first
                break
            headed = True
            continue
        m = _STAT.match(line)
        if m is None:
            if s.endswith(":") or s.startswith(("Tx Queue#", "Rx Queue#")):
                block = s.rstrip(":")  # vmxnet3: `Tx Queue#: 0` opens a block of that queue's counters
                continue
            if not headed and not found.stats:
                continue  # a prompt or command line before the output
            raise ParseError(f"not an ethtool -S line: {s[:40]!r}", line=number)
        name = m.group("name")
        if name.startswith(("Tx Queue#", "Rx Queue#")):
            block = name
            continue
        key = f"{block}/{name}" if block else name
        if key not in found.stats:
            found.stats[key] = int(m.group("value"))
            found.lines[key] = number
    if not found.stats:
        raise ParseError("expected ethtool -S output: `name: value` counters")
    return found
