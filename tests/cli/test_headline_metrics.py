"""A run's end shows the family's headline metrics beside the verdict table (repair: the
similarity to the reference fix, the exact-match rate and the composite scores, issue 28), and
summary.json and the report carry them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import ClassVar

from typer.testing import CliRunner

from truepass.cli import app
from truepass.families.capabilities import headline_metrics

runner = CliRunner()


class _Plain:
    def metrics(self, records: list[object]) -> dict[str, float]:
        return {}


class _Charted(_Plain):
    main_metrics: ClassVar[tuple[str, ...]] = ("bleu",)


class _Both(_Charted):
    headline_metrics: ClassVar[tuple[str, ...]] = ("similarity",)


def test_headline_metrics_are_declared_else_the_charted_ones_else_none() -> None:
    assert headline_metrics(_Both()) == ("similarity",)
    assert headline_metrics(_Charted()) == ("bleu",)
    assert headline_metrics(_Plain()) == ()


def test_a_repair_run_ends_with_similarity_and_composite_beside_the_verdicts(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    got = runner.invoke(app, ["run", "--suite", "mini", "--limit", "3", "--solver", "oracle",
                              "--solver", "noop", "--out", str(out), "--check-cache", "off"],
                        terminal_width=200)  # fmt: skip
    assert got.exit_code == 0, got.output
    verdicts = got.output.index("truepass: mini")
    headline = got.output.index("repair: headline metrics")
    assert verdicts < headline < got.output.index("repair metrics")
    table = got.output[headline : got.output.index("repair metrics")]
    header = next(line for line in table.splitlines() if "similarity" in line)
    assert header.split() == ["solver", "similarity", "exact_match", "composite[prototype]",
                              "composite[production-review]"]  # fmt: skip
    rows = {line.split()[0]: line for line in table.splitlines() if line.split()[:1] in
            (["oracle"], ["noop"])}  # fmt: skip
    # the oracle submits the reference fix: similarity 1 and an exact match on every sample
    assert rows["oracle"].split()[1:5] == ["1", "[1–1]", "1", "[1–1]"]
    assert rows["noop"].split()[3:5] == ["0", "[0–0]"]  # the empty patch never matches
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    oracle = next(s for s in summary["solvers"] if s["solver"] == "oracle")["metrics"]
    assert oracle["similarity"] == 1.0 and oracle["exact_match"] == 1.0
    assert {"composite[prototype]", "composite[production-review]"} <= set(oracle)
    html = (out / "report.html").read_text(encoding="utf-8")
    for name in ("similarity", "exact_match", "composite[prototype]",
                 "composite[production-review]"):  # fmt: skip
        row = re.search(rf'<tr data-family-metric="{re.escape(name)}">(.*?)</tr>', html)
        assert row is not None, name
        cells = re.findall(r'<td class="num">([^<]*)</td>', row.group(1))
        assert len(cells) == 2 and all(re.fullmatch(r"\d\.\d{3} \[.*\]", c) for c in cells)
