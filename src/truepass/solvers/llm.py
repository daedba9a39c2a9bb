"""Prompted LLM solvers: a model, a prompt variant, and (for ``feedback``) a test-driven loop.

Every model call goes through the model given (usually wrapped in the response cache), every
round is recorded in the attempt's ``solver_meta`` with the raw response, and test runs of the
feedback loop happen in the sandbox on the visible tests only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from truepass.errors import PatchError
from truepass.judges.repair import phase_result
from truepass.judges.testrun import run_tests
from truepass.models import GenerationParams, Model, Price, cost_usd
from truepass.patches.apply import Answer, apply_to_sample
from truepass.patches.parse import parse_response
from truepass.prompts import build_repair_messages, truncate_middle
from truepass.solvers.base import SolveContext
from truepass.suites.codegen import CodegenSample
from truepass.suites.schema import RepairSample
from truepass.usage import Usage

PROMPT_MARGIN = 64  # tokens kept free besides the completion budget
MAX_PROMPT_TOKENS = 6000
FEEDBACK_TOKENS = 800


@dataclass(frozen=True)
class LLMSettings:
    """How a model is prompted. Everything that changes results also changes the solver name."""

    variant: str = "code-only"
    samples: int = 1
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int = 0
    rounds: int = 3
    given_fault: bool = False
    template_dir: Path | None = None
    prices: Mapping[str, Price] | None = field(default=None, hash=False)

    def suffix(self) -> str:
        """Name suffix: ``#variant`` then ``+fault``, ``-rN`` (feedback rounds), ``@tT``."""
        out = f"#{self.variant}"
        if self.variant == "feedback":
            out += f"-r{self.rounds}"
        if self.given_fault:
            out += "+fault"
        if self.temperature:
            out += f"@t{self.temperature:g}"
        return out


class LLMSolver:
    """Asks ``model`` for a patch; ``attempts`` = ``settings.samples`` (for pass@k)."""

    def __init__(self, model: Model, settings: LLMSettings):
        self.model = model
        self.settings = settings
        self.name = model.id + settings.suffix()

    def attempts(self, sample: RepairSample) -> int:
        return self.settings.samples

    def _params(self, attempt: int) -> GenerationParams:
        s = self.settings
        seed = s.seed + attempt if s.temperature > 0 else s.seed
        return GenerationParams(temperature=s.temperature, max_tokens=s.max_tokens, seed=seed)

    def solve(self, sample: RepairSample, attempt: int, ctx: SolveContext) -> Answer | None:
        """One attempt: prompt, parse, and for ``feedback`` test and retry up to ``rounds``."""
        if isinstance(sample, CodegenSample):
            from truepass.solvers.llm_codegen import solve_codegen

            return solve_codegen(self, sample, attempt)
        s = self.settings
        params = self._params(attempt)
        budget = min(MAX_PROMPT_TOKENS, self.model.context_window - s.max_tokens - PROMPT_MARGIN)
        files = {**sample.files, **sample.tests.visible}
        usage = Usage()
        history: list[tuple[str, str]] = []
        rounds: list[dict[str, object]] = []
        n_rounds = s.rounds if s.variant == "feedback" else 1
        answer: Answer | None = None
        for rnd in range(n_rounds):
            messages = build_repair_messages(
                sample,
                s.variant,
                failing_output=ctx.check.buggy_output,
                history=history,
                focus=list(sample.fault) if s.given_fault else None,
                token_budget=max(budget, 256),
                count_tokens=self.model.count_tokens,
                template_dir=s.template_dir,
            )
            # each feedback round is its own request: the round index joins the cache key
            completion = self.model.complete(messages, params, attempt=attempt * 1000 + rnd)
            usage.add(
                prompt_tokens=completion.prompt_tokens,
                completion_tokens=completion.completion_tokens,
                latency_s=completion.latency_s,
                cached=completion.cached,
                cost_usd=cost_usd(
                    self.model.id,
                    completion.prompt_tokens,
                    completion.completion_tokens,
                    s.prices,
                ),
                estimated=completion.tokens_estimated,
            )
            parsed = parse_response(completion.text, files)
            record: dict[str, object] = {
                "round": rnd,
                "prompt": messages,
                "response": completion.text,
                "parse_kind": parsed.kind,
                "parse_detail": parsed.detail,
                "cached": completion.cached,
                "prompt_tokens": completion.prompt_tokens,
                "completion_tokens": completion.completion_tokens,
                "finish_reason": completion.finish_reason,
            }
            rounds.append(record)
            answer = parsed.answer
            if rnd == n_rounds - 1:
                break
            feedback = self._feedback(sample, answer, parsed.detail, ctx)
            record["feedback"] = feedback
            if feedback is None:
                break
            history.append((completion.text, feedback))
        last = rounds[-1]
        meta: dict[str, object] = {
            "model": self.model.id,
            "variant": s.variant,
            "fault_source": "given" if s.given_fault else "none",
            "temperature": s.temperature,
            "seed": params.seed,
            "parse_kind": last["parse_kind"],
            "parse_detail": last["parse_detail"],
            "rounds": rounds,
        }
        if answer is None:
            return Answer(no_patch=True, meta=meta, usage=usage)
        return Answer(diff=answer.diff, files=answer.files, meta=meta, usage=usage)

    def _feedback(
        self, sample: RepairSample, answer: Answer | None, detail: str, ctx: SolveContext
    ) -> str | None:
        """What goes back to the model after a round, or None when the visible tests pass."""
        if answer is None:
            return f"No patch could be read from your answer ({detail}). Reply with a unified "\
                "diff or the whole fixed file in a fenced code block."  # fmt: skip
        try:
            applied = apply_to_sample(sample, answer)
        except PatchError as exc:
            return f"Your patch does not apply: {exc}"
        tr = run_tests(sample, applied.files, sample.tests.visible, limits=ctx.config.limits)
        if phase_result(tr, ctx.check.visible_ids).ok:
            return None
        if tr.timed_out:
            return "The tests timed out with your patch (an infinite loop?)."
        output, _ = truncate_middle(tr.output, FEEDBACK_TOKENS, self.model.count_tokens)
        return "The tests still fail with your patch:\n" + output
