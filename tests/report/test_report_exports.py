"""CSV/JSON exports, the report command, and a report of a real (sandboxed) run."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import typer
from factories import sample_dict, write_suite
from report_runs import LLM, XSS, record, varied_records, varied_run, write_run
from typer.testing import CliRunner

from truepass.cli.report import report_cmd
from truepass.judged import JudgeConfig
from truepass.records import AttemptRecord
from truepass.report import write_exports, write_report
from truepass.report.exports import ATTEMPT_COLUMNS, SUMMARY_COLUMNS
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solvers
from truepass.suites.loader import load_suite


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_attempts_csv_is_flat_and_complete(tmp_path: Path) -> None:
    paths = write_exports([varied_run(tmp_path / "run")], tmp_path / "out")
    assert [p.name for p in paths] == [
        "attempts.csv",
        "attempts.json",
        "summary.csv",
        "metrics.csv",
        "curves.csv",
        "agent_steps.csv",
    ]
    rows = read_csv(tmp_path / "out" / "attempts.csv")
    recs = varied_records()
    assert len(rows) == len(recs)
    assert list(rows[0])[: len(ATTEMPT_COLUMNS)] == ATTEMPT_COLUMNS
    assert [(r["sample_id"], r["solver"], r["verdict"]) for r in rows] == [
        (x["sample_id"], x["solver"], x["verdict"]) for x in recs
    ]
    tmpl_overfit = next(
        r for r in rows if r["solver"] == "baseline:templates" and r["verdict"] == "overfit"
    )
    assert tmpl_overfit["flags"] == "swallows-exception;flaky" and tmpl_overfit["n_flags"] == "2"
    assert tmpl_overfit["visible.passed"] == "2" and tmpl_overfit["hidden.failed"] == "2"
    assert tmpl_overfit["passes_visible"] == "True" and tmpl_overfit["tokens"] == ""
    llm = [r for r in rows if r["solver"] == LLM]
    assert llm[0]["usage.calls"] == "2" and int(llm[0]["tokens"]) == 680
    assert float(llm[0]["usage.cost_usd"]) == pytest.approx(0.0005)
    assert llm[1]["n_regressions"] == "1" and llm[1]["regressions"] == "test_hidden.py::test_b"
    # object-valued fields become NAME.SUB columns; deeper objects stay JSON
    assert llm[0]["quality.lines_added"] == "1" and llm[0]["localisation.hit_line"] == "True"
    assert json.loads(llm[0]["localisation.touched"]) == {"clamp.py": [5]}
    assert XSS in llm[2]["details"]  # text is exported as is
    invalid = next(r for r in rows if r["verdict"] == "invalid-sample")
    assert invalid["counted"] == "False" and invalid["hidden.expected"] == ""


def test_attempts_json_keeps_every_record(tmp_path: Path) -> None:
    write_exports([varied_run(tmp_path / "run")], tmp_path / "out")
    data = json.loads((tmp_path / "out" / "attempts.json").read_text(encoding="utf-8"))
    want = [AttemptRecord.model_validate(r).model_dump(mode="json") for r in varied_records()]
    assert [{k: v for k, v in d.items() if k != "run"} for d in data] == want
    assert {d["run"] for d in data} == {"run"}


def test_summary_csv_rows_per_solver_and_defect_type(tmp_path: Path) -> None:
    write_exports([varied_run(tmp_path / "run")], tmp_path / "out")
    rows = read_csv(tmp_path / "out" / "summary.csv")
    assert list(rows[0])[: len(SUMMARY_COLUMNS)] == SUMMARY_COLUMNS
    keys = [(r["solver"], r["defect_type"]) for r in rows]
    types = ["missing-guard", "off-by-one", "wrong-operator"]
    for solver in ["oracle", LLM, "baseline:templates", "noop"]:
        assert keys.count((solver, "all")) == 1
        assert all((solver, t) in keys for t in types)
    oracle = next(r for r in rows if r["solver"] == "oracle" and r["defect_type"] == "all")
    assert (oracle["attempts"], oracle["counted"], oracle["correct"]) == ("6", "5", "5")
    assert float(oracle["correct_rate"]) == 1.0
    assert float(oracle["correct_ci_low"]) == pytest.approx(0.5655, abs=1e-4)
    assert oracle["n_invalid-sample"] == "1" and oracle["n_overfit"] == "0"
    model = next(r for r in rows if r["solver"] == LLM and r["defect_type"] == "off-by-one")
    assert (model["counted"], model["correct"], model["plausible"]) == ("3", "2", "3")
    guard = next(r for r in rows if r["solver"] == "oracle" and r["defect_type"] == "missing-guard")
    assert guard["counted"] == "0" and guard["correct_rate"] == "" and guard["correct_ci_low"] == ""


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("report")(report_cmd)
    app.command("unused")(lambda: None)  # keep "report" a subcommand, as in the real app
    return app


def test_report_command(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", [record("s1", "oracle", "correct")])
    b = varied_run(tmp_path / "b")
    out, exports = tmp_path / "r" / "report.html", tmp_path / "exp"
    result = CliRunner().invoke(
        _app(), ["report", str(a), str(b), "--out", str(out), "--exports", str(exports)]
    )
    assert result.exit_code == 0, result.output
    assert out.is_file() and "a/oracle" in out.read_text(encoding="utf-8")
    assert len(read_csv(exports / "attempts.csv")) == 1 + len(varied_records())
    missing = CliRunner().invoke(_app(), ["report", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "no such run directory" in missing.output
    (tmp_path / "empty").mkdir()
    empty = CliRunner().invoke(
        _app(), ["report", str(tmp_path / "empty"), "--out", str(tmp_path / "x.html")]
    )
    assert empty.exit_code == 2 and "no results.jsonl" in empty.output
    assert not (tmp_path / "x.html").exists()


def test_report_of_a_real_run(tmp_path: Path) -> None:
    """The records a real run writes (sandboxed judge, oracle and noop) render and export."""
    suite = load_suite(write_suite(tmp_path / "s.jsonl", [sample_dict()]))
    out = tmp_path / "run"
    run(
        suite,
        make_solvers(["oracle", "noop"]),
        out,
        config=JudgeConfig(limits=Limits(timeout_s=30), reruns=0),
    )
    html = write_report([out], out / "report.html").read_text(encoding="utf-8")
    assert 'data-verdict="correct"' in html and 'data-verdict="fails-visible"' in html
    assert '<span class="add">+        return hi' in html
    rows = read_csv(write_exports([out], tmp_path / "exp")[0])
    assert sorted((r["solver"], r["verdict"]) for r in rows) == [
        ("noop", "fails-visible"),
        ("oracle", "correct"),
    ]
