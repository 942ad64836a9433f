"""Facts are plain records (not pydantic models): what they must still do."""

from __future__ import annotations

import pytest

from advisor.facts.models import HostFacts, host_record
from advisor.platforms.ldoms.records import Domain, LdcChannel, VNetRef, VSwitch


def test_an_int_given_for_a_float_field_is_a_float_for_cel() -> None:
    """CEL has no implicit int-to-double: `s.cores + 0.999` fails on an int."""
    domain = Domain(name="ldg1", cores=2, memory_gb=16, vcpus=16)
    assert type(domain.cores) is float and type(domain.memory_gb) is float and type(domain.vcpus) is int
    assert domain.dump()["cores"] == 2.0 and Domain(name="x").cores is None


def test_defaults_are_fresh_for_every_record() -> None:
    one, two = Domain(name="a"), Domain(name="b")
    one.vsw_names.append("primary-vsw0")
    one.evidence["cores"] = "ldm-list-l.txt:3"
    assert two.vsw_names == [] and two.evidence == {} and Domain(name="c").vsw_names == []


def test_a_field_it_does_not_have_is_refused_when_made_or_set() -> None:
    with pytest.raises(TypeError, match="Domain has no field nmae"):
        Domain(nmae="ldg1")
    with pytest.raises(TypeError, match="LdcChannel needs instance"):
        LdcChannel(module="vnet", name="ldc0")
    facts = HostFacts(host="t5")
    with pytest.raises(AttributeError, match="HostFacts has no field solaris_mjaor"):
        facts.solaris_mjaor = 11  # type: ignore[attr-defined]


def test_dump_gives_nested_records_as_plain_data() -> None:
    vsw = VSwitch(name="primary-vsw0", domain="primary", mismatched_vnets=[VNetRef(name="vnet0", domain="ldg1", mtu=1500)])
    facts = host_record("solaris")(host="t5", vswitches=[vsw], tcp_recv_buf=1048576)
    dumped = facts.dump()
    assert dumped["vswitches"][0]["mismatched_vnets"] == [{"name": "vnet0", "domain": "ldg1", "mtu": 1500}]
    assert dumped["tcp_recv_buf"] == 1048576 and dumped["kind"] == "capture" and "evidence" not in facts.dump(exclude={"evidence"})
    again = host_record("solaris")(host="t5", tcp_recv_buf=1048576, vswitches=[
        VSwitch(name="primary-vsw0", domain="primary", mismatched_vnets=[VNetRef(name="vnet0", domain="ldg1", mtu=1500)])])
    assert facts == again
    again.vswitches[0].mismatched_vnets[0].mtu = 9000
    assert facts != again


def test_a_platform_packs_record_mixes_its_fields_into_the_hosts() -> None:
    """A pack declares its host facts in its own record (Pack.record); the host's record gains them."""
    from advisor.facts.models import Fact, HostFacts

    class Extra(Fact):
        guests_pinned: list[int] = []
        load: float | None = None

    host = type("Host", (HostFacts, Extra), {})(host="h", load=2)
    assert host.guests_pinned == [] and host.load == 2.0 and type(host.load) is float
    assert "guests_pinned" in type(host).fields() and "nodename" in type(host).fields()
    assert host.dump(only={"guests_pinned", "host"}) == {"host": "h", "guests_pinned": []}


def test_a_record_holds_its_fields_in_their_declared_order() -> None:
    """Its repr and its copies list the fields as the record declares them, whatever order they are given in."""
    from advisor.facts.models import Fact

    class Pair(Fact):
        first: str
        second: str
        ratio: float = 1
        tags: list[str] = []

    made = Pair(tags=["x"], second="b", first="a")
    assert list(vars(made)) == ["evidence", "first", "second", "ratio", "tags"]
    assert list(vars(made.clone())) == list(vars(made)) and made.clone() == made
    assert type(made.ratio) is int and type(Pair(first="a", second="b", ratio=3).ratio) is float  # a default as written
    with pytest.raises(TypeError, match="Pair needs first"):
        Pair()
