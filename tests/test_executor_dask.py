"""``--executor dask``: a real local Dask cluster (a scheduler and two worker processes) judges
exactly as the local executor does; a worker that dies mid-job has its job run again, and every
attempt is recorded once; bad executor values and unreachable schedulers exit 2."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster, WorkerPlugin
from typer.testing import CliRunner

from truepass.cli import app
from truepass.errors import InputError
from truepass.executors import ExecutorSpec, parse_executor
from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solver
from truepass.store import Store
from truepass.suites.loader import Suite, load_suite

CONFIG = JudgeConfig(limits=Limits(timeout_s=30), reruns=0)
SAMPLES = 3
# Measured, not compared: times, and test output that prints them.
UNCOMPARED = {"duration_s", "solve_s", "test_output"}


def test_parse_executor() -> None:
    assert parse_executor("local") == ExecutorSpec("local")
    assert parse_executor("dask://10.0.0.5:8786").address == "tcp://10.0.0.5:8786"
    assert parse_executor("dask://sched.lan").address == "tcp://sched.lan:8786"
    assert parse_executor("dask://[::1]:9000").text == "dask://[::1]:9000"
    tls = parse_executor("dask+tls://sched.lan:9000")
    assert tls.address == "tls://sched.lan:9000" and tls.text == "dask+tls://sched.lan:9000"
    assert parse_executor("dask-local:2") == ExecutorSpec("dask-local", workers=2)
    for bad in ("", "dask", "dask://", "dask://h:0", "dask://h:99999", "dask-local:0",
                "dask-local:x", "tcp://h:8786", "dask://a b:1", "dask+ssl://h",
                "tls://h"):  # fmt: skip
        with pytest.raises(InputError, match="--executor"):
            parse_executor(bad)


def test_malformed_executor_exits_2_before_anything_runs(tmp_path: Path) -> None:
    got = CliRunner().invoke(app, ["run", "--suite", "mini", "--solver", "oracle", "--out",
                                   str(tmp_path / "o"), "--executor", "dask:/x"])  # fmt: skip
    assert got.exit_code == 2
    assert "--executor" in got.output and "dask://HOST:PORT" in got.output
    assert not (tmp_path / "o").exists()


def test_unreachable_scheduler_exits_2_saying_what_to_do(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    got = CliRunner().invoke(app, ["run", "--suite", "mini", "--solver", "oracle", "--out",
                                   str(tmp_path / "o"), "--limit", "1",
                                   "--executor", f"dask://127.0.0.1:{port}"])  # fmt: skip
    assert got.exit_code == 2, got.output
    assert "cannot reach the Dask scheduler" in got.output and "dask scheduler" in got.output


# --- a real cluster -------------------------------------------------------------------------


def _solvers(tmp: Path, suite: Suite) -> list[Any]:
    """oracle, noop, and replayed patches giving broken, apply-failed and no-change attempts."""
    lines = []
    for s in suite.samples[:SAMPLES]:
        code = next(iter(s.files))
        stale = f"--- a/{code}\n+++ b/{code}\n@@ -1,1 +1,1 @@\n-nowhere in the file\n+x = 1\n"
        lines += [
            {"sample_id": s.id, "id": f"{s.id}-broken", "files": {code: "def broken(:\n"}},
            {"sample_id": s.id, "id": f"{s.id}-stale", "patch": stale},
            {"sample_id": s.id, "id": f"{s.id}-empty", "patch": ""},
        ]
    patches = tmp / "patches.jsonl"
    patches.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return [make_solver("oracle"), make_solver("noop"), make_solver(f"replay:{patches}")]


def _records(out: Path) -> dict[tuple[str, str, int], dict[str, Any]]:
    """The stored attempts, keyed by (solver kind, sample, attempt), minus measured times."""
    store = Store(out / "store.sqlite")
    try:
        recs = list(store.records())
    finally:
        store.close()
    return {
        (r.solver.split(":")[0], r.sample_id, r.attempt): {
            k: v for k, v in r.model_dump().items() if k not in UNCOMPARED and k != "solver"
        }
        for r in recs
    }


def _rows(out: Path) -> list[tuple[str, str, int]]:
    with sqlite3.connect(out / "store.sqlite") as con:
        return con.execute("SELECT solver, sample_id, attempt FROM attempts").fetchall()


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("mini")


@pytest.fixture(scope="module")
def local(suite: Suite, tmp_path_factory: pytest.TempPathFactory) -> dict[Any, dict[str, Any]]:
    """The local executor's results: what every distributed run must reproduce."""
    tmp = tmp_path_factory.mktemp("local")
    out = tmp / "run"
    run(suite, _solvers(tmp, suite), out, config=CONFIG, limit=SAMPLES, executor="local")
    got = _records(out)
    verdicts = {v["verdict"] for v in got.values()}
    assert {"correct", "fails-visible", "broken", "apply-failed"} <= verdicts, verdicts
    return got


