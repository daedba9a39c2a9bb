"""Agent attempts in the report: the trajectory of ``solver_meta.agent`` as a timeline of steps.

The trajectory is read through the agents' own models
(:class:`~truepass.agentic.trajectory.Trajectory`); a record without one (any other solver, an
agent attempt that had no task) or with one this truepass cannot read is not an agent attempt
here, and its page shows its solver metadata as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from truepass.agentic.tools import ActionView, runs_tests
from truepass.agentic.trajectory import EndReason, Step, Trajectory
from truepass.records import read_meta_entry

AGENT_META = ("agent", "rounds", "end_reason", "parse_detail")
"""Keys of an agent attempt's ``solver_meta`` its page shows in the timeline instead of the
solver's table: the trajectory, its steps again as model rounds, and how the attempt ended."""

THOUGHT_CHARS = 100
END_TONE = {
    EndReason.SUBMITTED: "done",
    EndReason.MODEL_ERROR: "error",
    EndReason.FORMAT_ERRORS: "error",
}
"""How an end reason is coloured (``end-TONE``); the limits are ``limit``."""


def read_trajectory(meta: Mapping[str, object]) -> Trajectory | None:
    """The trajectory an attempt's ``solver_meta`` holds; None when it holds none, or one in a
    shape this truepass does not read."""
    return read_meta_entry(meta, "agent", Trajectory)


def action_view(step: Step) -> ActionView:
    """What the timeline shows of ``step``'s action (its format error when it had none)."""
    if step.action is None:
        return ActionView("format-error", "no valid action")
    return step.action.view()


@dataclass(frozen=True)
class StepView:
    """One step of the timeline: the step as recorded and its action as shown."""

    step: Step
    action: ActionView
    runs_tests: bool

    @property
    def tokens(self) -> int:
        return self.step.prompt_tokens + self.step.completion_tokens

    @property
    def thought(self) -> str:
        """The first line of the model's reply (cut to :data:`THOUGHT_CHARS`), as a title."""
        line = next((ln.strip() for ln in self.step.response.splitlines() if ln.strip()), "")
        if line.startswith("```"):
            return ""
        return line if len(line) <= THOUGHT_CHARS else line[: THOUGHT_CHARS - 1] + "…"

    @property
    def show_calls(self) -> bool:
        """Whether the tool calls tell more than the action: none was valid, or several came."""
        calls = self.step.tool_calls
        return bool(calls) and (self.step.action is None or len(calls) > 1)

    @property
    def outcome(self) -> str | None:
        """The command's exit status in a word (None when no command ran)."""
        if self.step.timed_out:
            return "timed out"
        if self.step.exit_code is None:
            return None
        return f"exit {self.step.exit_code}"


@dataclass(frozen=True)
class AgentView:
    """An agent attempt's trajectory as its page shows it."""

    trajectory: Trajectory
    steps: list[StepView]

    @property
    def end_reason(self) -> str:
        return self.trajectory.end_reason.value

    @property
    def end_tone(self) -> str:
        return END_TONE.get(self.trajectory.end_reason, "limit")

    @property
    def limits(self) -> str:
        """The limits the attempt ran under, in a line."""
        lim = self.trajectory.limits
        parts = [f"{lim.steps} steps", f"{lim.time_s:g} s"]
        parts.append(f"{lim.tokens} tokens" if lim.tokens else "no token limit")
        parts.append(f"{lim.cost_usd:g} USD" if lim.cost_usd is not None else "no cost limit")
        parts.append(f"{lim.format_errors} format errors in a row")
        return ", ".join(parts)

    @property
    def metrics(self) -> dict[str, object]:
        """The attempt's process metrics, as the page lists them."""
        m = self.trajectory.metrics
        return {
            "steps": m.steps,
            "edits": m.edits,
            "files touched": m.files_touched,
            "files rewritten": m.files_rewritten,
            "commands": m.commands,
            "test runs": m.test_runs,
            "ran tests before finishing": m.ran_tests_before_finish,
            "format errors": m.format_errors,
            "tokens (prompt + completion)": f"{m.prompt_tokens} + {m.completion_tokens}",
            "cost (USD)": "unknown" if m.cost_usd is None else f"{m.cost_usd:.6f}",
            "time (s)": f"{m.time_s:.2f}",
        }


def agent_view(meta: Mapping[str, object]) -> AgentView | None:
    """The timeline of an agent attempt; None when its ``solver_meta`` holds no trajectory
    this truepass reads."""
    t = read_trajectory(meta)
    if t is None:
        return None
    steps = [StepView(s, action_view(s), runs_tests(s.action)) for s in t.steps]
    return AgentView(trajectory=t, steps=steps)


__all__ = [
    "AGENT_META",
    "ActionView",
    "AgentView",
    "StepView",
    "action_view",
    "agent_view",
    "read_trajectory",
]
