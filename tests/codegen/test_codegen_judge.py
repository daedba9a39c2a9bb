"""The codegen judge through the real warm sandbox pool, and `--suite humaneval` end to end."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from truepass.answers import Answer
from truepass.families.codegen.evidence import CodegenEvidence
from truepass.families.codegen.judge import check_codegen, judge_codegen
from truepass.families.codegen.schema import CodegenSample
from truepass.runner import run
from truepass.sandbox.pool import DEFAULT_FLOOR_S, ExecPool
from truepass.solvers import make_solvers
from truepass.suites.loader import load_suite
from truepass.vocabulary import Verdict

PROMPT = 'def clamp(x: int, low: int, high: int) -> int:\n    """x limited to [low, high]."""\n'
CANONICAL = "    return max(low, min(x, high))\n"


def sample(**over: object) -> CodegenSample:
    data: dict[str, object] = {
        "family": "codegen",
        "id": "clamp",
        "prompt": PROMPT,
        "entry_point": "clamp",
        "canonical_solution": CANONICAL,
        "tests": {
            "visible": [{"args": "5, 0, 10"}, {"args": "-1, 0, 10", "expected": "0"}],
            "hidden": [{"args": "11, 0, 10"}, {"args": "3, 3, 3"}],
        },
        "source": "written for truepass tests",
        "leakage": "private",
    }
    data.update(over)
    return CodegenSample.model_validate(data)


@pytest.fixture(scope="module")
def pool() -> ExecPool:  # type: ignore[misc]
    with ExecPool(workers=2) as p:
        yield p


def answer(body: str, head: str = PROMPT) -> Answer:
    return Answer(files={"solution.py": head + body})


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        (CANONICAL, Verdict.CORRECT),
        ("    return x\n", Verdict.FAILS_VISIBLE),
        ("    return max(low, x)\n", Verdict.OVERFIT),  # passes visible, fails 11 -> 10
        ("    return max(low, min(x, high)\n", Verdict.BROKEN),
        ("    raise ImportError('x')\n", Verdict.FAILS_VISIBLE),
        ("    while True:\n        pass\n", Verdict.TIMEOUT),
        ("    return x\n\n\nwhile True:\n    pass\n", Verdict.TIMEOUT),  # loops while loading
    ],
)
def test_verdicts(pool: ExecPool, body: str, verdict: Verdict) -> None:
    s = sample()
    check = check_codegen(s, pool)
    assert check.valid, check.reason
    assert check.expected["visible"] == ["5", "0"] and check.expected["hidden"] == ["10", "3"]
    assert all(t >= DEFAULT_FLOOR_S for t in check.timeouts["visible"])
    got = judge_codegen(s, answer(body), check, pool)
    assert got.verdict == verdict, got.details


def test_failing_case_is_reported(pool: ExecPool) -> None:
    s = sample()
    got = judge_codegen(s, answer("    return x\n"), check_codegen(s, pool), pool)
    failed = CodegenEvidence.of(got).failed_case
    assert failed is not None
    assert failed["args"] == "-1, 0, 10"
    assert failed["expected"] == "0" and failed["got"] == "-1"
    assert got.visible is not None and got.visible.passed == 1 and not got.visible.ok


def test_candidate_equality_tricks_fail(pool: ExecPool) -> None:
    s = sample()
    check = check_codegen(s, pool)
    always_equal = (
        "class Anything(int):\n    def __eq__(self, other):\n        return True\n"
        "    __hash__ = int.__hash__\n\n\n"
    )
    got = judge_codegen(s, answer("    return Anything(0)\n", always_equal + PROMPT), check, pool)
    assert got.verdict == Verdict.FAILS_VISIBLE
    as_bool = judge_codegen(s, answer("    return x > 0\n"), check, pool)
    assert as_bool.verdict == Verdict.FAILS_VISIBLE  # True is not 5


def test_wrong_expected_value_makes_the_sample_invalid(pool: ExecPool) -> None:
    bad = sample(tests={"visible": [{"args": "5, 0, 10", "expected": "6"}]})
    check = check_codegen(bad, pool)
    assert not check.valid and "expects 6" in check.reason
    assert judge_codegen(bad, answer(CANONICAL), check, pool).verdict == Verdict.INVALID_SAMPLE


def test_a_canonical_solution_failing_a_hidden_case_names_the_phase_and_case(
    pool: ExecPool,
) -> None:
    bad = sample(
        canonical_solution="    return 1 // (x - 11) * 0 + max(low, min(x, high))\n",
        tests={"visible": [{"args": "5, 0, 10"}], "hidden": [{"args": "3, 3, 3"},
                                                              {"args": "11, 0, 10"}]},
    )  # fmt: skip
    check = check_codegen(bad, pool)
    assert not check.valid
    assert check.reason.startswith("hidden cases: canonical solution failed on input 1: ")
    assert "ZeroDivisionError" in check.reason


def test_a_canonical_solution_that_does_not_load_makes_the_sample_invalid(pool: ExecPool) -> None:
    check = check_codegen(sample(canonical_solution="    return max(low,\n"), pool)
    assert not check.valid
    assert check.reason.startswith("canonical solution is broken: ")


def test_no_code_is_no_patch(pool: ExecPool) -> None:
    s = sample()
    check = check_codegen(s, pool)
    got = judge_codegen(s, Answer(no_patch=True, meta={"parse_detail": "nothing"}), check, pool)
    assert got.verdict == Verdict.NO_PATCH and got.details == "nothing"


def test_run_with_replayed_answers(tmp_path: Path) -> None:
    suite_file = tmp_path / "suite.jsonl"
    suite_file.write_text(json.dumps(sample().model_dump(exclude_none=True)) + "\n")
    patches = tmp_path / "answers.jsonl"
    patches.write_text(
        json.dumps({"sample_id": "clamp", "files": {"solution.py": PROMPT + "    return x\n"}})
        + "\n"
    )
    suite = load_suite(suite_file)
    solvers = make_solvers(["oracle", "noop", f"replay:{patches}"], {"clamp"})
    result = run(suite, solvers, tmp_path / "out")
    verdicts = {s.solver: s.overall.verdicts for s in result.summary.solvers}
    assert verdicts["oracle"] == {"correct": 1}
    assert verdicts["noop"] == {"fails-visible": 1}
    assert verdicts[f"replay:{patches}"] == {"fails-visible": 1}
    lines = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    replayed = next(json.loads(x) for x in lines if json.loads(x)["solver"].startswith("replay"))
    assert replayed["failed_case"]["got"] == "-1"


@pytest.mark.slow
def test_humaneval_oracle_passes_all_and_noop_none(tmp_path: Path) -> None:
    suite = load_suite("humaneval")
    assert suite.family == "codegen" and len(suite.samples) == 164
    result = run(suite, make_solvers(["oracle", "noop"]), tmp_path / "he")
    by = {s.solver: s for s in result.summary.solvers}
    assert by["oracle"].overall.verdicts == {"correct": 164}
    assert by["oracle"].pass_at_k == by["oracle"].pass_at_k_visible == {"pass@1": 1.0}
    assert by["noop"].overall.plausible == 0
    assert by["noop"].pass_at_k_visible == {"pass@1": 0.0}


def test_a_syntax_error_is_broken_and_says_where(pool: ExecPool) -> None:
    s = sample()
    got = judge_codegen(
        s, answer("    return max(low, min(x, high)\n"), check_codegen(s, pool), pool
    )
    assert got.verdict == Verdict.BROKEN
    assert got.details.startswith("syntax error line 3:"), got.details


def test_judge_time_is_the_checks_own_not_the_wait_for_a_worker(pool: ExecPool) -> None:
    """With every worker busy, an attempt waits for one; its duration_s leaves that out."""
    s = sample()
    check = check_codegen(s, pool)
    slow = "    import time\n    t = time.time()\n    while time.time() - t < 0.15:\n        pass\n"
    slow += "    return max(low, min(x, high))\n"
    busy = [
        threading.Thread(target=judge_codegen, args=(s, answer(slow), check, pool))
        for _ in range(2)
    ]
    for t in busy:
        t.start()
    time.sleep(0.05)  # both workers are now running the slow checks
    started = time.monotonic()
    got = judge_codegen(s, answer(CANONICAL), check, pool)
    waited = time.monotonic() - started
    for t in busy:
        t.join()
    assert got.verdict == Verdict.CORRECT
    assert got.duration_s < waited  # the wait for a worker is not counted


def test_the_family_builds_a_samples_cases_once_per_run(pool: ExecPool) -> None:
    from truepass.families.codegen.family import CodegenFamily

    family = CodegenFamily()
    s = sample()
    check = check_codegen(s, pool)
    first = family._cases_of(s, check)
    assert [c.args for c in first] == [[5, 0, 10], [-1, 0, 10], [11, 0, 10], [3, 3, 3]]
    assert family._cases_of(s, check) is first  # the next attempt sends the same cases
    other = check_codegen(s, pool)  # another check of the sample: its cases are built anew
    kept = family._cases_of(s, other)
    assert kept is not first and family._cases_of(s, other) is kept
    family.close()  # the run ends: its cases are dropped
    assert family._cases == {}
    assert family._cases_of(s, other) is not kept
