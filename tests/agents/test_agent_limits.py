"""Every limit ends an agent attempt with its recorded reason, and the workspace as it is then is
the answer (real fake-OpenAI server, real sandbox; attempts solved, not judged)."""

from __future__ import annotations

from pathlib import Path

import pytest
from agent_helpers import FIX_COMMAND, bash, options, sample, solve, trajectory
from fake_openai import FakeOpenAI, ok, status

from truepass.agentic.trajectory import EndReason
from truepass.agents.loop import ELIDED
from truepass.agents.protocols import TEXT_SYSTEM, task_message
from truepass.errors import InputError, SolverError
from truepass.families.repair.agent import repair_agent_task
from truepass.models.base import estimate_tokens
from truepass.sandbox.session import MAX_ENTRIES, SandboxSession, WorkspaceError
from truepass.solvers import make_solvers


def test_the_time_limit_cuts_a_command_short_and_ends_the_attempt(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    answer = solve(tmp_path, server, [bash(FIX_COMMAND), bash("sleep 20"), bash("ls")],
                   agent_time=1.0)  # fmt: skip
    t = trajectory(answer.meta)
    assert t.end_reason is EndReason.TIME_LIMIT and "--agent-time" in t.end_detail
    _, slow = t.steps
    assert slow.timed_out and slow.action_s < 10  # the command got what time was left
    assert t.metrics.time_s >= 1.0
    assert len(server.requests) == 2
    assert answer.diff is not None and "+        return hi" in answer.diff  # still the answer


def test_the_token_limit(tmp_path: Path, server: FakeOpenAI) -> None:
    # every fake answer counts 11 prompt and 7 completion tokens: 36 after two calls
    answer = solve(tmp_path, server, [bash("ls")] * 5, agent_tokens=30)
    t = trajectory(answer.meta)
    assert t.end_reason is EndReason.TOKEN_LIMIT
    assert len(t.steps) == 2 and len(server.requests) == 2
    assert t.metrics.prompt_tokens + t.metrics.completion_tokens == 36
    assert answer.no_patch and answer.meta["end_reason"] == "token-limit"


def test_the_cost_limit_needs_a_price_and_ends_the_attempt(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    with pytest.raises(InputError, match="--agent-cost needs the price of openai:fake"):
        make_solvers(["agent:openai:fake"], options=options(tmp_path, agent_cost=20.0))
    # at 1 USD per token a call costs 18 USD: the second one reaches 20
    priced = {"agent_cost": 20.0, "prices": ("openai:fake=1000000,1000000",)}
    answer = solve(tmp_path, server, [bash("ls")] * 5, **priced)
    t = trajectory(answer.meta)
    assert t.end_reason is EndReason.COST_LIMIT and len(t.steps) == 2
    assert t.metrics.cost_usd == 36.0 and answer.usage is not None
    assert answer.usage.cost_usd == 36.0
    (solver,) = make_solvers(["agent:openai:fake"], options=options(tmp_path, **priced))
    assert solver.name == "agent:openai:fake#text-usd20"


def test_a_model_that_refuses_for_good_ends_the_attempt_with_model_error(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    script = [bash(FIX_COMMAND), status(400, "this model's maximum context length is 8192")]
    answer = solve(tmp_path, server, script)
    t = trajectory(answer.meta)
    assert t.end_reason is EndReason.MODEL_ERROR and "maximum context length" in t.end_detail
    assert len(t.steps) == 1 and answer.diff is not None and "return hi" in answer.diff


def test_a_transient_model_failure_is_an_infra_error(tmp_path: Path, server: FakeOpenAI) -> None:
    with pytest.raises(SolverError, match="503"):
        solve(tmp_path, server, [bash("ls"), status(500), status(503)])
    assert len(server.requests) == 3  # one step, then a try and its one retry


def test_replies_without_an_action_get_a_reminder_and_end_the_attempt_in_a_row(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    script = [
        ok("I would look at the file first."),
        ok("```bash\nls\n```\nand then\n```bash\ncat clamping.py\n```"),
        ok("```python\nprint('not a shell block')\n```"),
        bash("ls"),
    ]
    t = trajectory(solve(tmp_path, server, script).meta)
    assert t.end_reason is EndReason.FORMAT_ERRORS and len(t.steps) == 3
    assert [s.format_error for s in t.steps] == [
        "your reply has no fenced shell blocks, not one",
        "your reply has 2 fenced shell blocks, not one",
        "your reply has no fenced shell blocks, not one",
    ]
    assert all(s.observation.startswith("Format error") and s.action is None for s in t.steps)
    assert "Format error" in server.requests[1].body["messages"][-1]["content"]

    server.requests.clear()
    (tmp_path / "mixed").mkdir()  # a cache of its own: the first request is the same
    mixed = [ok("hmm"), bash("ls"), ok("hmm."), ok("hmm!"), bash("submit")]  # never 3 in a row
    t = trajectory(solve(tmp_path / "mixed", server, mixed).meta)
    assert t.end_reason is EndReason.SUBMITTED and t.metrics.format_errors == 3


def _base_tokens() -> int:
    """What the system prompt and the task take (the fake endpoint's tokens are estimates)."""
    task = task_message(repair_agent_task(sample()), 30)
    return estimate_tokens(TEXT_SYSTEM + "\n" + task)


def test_old_outputs_are_elided_to_fit_the_context(tmp_path: Path, server: FakeOpenAI) -> None:
    window = _base_tokens() + 16 + 64 + 400  # room for 400 tokens of conversation
    script = [bash("seq 1 350"), bash("seq 1 150"), bash("submit")]
    t = trajectory(solve(tmp_path, server, script, max_tokens=16,
                         model_settings={"context_window": window}).meta)  # fmt: skip
    assert t.end_reason is EndReason.SUBMITTED
    assert [s.elided for s in t.steps] == [0, 0, 1]
    sent = server.requests[2].body["messages"]
    assert sent[3]["content"] == ELIDED and "\n150\n" in sent[5]["content"]
    assert "\n350\n" in t.steps[0].observation  # the trajectory keeps what was shown


def test_a_conversation_that_cannot_fit_ends_with_context_limit(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    window = _base_tokens() + 16 + 64 - 10
    answer = solve(tmp_path, server, [bash("ls")], max_tokens=16,
                   model_settings={"context_window": window})  # fmt: skip
    t = trajectory(answer.meta)
    assert t.end_reason is EndReason.CONTEXT_LIMIT and t.steps == []
    assert server.requests == [] and answer.no_patch


def test_limits_that_differ_from_the_defaults_are_in_the_solver_name(tmp_path: Path) -> None:
    opts = options(tmp_path, agent_steps=12, agent_time=90.0, agent_tokens=5000, temperature=0.5)
    (solver,) = make_solvers(["agent:openai:fake"], options=opts)
    assert solver.name == "agent:openai:fake#text-s12-t90-tok5000@t0.5"
    default = make_solvers(["agent:openai:fake"], options=options(tmp_path))
    assert [s.name for s in default] == ["agent:openai:fake#text"]
    with pytest.raises(InputError, match="agent:MODEL"):
        make_solvers(["agent:nope"], options=options(tmp_path))


def test_a_workspace_that_cannot_be_read_back_is_no_answer(
    tmp_path: Path, server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    # e.g. more files than a walk visits, where the disk is not capped (the fallback tier)
    def unreadable(self: SandboxSession) -> dict[str, str]:
        raise WorkspaceError(f"the workspace has more than {MAX_ENTRIES} entries")

    monkeypatch.setattr(SandboxSession, "snapshot", unreadable)
    answer = solve(tmp_path, server, [bash(FIX_COMMAND), bash("submit")])
    t = trajectory(answer.meta)
    assert t.end_reason is EndReason.SUBMITTED and t.steps[0].exit_code == 0
    assert t.steps[0].changed_files == []  # not seen: the workspace cannot be read
    assert answer.no_patch and "no answer: the workspace has more than" in t.end_detail


def test_a_family_gives_its_default_budget_and_options_override_each_limit(
    tmp_path: Path,
) -> None:
    from truepass.agentic.limits import AgentLimits
    from truepass.agents.options import AgentOptions
    from truepass.families.rebuild.agent import BUDGET

    # rebuild: the benchmark's budget; repair (no limits of its own): the loop's defaults
    assert (BUDGET.steps, BUDGET.time_s, BUDGET.step_time_s) == (1000, 21600.0, 180.0)
    assert (BUDGET.warn_steps, BUDGET.warn_time_s) == (20, 600.0)
    assert AgentOptions().limits(None) == AgentLimits(steps=30, time_s=600.0)
    given = AgentOptions(agent_steps=50, agent_warn_time=60.0, agent_tokens=10**6)
    mixed = given.limits(BUDGET)
    assert (mixed.steps, mixed.time_s, mixed.step_time_s) == (50, 21600.0, 180.0)
    assert (mixed.warn_steps, mixed.warn_time_s, mixed.tokens) == (20, 60.0, 10**6)
    assert given.suffix(0.0) == "#text-s50-wt60-tok1000000"
    assert AgentOptions().suffix(0.0) == "#text"  # the family's defaults


def test_the_agent_is_warned_when_little_time_is_left(tmp_path: Path, server: FakeOpenAI) -> None:
    # the whole budget is within the warning's window: every observation carries it
    answer = solve(tmp_path, server, [bash("ls"), bash("submit")], agent_time=300.0,
                   agent_warn_time=300.0, agent_warn_steps=0)  # fmt: skip
    t = trajectory(answer.meta)
    assert "min left: submit before they run out" in t.steps[0].observation
    (tmp_path / "q").mkdir()
    quiet = solve(tmp_path / "q", server, [bash("ls"), bash("submit")], agent_time=300.0,
                  agent_warn_steps=0)  # fmt: skip
    assert "left:" not in trajectory(quiet.meta).steps[0].observation


def test_a_command_gets_the_step_time_limit(tmp_path: Path, server: FakeOpenAI) -> None:
    answer = solve(tmp_path, server, [bash("sleep 20"), bash("submit")], agent_step_time=1.0)
    slow = trajectory(answer.meta).steps[0]
    assert slow.timed_out and slow.action_s < 10
