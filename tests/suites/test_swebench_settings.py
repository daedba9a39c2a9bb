"""SWE-bench's two settings on the small real repository of test_swebench.py: ``issue-only``
(the default: nothing of ``test_patch`` reaches a solver) and ``tests-shown``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from test_swebench import CONFTEST, F2P, OPS, P2P, TESTS, _diff, _load, _write, bench
from typer.testing import CliRunner

from truepass.agents.protocols import task_message
from truepass.answers import Answer
from truepass.checking import check_suite
from truepass.cli import app
from truepass.errors import SuiteError
from truepass.families.repair.adapters.swebench import load_swebench
from truepass.families.repair.adapters.swebench_settings import SweSetting, stand_in
from truepass.families.repair.agent import repair_agent_task
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.prompts import VARIANTS, build_repair_messages
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.testrun import build_argv
from truepass.judged import JudgeConfig
from truepass.patches.apply import apply_diff
from truepass.prompts.guard import PromptLeakError, check_no_leaks
from truepass.sandbox import Limits
from truepass.suites.loader import load_suite
from truepass.vocabulary import Verdict

__all__ = ["bench"]  # the fixture, shared with test_swebench.py

CONFIG = JudgeConfig(limits=Limits(timeout_s=30), reruns=0)
BROKEN_ADD = OPS.replace("return a + b", "return a - b")
SHOWN_PASSING = ["tests/test_ops.py::test_add", "tests/test_ops.py::test_clamp_low"]


@pytest.fixture(scope="module")
def issue(bench: dict[str, object]) -> RepairSample:
    return _load(bench, "issue.jsonl", SweSetting.ISSUE_ONLY)


@pytest.fixture(scope="module")
def checked(issue: RepairSample) -> RepairCheck:
    return check_sample(issue, CONFIG)


def _new_text(sample: RepairSample, bench: dict[str, object]) -> list[str]:
    """The lines ``test_patch`` adds that the repository at base does not already hold."""
    test_patch = str(bench["instance"]["test_patch"])  # type: ignore[index]
    base = {ln.strip() for text in [*sample.files.values(), *sample.tests.visible.values()]
            for ln in text.splitlines()}  # fmt: skip
    added = [ln[1:].strip() for ln in test_patch.splitlines() if ln.startswith("+")]
    new = [ln for ln in added if ln and not ln.startswith("++") and ln not in base]
    assert len(new) >= 5  # the fixture's test_patch: new tests, a fixture in conftest
    return new


def test_issue_only_is_the_repository_at_base(issue: RepairSample) -> None:
    assert issue.meta["setting"] == "issue-only"
    assert issue.files["calc/ops.py"] == OPS
    # every file test_patch touches is a test file, shown at base, hidden as patched
    assert issue.tests.visible == {"tests/conftest.py": CONFTEST, "tests/test_ops.py": TESTS}
    assert set(issue.tests.hidden) == {"tests/conftest.py", "tests/test_ops.py"}
    assert "def limits" in issue.tests.hidden["tests/conftest.py"]
    assert "def test_clamp_high" in issue.tests.hidden["tests/test_ops.py"]
    assert not set(issue.files) & set(issue.test_files)
    assert issue.tests.visible_role == "regression"
    assert issue.tests.expected is not None and issue.tests.expected.visible is None
    assert issue.tests.expected.hidden == F2P + P2P
    assert apply_diff(issue.files, issue.fix)["calc/ops.py"].count("return hi") == 1
    assert [(f.file, f.lines) for f in issue.fault] == [("calc/ops.py", [9])]


def test_no_prompt_and_no_agent_workspace_holds_test_patch_text(
    bench: dict[str, object], issue: RepairSample, checked: RepairCheck
) -> None:
    new = _new_text(issue, bench)
    shown = []
    for variant in VARIANTS:
        messages = build_repair_messages(
            issue,
            variant,
            failing_output=checked.buggy_output,
            token_budget=1_000_000,
            count_tokens=len,
        )
        shown.append("\n".join(m["content"] for m in messages))
        assert "def add(a, b)" in shown[-1] and "pass on this code" in shown[-1]
        assert ("clamp() returns x" in shown[-1]) is (variant != "code-only")
    task = repair_agent_task(issue)
    shown += [*task.files.values(), task.instructions, task_message(task, 30)]
    shown.append(task.test_command or "")
    assert set(task.files) == set(issue.files) | {"tests/conftest.py", "tests/test_ops.py"}
    assert "they pass now" in task.instructions
    leaked = [ln for ln in new for text in shown if ln in text]
    assert leaked == []


def test_the_answer_key_holds_test_patch_text_and_the_guard_refuses_it(
    bench: dict[str, object], issue: RepairSample, checked: RepairCheck
) -> None:
    key = RepairFamily().answer_key(issue)
    for line in _new_text(issue, bench):
        if len(line) >= 12:
            assert key.found_in(line), line
    messages = build_repair_messages(
        issue,
        "description",
        failing_output=checked.buggy_output,
        token_budget=1_000_000,
        count_tokens=len,
    )
    check_no_leaks(messages, key, issue.id)  # the prompt as built is clean
    leaky = [*messages[:-1], {**messages[-1], "content": messages[-1]["content"]
             + "\n    assert clamp(x, *limits) == want\n"}]  # fmt: skip
    with pytest.raises(PromptLeakError, match=r"hidden test tests/test_ops\.py"):
        check_no_leaks(leaky, key, issue.id)
    helper = [{**messages[-1], "content": "def limits():\n    return (0, 10)"}]
    with pytest.raises(PromptLeakError, match=r"hidden test tests/conftest\.py"):
        check_no_leaks(helper, key, issue.id)


def test_issue_only_verdicts_in_the_sandbox(issue: RepairSample, checked: RepairCheck) -> None:
    assert checked.valid, checked.reason
    # the shown tests that pass on the buggy code and on the fix (not test_known_broken)
    assert checked.visible_ids == SHOWN_PASSING
    assert checked.hidden_ids == sorted(F2P + P2P)
    # the hidden run has the patched conftest (its `limits` fixture): the fix resolves
    assert judge(issue, Answer(diff=issue.fix), checked, CONFIG).verdict is Verdict.CORRECT
    # nothing changed: every shown test passes, the issue's tests fail
    noop = judge(issue, Answer(diff=""), checked, CONFIG)
    assert noop.verdict is Verdict.OVERFIT and noop.hidden is not None
    assert set(noop.hidden.failing) == set(F2P)
    broken = judge(issue, Answer(files={"calc/ops.py": BROKEN_ADD}), checked, CONFIG)
    assert broken.verdict is Verdict.FAILS_VISIBLE
    assert broken.visible is not None and broken.visible.failing == ["tests/test_ops.py::test_add"]


def test_check_suite_accepts_the_null_answer_passing_the_shown_tests(
    bench: dict[str, object],
) -> None:
    path = _write(bench["root"], "issue.jsonl", bench["instance"])  # type: ignore[arg-type]
    health = check_suite(load_suite(f"swebench:{path}"), config=CONFIG, jobs=1)
    (h,) = health.samples
    assert h.valid and h.reference == "correct" and h.noop == "overfit" and not h.problems, h
    assert health.setting == "issue-only"


def test_both_settings_load_from_the_same_file(bench: dict[str, object], tmp_path: Path) -> None:
    path = _write(bench["root"], "both.jsonl", bench["instance"])  # type: ignore[arg-type]
    issue, shown = load_suite(f"swebench:{path}"), load_suite(f"swebench-tests-shown:{path}")
    assert (issue.setting, shown.setting) == ("issue-only", "tests-shown")
    assert [s.id for s in issue.samples] == [s.id for s in shown.samples] == ["acme__calc-1"]
    assert issue.content_hash != shown.content_hash  # runs of the two never mix
    samples, source = load_swebench(path, SweSetting.TESTS_SHOWN)
    assert shown.samples == samples and shown.content_hash == hashlib.sha256(source).hexdigest()
    (s,) = shown.samples
    assert s.meta["setting"] == "tests-shown" and s.tests.visible == s.tests.hidden
    assert "def limits" in s.files["tests/conftest.py"]
    assert issue.samples[0].tests != s.tests and issue.samples[0].description == s.description
    # an imported suite keeps its setting
    got = CliRunner().invoke(
        app, ["import", "swebench-tests-shown", str(path), "--out", str(tmp_path / "s")]
    )
    assert got.exit_code == 0, got.output
    assert 'setting = "tests-shown"' in (tmp_path / "s" / "suite.toml").read_text()
    again = load_suite(tmp_path / "s")
    assert again.setting == "tests-shown" and again.samples == shown.samples


@pytest.fixture(scope="module")
def created(bench: dict[str, object]) -> RepairSample:
    """An instance whose test_patch only creates a test module."""
    repo: Path = bench["repo"]  # type: ignore[assignment]
    module = "tests/test_clamp_high.py"
    test_patch = _diff(repo, {module: NEW_MODULE})
    ids = [f"{module}::test_clamp_high[11-10]", f"{module}::test_clamp_high[99-10]"]
    return _load(
        bench,
        "created.jsonl",
        SweSetting.ISSUE_ONLY,
        test_patch=test_patch,
        FAIL_TO_PASS=ids,
        PASS_TO_PASS=[f"{module}::test_mid"],
    )


NEW_MODULE = """import pytest

