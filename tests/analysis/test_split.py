"""Dev and test splits (issue 28, item 6): a hash of the sample id, the run's manifest, and the
warning of compare when prompt variants are compared on the dev split."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import typer
from pydantic import ValidationError
from results_helpers import record, write_run
from typer.testing import CliRunner

from truepass.analysis.compare import compare_runs
from truepass.cli.compare import compare_cmd
from truepass.suites.split import Split, SplitSpec, position, select, split_of


def test_the_position_is_the_ids_sha256() -> None:
    # sha256("a") = ca978112ca1bbdca...: 0xca978112ca1bbdca / 2**64 = 0.79137...
    assert position("a") == 0xCA978112CA1BBDCA / 2**64
    assert round(position("a"), 4) == 0.7914
    assert split_of("a", 0.3) is Split.TEST and split_of("a", 0.8) is Split.DEV


class _S:
    def __init__(self, sid: str) -> None:
        self.id = sid


def test_dev_and_test_partition_the_suite_whatever_its_order() -> None:
    samples = [_S(f"sample-{i}") for i in range(2000)]
    dev = select(samples, SplitSpec(split=Split.DEV, dev_share=0.25))
    test = select(samples, SplitSpec(split=Split.TEST, dev_share=0.25))
    assert {s.id for s in dev}.isdisjoint({s.id for s in test})
    assert len(dev) + len(test) == len(samples)
    assert 0.22 < len(dev) / len(samples) < 0.28  # a hash: close to the share, not exact
    shuffled = samples[:]
    random.Random(1).shuffle(shuffled)
    again = select(shuffled, SplitSpec(split=Split.DEV, dev_share=0.25))
    assert {s.id for s in again} == {s.id for s in dev}
    # a larger dev share only adds samples to dev
    more = select(samples, SplitSpec(split=Split.DEV, dev_share=0.5))
    assert {s.id for s in dev} <= {s.id for s in more}


@pytest.mark.parametrize("share", [0.0, 1.0, -0.1])
def test_the_share_is_strictly_between_0_and_1(share: float) -> None:
    with pytest.raises(ValidationError):
        SplitSpec(split=Split.DEV, dev_share=share)


def _run(root: Path, name: str, split: dict[str, object] | None, variant: str) -> Path:
    recs = [record(f"s{i}", "correct" if i % 2 else "fails-visible", solver=f"m#{variant}",
                   solver_meta={"variant": variant}) for i in range(1, 9)]  # fmt: skip
    d = write_run(root, name, recs)
    (d / "manifest.json").write_text(json.dumps({"split": split}), encoding="utf-8")
    return d


DEV = {"split": "dev", "dev_share": 0.3, "samples": 8}


def test_compare_warns_on_variants_compared_on_the_dev_split(tmp_path: Path) -> None:
    a = _run(tmp_path, "a", DEV, "code-only")
    b = _run(tmp_path, "b", DEV, "description")
    c = compare_runs([a, b], bootstrap=50)
    assert c.arms[0].split == SplitSpec(split=Split.DEV, dev_share=0.3)
    assert c.arms[0].variants == ["code-only"]
    [warning] = c.warnings
    assert "on the dev split" in warning and "--split test" in warning

    app = typer.Typer()
    app.command("compare")(compare_cmd)
    app.callback()(lambda: None)
    got = CliRunner().invoke(app, ["compare", str(a), str(b), "--bootstrap", "50"])
    assert got.exit_code == 0, got.output
    assert "warning:" in got.output and "dev split" in " ".join(got.output.split())


def test_no_warning_on_the_test_split_or_for_one_variant(tmp_path: Path) -> None:
    test = {**DEV, "split": "test"}
    pairs = [
        ((test, "code-only"), (test, "description")),
        ((DEV, "code-only"), (DEV, "code-only")),
        ((None, "code-only"), (None, "description")),
    ]
    for i, ((sa, va), (sb, vb)) in enumerate(pairs):
        runs = [_run(tmp_path, f"a{i}", sa, va), _run(tmp_path, f"b{i}", sb, vb)]
        assert not compare_runs(runs, bootstrap=50).warnings


def test_compare_warns_on_arms_of_different_splits(tmp_path: Path) -> None:
    c = compare_runs([_run(tmp_path, "a", DEV, "code-only"),
                      _run(tmp_path, "b", None, "code-only")], bootstrap=50)  # fmt: skip
    [warning] = c.warnings
    assert "different splits" in warning and "the whole suite" in warning
