"""benchmarks/rounds.py, the paired rounds of every speed script: per-round ratios, rotation,
the UNRELIABLE rule and the others' cores of a window, on hand-computed numbers."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rounds.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_rounds", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_rounds"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


rounds = _load()


def _t(tool: str, n: int, seconds: float, others: float = 0.0, workers: int = 1):
    return rounds.Timing(tool, n, seconds, 0.0, (0.5, 0.7), others, workers)


def test_the_ratio_is_the_median_of_the_per_round_ratios() -> None:
    a = [_t("a", 0, 2.0), _t("a", 1, 4.0), _t("a", 2, 3.0), _t("a", 3, 9.0)]
    b = [_t("b", 0, 1.0), _t("b", 1, 1.0), _t("b", 2, 2.0)]  # no round 3: a's is not paired
    assert rounds.paired_ratios(a, b) == [2.0, 4.0, 1.5]
    assert rounds.median_ratio(a, b) == 2.0  # the ratio of the medians would be 3 / 1 = 3
    assert rounds.median_ratio(a, []) is None


def test_each_tool_goes_first_in_turn() -> None:
    tools = ["a", "b", "c"]
    assert [rounds.rotation(tools, r) for r in range(4)] == [
        ["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"], ["a", "b", "c"],
    ]  # fmt: skip


def test_run_rounds_runs_the_tools_back_to_back_in_rotating_order() -> None:
    calls: list[str] = []
    runs = rounds.run_rounds(
        {"ours": lambda: calls.append("ours"), "peer": lambda: calls.append("peer")},
        3, workers={"peer": 2}, before=lambda: calls.append("-"),
    )  # fmt: skip
    assert calls == ["-", "ours", "-", "peer", "-", "peer", "-", "ours", "-", "ours", "-", "peer"]
    assert [(r.tool, r.round, r.workers) for r in runs] == [
        ("ours", 0, 1), ("peer", 0, 2), ("peer", 1, 2), ("ours", 1, 1), ("ours", 2, 1),
        ("peer", 2, 2),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("others", "workers", "flagged"),
    [(1.1, 1, False), (1.3, 1, True), (0.1, 2, False), (0.3, 2, True), (2.5, 3, True)],
)
def test_a_run_is_unreliable_when_others_took_more_than_the_spare_cores(
    others: float, workers: int, flagged: bool
) -> None:
    # two cores: one spare beside one worker, none beside two or three; 0.2 cores of margin
    why = rounds.unreliable(_t("ours", 1, 1.0, others, workers), workers, cores=2)
    assert (why is not None) == flagged
    if why:
        assert why.startswith(f"ours round 2: other work kept {others:.1f} cores busy")


def test_a_window_counts_the_cpu_others_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # the machine used 3 CPU seconds in a 2-second window, this process 1: others kept 1 core
    busy, own, clock = iter([100.0, 103.0]), iter([10.0, 11.0]), iter([50.0, 52.0])
    monkeypatch.setattr(rounds, "busy_seconds", lambda: next(busy))
    monkeypatch.setattr(rounds, "own_cpu_seconds", lambda: next(own))
    monkeypatch.setattr(rounds.time, "perf_counter", lambda: next(clock))
    with rounds.Window() as window:
        pass
    got = window.timing("ours", 0)
    assert (got.seconds, got.cpu_s, got.others_cores) == (2.0, 1.0, 1.0)


def test_others_cores_never_exceed_the_machines(monkeypatch: pytest.MonkeyPatch) -> None:
    # 10 CPU seconds of others in a 2-second window (clock ticks of a short window) on 2 cores
    busy, own, clock = iter([100.0, 110.0]), iter([10.0, 10.0]), iter([50.0, 52.0])
    monkeypatch.setattr(rounds, "busy_seconds", lambda: next(busy))
    monkeypatch.setattr(rounds, "own_cpu_seconds", lambda: next(own))
    monkeypatch.setattr(rounds.time, "perf_counter", lambda: next(clock))
    monkeypatch.setattr(rounds.os, "cpu_count", lambda: 2)
    with rounds.Window() as window:
        pass
    assert window.others_cores == 2.0


def test_a_block_of_calls_gives_the_seconds_of_one() -> None:
    one = rounds.per_item(rounds.Timing("ours", 2, 3.0, 1.5, (1.0, 2.0), 0.4), 30)
    assert (one.seconds, one.cpu_s, one.others_cores, one.round) == (0.1, 0.05, 0.4, 2)


def test_an_exited_child_keeps_its_cpu_time_until_reaped_and_after() -> None:
    """A child that exited unreaped (what an adopted sandbox init is) is this process's own CPU
    time, and reaping it moves that time into RUSAGE_CHILDREN without changing the sum."""
    burn = "import time\nwhile time.process_time() < 0.3: pass"
    before = rounds.own_cpu_seconds()
    child = subprocess.Popen([sys.executable, "-c", burn])
    for _ in range(600):  # until it is a zombie (not reaped: Popen.wait is not called yet)
        if child.pid in dict(rounds._zombies()):
            break
        time.sleep(0.05)
    zombie = dict(rounds._zombies())[child.pid]
    assert zombie >= 0.29
    unreaped = rounds.own_cpu_seconds()
    assert unreaped - before >= 0.29
    child.wait()
    assert child.pid not in dict(rounds._zombies())
    assert rounds.own_cpu_seconds() >= unreaped - 0.02  # a clock tick of rounding


def test_the_report_prints_the_rounds_the_ratio_and_the_verdict() -> None:
    runs = [_t("ours", 0, 1.0), _t("peer", 0, 3.0), _t("peer", 1, 4.0, others=1.5),
            _t("ours", 1, 1.0)]  # fmt: skip
    text = "\n".join(rounds.report("demo", runs, [("peer", "ours")], 0.1))
    assert "| demo | 2 | 1.000 (0.5->0.7, 0.0) | 4.000 (0.5->0.7, 1.5) |" in text
    assert "peer / ours: 3.50x (median of the 2 per-round ratios 3.00, 4.00)" in text
    assert "UNRELIABLE (1 runs): other work took cores the tool needed: peer round 2" in text
    assert "no run shared" not in text
