"""Runs end to end in the real sandbox: outputs, resume after SIGKILL, directory ownership."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from factories import sample_dict, write_suite

from truepass.errors import InputError
from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solver
from truepass.suites.loader import load_suite
from truepass.suites.split import Split, SplitSpec

CONFIG = JudgeConfig(limits=Limits(timeout_s=20), reruns=0)


def _suite(tmp_path: Path, n: int) -> Path:
    lines = [sample_dict(id=f"clamp-{i}", defect_type=f"type-{i % 2}") for i in range(n)]
    lines.append(sample_dict(id="already-passing", files={"clamp.py": sample_dict()["files"]
                 ["clamp.py"].replace("return lo\n    return x", "return hi\n    return x")},
                 fix="--- a/clamp.py\n+++ b/clamp.py\n@@ -1 +1 @@\n-def clamp(x, lo, hi):\n"
                 "+def clamp(x, lo, hi):  # same\n"))  # fmt: skip
    return write_suite(tmp_path / "suite.jsonl", lines)


def test_run_writes_results_summary_manifest(tmp_path: Path) -> None:
    suite = load_suite(_suite(tmp_path, 2))
    out = tmp_path / "run"
    solvers = [make_solver("oracle"), make_solver("noop")]
    result = run(suite, solvers, out, config=CONFIG, jobs=2)
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 6 and result.new_attempts == 6
    verdicts = {(x["solver"], x["sample_id"]): x["verdict"] for x in lines}
    assert verdicts[("oracle", "clamp-0")] == "correct"
    assert verdicts[("noop", "clamp-1")] == "fails-visible"
    assert verdicts[("oracle", "already-passing")] == "invalid-sample"
    first = lines[0]
    for key in ("sample_id", "solver", "attempt", "patch_id", "verdict", "flags", "visible",
                "hidden", "patch", "duration_s", "sandbox_tier"):  # fmt: skip
        assert key in first
    summary = json.loads((out / "summary.json").read_text())
    oracle = next(s for s in summary["solvers"] if s["solver"] == "oracle")
    assert oracle["overall"]["counted"] == 2 and oracle["overall"]["correct_rate"] == 1.0
    assert oracle["invalid_samples"] == ["already-passing"]
    assert set(oracle["by_defect_type"]) == {"type-0", "type-1", "wrong-return"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["suite"]["content_hash"] == suite.content_hash
    assert manifest["sandbox_tier"] in ("bwrap", "rlimits-only") and "finished" in manifest
    assert manifest["packages"]["truepass"]
    report = (out / "report.html").read_text()  # written after the manifest says finished
    assert manifest["finished"] in report and "unfinished" not in report

    written = {name: (out / name).read_bytes() for name in ("results.jsonl", "summary.json")}
    again = run(suite, solvers, out, config=CONFIG, jobs=2)
    assert again.new_attempts == 0 and again.resumed_attempts == 6
    # the first run wrote its outputs from the records it judged, the second reads them back
    # from the store: the same bytes
    assert {name: (out / name).read_bytes() for name in written} == written


def test_out_dir_of_another_suite_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(load_suite(_suite(tmp_path, 1)), [make_solver("noop")], out, config=CONFIG)
    other = load_suite(write_suite(tmp_path / "other.jsonl", [sample_dict(id="zzz")]))
    with pytest.raises(InputError, match="another suite version"):
        run(other, [make_solver("noop")], out, config=CONFIG)


def test_a_split_runs_its_samples_is_recorded_and_measured(tmp_path: Path) -> None:
    """``--split dev`` with a dev share of 0.4: by their ids' hashes clamp-2 (0.356) and clamp-4
    (0.329) are dev, clamp-1 (0.557) and clamp-3 (0.411) test. The oracle's patch is the
    reference (similarity 1, exact match, one line); noop leaves the buggy code (20 of the fix's
    21 labels of clamp)."""
    lines = [sample_dict(id=f"clamp-{i}") for i in range(1, 5)]
    suite = load_suite(write_suite(tmp_path / "suite.jsonl", lines))
    out = tmp_path / "run"
    dev = SplitSpec(split=Split.DEV, dev_share=0.4)
    run(suite, [make_solver("oracle"), make_solver("noop")], out, config=CONFIG, split=dev)
    records = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert {r["sample_id"] for r in records} == {"clamp-2", "clamp-4"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["split"] == {"split": "dev", "dev_share": 0.4, "samples": 2}
    oracle = [r for r in records if r["solver"] == "oracle"]
    perfect = {"similarity": 1.0, "exact_match": 1.0, "same_strategy": 1.0,
               "style_consistency": 1.0, "readability": 1.0}  # fmt: skip
    assert all(r["scores"] == perfect for r in oracle)
    assert all(r["patch_type"] == "single-line" for r in oracle)
    # return lo -> return hi: a name outside any condition
    assert all(r["fix_strategy"] == "adjust-algorithm" for r in oracle)
    noop = [r for r in records if r["solver"] == "noop"]
    assert all(r["scores"] == {"similarity": round(1 - 1 / 21, 4), "exact_match": 0.0}
               for r in noop)  # fmt: skip
    assert all(r["fix_strategy"] is None for r in noop)  # no change, no strategy
    summary = json.loads((out / "summary.json").read_text())
    metrics = {s["solver"]: s["metrics"] for s in summary["solvers"]}
    assert metrics["oracle"]["patch_type[single-line]"] == 1.0
    assert metrics["oracle"]["correct_rate[single-line]"] == 1.0
    assert metrics["oracle"]["fix_strategy[adjust-algorithm]"] == 1.0
    assert metrics["oracle"]["same_strategy"] == 1.0 and "same_strategy" not in metrics["noop"]
    # the oracle passes every layer of the pyramid (no branch added, in style, the reference's
    # strategy, on the fault line): every composite is 1; noop passes none
    assert metrics["oracle"]["composite[production-review]"] == 1.0
    assert metrics["noop"]["composite[prototype]"] == 0.0
    assert metrics["noop"]["similarity"] == round(1 - 1 / 21, 4)
    assert metrics["noop"]["exact_match"] == 0.0 and "patch_types_n" not in metrics["noop"]
    with pytest.raises(InputError, match="split"):
        run(suite, [make_solver("noop")], out, config=CONFIG,
            split=SplitSpec(split=Split.TEST, dev_share=0.4))  # fmt: skip


def _rows(db: Path) -> list[tuple[str, str, int]]:
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT solver, sample_id, attempt FROM attempts").fetchall()
    except sqlite3.OperationalError:
        return []


def test_sigkill_then_resume_finishes_only_what_is_missing(tmp_path: Path) -> None:
    suite = _suite(tmp_path, 8)
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "truepass.cli", "run", "--suite", str(suite), "--solver",
           "oracle", "--out", str(out), "--jobs", "1", "--reruns", "0"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while len(_rows(out / "store.sqlite")) < 2 and time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail("the run ended before it could be killed")
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _rows(out / "store.sqlite")
    assert 2 <= len(before) < 9, before
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    after = _rows(out / "store.sqlite")
    assert len(after) == len(set(after)) == 9
    assert set(before) <= set(after)
    assert f"{9 - len(before)} attempts judged, {len(before)} kept from before" in done.stdout
    results = (out / "results.jsonl").read_text().splitlines()
    assert len(results) == 9
    assert _processes_in_cgroups_of(proc.pid) == []  # the next run swept the killed run's


def _processes_in_cgroups_of(pid: int) -> list[int]:
    """Processes still inside the sandbox cgroups created by truepass process ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if f"/truepass-{pid}-" in (entry / "cgroup").read_text():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_an_unreachable_model_endpoint_stops_the_run_before_any_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from truepass.models.base import ModelUnavailable
    from truepass.solvers import LLMOptions, SolverOptions, make_solvers

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    suite = load_suite(_suite(tmp_path, 2))
    options = SolverOptions(models=LLMOptions(cache_path=tmp_path / "cache.sqlite"))
    solvers = make_solvers(["openai:nobody", "oracle"], options=options)
    with pytest.raises(ModelUnavailable, match="cannot reach the endpoint"):
        run(suite, solvers, tmp_path / "run", config=CONFIG, jobs=2, check_cache=False)
    store = sqlite3.connect(tmp_path / "run" / "store.sqlite")
    assert store.execute("SELECT count(*) FROM attempts").fetchone() == (0,)  # nothing judged
    assert store.execute("SELECT count(*) FROM sample_checks").fetchone() == (0,)  # nor checked


def test_outcomes_come_back_in_batches_of_what_has_arrived() -> None:
    from concurrent.futures import Future, ThreadPoolExecutor

    from truepass.runner import Results

    results = Results()

    def done(value: int) -> Future[int]:
        f: Future[int] = Future()
        f.set_result(value)
        return f

    with ThreadPoolExecutor(1) as pool:
        for tag in range(5):
            results.hand_off(pool, tag, lambda on_done, tag=tag: on_done(done(tag)))
        results.hand_off(pool, 2, lambda on_done: on_done(done(99)))  # a duplicate: dropped
    batches = list(results.take_batches(list(range(5)), most=2))
    assert [len(b) for b in batches] == [2, 2, 1]  # everything had arrived: full batches
    assert sorted(o.result() for b in batches for _, o in b) == [0, 1, 2, 3, 4]
