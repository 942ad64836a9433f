"""Odd but parseable outputs never crash the facts builder or the engine."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.collect.offline import Loader
from advisor.engine import packs
from advisor.engine.evaluate import Engine
from advisor.pipeline import review_capture
from conftest import CAPTURES, examples
from test_fuzz_parsers import mutate

ENGINE = Engine(packs.load())
BUNDLES = ["t5-primary-untuned", "t5-primary-tuned", "s11-guest-untuned", "s10-guest-untuned", "x4270-s10-untuned",
           "ovm-dom0-untuned", "ovm-dom0-tuned", "ovm-dom0-pinned", "linux-gw-untuned", "hpux-rx6600-untuned",
           "hpux-rp4440-tuned", "hpux-rx6600-lanscan-v", "linux-82599-5gts-x4"]


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_bundle_is_reviewed_without_crashing(data: st.DataObject) -> None:
    source = CAPTURES / data.draw(st.sampled_from(BUNDLES))
    with tempfile.TemporaryDirectory() as tmp:
        bundle = Path(tmp) / source.name
        shutil.copytree(source, bundle)
        files = sorted(p for p in bundle.iterdir() if p.name != "kstat-p.txt")
        for path in data.draw(st.lists(st.sampled_from(files), min_size=1, max_size=3, unique=True)):
            path.write_text(mutate(path.read_text(), data))
        with Loader() as loader:
            for capture in loader.load(bundle):
                report = review_capture(capture, ENGINE)
                assert report.results
