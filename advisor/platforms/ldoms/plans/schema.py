"""A planned LDoms configuration: what `ldm add-domain` / `ldm init-system` would build.

Both ways in, a YAML plan (docs/plans.md) and the XML of `ldm list-constraints -x`,
are read into these models; the pack's plan_facts.py turns them into the same facts a
live control domain gives.
"""

from __future__ import annotations

from collections import Counter

import re
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

_STRICT = ConfigDict(extra="forbid")
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _on_off(value: object) -> object:
    """YAML 1.1 reads a bare on/off as a boolean; a plan means the ldm word."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return value.lower() if isinstance(value, str) else value


_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)B?", re.I)
_SPEED = re.compile(r"(\d+(?:\.\d+)?)\s*([MG]?)(?:b(?:it)?(?:/s|ps)?)?", re.I)
_SPEED_UNITS = {"": 1, "M": 1, "G": 1000}


def _amount(value: object, pattern: re.Pattern[str], units: dict[str, int], example: str) -> int:
    """A plain number, or a number with a unit letter scaled by `units`."""
    if isinstance(value, bool):
        raise ValueError(f"a value like {example}")
    if isinstance(value, int):
        return value
    m = pattern.fullmatch(str(value).strip())
    if not m:
        raise ValueError(f"{value!r} is not a value like {example}")
    return int(float(m.group(1)) * units[m.group(2).upper()])


def memory_bytes(value: object) -> int:
    """`16G`, `512M`, `4096K` (ldm's size[unit]) or a number of bytes."""
    return _amount(value, _SIZE, _UNITS, "16G or 512M")


def speed_mbps(value: object) -> int:
    """`10G`, `1G`, `100M`, `25000` (Mbit/s)."""
    return _amount(value, _SPEED, _SPEED_UNITS, "10G or 1000M")


OnOff = Annotated[Literal["on", "off"], BeforeValidator(_on_off)]
OnOffAuto = Annotated[Literal["on", "off", "auto"], BeforeValidator(_on_off)]
Speed = Annotated[int, BeforeValidator(speed_mbps), Field(gt=0)]
Size = Annotated[int, BeforeValidator(memory_bytes), Field(gt=0)]
Mtu = Annotated[int, Field(ge=576, le=65535)]
Role = Literal["control", "service", "io", "guest"]


# A system holds at most a few hundred domains (128 per SPARC T-series server); far
# more is not a plan but a file meant to exhaust the reviewer.
MAX_DOMAINS = 1024

class PlanLink(BaseModel):
    """A physical NIC port a domain owns (control, service or I/O domain)."""

    model_config = _STRICT
    name: str = Field(min_length=1)  # the datalink, e.g. net0
    device: str | None = None  # the driver instance, e.g. ixgbe0
    speed: Speed | None = None
    mtu: Mtu | None = None
    mtu_max: Mtu | None = None


class PlanVsw(BaseModel):
    model_config = _STRICT
    name: str = Field(min_length=1)
    net_dev: str | None = None
    net_dev_speed: Speed | None = None  # shorthand for a link entry of the same name
    net_dev_mtu: Mtu | None = None
    mtu: Mtu = 1500  # ldm's default
    inter_vnet_link: OnOffAuto | None = None  # default: on before ldm 3.4, auto from 3.4
    mode: str | None = None


class PlanVnet(BaseModel):
    model_config = _STRICT
    name: str = Field(min_length=1)
    vsw: str = Field(min_length=1)  # `primary-vsw0` or `primary-vsw0@primary`
    mtu: Mtu | None = None  # None: follows the switch
    mode: str | None = None


class PlanVf(BaseModel):
    """An SR-IOV virtual function given to the domain."""

    model_config = _STRICT
    name: str = Field(min_length=1)  # e.g. /SYS/MB/NET0/IOVNET.PF0.VF0
    driver: str | None = None  # ixgbevf for Intel 82599 functions
    mtu: Mtu | None = None


_MANY = 1 << 16


class PlanDomain(BaseModel):
    model_config = _STRICT
    name: str = Field(min_length=1)
    roles: list[Role] = []
    # Bounds far above any SPARC system (an M6-32 has 384 cores, 3,072 threads): a larger figure is a typo.
    cores: int | None = Field(default=None, gt=0, le=_MANY)  # whole cores (ldm set-core)
    vcpus: int | None = Field(default=None, gt=0, le=_MANY)  # threads (ldm set-vcpu)
    max_cores: Annotated[int, Field(le=_MANY)] | Literal["unlimited"] | None = None
    memory: Size | None = None
    extended_mapin_space: OnOff | None = None
    vsws: list[PlanVsw] = []
    vnets: list[PlanVnet] = []
    links: list[PlanLink] = []
    vfs: list[PlanVf] = []
    io: list[str] = []  # root complexes or PCIe slots assigned (ldm add-io)
    vdisks: int = Field(default=0, ge=0)  # virtual disks, each one LDC to its service domain
    vds_volumes: int = Field(default=0, ge=0)  # volumes this domain's disk service exports

    @model_validator(mode="before")
    @classmethod
    def _role(cls, data: object) -> object:
        """`role: control` is `roles: [control]`."""
        if isinstance(data, dict) and "role" in data:
            data = dict(data)
            role = data.pop("role")
            data["roles"] = [role] if isinstance(role, str) else role
        return data


class Hardware(BaseModel):
    model_config = _STRICT
    model: str | None = None  # as psrinfo -pv names it, e.g. SPARC-T5
    threads_per_core: int | None = Field(default=None, gt=0)


class Software(BaseModel):
    model_config = _STRICT
    ldm: str | None = None  # Oracle VM Server for SPARC, e.g. "3.4"
    solaris: str | None = None  # "11.4", "11.3" or "10"
    sru: int | None = Field(default=None, ge=0)
    patches: dict[str, int] | None = None  # Solaris 10: {"150031": 7}

    @field_validator("ldm", "solaris", mode="before")
    @classmethod
    def _text(cls, value: object) -> object:
        return str(value) if isinstance(value, (int, float)) else value

    @field_validator("solaris")
    @classmethod
    def _release(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"1[01](?:\.\d+)?", value):
            raise ValueError("a Solaris release like 11.4 or 10")
        return value


class Plan(BaseModel):
    model_config = _STRICT
    format: Literal["advisor-plan/1"] = "advisor-plan/1"
    host: str | None = None  # the name the report gives the planned system
    hardware: Hardware = Hardware()
    software: Software = Software()
    constraints: str | None = None  # an `ldm list-constraints -x` file the domains come from
    domains: list[PlanDomain] = Field(default=[], max_length=MAX_DOMAINS)

    @model_validator(mode="after")
    def _unique(self) -> "Plan":
        names = [d.name for d in self.domains]
        twice = sorted(n for n, times in Counter(names).items() if times > 1)
        if twice:
            raise ValueError(f"domain {twice[0]} is planned twice")
        return self
