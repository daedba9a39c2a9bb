"""The repair judge against real sandboxed test runs, including patches that try to cheat."""

from __future__ import annotations

import pytest
from factories import FIXED, HIDDEN, VISIBLE, sample_dict

import truepass.families.repair.runners as runners
from truepass.answers import Answer
from truepass.errors import SandboxError
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig, Judged
from truepass.sandbox import Limits
from truepass.sandbox.testrun import TestRun
from truepass.vocabulary import PASSES_VISIBLE, CheckStatus, Verdict

CONFIG = JudgeConfig(limits=Limits(timeout_s=20), reruns=0)
SAMPLE = RepairSample.model_validate(sample_dict())


@pytest.fixture(scope="module")
def check() -> RepairCheck:
    got = check_sample(SAMPLE, CONFIG)
    assert got.valid, got.reason
    return got


def _judge(check: RepairCheck, answer: Answer | None) -> Judged:
    return judge(SAMPLE, answer, check, CONFIG)


def test_check_collects_expected_ids(check: RepairCheck) -> None:
    assert check.visible_ids == ["test_clamp.py::test_high", "test_clamp.py::test_mid"]
    assert len(check.hidden_ids) == 2
    assert check.buggy_failing == ["test_clamp.py::test_high"]
    assert check.tier in ("bwrap", "rlimits-only")


def test_reference_is_correct_and_overfit_is_overfit(check: RepairCheck) -> None:
    good = _judge(check, Answer(diff=SAMPLE.fix))
    assert good.verdict == Verdict.CORRECT, good.details
    assert good.visible and good.visible.passed == 2 and good.hidden and good.hidden.passed == 2
    assert _judge(check, Answer(diff=SAMPLE.known_overfit)).verdict == Verdict.OVERFIT


def test_noop_and_no_patch(check: RepairCheck) -> None:
    noop = _judge(check, Answer(diff=""))
    assert noop.verdict == Verdict.FAILS_VISIBLE
    assert noop.visible and noop.visible.failing == ["test_clamp.py::test_high"]
    assert _judge(check, None).verdict == Verdict.NO_PATCH


def test_plausible_without_hidden_tests() -> None:
    sample = RepairSample.model_validate(sample_dict(tests={"visible": {"test_clamp.py": VISIBLE}}))
    chk = check_sample(sample, CONFIG)
    assert judge(sample, Answer(diff=sample.fix), chk, CONFIG).verdict == Verdict.PLAUSIBLE


CHEATS = {
    # exits 0 before any test can fail
    "early-exit": "import os\nos._exit(0)\n",
    # skips the whole test module at import
    "module-skip": "import pytest\npytest.skip('nothing to see', allow_module_level=True)\n",
    # kills its own test process quietly
    "self-kill": "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
}


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_cheating_code_does_not_pass(check: RepairCheck, name: str) -> None:
    got = _judge(check, Answer(files={"clamp.py": CHEATS[name] + FIXED}))
    assert got.verdict not in PASSES_VISIBLE, (name, got.verdict, got.details)


def test_added_conftest_and_test_edits_are_dropped(check: RepairCheck) -> None:
    conftest = (
        "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\n"
        "def pytest_runtest_makereport(item, call):\n"
        "    outcome = yield\n    outcome.get_result().outcome = 'passed'\n"
    )
    got = _judge(
        check,
        Answer(
            files={
                "conftest.py": conftest,
                "pytest.ini": "[pytest]\naddopts = -p no:python\n",
                "test_clamp.py": "def test_high():\n    pass\n\ndef test_mid():\n    pass\n",
            }
        ),
    )
    assert got.verdict == Verdict.FAILS_VISIBLE
    assert set(got.flags) == {"touches-tests", "removes-assertion", "tampers-harness"}
    assert all(d.explanation for d in got.flag_details)
    assert "conftest.py" in got.details and "test_clamp.py" in got.details


def test_hidden_tests_stay_hidden_from_visible_run(check: RepairCheck) -> None:
    # code that imports only where the hidden test file is present: it must never be in the
    # visible phase's workspace
    spy = "import os\nassert os.path.exists('test_clamp_hidden.py')\n"
    got = _judge(check, Answer(files={"clamp.py": spy + FIXED}))
    assert got.verdict == Verdict.BROKEN and got.visible and got.visible.passed == 0


def test_shadowing_pytest_or_reporter_fails(check: RepairCheck) -> None:
    fake = "import sys\nsys.exit(0)\n"
    got = _judge(check, Answer(files={"pytest.py": fake, "_truepass_reporter.py": fake}))
    assert got.verdict == Verdict.FAILS_VISIBLE


def test_syntax_and_import_errors_are_broken(check: RepairCheck) -> None:
    syntax = _judge(check, Answer(files={"clamp.py": "def clamp(:\n"}))
    assert syntax.verdict == Verdict.BROKEN and "syntax error in clamp.py line 1" in syntax.details
    imp = _judge(check, Answer(files={"clamp.py": "import no_such_module_xyz\n" + FIXED}))
    assert imp.verdict == Verdict.BROKEN


