"""``workflow:MODEL``: the five-stage repair workflow as one solver (docs/workflow.md).

1. localise (:mod:`.localise`): the visible tests in the sandbox, SBFL raised by stack traces;
2. static analysis around the suspect lines (:mod:`.static`);
3. N candidate patches from N samples of the model (:mod:`.prompts`), parsed as patches;
4. pre-filter and selection on the visible tests and fuzzed inputs, in the sandbox
   (:mod:`.select`, :mod:`.fuzz`);
5. the root cause and why the fix works (one more call), stored where the root-cause metric
   reads it.

Every model call goes through :meth:`~truepass.solvers.llm.LLMSolver.ask` (the leak guard, the
response cache, the usage accounting). Candidate code runs only in the sandbox. The hidden
tests, the reference fix and ``known_overfit`` are never read; the fault lines are read once,
after the last model call, to score stage 1 (:func:`.localise.guess_hits`). Whether a correct
candidate existed, and whether selection took it, is known only when judging: the candidates
are recorded in ``solver_meta.candidates`` and the family's judge judges each
(:func:`truepass.families.repair.workflow.judging.judge_candidates`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.families.repair import languages
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.judge import ROOT_CAUSE
from truepass.families.repair.model import MAX_PROMPT_TOKENS, PROMPT_MARGIN
from truepass.families.repair.parse import ParseOutcome, parse_response
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.solvers.sbfl import failing_subset
from truepass.families.repair.workflow import localise, prompts, select, static
from truepass.families.repair.workflow.meta import Counts, WorkflowMeta
from truepass.families.repair.workflow.options import WorkflowOptions
from truepass.models import price_table
from truepass.models.base import GenerationParams, Model
from truepass.models.cost import Price
from truepass.solvers.base import SolveContext
from truepass.solvers.llm import LLMSolver, round_record
from truepass.solvers.settings import LLMOptions
from truepass.usage import Usage

if TYPE_CHECKING:
    from truepass.families.base import Family

PREFIX = "workflow:"
EXPLAIN_KEY = 999
"""the explanation call's index among an attempt's calls (its part of the cache key; the
candidates are 0 to N-1, and ``--workflow-candidates`` is at most 100)"""


PYTHON_ONLY = (
    "workflow:MODEL works on Python samples only (its static stage is ruff, its fuzzing and "
    "selection run Python functions): this sample is not"
)


class WorkflowSolver(LLMSolver):
    """One model driven through the five stages; ``options.samples`` attempts per sample, each
    asking ``workflow.workflow_candidates`` candidates. Repair only."""

    families = frozenset({"repair"})

    def __init__(
        self,
        model: Model,
        options: LLMOptions,
        workflow: WorkflowOptions | None = None,
        prices: Mapping[str, Price] | None = None,
    ) -> None:
        super().__init__(model, options, "description", prices)
        self.workflow = workflow or WorkflowOptions()
        self.name = PREFIX + model.id + self.workflow.suffix(options.temperature)

    def serves(self, family: Family) -> str | None:
        return None  # the family is checked by ``families``; the prompt options do not apply

    def candidate_params(self, attempt: int, index: int) -> GenerationParams:
        """Candidate ``index`` of ``attempt`` samples at the workflow's temperature with a seed
        of its own."""
        o, w = self.options, self.workflow
        seed = o.seed + attempt * w.workflow_candidates + index
        return GenerationParams(
            temperature=w.workflow_temperature, max_tokens=o.max_tokens, seed=seed
        )

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        check = ctx.check
        assert isinstance(check, RepairCheck) and isinstance(sample, RepairSample)
        expected = list(check.visible_ids)
        if not check.valid or not expected:
            return None
        if not languages.get(sample.language).workflow:
            return Answer(no_patch=True, meta={"parse_detail": PYTHON_ONLY})
        return _Attempt(self, sample, attempt, ctx, check, expected).run()


class _Attempt:
    """One attempt of the workflow (its state across the stages)."""

    def __init__(
        self,
        solver: WorkflowSolver,
        sample: RepairSample,
        attempt: int,
        ctx: SolveContext,
        check: RepairCheck,
        expected: list[str],
    ) -> None:
        self.solver, self.sample, self.attempt, self.ctx = solver, sample, attempt, ctx
        self.check, self.expected = check, expected
        self.usage = Usage()
        self.seconds: dict[str, float] = {}
        self._clock = time.monotonic()

    def _lap(self, stage: str) -> None:
        now = time.monotonic()
        self.seconds[stage] = round(now - self._clock, 3)
        self._clock = now

    def run(self) -> Answer:
        s, o, w, sample = self.solver, self.solver.options, self.solver.workflow, self.sample
        limits = self.ctx.config.limits
        stage1 = localise.localise(sample, self.expected, limits)
        self._lap("localise")
        found = static.analyse(sample.files, stage1.ranking[: localise.TOP])
        self._lap("static")

        budget = min(MAX_PROMPT_TOKENS, s.model.context_window - o.max_tokens - PROMPT_MARGIN)
        prompt = prompts.candidate_messages(
            sample,
            self.check.buggy_output,
            stage1.record,
            found,
            token_budget=max(budget, 256),
            count_tokens=s.model.count_tokens,
            template_dir=o.template_dir,
        )
        files = {**sample.files, **sample.tests.visible}
        rounds: list[dict[str, object]] = []
        parsed: list[tuple[int | None, ParseOutcome]] = []
        for i in range(w.workflow_candidates):
            params = s.candidate_params(self.attempt, i)
            completion = s.ask(
                prompt, params, self.usage, key=self.attempt * 1000 + i,
                sample=sample, ctx=self.ctx,
            )  # fmt: skip
            outcome = parse_response(completion.text, files)
            parsed.append((params.seed, outcome))
            record = round_record(i + 1, prompt, completion, outcome.kind, outcome.detail)
            record["stage"] = f"candidate c{i + 1}"
            if i:
                record.pop("prompt")  # the same prompt as the first candidate's
            rounds.append(record)
        self._lap("candidates")

        subset = failing_subset(sample, stage1.sbfl, self.expected)
        pool = select.prefilter(sample, parsed, self.expected, subset, limits)
        fuzzed = select.compare_behaviour(
            sample, pool, w.workflow_fuzz, limits, seed=o.seed + self.attempt
        )
        choice = select.select(pool)
        self._lap("select")
        chosen = next((c for c in pool.records if c.id == choice.selected), None)

        explanation = None
        if chosen is not None and chosen.diff:
            messages, own = prompts.explanation_messages(prompt, chosen.diff)
            params = GenerationParams(
                temperature=o.temperature, max_tokens=o.max_tokens, seed=o.seed + self.attempt
            )
            completion = s.ask(
                messages, params, self.usage, key=self.attempt * 1000 + EXPLAIN_KEY,
                sample=sample, ctx=self.ctx, answers_from=own,
            )  # fmt: skip
            explanation = completion.text
            record = round_record(len(rounds) + 1, messages[own:], completion, "explanation", "")
            record["stage"] = "explanation"
            rounds.append(record)
        self._lap("explain")

        records = pool.records
        meta_workflow = WorkflowMeta(
            candidates_asked=w.workflow_candidates,
            temperature=w.workflow_temperature,
            localisation=stage1.record,
            static=found,
            counts=Counts(
                generated=len(records),
                parsed=sum(c.diff is not None for c in records),
                distinct=sum(c.diff is not None and c.duplicate_of is None for c in records),
                compiled=sum(bool(c.compiles) for c in records),
                passing_visible=sum(bool(c.visible) for c in records),
            ),
            fuzz=fuzzed,
            selection=choice,
            explanation=explanation,
            # after the last model call: the fault lines score the guess, they steer nothing
            stage1=localise.guess_hits(sample, stage1.ranking),
            seconds=self.seconds,
        )
        meta: dict[str, object] = {
            "model": s.model.id,
            "variant": "workflow",
            "fault_source": "sbfl",
            "temperature": o.temperature,
            "seed": o.seed + self.attempt,
            "parse_kind": chosen.parse_kind if chosen else "none",
            "parse_detail": choice.detail,
            "rounds": rounds,
            "workflow": meta_workflow.model_dump(mode="json"),
            "candidates": [c.model_dump(mode="json") for c in records],
        }
        if explanation is not None:
            meta[ROOT_CAUSE] = explanation  # scored by the judge like the root-cause variant
        if pool.infra_errors:
            meta["infra_errors"] = pool.infra_errors
        if chosen is None or chosen.diff is None:
            return Answer(no_patch=True, meta=meta, usage=self.usage)
        return Answer(diff=chosen.diff, patch_id=f"workflow:{chosen.id}", meta=meta,
                      usage=self.usage)  # fmt: skip


def workflow_solver(spec: str, options: LLMOptions, workflow: WorkflowOptions) -> WorkflowSolver:
    """The solver of ``workflow:MODEL`` (MODEL spelled as for the model solvers).

    Raises:
        InputError: MODEL is not a model spec.
    """
    from truepass.solvers.llm_factory import inner_model_spec, llm_model

    model_spec = inner_model_spec(spec, PREFIX)
    prices = price_table(list(options.prices))
    return WorkflowSolver(llm_model(model_spec, options), options, workflow, prices)


__all__ = ["PREFIX", "WorkflowSolver", "workflow_solver"]
