"""`ldm list-io` (3.x): which domain owns each PCIe bus, slot and SR-IOV function.

    NAME                        TYPE   BUS      DOMAIN   STATUS
    ----                        ----   ---      ------   ------
    pci_0                       BUS    pci_0    primary  IOV
    /SYS/MB/NET0/IOVNET.PF0.VF0 VF     pci_0    ldg1

DOMAIN and STATUS may be blank (a slot or function no domain owns); `-l`
adds an indented `[pci@...]` path under each row. A copy whose column
spacing was collapsed to single spaces is read by words when a row has a
word for every column. The listing names every device, so a domain it does
not name owns none: it covers the IO of all domains.
"""

from __future__ import annotations

import re

from advisor.errors import ParseError
from advisor.platforms.ldoms.parsers.ldm_records import LdmDomain, LdmListing, Record
from advisor.parsers.text import Header, numbered

_HEADER = re.compile(r"^\s*NAME\s+TYPE\s+BUS\s+DOMAIN\s+STATUS\s*$")
_RULE = re.compile(r"^[\s-]+$")


def parse(text: str) -> LdmListing:
    header: Header | None = None
    owners: dict[str, LdmDomain] = {}
    for ln in numbered(text):
        stripped = ln.text.strip()
        if header is None:
            if _HEADER.match(ln.text):
                header = Header.parse(ln.text)
            elif stripped:
                raise ParseError("expected the `NAME TYPE BUS DOMAIN STATUS` header of `ldm list-io` (3.x); "
                                 f"not read: {stripped[:40]!r}", line=ln.number)
            continue
        if not stripped or _RULE.match(stripped) or stripped.startswith("["):
            continue
        words = stripped.split()
        cells = header.split_words(stripped) if len(words) == len(header.names) else header.split_aligned(ln.text)
        owner = cells.get("DOMAIN")
        if not owner or not cells.get("TYPE"):
            continue  # owned by no domain
        domain = owners.setdefault(owner, LdmDomain(name=owner, line=ln.number, complete=False, sections={"IO"}))
        domain.io.append(Record({"dev": cells["NAME"], "type": cells["TYPE"], "bus": cells.get("BUS", "")}, ln.number))
    if header is None:
        raise ParseError("empty output")
    return LdmListing(domains=list(owners.values()), form="list-io", covers=frozenset({"IO"}))