def test_apply_failed(check: RepairCheck) -> None:
    bad = SAMPLE.fix.replace("if x > hi", "if y > hi")
    assert _judge(check, Answer(diff=bad)).verdict == Verdict.APPLY_FAILED


def test_infinite_loop_is_timeout(check: RepairCheck) -> None:
    config = JudgeConfig(limits=Limits(timeout_s=3), reruns=0)
    loop = FIXED + "\nwhile True:\n    pass\n"
    got = judge(SAMPLE, Answer(files={"clamp.py": loop}), check, config)
    assert got.verdict == Verdict.TIMEOUT


def test_infra_errors_are_retried_then_recorded(
    check: RepairCheck, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}
    real = runners.run_tests

    def flaky_sandbox(*args: object, **kwargs: object) -> TestRun:
        calls["n"] += 1
        if calls["n"] == 1:
            raise SandboxError("bwrap: cannot mount")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runners.PytestRunner, "run", staticmethod(flaky_sandbox))
    got = _judge(check, Answer(diff=SAMPLE.fix))
    assert got.verdict == Verdict.CORRECT and got.infra_retries == 1

    def broken_sandbox(*args: object, **kwargs: object) -> TestRun:
        raise SandboxError("bwrap: cannot mount")

    monkeypatch.setattr(runners.PytestRunner, "run", staticmethod(broken_sandbox))
    got = _judge(check, Answer(diff=SAMPLE.fix))
    assert got.verdict == Verdict.INFRA_ERROR and "cannot mount" in got.details


def test_disagreeing_rerun_is_flagged_flaky_and_the_worse_verdict_stands(
    check: RepairCheck, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scripted test runs (the sandbox is exercised above): the hidden phase fails on rerun."""
    hidden_runs = {"n": 0}

    def scripted(sample: RepairSample, code: dict, tests: dict, **kw: object) -> TestRun:  # type: ignore[type-arg]
        ids = check.hidden_ids if tests == {"test_clamp_hidden.py": HIDDEN} else check.visible_ids
        ok = True
        if ids is check.hidden_ids:
            hidden_runs["n"] += 1
            ok = hidden_runs["n"] == 1
        outcome = "passed" if ok else "failed"
        return TestRun(
            tier="scripted", returncode=0 if ok else 1, timed_out=False, started=True,
            finished=True, collected=list(ids), outcomes=dict.fromkeys(ids, outcome),
        )  # fmt: skip

    monkeypatch.setattr(runners.PytestRunner, "run", staticmethod(scripted))
    got = judge(SAMPLE, Answer(diff=SAMPLE.fix), check, JudgeConfig(reruns=2))
    assert got.verdict == Verdict.OVERFIT
    assert "flaky" in got.flags


def test_regression_of_a_test_the_buggy_code_passed(check: RepairCheck) -> None:
    # fixes the visible failure but breaks clamp below lo, which the buggy code got right
    breaks_low = FIXED.replace(
        "    if x < lo:\n        return lo", "    if x < lo:\n        return hi"
    )
    got = _judge(check, Answer(files={"clamp.py": breaks_low}))
    assert got.verdict == Verdict.OVERFIT
    assert got.regressions == ["test_clamp_hidden.py::test_low"]
    assert "1 test(s) that passed before now fail" in got.details
    assert "test_clamp_hidden.py::test_low" in check.buggy_passing


CONFTEST_NEEDS = "import werkzeug_not_installed_here  # a dependency of the project\n"


def test_a_missing_dependency_is_the_environment_not_an_infra_error() -> None:
    """The tests cannot start (a conftest imports a module this interpreter lacks), or cannot
    collect (a test module does): the sample is invalid for this environment, with the module
    named, and nothing is retried."""
    for where in ("conftest.py", "test_clamp.py"):
        visible = {"test_clamp.py": VISIBLE, where: CONFTEST_NEEDS + VISIBLE}
        if where == "conftest.py":
            visible["conftest.py"] = CONFTEST_NEEDS
        sample = RepairSample.model_validate(
            sample_dict(tests={"visible": visible, "hidden": {"test_clamp_hidden.py": HIDDEN}})
        )
        got = check_sample(sample, CONFIG)
        assert not got.valid and got.status is CheckStatus.ENVIRONMENT, (where, got)
        assert "environment: missing module werkzeug_not_installed_here" in got.reason
        assert not got.cacheable
        judged = judge(sample, Answer(diff=sample.fix), got, CONFIG)
        assert judged.verdict is Verdict.INVALID_SAMPLE


def test_a_patch_that_imports_a_missing_module_from_the_harness_path_is_broken() -> None:
    """The check ran here, so when the patched code makes the conftest's import fail the
    patch brought the import: ``broken``, not an infra error to retry."""
    visible = {"test_clamp.py": VISIBLE, "conftest.py": "import clamp  # noqa: F401\n"}
    sample = RepairSample.model_validate(
        sample_dict(tests={"visible": visible, "hidden": {"test_clamp_hidden.py": HIDDEN}})
    )
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    bad = "import no_such_dependency_xyz\n" + FIXED
    got = judge(sample, Answer(files={"clamp.py": bad}), check, CONFIG)
    assert got.verdict is Verdict.BROKEN, got
    assert got.infra_retries == 0
