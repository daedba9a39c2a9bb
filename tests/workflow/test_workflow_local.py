"""The workflow with the embedded model, end to end from the command line (slow: a real model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from truepass.cli import app
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.solvers.sbfl import localise
from truepass.families.repair.workflow.meta import read_workflow
from truepass.judged import JudgeConfig
from truepass.sandbox import Limits
from truepass.suites.loader import load_suite

runner = CliRunner()


@pytest.mark.slow
def test_the_embedded_model_through_the_workflow_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is installed by `make test`")
    out = tmp_path / "run"
    got = runner.invoke(app, [
        "run", "--suite", "mini", "--limit", "2", "--solver", "workflow:local:smollm2",
        "--workflow-candidates", "3", "--max-tokens", "256", "--out", str(out),
        "--cache", str(tmp_path / "cache.sqlite"), "--timeout", "30", "--reruns", "0",
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    records = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == 2
    samples = {s.id: s for s in load_suite("mini").samples}
    config = JudgeConfig(limits=Limits(timeout_s=30), reruns=0)
    for rec in records:
        assert rec["solver"] == "workflow:local:smollm2#c3"
        assert rec["verdict"] not in ("infra-error", "invalid-sample"), rec["details"]
        flow, candidates = read_workflow(rec["solver_meta"])
        assert flow.counts.generated == len(candidates) == 3
        assert rec["usage"]["calls"] == 3 + (flow.explanation is not None)
        assert flow.selection.reason is not None
        assert "candidates_judged" in rec["scores"]

        # stage 1 is the template baseline's localisation (no stack trace in these samples'
        # failures: assertion errors in the tests), scored against the fault lines
        sample = samples[rec["sample_id"]]
        assert isinstance(sample, RepairSample)
        check = RepairFamily().check(sample, config)
        assert isinstance(check, RepairCheck)
        baseline = localise(sample, check.visible_ids, config.limits, given_fault=False)
        top = [(s.file, s.line) for s in baseline.lines[:5]]
        assert [(s.file, s.line) for s in flow.localisation.suspects] == top
        assert flow.stage1.top5 is not None and flow.stage1.fault_rank is not None
