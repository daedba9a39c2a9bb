"""The codegen part of ``canaries.py``: canary cases in the execution pool, false alarms and cost.

For every sample of a codegen suite: the check, then the canonical solution, the null answer
(the prompt alone: an honest wrong candidate) and, with ``--humanevalfix``, HumanEvalFix's
buggy solution of the same HumanEval problem (another honest wrong one) judged as the judge
always does, with canaries; a ``tampers-harness`` flag on any of them is a false alarm. Then
the cost: the canonical solution's cases, as the judge sends them, checked ``repeats`` times
without and with canaries, the order alternating, in the same process and pool.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from truepass.answers import Answer
from truepass.families.codegen.family import CodegenFamily
from truepass.families.codegen.judge import check_codegen, judge_codegen
from truepass.families.codegen.schema import SOLUTION_FILE, CodegenSample
from truepass.sandbox.pool import Case, ExecPool
from truepass.suites.literals import parse_literal
from truepass.suites.suite import Suite


@dataclass
class CodegenCost:
    """Seconds per pool check of the same cases without (``off``) and with (``on``) canaries."""

    off: list[float] = field(default_factory=list)
    on: list[float] = field(default_factory=list)


def buggy_solutions(path: Path) -> dict[str, str]:
    """HumanEvalFix's buggy solutions by HumanEval sample id (``HumanEval-N``)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        out[f"HumanEval-{record['task_id'].split('/')[1]}"] = (
            record["declaration"] + record["buggy_solution"]
        )
    return out


def _cases(sample: CodegenSample, expected: dict[str, list[str]], timeouts: dict) -> list[Case]:
    return [
        Case(c.arguments(fresh=False), parse_literal(want, fresh=False), limit)
        for phase, cases in (("visible", sample.tests.visible), ("hidden", sample.tests.hidden))
        if cases
        for c, want, limit in zip(cases, expected[phase], timeouts[phase], strict=True)
    ]


def _timed(pool: ExecPool, sample: CodegenSample, cases: list[Case], on: bool) -> float:
    start = time.perf_counter()
    result = pool.check(sample.reference_code, sample.entry_point, cases, atol=sample.atol,
                        int_is_float=True, canaries=on)  # fmt: skip
    took = time.perf_counter() - start
    if not result.passed or result.canary_lies:
        raise AssertionError(f"{sample.id}: the canonical solution did not pass: {result}")
    return took


def codegen_section(
    suite: Suite, pool: ExecPool, cost: CodegenCost, *, buggy: dict[str, str], limit: int,
    repeats: int,
) -> None:  # fmt: skip
    """Print the false alarms on ``suite``'s samples and add the cost runs to ``cost``."""
    family = CodegenFamily()
    samples = [s for s in suite.samples if isinstance(s, CodegenSample)]
    samples = samples[:limit] if limit else samples
    alarms, judged, checked, invalid = [], 0, 0, 0
    verdicts: dict[str, Counter[str]] = {}
    for n, sample in enumerate(samples):
        check = check_codegen(sample, pool)
        checked += 1
        if not check.valid:
            invalid += 1
            continue
        answers = {"canonical": family.reference_answer(sample), "noop": family.null_answer(sample)}
        if sample.id in buggy:
            answers["buggy"] = Answer(files={SOLUTION_FILE: buggy[sample.id]})
        for name, answer in answers.items():
            got = judge_codegen(sample, answer, check, pool)
            judged += 1
            verdicts.setdefault(name, Counter())[got.verdict.value] += 1
            if "tampers-harness" in got.flags:
                alarms.append(f"{sample.id} {name}: {got.verdict.value}: {got.details}")
        cases = _cases(sample, check.expected, check.timeouts)
        for r in range(repeats):
            order = (False, True) if (n + r) % 2 == 0 else (True, False)
            for on in order:
                (cost.on if on else cost.off).append(_timed(pool, sample, cases, on))
    print(f"== {suite.name} (codegen): {checked} samples checked ({invalid} invalid), "
          f"{judged} answers judged (canonical, noop{', buggy' if buggy else ''})")  # fmt: skip
    for name, counts in verdicts.items():
        print(f"  {name}: {dict(sorted(counts.items()))}")
    print(f"canary false alarms: {len(alarms)}")
    for line in alarms:
        print("  ALARM", line)
