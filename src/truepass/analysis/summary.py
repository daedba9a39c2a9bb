"""Per-solver summary of a run: verdict counts and rates over valid attempts (summary.json)."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, Field

from truepass.agentic.metrics import ProcessSummary, process_summary
from truepass.analysis.agreement import Agreement
from truepass.analysis.stats import wilson
from truepass.families.capabilities import Configured, Measured
from truepass.families.registry import DEFAULT as DEFAULT_FAMILY
from truepass.metrics.localisation import Localisation
from truepass.metrics.passk import pass_at_ks, pass_at_ks_with_ci
from truepass.metrics.quality import QualityDelta
from truepass.records import AttemptRecord, is_correct
from truepass.vocabulary import DIFFERS_FROM_REFERENCE, NOT_COUNTED, PASSES_VISIBLE, Verdict

if TYPE_CHECKING:
    from truepass.families.base import Family


class Rates(BaseModel):
    """Counts and rates over the attempts that count (not invalid samples, not infra errors)."""

    attempts: int
    counted: int
    verdicts: dict[str, int]
    plausible: int = Field(description="attempts that pass the visible tests")
    correct: int = Field(description="correct verdicts without a fake-fix flag")
    flagged_correct: int = Field(
        0, description="correct verdicts carrying a fake-fix flag: not counted as correct"
    )
    plausible_rate: float | None
    correct_rate: float | None
    overfit_share: float | None = Field(description="overfit / plausible")
    correct_ci: list[float] | None = Field(
        None, description="95% Wilson interval [low, high] of correct_rate (see docs/compare.md)"
    )
    plausible_ci: list[float] | None = Field(
        None, description="95% Wilson interval [low, high] of plausible_rate"
    )
    overfit_share_ci: list[float] | None = Field(
        None, description="95% Wilson interval [low, high] of overfit_share"
    )
    unparsed: int = Field(
        0,
        description="counted attempts judged no-patch: the answer could not be parsed (model "
        "solvers), or the solver gave none",
    )
    parsed: int = Field(0, description="counted attempts with an answer: counted - unparsed")
    unparsed_rate: float | None = Field(None, description="unparsed / counted")
    unparsed_ci: list[float] | None = Field(
        None, description="95% Wilson interval [low, high] of unparsed_rate"
    )
    correct_rate_parsed: float | None = Field(
        None, description="correct / parsed: parse failures left out (seed 001's rate)"
    )
    correct_parsed_ci: list[float] | None = Field(
        None, description="95% Wilson interval [low, high] of correct_rate_parsed"
    )
    plausible_rate_parsed: float | None = Field(None, description="plausible / parsed")
    plausible_parsed_ci: list[float] | None = Field(
        None, description="95% Wilson interval [low, high] of plausible_rate_parsed"
    )


class UsageSummary(BaseModel):
    """Model usage over the attempts of a solver that called a model."""

    attempts: int
    calls: int
    cached_calls: int
    prompt_tokens: int
    completion_tokens: int
    tokens_per_attempt: float
    cost_usd: float | None = Field(description="None when some model has no known price")
    model_latency_s: float
    completion_tokens_per_s: float | None = Field(description="over calls that were not cached")
    parse: dict[str, int] = Field(description="how the final answers were parsed")
    parse_success_rate: float | None


class SolverSummary(BaseModel):
    solver: str
    overall: Rates
    by_defect_type: dict[str, Rates]
    flags: dict[str, int]
    invalid_samples: list[str]
    infra_errors: list[str]
    median_judge_s: float | None
    demoted_by_differential: int = Field(
        0,
        description="attempts that passed their tests (correct or plausible) and that the "
        "differential check flagged differs-from-reference (docs/differential.md); the correct "
        "ones among them are not counted as correct",
    )
    pass_at_k: dict[str, float] = Field(
        default_factory=dict, description="unbiased pass@k of correct over counted samples"
    )
    pass_at_k_ci: dict[str, list[float]] = Field(
        default_factory=dict, description="95% bootstrap interval (over samples) of pass_at_k"
    )
    pass_at_k_visible: dict[str, float] = Field(
        default_factory=dict,
        description="unbiased pass@k of passing the visible tests (codegen: the base tests)",
    )
    pass_at_k_visible_ci: dict[str, list[float]] = Field(
        default_factory=dict, description="95% bootstrap interval of pass_at_k_visible"
    )
    metrics: dict[str, float] = Field(
        default_factory=dict, description="metrics the suite's family adds (e.g. text metrics)"
    )
    usage: UsageSummary | None = None
    patches: PatchSummary | None = None
    process: ProcessSummary | None = Field(
        None,
        description="agent solvers: process metrics over their attempts (means, shares, the "
        "share of each end reason; docs/agents.md); None for other solvers",
    )


class PatchSummary(BaseModel):
    """What the patches did, over counted attempts that changed code."""

    changed: int = Field(description="counted attempts whose patch changed code")
    with_regressions: int = Field(description="attempts breaking a test the buggy code passed")
    hit_file: float | None = Field(description="share touching a faulty file")
    hit_function: float | None = Field(description="share touching a faulty function")
    hit_line: float | None = Field(description="share touching a fault line")
    inside_fault_function: float | None = Field(description="share staying inside it")
    mean_lines_changed: float | None
    adding_lint: int = Field(description="attempts adding ruff findings")


class Summary(BaseModel):
    suite: str
    family: str = DEFAULT_FAMILY
    setting: str | None = Field(
        None,
        description="what the samples showed their solvers (SWE-bench: issue-only, "
        "tests-shown), when the suite's benchmark has settings",
    )
    family_options: dict[str, str] = Field(
        default_factory=dict,
        description="the family's options in force, defaults included (run --family-option; "
        "review: the positive class of its metrics)",
    )
    solvers: list[SolverSummary]
    review: Agreement | None = Field(
        None,
        description="human review (review-import): the agreement of a reviewer's labels with "
        "the verdicts (docs/metrics.md, Human review); None until labels are imported",
    )


def rates(records: list[AttemptRecord]) -> Rates:
    """Verdict counts and rates; denominators leave out invalid samples and infra errors."""
    verdicts = Counter(r.verdict for r in records)
    counted = sum(n for v, n in verdicts.items() if v not in NOT_COUNTED)
    plausible = sum(verdicts[v] for v in PASSES_VISIBLE)
    correct = sum(is_correct(r) for r in records)
    counted_ids = {r.sample_id for r in records if r.verdict not in NOT_COUNTED}
    plausible_ids = {r.sample_id for r in records if r.verdict in PASSES_VISIBLE}
    unparsed = verdicts[Verdict.NO_PATCH]
    parsed = counted - unparsed
    parsed_ids = {
        r.sample_id for r in records if r.verdict not in NOT_COUNTED and not unparsed_of(r)
    }
    return Rates(
        attempts=len(records),
        counted=counted,
        verdicts=dict(sorted(verdicts.items())),
        plausible=plausible,
        correct=correct,
        flagged_correct=verdicts[Verdict.CORRECT] - correct,
        plausible_rate=round(plausible / counted, 4) if counted else None,
        correct_rate=round(correct / counted, 4) if counted else None,
        overfit_share=round(verdicts[Verdict.OVERFIT] / plausible, 4) if plausible else None,
        correct_ci=_interval(correct, counted, len(counted_ids)),
        plausible_ci=_interval(plausible, counted, len(counted_ids)),
        overfit_share_ci=_interval(verdicts[Verdict.OVERFIT], plausible, len(plausible_ids)),
        unparsed=unparsed,
        parsed=parsed,
        unparsed_rate=round(unparsed / counted, 4) if counted else None,
        unparsed_ci=_interval(unparsed, counted, len(counted_ids)),
        correct_rate_parsed=round(correct / parsed, 4) if parsed else None,
        correct_parsed_ci=_interval(correct, parsed, len(parsed_ids)),
        plausible_rate_parsed=round(plausible / parsed, 4) if parsed else None,
        plausible_parsed_ci=_interval(plausible, parsed, len(parsed_ids)),
    )


def unparsed_of(record: AttemptRecord) -> bool:
    """Whether an attempt is a parse failure: judged ``no-patch`` (seed 001 records answers it
    could not parse apart, and does not count them as failed repairs)."""
    return record.verdict == Verdict.NO_PATCH


def _interval(k: int, n: int, samples: int) -> list[float] | None:
    """Wilson interval of ``k / n`` attempts, with the number of distinct samples as the size.

    With one attempt per sample this is the plain Wilson interval of ``k`` of ``n``. With several
    attempts per sample they are not independent, so the interval keeps the rate but counts
    samples, not attempts (conservative: correlated attempts add less than independent ones).
    """
    if n == 0 or samples == 0:
        return None
    size = min(n, samples)
    ci = wilson(k / n * size, size)
    return None if ci is None else [round(ci[0], 4), round(ci[1], 4)]


def summarize(
    suite: str,
    records: Iterable[AttemptRecord],
    family: Family | None = None,
    *,
    setting: str | None = None,
) -> Summary:
    """Group records by solver and summarise each; ``family`` (the suite's) adds its metrics;
    ``setting``: the suite's (:attr:`truepass.suites.suite.Suite.setting`)."""
    by_solver: dict[str, list[AttemptRecord]] = defaultdict(list)
    for r in records:
        by_solver[r.solver].append(r)
    out = []
    for solver, recs in by_solver.items():
        by_type: dict[str, list[AttemptRecord]] = defaultdict(list)
        for r in recs:
            by_type[r.defect_type].append(r)
        flags = Counter(f for r in recs for f in r.flags)
        judged = [r.duration_s for r in recs if r.verdict not in NOT_COUNTED]
        out.append(
            SolverSummary(
                solver=solver,
                overall=rates(recs),
                by_defect_type={t: rates(rs) for t, rs in sorted(by_type.items())},
                flags=dict(sorted(flags.items())),
                invalid_samples=_ids(recs, Verdict.INVALID_SAMPLE),
                infra_errors=_ids(recs, Verdict.INFRA_ERROR),
                median_judge_s=round(statistics.median(judged), 3) if judged else None,
                demoted_by_differential=sum(
                    DIFFERS_FROM_REFERENCE in r.flags and r.verdict in PASSES_VISIBLE for r in recs
                ),
                pass_at_k=pass_at_ks(_per_sample(recs)),
                pass_at_k_ci=pass_at_ks_with_ci(_per_sample(recs)),
                pass_at_k_visible=pass_at_ks(_per_sample(recs, visible=True)),
                pass_at_k_visible_ci=pass_at_ks_with_ci(_per_sample(recs, visible=True)),
                metrics=family.metrics(recs) if isinstance(family, Measured) else {},
                usage=usage_summary(recs),
                patches=patch_summary(recs),
                process=process_summary(recs),
            )
        )
    return Summary(
        suite=suite,
        family=family.name if family else DEFAULT_FAMILY,
        setting=setting,
        family_options=family.options() if isinstance(family, Configured) else {},
        solvers=out,
    )


def _ids(records: list[AttemptRecord], verdict: Verdict) -> list[str]:
    return sorted({r.sample_id for r in records if r.verdict == verdict})


def _per_sample(records: list[AttemptRecord], *, visible: bool = False) -> list[tuple[int, int]]:
    """(attempts, correct) per sample over counted attempts; with ``visible``, (attempts,
    attempts passing the visible tests)."""
    by_sample: dict[str, list[AttemptRecord]] = defaultdict(list)
    for r in records:
        if r.verdict not in NOT_COUNTED:
            by_sample[r.sample_id].append(r)

    def good(r: AttemptRecord) -> bool:
        return r.verdict in PASSES_VISIBLE if visible else is_correct(r)

    return [(len(rs), sum(good(r) for r in rs)) for rs in by_sample.values()]


def usage_summary(records: list[AttemptRecord]) -> UsageSummary | None:
    """Tokens, cost, speed and parse outcomes; None for solvers that call no model."""
    used = [r for r in records if r.usage is not None]
    if not used:
        return None
    u = [r.usage for r in used if r.usage is not None]
    latency = sum(x.latency_s for x in u)
    fresh_tokens = sum(
        int(rd.get("completion_tokens", 0))  # type: ignore[call-overload]
        for r in used
        for rd in r.solver_meta.get("rounds", [])  # type: ignore[union-attr]
        if isinstance(rd, dict) and not rd.get("cached")
    )
    parse = Counter(r.parse or "none" for r in used)
    parsed = sum(n for kind, n in parse.items() if kind != "none")
    costs = [x.cost_usd for x in u]
    return UsageSummary(
        attempts=len(used),
        calls=sum(x.calls for x in u),
        cached_calls=sum(x.cached_calls for x in u),
        prompt_tokens=sum(x.prompt_tokens for x in u),
        completion_tokens=sum(x.completion_tokens for x in u),
        tokens_per_attempt=round(sum(x.prompt_tokens + x.completion_tokens for x in u) / len(u), 1),
        cost_usd=None if any(c is None for c in costs) else round(sum(c or 0.0 for c in costs), 6),
        model_latency_s=round(latency, 3),
        completion_tokens_per_s=round(fresh_tokens / latency, 2) if latency > 0 else None,
        parse=dict(sorted(parse.items())),
        parse_success_rate=round(parsed / len(used), 4),
    )


M = TypeVar("M", bound=BaseModel)


def _share(flags: list[bool | None]) -> float | None:
    known = [f for f in flags if f is not None]
    return round(sum(known) / len(known), 4) if known else None


def _published(record: AttemptRecord, key: str, model: type[M]) -> M | None:
    """A record's published evidence ``key`` (a patch family's: repair's), typed: the judge's
    own model in this process, a mapping when read back from results."""
    value = getattr(record.evidence, key, None)
    return None if value is None else model.model_validate(value)


def patch_summary(records: list[AttemptRecord]) -> PatchSummary | None:
    """Localisation, scope, size and regressions of the patches; None when none changed code."""
    counted = [r for r in records if r.verdict not in NOT_COUNTED]
    changed = [(r, q) for r in counted if (q := _published(r, "quality", QualityDelta)) is not None]
    if not changed:
        return None
    locs = [_published(r, "localisation", Localisation) for r, _ in changed]
    quality = [q for _, q in changed]
    return PatchSummary(
        changed=len(changed),
        with_regressions=sum(bool(r.regressions) for r in counted),
        hit_file=_share([x.hit_file if x else None for x in locs]),
        hit_function=_share([x.hit_function if x else None for x in locs]),
        hit_line=_share([x.hit_line if x else None for x in locs]),
        inside_fault_function=_share([q.inside_fault_function for q in quality]),
        mean_lines_changed=round(
            sum(q.lines_added + q.lines_removed for q in quality) / len(quality), 2
        ),
        adding_lint=sum(bool(q.new_lint) for q in quality),
    )
