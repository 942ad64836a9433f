"""`ldm list-constraints -x`: the domains' constraints as XML.

Two wrappings of the same OVF-style resources (Oracle VM Server for SPARC
Developer's / Administration Guide, "Logical Domains Manager Resources and
Properties"): an `<Envelope>` document, and the `<LDM_interface>` message of
the 1.x XML interface, whose `<cmd><data>` hold the `<Envelope>`. Each domain is
a `<Content id="...">`; each resource an `<Item>` named by
`<rasd:OtherResourceType>`, with `<gprop:GenericProperty key="...">` values.
Elements are matched by local name, so namespace spellings do not matter.

Read with defusedxml: entity declarations and external references are refused.
"""

from __future__ import annotations

import re
from typing import Any

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError as XmlSyntaxError
from pydantic import ValidationError

from advisor import datafile
from advisor.errors import ParseError
from advisor.platforms.ldoms.plans.located import LocatedPlan, Where
from advisor.platforms.ldoms.plans.schema import MAX_DOMAINS, Plan

Element = Any  # an xml.etree element, as defusedxml returns it
_ROOTS = {"Envelope", "LDM_interface"}
_ITEM_TYPE = re.compile(r"<(?:[\w.-]+:)?OtherResourceType\s*>\s*([\w-]+)")
_SERVICES = {"vsw", "vds", "vds_volume", "vcc"}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _lines_of(text: str, offsets) -> list[int]:
    """Line numbers of increasing offsets, counting each stretch of text once (linear, not quadratic)."""
    lines, line, at = [], 1, 0
    for offset in offsets:
        line += text.count("\n", at, offset)
        at = offset
        lines.append(line)
    return lines


def _attr(el: Element, name: str) -> str | None:
    return next((v for k, v in el.attrib.items() if _local(k) == name), None)


def _children(el: Element, name: str) -> list[Element]:
    return [c for c in el.iter() if _local(c.tag) == name]


def _props(item: Element) -> dict[str, str]:
    """GenericProperty values and the rasd elements of one resource, by name.
    Keys are spelled both ways in the guides (dev_path, dev-path): `_` is used."""
    out: dict[str, str] = {}
    for child in item:
        name = _local(child.tag)
        text = (child.text or "").strip()
        if name == "GenericProperty":
            key = child.get("key")
            if key:
                out[key.replace("-", "_")] = text
        else:
            out[name] = text
    return out


_REFUSED = {"DTDForbidden": ("a <!DOCTYPE> declaration", "<!DOCTYPE"),
            "EntitiesForbidden": ("an entity declaration", "<!ENTITY"),
            "ExternalReferenceForbidden": ("an external reference", "<!")}
MAX_XML_CHARS = 16 << 20  # the constraints of a fully populated system are well under 1 MiB


