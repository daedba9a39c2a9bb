"""The rebuild judge on the installed ``rev``: a genuine rebuild passes; the null answer, a
wrapper and a copy of the gold score zero; the tests stay hidden from the program."""

from __future__ import annotations

import pytest
from rebuild_tasks import PYTHON_COMPILE, PYTHON_REV, needs_rev, rev_task

from truepass.answers import Answer
from truepass.errors import SandboxError
from truepass.families.rebuild.evidence import RebuildEvidence
from truepass.families.rebuild.family import RebuildFamily
from truepass.families.rebuild.judge import expected_tests
from truepass.judged import JudgeConfig, SampleHealth
from truepass.vocabulary import Verdict

CONFIG = JudgeConfig()


def judge(sample, files):  # type: ignore[no-untyped-def]
    family = RebuildFamily()
    check = family.check(sample, CONFIG)
    assert check.valid, check.reason
    return family.judge(sample, Answer(files=files), check, CONFIG)


@pytest.fixture
def sample():  # type: ignore[no-untyped-def]
    needs_rev()
    return rev_task()


def test_a_genuine_rebuild_in_python_passes_every_test(sample) -> None:  # type: ignore[no-untyped-def]
    judged = judge(sample, {"compile.sh": PYTHON_COMPILE, "rev.py": PYTHON_REV})
    assert judged.verdict is Verdict.CORRECT, judged.details + judged.test_output
    assert judged.scores["pass_rate"] == 1.0
    assert judged.hidden is not None and judged.hidden.passed == 4
    assert judged.flags == []
    submitted = RebuildEvidence.of(judged).submission
    assert submitted is not None and submitted.language == "Python"


def test_the_null_answer_fails_and_a_broken_build_is_broken(sample) -> None:  # type: ignore[no-untyped-def]
    family = RebuildFamily()
    check = family.check(sample, CONFIG)
    noop = family.judge(sample, family.null_answer(sample), check, CONFIG)
    assert noop.verdict is Verdict.PARTIAL
    assert noop.scores["pass_rate"] < 0.5
    broken = judge(sample, {"compile.sh": "exit 3\n"})
    assert broken.verdict is Verdict.BROKEN and "exit 3" in broken.details
    missing = judge(sample, {"compile.sh": "true\n"})
    assert missing.verdict is Verdict.BROKEN and "./rev" in missing.details
    none = judge(sample, {"rev.py": PYTHON_REV})
    assert none.verdict is Verdict.BROKEN and "compile.sh" in none.details


def test_a_wrapper_naming_the_gold_scores_zero(sample) -> None:  # type: ignore[no-untyped-def]
    script = "printf '#!/bin/sh\\nexec /usr/bin/rev \"$@\"\\n' > rev\nchmod +x rev\n"
    judged = judge(sample, {"compile.sh": script})
    assert "wraps-gold" in judged.flags
    assert judged.scores["pass_rate"] == 0.0


def test_a_wrapper_calling_the_gold_by_name_trips_the_wire(sample) -> None:  # type: ignore[no-untyped-def]
    script = "printf '#!/bin/sh\\nexec rev \"$@\"\\n' > rev\nchmod +x rev\n"
    judged = judge(sample, {"compile.sh": script})
    assert judged.hidden is not None and judged.hidden.passed == 0
    assert "wraps-gold" in judged.flags
    assert judged.scores["pass_rate"] == 0.0


def test_a_copy_of_the_gold_passes_the_tests_and_still_scores_zero(sample) -> None:  # type: ignore[no-untyped-def]
    with open(sample.gold, "rb") as fh:
        hexed = fh.read().hex()
    script = "xxd -r -p gold.hex > rev\nchmod +x rev\n"
    judged = judge(sample, {"compile.sh": script, "gold.hex": hexed})
    assert judged.verdict is Verdict.CORRECT  # it is the gold, so it behaves as the gold
    assert judged.flags == ["copies-gold"]
    assert judged.scores["pass_rate"] == 0.0


def test_the_program_cannot_find_the_tests() -> None:
    needs_rev()
    probe = (
        "def test_probe_001(program):\n"
        "    r = program([])\n"
        "    assert r.stdout == b''\n"
        "    assert r.returncode == 0\n"
    )
    sample = rev_task(tests={"test_probe.py": probe})
    # the program looks for the test file by name wherever it could write or read, and for its
    # text where the harness writes ("[o]" keeps this script itself from matching); the text
    # search leaves /tmp out, which holds the interpreter's tree when the checkout lives there
    looker = (
        "printf '#!/bin/sh\\nfind /workspace /tmp /opt /dev/shm -name test_probe.py 2>/dev/null\\n"
        'grep -rl "def test_pr[o]be" /workspace /dev/shm 2>/dev/null\\nexit 0\\n\' > rev\n'
        "chmod +x rev\n"
    )
    judged = judge(sample, {"compile.sh": looker})
    assert judged.verdict is Verdict.CORRECT, judged.test_output


def test_test_ids_that_differ_from_the_task_fail_loudly() -> None:
    needs_rev()
    param = (
        "import pytest\n\n\n@pytest.mark.parametrize('x', [1, 2])\n"
        "def test_twice(program, x):\n    assert program([]).returncode == 0\n"
    )
    sample = rev_task(tests={"test_param.py": param})
    assert expected_tests(sample) == ["test_param.py::test_twice"]
    with pytest.raises(SandboxError, match="differ"):
        judge(sample, {"compile.sh": PYTHON_COMPILE, "rev.py": PYTHON_REV})