def _cluster(**scheduler_kwargs: Any) -> LocalCluster:
    return LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                        dashboard_address=None, scheduler_kwargs=scheduler_kwargs)  # fmt: skip


@pytest.fixture
def cluster() -> Iterator[Any]:
    with _cluster() as c:
        yield c


def _dask(cluster: Any) -> str:
    return "dask://" + cluster.scheduler_address.removeprefix("tcp://")


@pytest.mark.slow
def test_dask_results_equal_local_and_resume_across_executors(
    suite: Suite, local: dict[Any, dict[str, Any]], cluster: Any, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    solvers = _solvers(tmp_path, suite)
    first = run(suite, solvers, out, config=CONFIG, limit=1, executor="local")
    assert first.new_attempts == 5
    rest = run(suite, solvers, out, config=CONFIG, limit=SAMPLES, executor=_dask(cluster))
    assert (rest.resumed_attempts, rest.new_attempts) == (5, 5 * (SAMPLES - 1))
    assert _records(out) == local
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["executor"]["spec"] == _dask(cluster)
    workers = manifest["executor"]["workers"]
    assert len(workers) == 2
    assert {w["sandbox_tier"] for w in workers.values()} == {manifest["sandbox_tier"]}
    with sqlite3.connect(out / "store.sqlite") as con:
        (key,) = con.execute("SELECT value FROM meta WHERE key='run_key'").fetchone()
    assert "executor" not in key and "dask" not in key  # not part of the run's identity


class DieOnce(WorkerPlugin):
    """A worker plugin: the first judging of ``sample_id`` on any worker kills that worker's
    process outright (``os._exit``), once per cluster (an exclusive marker file)."""

    name = "truepass-test-die-once"

    def __init__(self, marker: str, sample_id: str) -> None:
        self.marker, self.sample_id = marker, sample_id

    def setup(self, worker: Any) -> None:
        from truepass.families.repair.family import RepairFamily

        original = RepairFamily.judge
        marker, target = self.marker, self.sample_id

        def judge(family: Any, sample: Any, *args: Any) -> Any:
            if sample.id == target:
                try:
                    fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                except FileExistsError:
                    pass
                else:
                    os.write(fd, str(os.getpid()).encode())
                    os.close(fd)
                    os._exit(1)
            return original(family, sample, *args)

        RepairFamily.judge = judge  # type: ignore[method-assign]

    def teardown(self, worker: Any) -> None:
        return None


def _kill_once(cluster: Any, marker: Path, sample_id: str) -> None:
    with Client(cluster, set_as_default=False) as client:
        client.register_plugin(DieOnce(str(marker), sample_id))


@pytest.mark.slow
def test_worker_death_mid_job_reruns_the_job_and_counts_it_once(
    suite: Suite, local: dict[Any, dict[str, Any]], cluster: Any, tmp_path: Path
) -> None:
    marker = tmp_path / "died"
    _kill_once(cluster, marker, suite.samples[1].id)
    out = tmp_path / "run"
    result = run(suite, _solvers(tmp_path, suite), out, config=CONFIG, limit=SAMPLES,
                 executor=_dask(cluster))  # fmt: skip
    assert marker.exists(), "no worker died: the test proves nothing"
    assert result.new_attempts == len(local) == 5 * SAMPLES
    rows = _rows(out)
    assert len(rows) == len(set(rows)) == len(local)
    assert len((out / "results.jsonl").read_text().splitlines()) == len(local)
    assert _records(out) == local


@pytest.mark.slow
def test_a_job_dask_gives_up_on_is_infra_error_and_rerun_on_resume(
    suite: Suite, local: dict[Any, dict[str, Any]], tmp_path: Path
) -> None:
    marker = tmp_path / "died"
    target = suite.samples[2].id
    out = tmp_path / "run"
    solvers = _solvers(tmp_path, suite)
    with _cluster(allowed_failures=0) as cluster:  # the first worker death fails the job
        _kill_once(cluster, marker, target)
        result = run(suite, solvers, out, config=CONFIG, limit=SAMPLES, executor=_dask(cluster))
    assert marker.exists()
    lost = {k: v for k, v in _records(out).items() if v["verdict"] == "infra-error"}
    # The job that killed its worker, and any job queued on that worker with it (Dask counts
    # the death against every job the worker held).
    assert target in {sample for _, sample, _ in lost}, lost
    assert all("KilledWorker" in v["details"] or "gave up" in v["details"] for v in lost.values())
    assert result.new_attempts == len(local) and len(_rows(out)) == len(local)
    again = run(suite, solvers, out, config=CONFIG, limit=SAMPLES, executor="local")
    assert again.new_attempts == len(lost)
    assert _records(out) == local