def parse(text: str, file: str) -> LocatedPlan:
    if len(text) > MAX_XML_CHARS:
        raise ParseError(f"{len(text):,} characters of XML, more than the {MAX_XML_CHARS >> 20} Mi advisor reads; refused")
    try:
        root = SafeET.fromstring(text.encode("utf-8"), forbid_dtd=True)
    except XmlSyntaxError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise ParseError(f"not well-formed XML ({str(exc).split(':')[0]})", line=line) from None
    except DefusedXmlException as exc:
        what, mark = _REFUSED.get(type(exc).__name__, ("a declaration", "<!"))
        found = text.find(mark)
        raise ParseError(f"XML refused: {what}; advisor reads no DTD, entity or external reference",
                         line=_line_of(text, found) if found >= 0 else None) from None
    if _local(root.tag) not in _ROOTS:
        raise ParseError(f"not ldm list-constraints -x output: the root element is <{_local(root.tag)}>, "
                         "not <Envelope> or <LDM_interface>", line=1)
    item_lines = _lines_of(text, (m.start() for m in _ITEM_TYPE.finditer(text)))
    contents = _children(root, "Content")
    if len(contents) > MAX_DOMAINS:
        raise ParseError(f"{len(contents):,} domains, more than the {MAX_DOMAINS:,} advisor judges in one system; refused")
    if not contents:
        raise ParseError("no <Content> (domain) in the XML: nothing to judge", line=1)
    where: Where = {("plan",): f"{file}:1"}
    domains: list[dict[str, Any]] = []
    item_index = 0
    for content in contents:
        name = _attr(content, "id")
        if not name:
            line = item_lines[item_index] if item_index < len(item_lines) else 1
            raise ParseError("a <Content> without an id (domain name)", line=line)
        domain: dict[str, Any] = {"name": name, "vsws": [], "vnets": [], "io": [], "vdisks": 0, "vds_volumes": 0}
        roles: set[str] = {"control"} if name == "primary" else set()
        for item in _children(content, "Item"):
            line = item_lines[item_index] if item_index < len(item_lines) else None
            item_index += 1
            here = f"{file}:{line}" if line else f"{file}:1"
            props = _props(item)
            where.setdefault(("domain", name), here)
            _apply(domain, roles, props.get("OtherResourceType", ""), props, here, where)
        domain["roles"] = sorted(roles)
        domains.append(domain)
    try:
        plan = Plan.model_validate({"domains": domains})
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = err["loc"]
        dom = domains[loc[1]]["name"] if len(loc) > 1 and isinstance(loc[1], int) else None
        spot = where.get(("domain", dom, str(loc[2]))) if dom and len(loc) > 2 else None
        spot = spot or (where.get(("domain", dom)) if dom else None) or f"{file}:1"
        line = int(spot.rsplit(":", 1)[1])
        raise ParseError(f"domain {dom}: {datafile.first_error(exc, skip=2)}", line=line) from None
    return LocatedPlan(plan, where, form="xml")


def _apply(domain: dict[str, Any], roles: set[str], kind: str, props: dict[str, str], here: str, where: Where) -> None:
    name = domain["name"]
    if kind in _SERVICES:
        roles.add("service")
    if kind == "ldom_info":
        if "extended_mapin_space" in props:
            domain["extended_mapin_space"] = props["extended_mapin_space"] or None
            where[("domain", name, "extended_mapin_space")] = here
        if props.get("max_cores"):
            domain["max_cores"] = _int_or_text(props["max_cores"])
    elif kind == "cpu":
        wcore = _int_or_text(props.get("wcore", "0"))
        units = _int_or_text(props.get("AllocationUnits", ""))
        if isinstance(wcore, str) or wcore > 0:  # whole cores; a wcore that is not a count is named by the schema
            domain["cores"] = wcore
        elif units != "":
            domain["vcpus"] = units
        if props.get("max_cores"):
            domain["max_cores"] = _int_or_text(props["max_cores"])
        for field in ("cores", "vcpus"):
            where[("domain", name, field)] = here
    elif kind == "memory":
        domain["memory"] = props.get("AllocationUnits") or None
        where[("domain", name, "memory")] = here
    elif kind == "vsw":
        vsw: dict[str, Any] = {"name": props.get("service_name", ""), "net_dev": props.get("dev_path") or None,
               "inter_vnet_link": props.get("inter_vnet_link") or None, "mode": props.get("mode") or None}
        if props.get("mtu"):
            vsw["mtu"] = _int_or_text(props["mtu"])
        domain["vsws"].append(vsw)
        where[("vsw", name, vsw["name"])] = here
    elif kind == "network":
        vnet: dict[str, Any] = {"name": props.get("vnet_name", ""), "vsw": props.get("service_name", ""),
                "mtu": _int_or_text(props["mtu"]) if props.get("mtu") else None, "mode": props.get("mode") or None}
        domain["vnets"].append(vnet)
        where[("vnet", name, vnet["name"])] = here
    elif kind == "physio_device":
        roles.add("io")
        domain["io"].append(props.get("name", ""))
    elif kind == "disk":
        domain["vdisks"] += 1
    elif kind == "vds_volume":
        domain["vds_volumes"] += 1


def _int_or_text(value: str) -> int | str:
    """A count in ASCII digits; anything else (superscripts, thousands of digits) is left for the schema to name."""
    digits = value.strip()
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 18 else value