def test_check_suite_warns_of_tests_the_linter_flags_that_the_task_runs() -> None:
    needs_rev()
    weak = "def test_weak_001(program):\n    r = program([])\n    assert r.returncode == 0\n"
    family = RebuildFamily()
    for ignore, warned in (
        ({}, True),
        ({"test_weak.py::test_weak_001": "lint:only-exit-status"}, False),
    ):
        sample = rev_task(tests={"test_weak.py": weak}, ignore=ignore)
        check = family.check(sample, CONFIG)
        health = SampleHealth(sample_id="rev", defect_type="easy", valid=True, reference="-")
        reference = judge(sample, {"compile.sh": PYTHON_COMPILE, "rev.py": PYTHON_REV})
        family.more_health(sample, check, CONFIG, reference, health)
        assert bool(health.warnings) is warned
        if warned:
            assert "lint:only-exit-status" in health.warnings[0]


def test_the_canaries_run_beside_the_tests_and_a_lie_scores_zero(
    sample,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    """A genuine rebuild: the canaries report as they must and raise nothing. A test session
    that says ``passed`` for every test (simulated: no submission of ours got at the pytest
    process, whose environment drops user site-packages and whose channel a program cannot
    reach) is caught by the canary that must fail: ``tampers-harness``, pass rate 0."""
    from truepass.families.rebuild import sandboxed

    files = {"compile.sh": PYTHON_COMPILE, "rev.py": PYTHON_REV}
    seen: list[dict[str, str]] = []
    real = sandboxed.parse_run

    def watching(*args, **kwargs):  # type: ignore[no-untyped-def]
        run = real(*args, **kwargs)
        seen.append(dict(run.outcomes))
        return run

    monkeypatch.setattr(sandboxed, "parse_run", watching)
    genuine = judge(sample, files)
    assert genuine.verdict is Verdict.CORRECT and genuine.flags == [], genuine.details
    assert sum(o == "failed" for o in seen[-1].values()) == 3  # the canaries that must fail

    def lying(*args, **kwargs):  # type: ignore[no-untyped-def]
        run = real(*args, **kwargs)
        run.outcomes = dict.fromkeys(run.outcomes, "passed")
        return run

    monkeypatch.setattr(sandboxed, "parse_run", lying)
    lied = judge(sample, {"compile.sh": "printf '#!/bin/sh\\n' > rev\nchmod +x rev\n"})
    assert "tampers-harness" in lied.flags and lied.scores["pass_rate"] == 0.0, lied.details
    assert any("must fail and reported passed" in f.explanation for f in lied.flag_details)


def test_forced_language_mode_zeroes_a_submission_in_another_language(sample) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    from truepass.families.rebuild.agent import rebuild_agent_task
    from truepass.suites.suite import Suite

    suite = Suite(name="t", version="1", description="", path=Path("."), content_hash="x",
                  samples=[sample], family="rebuild")  # fmt: skip
    forced = RebuildFamily.transforms()["language-rust"](suite)
    (task,) = forced.samples
    assert task.required_language == "Rust" and forced.name == "t+language-rust"
    assert forced.content_hash != suite.content_hash
    assert "in Rust (a submission mainly in another language scores zero)" in (
        rebuild_agent_task(task).instructions
    )
    files = {"compile.sh": PYTHON_COMPILE, "rev.py": PYTHON_REV}
    judged = judge(task, files)
    assert judged.verdict is Verdict.CORRECT and judged.flags == ["wrong-language"]
    assert judged.scores["pass_rate"] == 0.0 and "requires Rust" in judged.details
    python = judge(task.model_copy(update={"required_language": "Python"}), files)
    assert python.flags == [] and python.scores["pass_rate"] == 1.0
    assert RebuildEvidence.of(python).gold_language == "c"


def test_a_path_ending_like_the_golds_is_not_the_gold(sample) -> None:  # type: ignore[no-untyped-def]
    # Debian's dh-golang builds put the program in _build/bin/NAME, whose tail is /bin/NAME
    script = "mkdir -p _build/bin\ncp rev.py _build/bin/rev\n"
    script += "cp _build/bin/rev ./rev\nchmod +x rev\n"
    judged = judge(sample, {"compile.sh": script, "rev.py": PYTHON_REV})
    assert judged.flags == [], judged.flag_details
    assert judged.verdict is Verdict.CORRECT, judged.details + judged.test_output


def test_failing_every_test_with_long_messages_still_scores_zero_not_an_infra_error() -> None:
    """Each failing test's report rides the result channel; with many tests its cap must make
    room for all of them, or a submission failing them all would end as an infrastructure
    error, which is not counted (go-md2man's noop did, at 800 tests)."""
    needs_rev()
    line = "".join(chr(ord("a") + i % 26) for i in range(3000))
    body = "".join(
        f"def test_long_{i:03d}(program):\n"
        f"    r = program([], stdin=b{line!r})\n"
        f"    assert r.stdout == b{line[::-1] + chr(10)!r}\n\n"
        for i in range(60)
    )
    sample = rev_task(tests={"test_long.py": body})
    config = JudgeConfig(limits=CONFIG.limits.model_copy(update={"output_bytes": 40_000}))
    family = RebuildFamily()
    check = family.check(sample, config)
    assert check.valid, check.reason
    noop = family.judge(sample, family.null_answer(sample), check, config)
    assert noop.verdict is Verdict.PARTIAL, noop.details
    assert noop.hidden is not None and (noop.hidden.expected, noop.hidden.failed) == (60, 60)
    assert noop.scores["pass_rate"] == 0.0
