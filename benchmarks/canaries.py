"""Canary tests: false alarms on genuine fixes, and what they cost per test run.

For every sample of the suites given: the check (with canaries, as every run makes it), then the
reference fix judged; a canary alarm on a reference fix is a false alarm (there must be none),
and a sample whose check turned the canaries off is listed with the reason. Then the cost: the
reference fix's visible and hidden test runs, each once without and once with the canaries, the
order alternating from sample to sample, in the same process (the peer is the same run without
canaries). Prints the median time per run both ways, the ratio and the median added time.

A codegen suite (``--suite humaneval``) is measured by ``canaries_codegen.py``: the canary cases
of codegen's case runner, with the cost per pool check of the canonical solution's cases.

    .venv/bin/python benchmarks/canaries.py                                 # mini and project
    .venv/bin/python benchmarks/canaries.py --suite quixbugs:../shared/benchmarks/quixbugs-python \\
        --suite humanevalfix:../shared/benchmarks/humanevalpack-python
    .venv/bin/python benchmarks/canaries.py --suite humaneval \\
        --humanevalfix ../shared/benchmarks/humanevalpack-python/humanevalpack_python.jsonl

Not a pytest module: run it as a script.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from canaries_codegen import CodegenCost, buggy_solutions, codegen_section

from truepass.answers import Answer
from truepass.families.repair import languages
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.runners import runner_for
from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig
from truepass.sandbox import Limits
from truepass.sandbox.pool import ExecPool
from truepass.suites.loader import load_suite


def _timed(sample: RepairSample, files: dict[str, str], tests: dict[str, str], on: bool,
           limits: Limits) -> float:  # fmt: skip
    extra = {"canaries": True} if on else {}
    start = time.perf_counter()
    runner_for(sample).run(sample, files, tests, limits=limits, **extra)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", action="append", help="a suite spec (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="samples per suite (0: all)")
    parser.add_argument("--humanevalfix", type=Path, help="codegen: HumanEvalFix's jsonl, whose "
                        "buggy solutions are judged too (honest wrong candidates)")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=5, help="codegen: cost runs per sample")
    args = parser.parse_args()
    config = JudgeConfig(limits=Limits(timeout_s=60), reruns=0)
    off_times: list[float] = []
    on_times: list[float] = []
    codegen = CodegenCost()
    buggy = buggy_solutions(args.humanevalfix) if args.humanevalfix else {}
    stack = ExitStack()
    pool: ExecPool | None = None
    for spec in args.suite or ["mini", "project"]:
        suite = load_suite(spec)
        if suite.family == "codegen":
            pool = pool or stack.enter_context(ExecPool(workers=2))
            codegen_section(suite, pool, codegen, buggy=buggy, limit=args.limit,
                            repeats=args.repeats)  # fmt: skip
            continue
        samples = [s for s in suite.samples if isinstance(s, RepairSample)]
        samples = samples[: args.limit] if args.limit else samples
        alarms, off_notes, checked, judged = [], [], 0, 0
        for n, sample in enumerate(samples):
            check = check_sample(sample, config)
            checked += 1
            if not check.valid:
                continue
            if languages.get(sample.language).canaries and not check.canaries:
                off_notes.append(f"{sample.id}: {check.canary_note}")
            got = judge(sample, Answer(diff=sample.fix), check, config)
            judged += 1
            if "tampers-harness" in got.flags:
                alarms.append(f"{sample.id}: {got.verdict.value}: {got.details}")
            if not check.canaries:
                continue
            fixed = apply_to_sample(sample, Answer(diff=sample.fix)).files
            for tests in (sample.tests.visible, sample.tests.hidden):
                if not tests:
                    continue
                order = (False, True) if n % 2 == 0 else (True, False)
                for on in order:
                    (on_times if on else off_times).append(
                        _timed(sample, fixed, tests, on, config.limits)
                    )
        print(f"== {suite.name}: {checked} samples checked, {judged} reference fixes judged")
        print(f"canary false alarms on reference fixes: {len(alarms)}")
        for line in alarms:
            print("  ALARM", line)
        print(f"samples judged without canaries: {len(off_notes)}")
        for line in off_notes:
            print("  OFF  ", line)
    if off_times and on_times:
        _print_cost("test runs", off_times, on_times)
    stack.close()
    if codegen.on:
        _print_cost("codegen pool checks", codegen.off, codegen.on)
    return 0


def _print_cost(what: str, off_times: list[float], on_times: list[float]) -> None:
    off, on = statistics.median(off_times), statistics.median(on_times)
    added = statistics.median(b - a for a, b in zip(off_times, on_times, strict=True))
    print(f"\ncost: {len(on_times)} {what} each way; median {off * 1000:.2f} ms without "
          f"canaries, {on * 1000:.2f} ms with; ratio {on / off:.3f}; "
          f"median added {added * 1000:.2f} ms per run; total {sum(off_times):.2f} s "
          f"without, {sum(on_times):.2f} s with")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
