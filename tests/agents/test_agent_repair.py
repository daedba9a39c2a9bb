"""``agent:MODEL`` on a repair sample, end to end: a real HTTP server replaying a scripted agent,
the real sandboxed session, runner, judge, store and response cache."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from agent_helpers import (
    CODE,
    CONFIG,
    FIX_COMMAND,
    FIXING_SCRIPT,
    HIDDEN,
    TEST,
    bash,
    options,
    run_agent,
    sample,
    trajectory,
)
from fake_openai import FakeOpenAI

from truepass.agentic.task import AgentTask
from truepass.agentic.trajectory import EndReason
from truepass.families.repair.family import RepairFamily
from truepass.judged import JudgeConfig, SampleCheck
from truepass.prompts.guard import PromptLeakError
from truepass.sandbox import Limits
from truepass.solvers import make_solvers
from truepass.solvers.base import SolveContext


def test_a_scripted_agent_fixes_the_defect_and_is_judged_correct(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    rec, result = run_agent(tmp_path, server, FIXING_SCRIPT)
    assert rec["solver"] == "agent:openai:fake#text"
    assert rec["verdict"] == "correct" and rec["flags"] == []
    assert rec["hidden"]["passed"] == rec["hidden"]["expected"] > 0
    assert rec["changed_files"] == [CODE]
    assert "+        return hi" in rec["patch"]
    assert rec["parse"] == "workspace-diff"

    meta = rec["solver_meta"]
    assert meta["end_reason"] == "submitted"
    t = trajectory(meta)
    assert t.end_reason is EndReason.SUBMITTED
    assert [s.action.tool if s.action else None for s in t.steps] == [
        "bash", "bash", "run_tests", "submit",
    ]  # fmt: skip
    read, fix, test, _ = t.steps
    assert "return lo" in read.observation and read.exit_code == 0 and read.changed_files == []
    assert fix.response.startswith("Line 13") and fix.changed_files == [CODE]
    assert test.exit_code == 0 and "3 passed" in test.observation
    assert all(s.prompt_tokens == 11 and s.completion_tokens == 7 for s in t.steps)
    m = t.metrics
    assert (m.steps, m.edits, m.test_runs, m.commands) == (4, 1, 1, 3)
    assert m.files_touched == [CODE] and m.files_rewritten == []
    assert m.ran_tests_before_finish and m.format_errors == 0
    assert (m.prompt_tokens, m.completion_tokens) == (44, 28)
    assert rec["usage"]["calls"] == 4 and rec["usage"]["cached_calls"] == 0
    assert [r["round"] for r in meta["rounds"]] == [1, 2, 3, 4]
    assert meta["rounds"][2]["feedback"] == test.observation

    # each step's request holds the conversation so far: the observation of the one before
    assert len(server.requests) == 4
    second = server.requests[1].body["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert "return lo" in second[-1]["content"] and "tools" not in server.requests[1].body

    process = result.summary.solvers[0].process
    assert process is not None and process.steps == 4.0
    assert process.ended["submitted"] == 1.0 and process.ran_tests_before_finish == 1.0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    assert summary["solvers"][0]["process"]["edits"] == 1.0
    assert not any(k.startswith("agent_") for k in summary["solvers"][0]["metrics"])

    # a rerun replays every step from the response cache: no model call, the same trajectory
    again, _ = run_agent(tmp_path, server, [], out="again")
    assert len(server.requests) == 4
    assert again["verdict"] == "correct" and again["usage"]["cached_calls"] == 4
    replayed = trajectory(again["solver_meta"])
    assert [s.response for s in replayed.steps] == [s.response for s in t.steps]
    assert all(s.cached for s in replayed.steps)


def test_an_agent_that_edits_the_visible_tests_is_flagged(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    script = [
        bash(FIX_COMMAND),
        bash(f"printf '\\n\\ndef test_mine():\\n    assert True\\n' >> {TEST}"),
        bash("submit"),
    ]
    rec, result = run_agent(tmp_path, server, script)
    assert "touches-tests" in rec["flags"]
    touched = [d for d in rec["flag_details"] if d["name"] == "touches-tests"]
    assert [d["file"] for d in touched] == [TEST]
    assert rec["solver_meta"]["agent"]["metrics"]["files_touched"] == [CODE, TEST]
    # the pristine tests judged it: correct, but not counted as correct
    assert rec["verdict"] == "correct"
    assert result.summary.solvers[0].overall.flagged_correct == 1
    assert result.summary.solvers[0].overall.correct == 0


def test_the_hidden_tests_and_the_fix_never_enter_the_workspace(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    s = sample()
    hidden_name = "test_above_with_negative_range"
    assert hidden_name in s.tests.hidden[HIDDEN]
    script = [
        bash("ls -A"),
        bash(
            "find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o "
            f"\\( -name '{HIDDEN}' -o -name '*.jsonl' \\) -print"
        ),
        # the workspace's and /tmp's own files (-xdev: not the interpreter's tree, bound under
        # /tmp when the checkout lives there, which takes longer to search than a step may)
        bash(f"find . /tmp -xdev -type f -exec grep -l {hidden_name} {{}} +; echo searched"),
        bash("submit"),
    ]
    rec, _ = run_agent(tmp_path, server, script)
    t = trajectory(rec["solver_meta"])
    listing, found, grep, _ = t.steps
    assert listing.observation_full is None
    assert listing.observation.split("<stdout>\n")[1].split("\n</stdout>")[0].split() == [
        CODE, TEST,
    ]  # fmt: skip
    assert found.exit_code is not None and HIDDEN not in found.observation
    assert ".jsonl" not in found.observation  # no suite file is reachable either
    assert grep.observation.split("<stdout>\n")[1].split("\n</stdout>")[0] == "searched"
    for request in server.requests:  # what the agent was told and shown (not what it said)
        shown = [m for m in request.body["messages"] if m["role"] != "assistant"]
        text = json.dumps(shown)
        assert hidden_name not in text and HIDDEN not in text
        assert "return hi" not in text  # the fix's line
    assert rec["verdict"] == "no-patch"
    assert rec["solver_meta"]["end_reason"] == "submitted"


def test_the_agents_commands_run_in_the_sandbox(tmp_path: Path, server: FakeOpenAI) -> None:
    marker = f"truepass-agent-{uuid.uuid4().hex}"
    script = [
        bash("id -u"),
        bash(f"echo escaped > /{marker}; echo host-root-exit=$?"),
        bash(f"echo kept > /tmp/{marker} && ls /tmp"),
        bash(
            "python -c \"import socket; s = socket.create_connection(('1.1.1.1', 80), timeout=3)"
            "; print('connected')\""
        ),
        bash("sleep 30", "This command outlives its time limit."),
        bash(f"ls /tmp/{marker}; echo tmp-exit=$?"),
        bash("submit"),
    ]
    config = JudgeConfig(limits=Limits(timeout_s=5), reruns=0)  # --timeout: per command
    rec, _ = run_agent(tmp_path, server, script, config=config)
    uid, root, tmp, net, slow, fresh_tmp, _ = trajectory(rec["solver_meta"]).steps
    assert "65534" in uid.observation
    assert "host-root-exit=0" not in root.observation
    assert not Path(f"/{marker}").exists()
    assert tmp.exit_code == 0 and not Path(f"/tmp/{marker}").exists()
    assert net.exit_code != 0 and "connected" not in net.observation.split("</status>")[1]
    assert slow.timed_out and slow.exit_code is None and slow.action_s < 30
    assert "killed after the limit of 5 s" in slow.observation
    assert "tmp-exit=0" not in fresh_tmp.observation  # each command gets an empty /tmp
    assert rec["verdict"] == "no-patch"


def test_the_workspace_is_the_answer_when_a_limit_ends_the_attempt(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    script = [bash(FIX_COMMAND), bash("ls"), bash("submit")]
    rec, _ = run_agent(tmp_path, server, script, agent_steps=2)
    assert rec["solver"] == "agent:openai:fake#text-s2"
    assert rec["solver_meta"]["end_reason"] == "step-limit"
    assert rec["verdict"] == "correct"  # the fix made in step 1 is judged
    t = trajectory(rec["solver_meta"])
    assert len(t.steps) == 2 and len(server.requests) == 2
    assert "1 step left" in t.steps[0].observation
    assert "step left" not in t.steps[1].observation  # the last step: nothing left to warn of
    assert t.limits.steps == 2


class LeakyRepair(RepairFamily):
    """A harness bug: the hidden tests put in the agent's workspace."""

    def agent_task(self, sample: Any) -> AgentTask | None:
        task = RepairFamily.agent_task(self, sample)
        assert task is not None
        return task.model_copy(update={"files": {**task.files, **sample.tests.hidden}})


def test_a_workspace_holding_the_answer_key_never_reaches_the_model(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    server.script = list(FIXING_SCRIPT)
    (solver,) = make_solvers(["agent:openai:fake"], options=options(tmp_path))
    s = sample()
    ctx = SolveContext(LeakyRepair(), CONFIG, SampleCheck(sample_id=s.id, valid=True))
    with pytest.raises(PromptLeakError, match=f"hidden test {HIDDEN}"):
        solver.solve(s, 0, ctx)
    assert server.requests == []
    ctx = SolveContext(RepairFamily(), CONFIG, SampleCheck(sample_id=s.id, valid=True))
    assert solver.solve(s, 0, ctx) is not None  # the family's own task is clean
