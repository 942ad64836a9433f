"""The rates a host report carries (`rates` in the JSON, issue #29): what two
samples of the host's counters say, per link, per virtual switch port or
channel and per CPU. Made from the host's facts (advisor.facts.traffic);
present only when the capture held two samples."""

from pydantic import BaseModel

from advisor.facts import traffic


class TrafficRate(BaseModel):
    name: str  # `net0`; a port or channel as its kstat names it, `vsw:0:vswldc0x3`
    kind: str  # link or port
    interval_s: float | None
    in_bps: float | None
    out_bps: float | None
    line_bps: float | None
    in_line_share: float | None  # of the line rate, 0..1
    out_line_share: float | None
    in_pps: float | None
    out_pps: float | None
    drops_per_s: float | None
    no_buffer_per_s: float | None
    lso_share: float | None  # of packets sent, 0..1
    wrapped: list[str]  # 32-bit counters that went round once: their delta is still right
    reasons: dict[str, str]  # a value's name -> why it is null


class CpuRate(BaseModel):
    name: str
    interval_s: float | None
    busy: float | None  # 0..1
    reasons: dict[str, str]


class Rates(BaseModel):
    samples: str | None = None  # the files the two samples were read from
    interval_s: float | None
    cpu_busy: float | None  # the captured domain's CPUs together (a service domain's CPU busy), 0..1
    tcp_lso_share: float | None  # TCP data segments sent by LSO, 0..1
    links: list[TrafficRate]
    ports: list[TrafficRate]
    cpus: list[CpuRate]
    reasons: dict[str, str]

    @classmethod
    def of(cls, facts: traffic.Rates | None) -> "Rates | None":
        if facts is None:
            return None
        data = facts.dump()
        for entry in (*data["links"], *data["ports"], *data["cpus"]):
            entry.pop("evidence", None)
        data["samples"] = data.pop("evidence").get("samples")
        return cls.model_validate(data)
