"""The entry points of truepass's groups are read once and kept by a fingerprint of the installed
distributions: what comes back is what importlib.metadata reads, and loads the same objects."""

from __future__ import annotations

import collections
import json
import os
from importlib import metadata
from pathlib import Path

import pytest

from truepass import plugins


def test_the_kept_entry_points_are_importlib_metadatas() -> None:
    everything = metadata.entry_points()
    want = sorted((ep.name, ep.value, ep.group) for g in plugins.GROUPS
                  for ep in everything.select(group=g))  # fmt: skip
    plugins._all_entry_points.cache_clear()
    first = sorted((ep.name, ep.value, ep.group) for ep in plugins._all_entry_points())
    plugins._all_entry_points.cache_clear()
    again = sorted((ep.name, ep.value, ep.group) for ep in plugins._all_entry_points())
    assert first == again == want


def test_an_entry_point_loads_what_it_names() -> None:
    assert plugins.EntryPoint("d", "json:dumps", "g").load() is json.dumps
    assert plugins.EntryPoint("j", "os.path:join [extra]", "g").load() is os.path.join
    fromkeys = plugins.EntryPoint("f", "collections:OrderedDict.fromkeys", "g").load()
    assert fromkeys == collections.OrderedDict.fromkeys
    assert plugins.EntryPoint("m", "json", "g").load() is json


def test_the_fingerprint_changes_with_the_distributions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = plugins._distributions_fingerprint()
    dist = tmp_path / "extra_pkg-1.0.dist-info"
    dist.mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    with_dist = plugins._distributions_fingerprint()
    (dist / "entry_points.txt").write_text("[truepass.commands]\nx = m:f\n")
    with_points = plugins._distributions_fingerprint()
    assert len({before, with_dist, with_points}) == 3
