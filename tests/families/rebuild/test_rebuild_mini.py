"""The bundled ``rebuild-mini`` suite: its tasks are sound on this machine (the golds are the
builds the tests were recorded from), its kept tests are lint-clean and no dummy passes them,
and, end to end on ``ed`` (the smallest source package), the original source built by its own
build system in the sandbox passes every test while the null answer passes none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from truepass.families.rebuild.family import RebuildFamily
from truepass.families.rebuild.judge import expected_tests
from truepass.families.rebuild.lint import flagged_tests, lint_files
from truepass.families.rebuild.schema import RebuildSample
from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solvers
from truepass.suites.loader import load_suite

CONFIG = JudgeConfig(limits=Limits(timeout_s=60), reruns=0)


def tasks() -> list[RebuildSample]:
    suite = load_suite("rebuild-mini")
    assert suite.family == "rebuild"
    return [s for s in suite.samples if isinstance(s, RebuildSample)]


def test_the_suite_has_ten_tasks_or_more_of_more_than_one_difficulty() -> None:
    found = tasks()
    assert len(found) >= 10
    assert len({t.bucket for t in found}) >= 2
    assert len({t.package.source for t in found}) >= 4


@pytest.mark.parametrize("task", tasks(), ids=lambda t: t.id)
def test_each_task_is_sound_here(task: RebuildSample) -> None:
    check = RebuildFamily().check(task, CONFIG)
    assert check.valid, check.reason
    kept = expected_tests(task)
    assert len(kept) >= 15
    g = task.generation
    assert g.kept == len(kept) and g.coverage is not None and g.coverage > 0.3
    assert g.dummy_pass_after == 0.0
    # every test the linter flags (high severity) is ignored with its rule
    flagged = flagged_tests(lint_files(task.tests))
    for file in task.tests:
        for name, reason in flagged.items():
            assert task.ignore.get(f"{file}::{name}") == reason


def test_ed_end_to_end_the_original_passes_and_noop_scores_zero(tmp_path: Path) -> None:
    ed = next(t for t in tasks() if t.id == "ed")
    suite = tmp_path / "ed.jsonl"
    suite.write_text(json.dumps(ed.model_dump(mode="json")) + "\n", encoding="utf-8")
    run(load_suite(str(suite)), make_solvers(["oracle", "noop"]), tmp_path / "run", config=CONFIG)
    lines = (tmp_path / "run" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    by_solver = {r["solver"]: r for r in map(json.loads, lines)}
    oracle, noop = by_solver["oracle"], by_solver["noop"]
    assert oracle["verdict"] == "correct", oracle["details"] + oracle["test_output"]
    assert oracle["scores"]["pass_rate"] == 1.0 and oracle["flags"] == []
    assert oracle["submission"]["language"] == "C"
    assert noop["scores"]["pass_rate"] == 0.0 and noop["verdict"] == "partial"
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    metrics = {s["solver"]: s["metrics"] for s in summary["solvers"]}
    assert metrics["oracle"]["resolved"] == 1.0 and metrics["noop"]["resolved"] == 0.0
    assert metrics["oracle"]["original_functions"] == ed.original.functions  # type: ignore[union-attr]
