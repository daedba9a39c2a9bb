"""Repository-level (repair) judging: warm test runners against cold ones and bare pytest.

Per judged attempt of the reference fix (visible tests, hidden tests, and a rerun of both: four
pytest runs with the default ``JudgeConfig``), in one process and interleaved per sample:

* ``bare``: the same four pytest runs with nothing of truepass: ``python -m pytest -q -p
  no:cacheprovider TESTS`` with ``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``, outside any sandbox, each
  in a fresh temporary directory holding the reference fix and the phase's tests (laying the
  files out is not timed);
* ``cold``: truepass's judge, every test run in a sandbox of its own (``run_sandboxed``);
* ``warm``: truepass's judge, every test run forked from a warm sandboxed pytest worker
  (``truepass.sandbox.testpool``); the pool is started before timing (its start is shown apart).

Each attempt of a sample is a paired round (benchmarks/rounds.py): the three run back to back,
the order rotating. Prints the median time per attempt of each, their ratios (medians of the
per-round ratios), and whether the verdicts agree (cold and warm must give the same verdict; bare
"passes" when all four runs exit 0); then, per suite, the rounds with the load average and the
cores other work kept busy (the sandboxes' and the warm pool's CPU time counted as this
process's own), and an UNRELIABLE line for every run whose cores other work took. Then, on the
public benchmarks given with ``--agreement`` (default: QuixBugs and HumanEvalFix from
../shared/benchmarks when present), checks every sample and judges its reference fix and its
unchanged code warm and cold, and lists every verdict or phase result that differs (there must
be none).

    .venv/bin/python benchmarks/repo_judging.py                       # mini, project, agreement
    .venv/bin/python benchmarks/repo_judging.py --limit 10 --agreement none
    .venv/bin/python benchmarks/repo_judging.py --suites project --repeat 3

Timings on a shared 2-core machine are noisy: compare figures of the same run only.
Not a pytest module: run it as a script.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import (
    Timing,
    adopt_orphans,
    by_tool,
    median_ratio,
    reap_orphans,
    report,
    rotation,
    timed,
)

from truepass.answers import Answer
from truepass.families.repair import languages, runners
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.testrun import warm_pool_key
from truepass.judged import JudgeConfig, Judged
from truepass.sandbox import testpool
from truepass.suites.loader import load_suite
from truepass.vocabulary import Verdict

SHARED = Path(__file__).resolve().parents[2] / "shared" / "benchmarks"
AGREEMENT = {
    "quixbugs": SHARED / "quixbugs-python",
    "humanevalfix": SHARED / "humanevalpack-python",
}
CONFIG = JudgeConfig()  # reruns=1: visible, hidden, then both again for a passing attempt


def use(warm: bool) -> None:
    """Every Python test run of this process warm (True) or cold (False)."""
    runner = languages.get("python").runner()
    assert isinstance(runner, runners.PytestRunner)
    runner.warm = warm


def bare_args(sample: RepairSample, tests: dict[str, str]) -> list[str]:
    """pytest's arguments as truepass gives them, without its reporter."""
    command = sample.test_command
    if command is None:
        return sorted(tests)
    start = 1 if Path(command[0]).name == "pytest" else 3
    return list(command[start:])


def bare_attempt(sample: RepairSample) -> tuple[float, bool]:
    """Seconds of the four pytest processes, and whether all four exited 0."""
    fixed = apply_to_sample(sample, Answer(diff=sample.fix)).files
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    phases = [sample.tests.visible] + ([sample.tests.hidden] if sample.tests.hidden else [])
    total, ok = 0.0, True
    for tests in phases * 2:
        with tempfile.TemporaryDirectory(prefix="truepass-bare-") as tmp:
            for name, text in {**fixed, **tests}.items():
                path = Path(tmp, name)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            began = time.monotonic()
            done = subprocess.run(
                [*argv, *bare_args(sample, tests)], cwd=tmp, env=env, capture_output=True,
                check=False,
            )  # fmt: skip
            total += time.monotonic() - began
            ok = ok and done.returncode == 0
    return total, ok


