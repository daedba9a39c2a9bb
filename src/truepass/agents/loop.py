"""The agent loop: model call, action, observation, until the agent submits or a limit ends it.

The loop runs in truepass's own (trusted) process; only the agent's actions run in the sandbox,
in one :class:`~truepass.sandbox.session.SandboxSession` per attempt over the starting files the
family gives (:class:`~truepass.agentic.task.AgentTask`). Every model call goes through the
model as given (with the response cache, each step's request is a cache key: a rerun replays
the same trajectory). Before the first call the leak guard checks the system prompt, the task
and every starting file against the sample's answer key; later messages are the agent's own
work and what came of it.

However the attempt ends, the workspace as it is then becomes the answer
(:meth:`AgentTask.answer`), judged like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from truepass.agentic.limits import AgentLimits
from truepass.agentic.task import AgentTask, is_cache_path
from truepass.agentic.tools import CHANGING, Outcome, Submit, execute
from truepass.agentic.trajectory import EndReason, ProcessMetrics, Step, Trajectory
from truepass.agents.protocols import ActionProtocol, task_message
from truepass.answers import Answer
from truepass.errors import SandboxError, SolverError
from truepass.models.base import (
    Completion,
    GenerationParams,
    Message,
    Model,
    ModelError,
    ModelUnavailable,
    messages_text,
)
from truepass.sandbox.models import Limits
from truepass.sandbox.session import SandboxSession, WorkspaceError
from truepass.usage import Usage

DISPLAY_CHARS = 4000
"""Characters of each output stream (and of a viewed file) the agent is shown per step."""
OUTPUT_BYTES = 100_000
"""Bytes of each output stream a command keeps (the trajectory's full text)."""
CONTEXT_MARGIN = 64
"""Tokens kept free in the context besides the completion budget."""
ELIDED = "[output elided to fit the context]"
MIN_COMMAND_S = 1.0

Price = Callable[[int, int], float | None]
"""(prompt tokens, completion tokens) -> USD (None: the price is unknown)."""


@dataclass
class AgentResult:
    """What one attempt produced: the answer (the final workspace), the trajectory, the usage."""

    answer: Answer
    trajectory: Trajectory
    usage: Usage


def session_limits(limits: Limits) -> Limits:
    """The run's sandbox limits with the output each command keeps capped at OUTPUT_BYTES."""
    return limits.model_copy(update={"output_bytes": min(limits.output_bytes, OUTPUT_BYTES)})


class AgentLoop:
    """One attempt of ``model`` on ``task`` under ``limits``, speaking ``protocol``.

    ``check_prompt`` is the leak guard (raises on a prompt holding the answer key), called once
    with the first messages and the starting files; ``price`` prices one call; ``key`` joins
    every request's cache key (the attempt index).
    """

    def __init__(
        self,
        model: Model,
        protocol: ActionProtocol,
        task: AgentTask,
        *,
        limits: AgentLimits,
        params: GenerationParams,
        sandbox: Limits,
        price: Price,
        check_prompt: Callable[[list[Message]], None],
        key: int = 0,
    ) -> None:
        self.model = model
        self.protocol = protocol
        self.task = task
        self.limits = limits
        self.params = protocol.params(params)
        update: dict[str, object] = {"address_space": task.address_space and sandbox.address_space}
        if limits.step_time_s is not None:
            update["timeout_s"] = limits.step_time_s
            update["cpu_s"] = max(sandbox.cpu_s, int(limits.step_time_s))
        self.sandbox = session_limits(sandbox).model_copy(update=update)
        self.price = price
        self.check_prompt = check_prompt
        self.key = key
        self.usage = Usage()
        self.steps: list[Step] = []
        self.cost: float | None = 0.0
        self.spent_s = 0.0
        self.tokens = 0

    def run(self) -> AgentResult:
        """Run the attempt to its end.

        Raises:
            PromptLeakError: the task or the starting files hold some of the answer key.
            ModelUnavailable: the model cannot work at all (the run stops).
            SolverError: the model failed after its retries in a way that may pass (a
                retryable :class:`ModelError`), or the sandbox itself failed: the attempt is an
                infra error, retried when the run is resumed (the steps made so far replay
                from the response cache).
        """
        system, first = self.protocol.system_prompt, task_message(self.task, self.limits.steps)
        messages: list[Message] = [
            {"role": "system", "content": system},
            {"role": "user", "content": first},
        ]
        starting = [{"role": "user", "content": text} for text in self.task.files.values()]
        self.check_prompt(messages + starting)
        try:
            with SandboxSession(
                self.task.files,
                limits=self.sandbox,
                env=self.task.env,
                ro_binds=self.task.ro_binds,
                display_chars=DISPLAY_CHARS,
                snapshot_bytes=self.sandbox.disk_mb << 20,
            ) as session:
                reason, detail = self._loop(session, messages)
                try:
                    answer = self.task.answer(session)
                except (WorkspaceError, OSError) as exc:  # the agent made it unreadable
                    answer = Answer(no_patch=True)
                    detail = "; ".join(filter(None, [detail, f"no answer: {exc}"]))
        except SandboxError as exc:
            raise SolverError(f"the agent's sandbox failed: {exc}") from exc
        trajectory = Trajectory(
            protocol=self.protocol.kind,
            limits=self.limits,
            system=system,
            task=first,
            steps=self.steps,
            end_reason=reason,
            end_detail=detail,
            metrics=ProcessMetrics.of(self.steps, self.cost),
        )
        return AgentResult(answer=answer, trajectory=trajectory, usage=self.usage)

    # -- the loop ---------------------------------------------------------------------------

    def _limit_reached(self) -> tuple[EndReason, str] | None:
        lim = self.limits
        if len(self.steps) >= lim.steps:
            return EndReason.STEP_LIMIT, f"{len(self.steps)} steps made (--agent-steps)"
        if self.spent_s >= lim.time_s:
            return EndReason.TIME_LIMIT, f"{self.spent_s:.1f} s spent (--agent-time)"
        if lim.tokens is not None and self.tokens >= lim.tokens:
            return EndReason.TOKEN_LIMIT, f"{self.tokens} tokens used (--agent-tokens)"
        if lim.cost_usd is not None and self.cost is not None and self.cost >= lim.cost_usd:
            return EndReason.COST_LIMIT, f"${self.cost:.4f} spent (--agent-cost)"
        return None

    def _loop(self, session: SandboxSession, messages: list[Message]) -> tuple[EndReason, str]:
        files = self._files(session) or {}
        errors_in_a_row = 0
        while True:
            ended = self._limit_reached()
            if ended is not None:
                return ended
            prompt, elided = self._fit(messages)
            if prompt is None:
                return EndReason.CONTEXT_LIMIT, (
                    f"the conversation does not fit the model's context of "
                    f"{self.model.context_window} tokens"
                )
            try:
                completion = self.model.complete(prompt, self.params, attempt=self.key)
            except ModelUnavailable:
                raise
            except ModelError as err:
                if err.retryable:  # transient: an infra error, retried on resume (from the cache)
                    raise
                return EndReason.MODEL_ERROR, str(err)
            self._count(completion)
            parsed = self.protocol.parse(completion)
            outcome, changed = Outcome(shown=""), []
            if parsed.action is None:
                errors_in_a_row += 1
                outcome = Outcome(shown=self.protocol.reminder(parsed.error or "no action"))
            elif not isinstance(parsed.action, Submit):
                errors_in_a_row = 0
                left = max(self.limits.time_s - self.spent_s, MIN_COMMAND_S)
                outcome = execute(
                    parsed.action,
                    session,
                    self.task,
                    timeout_s=min(self.sandbox.timeout_s, left),
                    chars=DISPLAY_CHARS,
                )
                if isinstance(parsed.action, CHANGING):
                    files, changed = self._changes(session, files)
            submitted = isinstance(parsed.action, Submit)
            self.spent_s += outcome.duration_s
            shown = "" if submitted else outcome.shown + self._warning()
            self.steps.append(
                Step(
                    step=len(self.steps) + 1,
                    response=completion.text,
                    tool_calls=completion.tool_calls,
                    action=parsed.action,
                    format_error=parsed.error,
                    observation=shown,
                    observation_full=outcome.full,
                    exit_code=outcome.exit_code,
                    timed_out=outcome.timed_out,
                    changed_files=changed,
                    prompt_tokens=completion.prompt_tokens,
                    completion_tokens=completion.completion_tokens,
                    cached=completion.cached,
                    finish_reason=completion.finish_reason,
                    model_s=round(completion.latency_s, 4),
                    action_s=round(outcome.duration_s, 4),
                    elided=elided,
                )
            )
            if submitted:
                return EndReason.SUBMITTED, ""
            if errors_in_a_row >= self.limits.format_errors:
                return EndReason.FORMAT_ERRORS, f"{errors_in_a_row} replies in a row had no action"
            messages.append(self.protocol.assistant_message(completion))
            messages.extend(self.protocol.observation_messages(completion, shown))

    def _count(self, completion: Completion) -> None:
        """Add a call to the usage and to the budgets. The budgets count a cached answer like a
        fresh one (its recorded tokens, latency and price), so a replay ends where the run did."""
        spent = self.price(completion.prompt_tokens, completion.completion_tokens)
        self.usage.add_completion(completion, spent)
        self.tokens += completion.prompt_tokens + completion.completion_tokens
        self.spent_s += completion.latency_s
        self.cost = None if spent is None or self.cost is None else self.cost + spent

    def _warning(self) -> str:
        """The end-of-budget warning: when at most ``warn_steps`` steps, or ``warn_time_s``
        seconds, are left."""
        lim = self.limits
        left = lim.steps - len(self.steps) - 1
        seconds = lim.time_s - self.spent_s
        few_steps = 0 < left <= lim.warn_steps
        little_time = lim.warn_time_s is not None and 0 < seconds <= lim.warn_time_s
        if not (few_steps or little_time) or left <= 0:
            return ""
        plural = "s" if left > 1 else ""
        what = f"{left} step{plural}" if few_steps else f"{seconds / 60:.0f} min"
        if few_steps and little_time:
            what += f" and {seconds / 60:.0f} min"
        return (
            f"\n\n[{what} left: submit before they run out; the files as they "
            f"are then are your answer]{' ' + self.task.warning if self.task.warning else ''}"
        )

    # -- the context ------------------------------------------------------------------------

    def _fit(self, messages: list[Message]) -> tuple[list[Message] | None, int]:
        """``messages`` as sent: when they do not fit the context (with the completion budget),
        the oldest observations are elided first (the system prompt, the task and the latest
        observation never are); None when even that is not enough. Also how many were elided."""
        budget = self.model.context_window - self.params.max_tokens - CONTEXT_MARGIN
        if self.params.tools:
            budget -= self.model.count_tokens(str([t.openai() for t in self.params.tools]))
        prompt = list(messages)
        elided = 0
        observations = [
            i for i, m in enumerate(prompt) if i >= 2 and m["role"] in ("user", "tool")
        ][:-1]
        while self.model.count_tokens(messages_text(prompt)) > budget:
            if elided == len(observations):
                return None, elided
            i = observations[elided]
            prompt[i] = {**prompt[i], "content": ELIDED}
            elided += 1
        return prompt, elided

    # -- the workspace ----------------------------------------------------------------------

    @staticmethod
    def _files(session: SandboxSession) -> dict[str, str] | None:
        """The workspace's text files (tool caches aside); None when the agent made it
        unreadable (too many files, a file this process may not read)."""
        try:
            return {p: t for p, t in session.snapshot().items() if not is_cache_path(p)}
        except (WorkspaceError, OSError):
            return None

    def _changes(
        self, session: SandboxSession, before: dict[str, str]
    ) -> tuple[dict[str, str], list[str]]:
        """The workspace now, and the files that differ from ``before`` (created, changed,
        deleted); no change is seen while the workspace cannot be read."""
        after = self._files(session)
        if after is None:
            return before, []
        changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
        return after, changed


__all__ = ["DISPLAY_CHARS", "OUTPUT_BYTES", "AgentLoop", "AgentResult", "session_limits"]
