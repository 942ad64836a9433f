"""How findings are built and written, held to what they were before they were made faster (issue #27)."""

from __future__ import annotations

import json

from conftest import FIXTURES, review

SAMPLED = FIXTURES / "sampled/t5-primary-30s"


def test_an_absent_load_or_rates_is_left_out_in_every_mode_and_a_present_one_kept() -> None:
    sampled = review(SAMPLED).hosts[0]
    single = sampled.model_copy(update={"rates": None, "findings": [f.model_copy(update={"load": None})
                                                                     for f in sampled.findings]})
    assert sampled.rates is not None and any(f.load is not None for f in sampled.findings)
    for data in (sampled.model_dump(), json.loads(sampled.model_dump_json())):
        assert "rates" in data and all(("load" in d) == (f.load is not None)
                                       for d, f in zip(data["findings"], sampled.findings))
    for data in (single.model_dump(), json.loads(single.model_dump_json(indent=2))):
        assert "rates" not in data and all("load" not in d for d in data["findings"])
        # every other field is written, in the model's order
        assert list(data) == [name for name in type(single).model_fields if name != "rates"]