def judged_attempt(sample: RepairSample, check: RepairCheck, warm: bool) -> tuple[float, Judged]:
    use(warm)
    began = time.monotonic()
    got = judge(sample, Answer(diff=sample.fix), check, CONFIG)
    return time.monotonic() - began, got


@dataclass
class SuiteTimes:
    name: str
    bare: list[float] = field(default_factory=list)
    cold: list[float] = field(default_factory=list)
    warm: list[float] = field(default_factory=list)
    agree: int = 0  # cold and warm verdicts equal
    bare_agree: int = 0  # bare passes exactly when truepass says correct or plausible
    attempts: int = 0
    disagreements: list[str] = field(default_factory=list)
    timings: list[Timing] = field(default_factory=list)  # one per method and round

    def ratio(self, a: str, b: str) -> float:
        """The median of the per-round ratios ``a / b``."""
        have = by_tool(self.timings)
        return median_ratio(have.get(a, []), have.get(b, [])) or float("nan")


def time_suite(name: str, limit: int | None, repeat: int) -> SuiteTimes:
    suite = load_suite(name)
    samples = [s for s in suite.samples if isinstance(s, RepairSample)][:limit]
    out = SuiteTimes(suite.name)
    use(True)
    checks = {s.id: check_sample(s, CONFIG) for s in samples}
    samples = [s for s in samples if checks[s.id].valid]
    methods: list[tuple[str, Callable[[RepairSample], object]]] = [
        ("bare", bare_attempt),
        ("cold", lambda s: judged_attempt(s, checks[s.id], False)),
        ("warm", lambda s: judged_attempt(s, checks[s.id], True)),
    ]
    for sample in samples:
        for _ in range(repeat):
            n = out.attempts  # the round
            results: dict[str, object] = {}
            for label, method in rotation(methods, n):  # each method goes first in turn
                results[label], timing = timed(label, n, lambda m=method, s=sample: m(s))
                seconds = results[label][0]  # type: ignore[index]
                out.timings.append(replace(timing, seconds=seconds))  # the method's own
            reap_orphans()
            bare_s, bare_ok = results["bare"]  # type: ignore[misc]
            cold_s, cold = results["cold"]  # type: ignore[misc]
            warm_s, warm = results["warm"]  # type: ignore[misc]
            out.bare.append(bare_s)
            out.cold.append(cold_s)
            out.warm.append(warm_s)
            out.attempts += 1
            if cold.verdict == warm.verdict and cold.visible == warm.visible:
                out.agree += 1
            else:
                out.disagreements.append(f"{sample.id}: cold {cold.verdict.value}, warm "
                                         f"{warm.verdict.value}")  # fmt: skip
            passes = cold.verdict in (Verdict.CORRECT, Verdict.PLAUSIBLE)
            out.bare_agree += int(passes == bare_ok)
    return out


def agreement(fmt: str, path: Path, limit: int | None) -> tuple[int, int, list[str]]:
    """(attempts, agreeing, differences) of warm vs cold on a public benchmark: each sample's
    check, its reference fix and its unchanged code."""
    suite = load_suite(f"{fmt}:{path}")
    samples = [s for s in suite.samples if isinstance(s, RepairSample)][:limit]
    total, same, diffs = 0, 0, []
    for sample in samples:
        use(False)
        cold_check = check_sample(sample, CONFIG)
        use(True)
        warm_check = check_sample(sample, CONFIG)
        total += 1
        if _check_key(cold_check) != _check_key(warm_check):
            diffs.append(f"{sample.id}: check differs: cold {cold_check.status} "
                         f"{cold_check.reason!r}, warm {warm_check.status} "
                         f"{warm_check.reason!r}")  # fmt: skip
        else:
            same += 1
        for label, answer in (
            ("reference", Answer(diff=sample.fix)),
            ("unchanged", Answer(diff="")),
        ):
            use(False)
            cold = judge(sample, answer, cold_check, CONFIG)
            use(True)
            warm = judge(sample, answer, cold_check, CONFIG)
            total += 1
            if _judged_key(cold) == _judged_key(warm):
                same += 1
            else:
                diffs.append(f"{sample.id} {label}: cold {_judged_key(cold)}, warm "
                             f"{_judged_key(warm)}")  # fmt: skip
    return total, same, diffs