from calc import clamp


@pytest.mark.parametrize("x, want", [(11, 10), (99, 10)])
def test_clamp_high(x, want):
    assert clamp(x, 0, 10) == want


def test_mid():
    assert clamp(5, 0, 10) == 5
"""


def test_a_created_module_is_shown_as_its_nearest_test_module(created: RepairSample) -> None:
    # test_ops.py and test_other.py share "test_" with it; the first by path stands in
    assert created.tests.visible == {"tests/test_ops.py": TESTS}
    assert set(created.tests.hidden) == {"tests/test_clamp_high.py"}
    assert "tests/test_ops.py" not in created.files and "tests/conftest.py" in created.files
    assert created.test_command is not None
    assert created.test_command[-2:] == ["tests/test_clamp_high.py", "tests/test_ops.py"]
    # each phase runs the modules it holds (pytest would stop at a path it cannot find)
    assert build_argv(created, sorted(created.tests.visible))[-1] == "tests/test_ops.py"
    assert build_argv(created, sorted(created.tests.hidden))[-1] == "tests/test_clamp_high.py"
    assert "test_clamp_high" not in repair_agent_task(created).test_command  # type: ignore[operator]
    check = check_sample(created, CONFIG)
    assert check.valid, check.reason
    assert check.visible_ids == SHOWN_PASSING
    assert judge(created, Answer(diff=created.fix), check, CONFIG).verdict is Verdict.CORRECT
    assert judge(created, Answer(diff=""), check, CONFIG).verdict is Verdict.OVERFIT


def test_the_stand_in_is_the_nearest_test_module_by_name() -> None:
    base = {
        "pkg/tests/test_io.py": "",
        "pkg/tests/test_parse.py": "",
        "pkg/tests/data/x.json": "",
        "tests/test_top.py": "",
        "pkg/core.py": "",
    }
    assert stand_in(base, "pkg/tests/test_parser.py", set()) == "pkg/tests/test_parse.py"
    assert stand_in(base, "pkg/tests/unit/test_new.py", set()) == "pkg/tests/test_io.py"
    assert stand_in(base, "pkg/test_new.py", set()) is None  # pkg/ and the root hold none
    assert stand_in(base, "tests/deep/test_new.py", set()) == "tests/test_top.py"
    assert stand_in(base, "tests/test_new.py", {"tests/test_top.py"}) is None


def test_an_instance_with_no_test_module_to_stand_in_is_refused(
    bench: dict[str, object],
) -> None:
    repo: Path = bench["repo"]  # type: ignore[assignment]
    test_patch = _diff(repo, {"calc/test_new.py": NEW_MODULE})  # calc/ and the root hold none
    inst = {
        **bench["instance"],  # type: ignore[dict-item]
        "test_patch": test_patch,
        "FAIL_TO_PASS": ["calc/test_new.py::test_clamp_high[11-10]"],
        "PASS_TO_PASS": ["calc/test_new.py::test_mid"],
    }
    path = _write(bench["root"], "none.jsonl", inst)  # type: ignore[arg-type]
    with pytest.raises(SuiteError, match=r"creates calc/test_new\.py, and the repository has no"):
        load_swebench(path)
    (s,), _ = load_swebench(path, SweSetting.TESTS_SHOWN)
    assert s.tests.visible == s.tests.hidden and json.dumps(s.meta["setting"]) == '"tests-shown"'
