"""The text protocol's parse, the process metrics of a trajectory and per solver, and what of
the workspace an answer leaves out (no sandbox, no model)."""

from __future__ import annotations

import pytest

from truepass.agentic.limits import AgentLimits
from truepass.agentic.metrics import process_summary
from truepass.agentic.protocol import AgentProtocol
from truepass.agentic.task import AgentTask, is_cache_path
from truepass.agentic.tools import (
    RunCommand,
    RunTests,
    Submit,
    ViewFile,
    WriteFile,
    stable,
)
from truepass.agentic.trajectory import (
    EndReason,
    ProcessMetrics,
    Step,
    Trajectory,
)
from truepass.agents.protocols import TextProtocol, task_message
from truepass.models.base import Completion
from truepass.records import AttemptRecord
from truepass.vocabulary import Verdict


def _parse(text: str) -> object:
    parsed = TextProtocol().parse(Completion(text=text, prompt_tokens=0, completion_tokens=0,
                                             latency_s=0.0, model="m"))  # fmt: skip
    return parsed.action if parsed.action is not None else parsed.error


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Look.\n```bash\ncat -n a.py\n```", RunCommand(command="cat -n a.py")),
        ("```sh\nsed -i 's/a/b/' x.py &&\n  python x.py\n```\n",
         RunCommand(command="sed -i 's/a/b/' x.py &&\n  python x.py")),
        ("```\nls\n```", RunCommand(command="ls")),
        ("Tests.\n```bash\nrun_tests\n```", RunTests()),
        ("```bash\n submit \n```", Submit()),
        ("```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```", Submit()),
        ("```python\nx = 1\n```\n```bash\nls\n```", RunCommand(command="ls")),
        ("no block at all; submit", "your reply has no fenced shell blocks, not one"),
        ("```bash\nls\n```\n```bash\npwd\n```", "your reply has 2 fenced shell blocks, not one"),
        ("```bash\n\n```", "the shell block is empty"),
        ("```bash\nrun_tests && submit\n```", RunCommand(command="run_tests && submit")),
    ],
)  # fmt: skip
def test_the_text_protocol_reads_one_shell_block(reply: str, expected: object) -> None:
    assert _parse(reply) == expected


def _step(n: int, action: object = None, changed: tuple[str, ...] = (), **kw: object) -> Step:
    return Step.model_validate({
        "step": n, "response": "", "action": action, "observation": "",
        "changed_files": list(changed), "prompt_tokens": 10, "completion_tokens": 5, **kw,
    })  # fmt: skip


def test_process_metrics_of_a_trajectory() -> None:
    steps = [
        _step(1, WriteFile(path="a.py", content="x"), ("a.py",)),
        _step(2, RunCommand(command="python -m pytest -q"), exit_code=1),
        _step(3, RunCommand(command="sed -i s/x/y/ a.py b.py"), ("a.py", "b.py"), exit_code=0),
        _step(4, None, format_error="no block"),
        _step(5, ViewFile(path="a.py")),
        _step(6, Submit()),
    ]
    m = ProcessMetrics.of(steps, cost_usd=0.25)
    assert (m.steps, m.format_errors, m.commands, m.test_runs, m.edits) == (6, 1, 2, 1, 2)
    assert m.files_touched == ["a.py", "b.py"] and m.files_rewritten == ["a.py"]
    assert not m.ran_tests_before_finish  # a.py changed after the only test run
    assert (m.prompt_tokens, m.completion_tokens, m.cost_usd) == (60, 30, 0.25)
    tested = [*steps[:3], _step(4, RunTests(), exit_code=0), _step(5, Submit())]
    assert ProcessMetrics.of(tested, None).ran_tests_before_finish
    assert ProcessMetrics.of(tested, None).cost_usd is None


def _record(solver: str, reason: EndReason | None, steps: list[Step]) -> AttemptRecord:
    meta: dict[str, object] = {}
    if reason is not None:
        metrics = ProcessMetrics.of(steps, 0.1)
        t = Trajectory(protocol=AgentProtocol.TEXT, limits=AgentLimits(), system="s", task="t",
                       steps=steps, end_reason=reason, metrics=metrics)  # fmt: skip
        meta = {"agent": t.model_dump(mode="json")}
    return AttemptRecord(suite="s", sample_id="x", defect_type="d", leakage="private",
                         solver=solver, attempt=0, verdict=Verdict.CORRECT,
                         solver_meta=meta)  # fmt: skip


def test_process_metrics_per_solver() -> None:
    edit = _step(1, WriteFile(path="a.py", content="x"), ("a.py",))
    records = [
        _record("a", EndReason.SUBMITTED, [edit, _step(2, RunTests(), exit_code=0)]),
        _record("a", EndReason.STEP_LIMIT, [edit, _step(2, edit.action, ("a.py",))]),
    ]
    summary = process_summary(records)
    assert summary is not None
    assert (summary.attempts, summary.steps, summary.edits, summary.test_runs) == (2, 2.0, 1.5, 0.5)
    assert summary.ran_tests_before_finish == 0.5 and summary.rewrote_files == 0.5
    assert summary.cost_usd == 0.1 and summary.tokens == 30.0
    assert summary.ended == {"step-limit": 0.5, "submitted": 0.5}
    assert process_summary([_record("b", None, [])]) is None  # not an agent: no summary


def test_a_malformed_agent_record_is_left_out_of_the_process_summary() -> None:
    good = _record("a", EndReason.SUBMITTED, [_step(1, RunTests(), exit_code=0)])
    bad = _record("a", EndReason.SUBMITTED, [])
    bad.solver_meta["agent"]["end_reason"] = "gave-up"  # type: ignore[index]
    summary = process_summary([good, bad])
    assert summary is not None and summary.attempts == 1
    assert process_summary([bad]) is None


def test_tool_caches_are_never_part_of_an_answer() -> None:
    assert is_cache_path(".pytest_cache/v/cache/lastfailed")
    assert is_cache_path("pkg/__pycache__/m.cpython-311.pyc") and is_cache_path("m.pyc")
    assert not is_cache_path("pytest_cache.py") and not is_cache_path("src/cache/x.py")


def test_what_the_agent_is_shown_is_stable_and_names_its_budget() -> None:
    assert stable("3 passed in 0.02s\n<object at 0x7f3a2b1c9d>") == "3 passed\n<object at 0x…>"
    task = AgentTask(files={"b.py": "", "a.py": ""}, instructions="Fix it.")
    assert task_message(task, 7) == (
        "Fix it.\n\nFiles in the project directory: a.py, b.py\n\n"
        "You have at most 7 replies; submit when you are done."
    )