def _check_key(check: RepairCheck) -> tuple[object, ...]:
    return (check.valid, check.status, check.visible_ids, check.hidden_ids,
            check.buggy_failing, check.buggy_passing)  # fmt: skip


def _judged_key(got: Judged) -> tuple[object, ...]:
    return (got.verdict.value, got.visible, got.hidden, sorted(got.flags), got.regressions)


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suites", default="mini,project", help="bundled repair suites to time")
    parser.add_argument("--limit", type=int, default=None, help="samples per suite (default all)")
    parser.add_argument("--repeat", type=int, default=1, help="attempts per sample and method")
    parser.add_argument("--agreement", default="quixbugs,humanevalfix",
                        help="public benchmarks to compare on, or 'none'")  # fmt: skip
    parser.add_argument("--agreement-limit", type=int, default=None, help="samples of each")
    args = parser.parse_args()

    began = time.monotonic()
    idle_before = os.getloadavg()[0]
    adopt_orphans()  # the sandboxes' CPU time is this process's own
    use(True)
    started = time.monotonic()
    warmup = load_suite("mini").samples[0]
    judge(warmup, Answer(diff=warmup.fix), check_sample(warmup, CONFIG), CONFIG)
    pool_start = time.monotonic() - started
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print(f"warm pool ready and one attempt judged in {pool_start:.2f} s "
          f"(sandbox: {_pool_sandbox()})\n")  # fmt: skip

    rows = [time_suite(name, args.limit, args.repeat) for name in args.suites.split(",") if name]
    pool = testpool.shared_pool(warm_pool_key(CONFIG.limits))
    if pool is None:
        print("WARNING: the warm pool broke: 'warm' attempts ran cold")
    else:
        print(f"warm pool: {pool.runs} warm runs, {pool.restarts} workers replaced")
    print("| suite | attempts | bare | cold | warm | cold/bare | warm/bare | warm/cold "
          "| cold=warm verdicts | bare agrees |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        bare, cold, warm = _median(row.bare), _median(row.cold), _median(row.warm)
        print(f"| {row.name} | {row.attempts} | {bare:.3f} s | {cold:.3f} s | {warm:.3f} s "
              f"| {row.ratio('cold', 'bare'):.2f} | {row.ratio('warm', 'bare'):.2f} "
              f"| {row.ratio('warm', 'cold'):.2f} "
              f"| {row.agree}/{row.attempts} | {row.bare_agree}/{row.attempts} |")  # fmt: skip
    for row in rows:
        for line in row.disagreements:
            print(f"DISAGREE {row.name} {line}")
    print("(median seconds per judged attempt of the reference fix: 4 pytest runs; ratios: "
          "medians of the per-round ratios)\n")  # fmt: skip
    for row in rows:
        pairs = [("cold", "bare"), ("warm", "bare"), ("warm", "cold")]
        print("\n".join(report(row.name, row.timings, pairs, idle_before)) + "\n")

    if args.agreement != "none":
        for fmt in args.agreement.split(","):
            path = AGREEMENT.get(fmt)
            if path is None or not path.exists():
                print(f"{fmt}: no data at {path}, skipped")
                continue
            total, same, diffs = agreement(fmt, path, args.agreement_limit)
            print(f"{fmt}: warm and cold agree on {same}/{total} checks and judged attempts")
            for line in diffs:
                print(f"  DIFFERS {line}")
    print(f"\n(total {time.monotonic() - began:.0f} s)")
    testpool.close_all()


def _pool_sandbox() -> str:
    pool = testpool.shared_pool(warm_pool_key(CONFIG.limits))
    return pool.sandbox if pool is not None and pool.sandbox else "no warm pool: runs are cold"


if __name__ == "__main__":
    main()
