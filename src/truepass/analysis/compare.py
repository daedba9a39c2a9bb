"""Paired comparison of solvers across runs (``truepass compare``); documented in docs/compare.md.

Each run directory's ``results.jsonl`` holds one or more solvers; every (run, solver) is an
**arm**. Arms are paired by ``sample_id`` over the samples valid in both, and every pair of arms
gets rates with Wilson intervals, the difference with a seeded paired-bootstrap interval, the
discordant counts, exact McNemar p-values (Holm-adjusted when there are several pairs) and effect
sizes, overall and per defect type and leakage tier. A solver run on a suite and on its
``+obfuscated`` form also gets a **leakage probe**: the drop in correct rate, the memorisation
signal; and an arm whose samples hold both a public and the private tier gets a **tier
contrast**: public minus private, unpaired (the memorisation probe's target and control files).
Two arms that share no sample are not paired (a note says so). Two arms whose samples are in
different languages (QuixBugs in Python and in Java) are paired by program instead
(:mod:`truepass.analysis.crosslang`), and a solver run in both gets the programs it fixed in one
language and not the other. Samples left out of a pair are listed with the reason, never
silently dropped.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from truepass.analysis.crosslang import RunSamples, run_samples, split_outcomes
from truepass.analysis.stats import (
    CONFIDENCE,
    RESAMPLES,
    cohens_g,
    discordant_odds_ratio,
    holm,
    mcnemar_exact,
    paired_bootstrap_ci,
    unpaired_bootstrap_ci,
    wilson,
)
from truepass.errors import InputError
from truepass.records import AttemptRecord, is_correct, read_results
from truepass.suites.split import Split, SplitSpec
from truepass.vocabulary import NOT_COUNTED, PASSES_VISIBLE, Verdict

Metric = Literal["correct", "plausible"]
METRICS: tuple[Metric, ...] = ("correct", "plausible")
OBFUSCATED_SUFFIX = "+obfuscated"
_METRICS_ONLY = frozenset({Verdict.SCORED, Verdict.NO_PATCH})
"""The verdicts of answers judged by metrics alone (a tier contrast of such an arm leaves out the
correct rate, which is 0 throughout)."""
PRIVATE = "private"
"""The leakage tier of samples no model can have seen; every other tier is public."""
_SUCCESS: dict[str, Callable[[AttemptRecord], bool]] = {
    "correct": is_correct,
    "plausible": lambda r: r.verdict in PASSES_VISIBLE,
}


class Arm(BaseModel):
    """One solver in one run directory."""

    name: str = Field(description="'<dir name>/<solver>', or the solver when that is unique")
    run_dir: str
    solver: str
    suites: list[str]
    samples: int
    attempts: int
    invalid_samples: list[str]
    infra_errors: list[str] = Field(description="samples with at least one infra-error attempt")
    languages: list[str] = Field(
        default_factory=list,
        description="languages of the arm's samples, from the run's suite (manifest.json); "
        "empty when not read (all runs on one suite) or unknown",
    )
    split: SplitSpec | None = Field(
        None, description="the split the run was made on (manifest.json; run --split)"
    )
    variants: list[str] = Field(
        default_factory=list,
        description="the prompt variants of its attempts (solver_meta.variant; model solvers)",
    )


class PairedTest(BaseModel):
    """Attempt-0 outcomes of one metric on the paired samples, and the exact McNemar test."""

    both: int
    a_only: int = Field(description="discordant: A succeeds, B does not (b)")
    b_only: int = Field(description="discordant: B succeeds, A does not (c)")
    neither: int
    p_value: float = Field(description="exact two-sided McNemar p")
    p_holm: float = Field(description="Holm-adjusted over the pairs of arms (= p_value for one)")
    cohens_g: float | None = Field(description="max(b, c) / (b + c) - 0.5")
    odds_ratio: float | None = Field(description="b / c; None when c is 0")
    odds_ratio_ci: list[float | None] | None = Field(
        description="exact conditional interval [low, high]; high None = unbounded"
    )


class ScoreDifference(BaseModel):
    """One metric score of two arms on the same samples (mean over each sample's attempts)."""

    mean_a: float
    mean_b: float
    difference: float = Field(description="mean_a - mean_b")
    difference_ci: list[float] | None = Field(description="paired bootstrap percentile interval")


class GroupComparison(BaseModel):
    """Everything about one pair of arms on one set of paired samples."""

    n: int = Field(description="paired samples (valid in both arms)")
    rate_a: float | None = Field(description="mean over samples of the per-sample success rate")
    rate_a_ci: list[float] | None = Field(description="Wilson interval")
    rate_b: float | None
    rate_b_ci: list[float] | None
    difference: float | None = Field(description="rate_a - rate_b")
    difference_ci: list[float] | None = Field(description="paired bootstrap percentile interval")
    correct: PairedTest
    plausible: PairedTest
    scores: dict[str, ScoreDifference] = Field(
        default_factory=dict,
        description="families judged by metrics: per score, the paired difference of per-sample "
        "means (e.g. BLEU of two summarisers), with a paired bootstrap interval",
    )


class Excluded(BaseModel):
    """A sample left out of a pair, with what was wrong in which arm."""

    sample_id: str = Field(
        description="the sample; across languages, A's sample of the program (B's when A has none)"
    )
    reasons: dict[str, str] = Field(
        description="arm -> 'invalid-sample', 'infra-error' (attempt 0), 'no-attempt-0', "
        "'missing' (the arm has no attempt at this sample, or across languages at this program) "
        "or 'duplicate-program' (across languages: several of the arm's samples have this key)"
    )
    program: str | None = Field(
        None, description="across languages: the program key (None when paired by sample id)"
    )


class PairComparison(BaseModel):
    a: str
    b: str
    overall: GroupComparison
    by_defect_type: dict[str, GroupComparison]
    by_leakage: dict[str, GroupComparison]
    excluded: list[Excluded]


class LanguageComparison(BaseModel):
    """One solver run on the same programs in two languages, paired by program."""

    solver: str
    a: str = Field(description="arm in language_a")
    b: str = Field(description="arm in language_b")
    language_a: str
    language_b: str
    n: int = Field(description="paired programs (valid in both arms)")
    both: list[str] = Field(description="programs fixed (attempt 0, the metric) in both")
    a_only: list[str] = Field(description="programs fixed in language_a only")
    b_only: list[str] = Field(description="programs fixed in language_b only")
    neither: list[str]
    test: PairedTest = Field(
        description="exact McNemar over the programs: the pair's overall test of the metric"
    )
    unpaired_a: list[str] = Field(description="samples of A whose program B has no sample of")
    unpaired_b: list[str] = Field(description="samples of B whose program A has no sample of")


class LeakageProbe(BaseModel):
    """One solver on a suite and on its obfuscated form: the drop in correct rate."""

    solver: str
    suite: str
    original: str = Field(description="arm on the suite as published")
    obfuscated: str = Field(description="arm on '<suite>+obfuscated'")
    n: int
    drop: float | None = Field(description="correct rate original - obfuscated")
    drop_ci: list[float] | None = Field(description="paired bootstrap interval of the drop")
    overall: GroupComparison = Field(description="a = original, b = obfuscated, metric correct")
    by_leakage: dict[str, GroupComparison]
    excluded: list[Excluded]


class TierDifference(BaseModel):
    """One measure of one arm: its mean over public samples against its mean over private ones."""

    mean_public: float
    mean_private: float
    difference: float = Field(description="mean_public - mean_private")
    difference_ci: list[float] | None = Field(
        description="unpaired bootstrap percentile interval (each tier resampled on its own); "
        "None below two samples a tier"
    )


class TierContrast(BaseModel):
    """One arm's public samples against its private ones: what a model does better on what it
    may have been trained on (the memorisation probe: target against control files)."""

    arm: str
    solver: str
    public_tiers: list[str] = Field(description="the public tiers among the arm's samples")
    n_public: int = Field(description="valid samples of a public tier")
    n_private: int = Field(description="valid private samples")
    measures: dict[str, TierDifference] = Field(
        description="the metric (correct or plausible rate; left out when every counted attempt "
        "is scored or no-patch: judged by metrics alone), then every score all the arm's "
        "valid samples carry (exact, near_exact, similarity, ...): per-sample means over counted "
        "attempts"
    )


class Comparison(BaseModel):
    """Result of :func:`compare_runs` (``truepass compare --json``)."""

    metric: Metric = Field(description="the metric of rates, differences and intervals")
    confidence: float
    bootstrap: int = Field(description="bootstrap resamples")
    seed: int = Field(description="bootstrap seed; every interval restarts from it")
    runs: list[str]
    arms: list[Arm]
    pairs: list[PairComparison]
    leakage: list[LeakageProbe]
    tier_contrasts: list[TierContrast] = Field(
        default_factory=list,
        description="per arm with samples of a public tier and of the private one: public - "
        "private, unpaired",
    )
    across_languages: list[LanguageComparison] = Field(
        default_factory=list,
        description="per solver run in two languages: programs fixed in one and not the other",
    )
    notes: list[str] = Field(
        default_factory=list, description="runs whose samples' languages could not be read"
    )
    warnings: list[str] = Field(
        default_factory=list,
        description="pairs that compare prompt variants on the dev split (where they are "
        "tuned), or arms made on different splits",
    )


@dataclass
class _Outcome:
    """One sample in one arm: attempt-0 success per metric, and mean over counted attempts."""

    defect_type: str
    leakage: str
    first: dict[str, bool]
    mean: dict[str, float]
    scores: dict[str, float] = field(default_factory=dict)  # mean per score over counted attempts
    rated: bool = True  # some counted attempt has a verdict of its own, not scored or no-patch


@dataclass
class _ArmData:
    info: Arm
    valid: dict[str, _Outcome] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)  # sample_id -> reason
    program: dict[str, str] = field(default_factory=dict)  # sample_id -> program key


def compare_runs(
    run_dirs: list[Path],
    *,
    metric: Metric = "correct",
    bootstrap: int = RESAMPLES,
    seed: int = 0,
) -> Comparison:
    """Compare every pair of arms (solver × run) found in the given run directories.

    Args:
        run_dirs: run directories (or their ``results.jsonl``), in the order arms are listed;
            pair (A, B) keeps that order, so ``difference`` is earlier minus later.
        metric: success for rates, differences and bootstrap intervals: ``correct`` (passes
            visible and hidden tests) or ``plausible`` (passes the visible tests). McNemar tests
            are reported for both.
        bootstrap: paired-bootstrap resamples per interval.
        seed: bootstrap seed; each interval uses a fresh generator from it, so any one number
            is reproducible on its own.

    Returns:
        A :class:`Comparison`, JSON-serialisable.

    Raises:
        InputError: unreadable input (see :func:`load_results`), fewer than two arms (one is
            enough when it has a tier contrast), or a run given twice.
    """
    if metric not in METRICS:
        raise InputError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    if bootstrap < 1:
        raise InputError("bootstrap resamples must be positive")
    grouped: list[tuple[Path, str, list[AttemptRecord]]] = []  # (run, solver, records)
    for run in run_dirs:
        by_solver: dict[str, list[AttemptRecord]] = defaultdict(list)
        for rec in read_results(run):
            by_solver[rec.solver].append(rec)
        grouped.extend((run, solver, recs) for solver, recs in by_solver.items())
    names = _arm_names([(run, solver) for run, solver, _ in grouped])
    arms = [_arm(n, run, s, recs) for n, (run, s, recs) in zip(names, grouped, strict=True)]
    contrasts = [c for arm in arms if (c := _tier_contrast(arm, metric, bootstrap, seed))]
    if len(arms) < 2 and not contrasts:
        raise InputError(
            f"need at least two arms (solver × run) to compare, found {len(arms)} (one arm "
            "compares its public samples with its private ones: it has no samples of both)",
            location=", ".join(str(r) for r in run_dirs),
        )
    notes = _read_languages(arms, [run for run, _, _ in grouped])
    for arm, (run, _, _) in zip(arms, grouped, strict=True):
        arm.info.split = _split(run)
    sharing = []
    for a, b in combinations(arms, 2):
        if _share(a, b):
            sharing.append((a, b))
        else:
            notes.append(f"{a.info.name} and {b.info.name} share no sample: not paired")
    pairs = [_compare(a, b, metric, bootstrap, seed) for a, b in sharing]
    _adjust([p.overall for p in pairs])
    for key in {k for p in pairs for k in p.by_defect_type}:
        _adjust([p.by_defect_type[key] for p in pairs if key in p.by_defect_type])
    for key in {k for p in pairs for k in p.by_leakage}:
        _adjust([p.by_leakage[key] for p in pairs if key in p.by_leakage])
    probes = []
    for a, b in sharing:
        if (pair := _leakage_pair(a, b)) is not None:
            probes.append(_probe(*pair, bootstrap, seed))
    _adjust([p.overall for p in probes])
    across = [
        _language_comparison(a, b, pair, metric)
        for (a, b), pair in zip(sharing, pairs, strict=True)
        if a.info.solver == b.info.solver and _across_languages(a, b)
    ]
    return Comparison(
        metric=metric,
        confidence=CONFIDENCE,
        bootstrap=bootstrap,
        seed=seed,
        runs=[str(r) for r in run_dirs],
        arms=[a.info for a in arms],
        pairs=pairs,
        leakage=probes,
        tier_contrasts=contrasts,
        across_languages=across,
        notes=notes,
        warnings=[w for a, b in combinations(arms, 2) if (w := _split_warning(a.info, b.info))],
    )


def _split(run: Path) -> SplitSpec | None:
    """The split a run was made on, from its manifest (None: the whole suite, or unknown)."""
    path = (run.parent if run.is_file() else run) / "manifest.json"
    try:
        found = json.loads(path.read_text(encoding="utf-8")).get("split")
        return (
            None
            if found is None
            else SplitSpec.model_validate(
                {k: v for k, v in found.items() if k in SplitSpec.model_fields}
            )
        )
    except (OSError, ValueError, AttributeError, ValidationError):
        return None


def _split_warning(a: Arm, b: Arm) -> str | None:
    """Two arms on different splits; or two prompt variants compared on the dev split, where
    prompts are tuned (seed 002: tune on dev, report on test)."""
    if a.split != b.split and (a.split is not None or b.split is not None):

        def name(x: SplitSpec | None) -> str:
            return "the whole suite" if x is None else f"{x.split} (dev share {x.dev_share})"

        return (f"{a.name} ({name(a.split)}) and {b.name} ({name(b.split)}) were run on "
                "different splits: they share no samples, or only some")  # fmt: skip
    if (a.split is not None and a.split.split is Split.DEV and a.variants and b.variants
            and a.variants != b.variants):  # fmt: skip
        return (f"{a.name} and {b.name} compare prompt variants ({', '.join(a.variants)} vs "
                f"{', '.join(b.variants)}) on the dev split, where prompts are tuned: choose "
                "here, then report the difference on --split test")  # fmt: skip
    return None


def _arm_names(keys: list[tuple[Path, str]]) -> list[str]:
    solvers = [s for _, s in keys]
    if len(set(solvers)) == len(solvers):
        return solvers
    for fmt in (lambda r, s: f"{_dir_name(r)}/{s}", lambda r, s: f"{r}/{s}"):
        names = [fmt(r, s) for r, s in keys]
        if len(set(names)) == len(names):
            return names
    dup = next(str(r) for r, s in keys if sum(k == (r, s) for k in keys) > 1)
    raise InputError("the same run is given twice", location=dup)


def _dir_name(run: Path) -> str:
    return (run.parent if run.is_file() else run).name or str(run)


def _arm(name: str, run: Path, solver: str, records: list[AttemptRecord]) -> _ArmData:
    by_sample: dict[str, list[AttemptRecord]] = defaultdict(list)
    for r in records:
        by_sample[r.sample_id].append(r)
    data = _ArmData(
        info=Arm(
            name=name,
            run_dir=str(run),
            solver=solver,
            suites=sorted({r.suite for r in records}),
            samples=len(by_sample),
            attempts=len(records),
            invalid_samples=sorted(
                s
                for s, rs in by_sample.items()
                if any(r.verdict is Verdict.INVALID_SAMPLE for r in rs)
            ),
            infra_errors=sorted(
                s
                for s, rs in by_sample.items()
                if any(r.verdict is Verdict.INFRA_ERROR for r in rs)
            ),
            variants=sorted(
                {str(v) for r in records if (v := r.solver_meta.get("variant")) is not None}
            ),
        )
    )
    for sid, rs in by_sample.items():
        first = next((r for r in rs if r.attempt == 0), None)
        counted = [r for r in rs if r.verdict not in NOT_COUNTED]
        if any(r.verdict is Verdict.INVALID_SAMPLE for r in rs):
            data.problems[sid] = Verdict.INVALID_SAMPLE.value
        elif first is None:
            data.problems[sid] = "no-attempt-0"
        elif first.verdict is Verdict.INFRA_ERROR:
            data.problems[sid] = Verdict.INFRA_ERROR.value
        else:
            data.valid[sid] = _Outcome(
                defect_type=first.defect_type,
                leakage=first.leakage,
                first={m: _SUCCESS[m](first) for m in METRICS},
                mean={m: sum(_SUCCESS[m](r) for r in counted) / len(counted)
                      for m in METRICS},
                scores=_mean_scores(counted),
                rated=any(r.verdict not in _METRICS_ONLY for r in counted),
            )  # fmt: skip
    return data


def _read_languages(arms: list[_ArmData], runs: list[Path]) -> list[str]:
    """Give each arm its samples' languages and program keys, read from its run's suite, when
    the runs are not all on one suite; notes on runs whose suite cannot be read."""
    if len({tuple(a.info.suites) for a in arms}) < 2:
        return []
    cache: dict[tuple[str, str], RunSamples | str] = {}
    problems: dict[str, str] = {}
    for arm, run in zip(arms, runs, strict=True):
        found, why = run_samples(run, cache)
        if found is None:
            if why:
                problems[str(run)] = why
            continue
        ids = {*arm.valid, *arm.problems}
        if not ids <= found.program.keys():
            problems[str(run)] = "some of its samples are not in its suite"
            continue
        arm.program = {s: found.program[s] for s in ids}
        if ids <= found.language.keys():  # a family whose samples have no language has none
            arm.info.languages = sorted({found.language[s] for s in ids})
    if not any(a.info.languages for a in arms):
        return []
    return [
        f"{run}: {why}: its samples' language is unknown, they are paired by sample id"
        for run, why in problems.items()
    ]


def _across_languages(a: _ArmData, b: _ArmData) -> bool:
    """Pair by program: each arm's samples are in one language, not the same one."""
    la, lb = a.info.languages, b.info.languages
    return len(la) == 1 and len(lb) == 1 and la != lb


def _keys(arm: _ArmData, by_program: bool) -> tuple[dict[str, str], dict[str, list[str]]]:
    """key -> the arm's (first) sample with it; and, for keys several samples share, the others."""
    keys: dict[str, str] = {}
    shared: dict[str, list[str]] = defaultdict(list)
    for sid in sorted({*arm.valid, *arm.problems}):
        key = arm.program.get(sid, sid) if by_program else sid
        if key in keys:
            shared[key].append(sid)
        else:
            keys[key] = sid
    return keys, shared


def _pair_samples(
    a: _ArmData, b: _ArmData
) -> tuple[list[tuple[str, _Outcome, _Outcome]], list[Excluded]]:
    """(key, outcome in A, outcome in B) per paired key, and the samples left out. The key is
    the sample id, or the program key when the arms are in different languages."""
    by_program = _across_languages(a, b)
    (keys_a, shared_a), (keys_b, shared_b) = _keys(a, by_program), _keys(b, by_program)
    paired: list[tuple[str, _Outcome, _Outcome]] = []
    excluded: list[Excluded] = []
    for key in sorted({*keys_a, *keys_b}):
        sa, sb = keys_a.get(key), keys_b.get(key)
        shared = key in shared_a or key in shared_b
        if sa is not None and sb is not None and sa in a.valid and sb in b.valid and not shared:
            paired.append((key, a.valid[sa], b.valid[sb]))
            continue
        reasons = {}
        for arm, sid, arm_shared in ((a, sa, shared_a), (b, sb, shared_b)):
            if sid is None:
                reasons[arm.info.name] = "missing"
            elif key in arm_shared:
                reasons[arm.info.name] = "duplicate-program"
            elif sid in arm.problems:
                reasons[arm.info.name] = arm.problems[sid]
        program = key if by_program else None
        excluded.append(Excluded(sample_id=sa or sb or key, reasons=reasons, program=program))
        for arm, arm_shared in ((a, shared_a), (b, shared_b)):
            excluded.extend(
                Excluded(sample_id=sid, reasons={arm.info.name: "duplicate-program"}, program=key)
                for sid in arm_shared.get(key, [])
            )
    return paired, excluded


def _share(a: _ArmData, b: _ArmData) -> bool:
    """Do the two arms hold a sample (a program, across languages) in common?"""
    by_program = _across_languages(a, b)
    return not _keys(a, by_program)[0].keys().isdisjoint(_keys(b, by_program)[0])


def _tier_contrast(arm: _ArmData, metric: Metric, resamples: int, seed: int) -> TierContrast | None:
    """Public against private samples of one arm (None unless it has valid samples of both)."""
    public = [o for o in arm.valid.values() if o.leakage != PRIVATE]
    private = [o for o in arm.valid.values() if o.leakage == PRIVATE]
    if not public or not private:
        return None
    every = public + private
    names = set.intersection(*({*o.scores} for o in every))
    rated = [metric] if any(o.rated for o in every) else []
    measures = {}
    for name in [*rated, *sorted(names - {metric})]:
        xa = [o.mean[name] if name == metric else o.scores[name] for o in public]
        xb = [o.mean[name] if name == metric else o.scores[name] for o in private]
        ma, mb = sum(xa) / len(xa), sum(xb) / len(xb)
        ci = unpaired_bootstrap_ci(xa, xb, resamples=resamples, seed=seed)
        measures[name] = TierDifference(
            mean_public=ma, mean_private=mb, difference=ma - mb, difference_ci=_list(ci)
        )
    return TierContrast(
        arm=arm.info.name,
        solver=arm.info.solver,
        public_tiers=sorted({o.leakage for o in public}),
        n_public=len(public),
        n_private=len(private),
        measures=measures,
    )


def _language_comparison(
    a: _ArmData, b: _ArmData, pair: PairComparison, metric: Metric
) -> LanguageComparison:
    paired, _ = _pair_samples(a, b)
    cells = split_outcomes([(k, pa.first[metric], pb.first[metric]) for k, pa, pb in paired])
    return LanguageComparison(
        solver=a.info.solver,
        a=a.info.name,
        b=b.info.name,
        language_a=a.info.languages[0],
        language_b=b.info.languages[0],
        n=len(paired),
        **cells,
        test=getattr(pair.overall, metric).model_copy(),
        unpaired_a=[e.sample_id for e in pair.excluded if e.reasons.get(b.info.name) == "missing"],
        unpaired_b=[e.sample_id for e in pair.excluded if e.reasons.get(a.info.name) == "missing"],
    )


def _compare(a: _ArmData, b: _ArmData, metric: Metric, resamples: int, seed: int) -> PairComparison:
    keyed, excluded = _pair_samples(a, b)
    paired = [(pa, pb) for _, pa, pb in keyed]

    def groups(key: Callable[[_Outcome], str]) -> dict[str, GroupComparison]:
        by: dict[str, list[tuple[_Outcome, _Outcome]]] = defaultdict(list)
        for pa, pb in paired:
            by[key(pa)].append((pa, pb))
        return {k: _group(v, metric, resamples, seed) for k, v in sorted(by.items())}

    return PairComparison(
        a=a.info.name,
        b=b.info.name,
        overall=_group(paired, metric, resamples, seed),
        by_defect_type=groups(lambda o: o.defect_type),
        by_leakage=groups(lambda o: o.leakage),
        excluded=excluded,
    )


def _group(
    paired: list[tuple[_Outcome, _Outcome]], metric: Metric, resamples: int, seed: int
) -> GroupComparison:
    n = len(paired)
    xa = [pa.mean[metric] for pa, _ in paired]
    xb = [pb.mean[metric] for _, pb in paired]
    ra = sum(xa) / n if n else None
    rb = sum(xb) / n if n else None
    diff_ci = paired_bootstrap_ci(xa, xb, resamples=resamples, seed=seed)
    return GroupComparison(
        n=n,
        rate_a=ra,
        rate_a_ci=_list(wilson(sum(xa), n)),
        rate_b=rb,
        rate_b_ci=_list(wilson(sum(xb), n)),
        difference=None if ra is None or rb is None else ra - rb,
        difference_ci=_list(diff_ci),
        correct=_test(paired, "correct"),
        plausible=_test(paired, "plausible"),
        scores=_score_differences(paired, resamples, seed),
    )


def _mean_scores(records: list[AttemptRecord]) -> dict[str, float]:
    names = {k for r in records for k in r.scores}
    return {k: sum(r.scores.get(k, 0.0) for r in records) / len(records) for k in sorted(names)}


def _score_differences(
    paired: list[tuple[_Outcome, _Outcome]], resamples: int, seed: int
) -> dict[str, ScoreDifference]:
    """Every score both arms have on every paired sample, with a paired bootstrap interval."""
    if not paired:
        return {}
    names = set.intersection(*({*pa.scores} & {*pb.scores} for pa, pb in paired))
    out = {}
    for name in sorted(names):
        xa = [pa.scores[name] for pa, _ in paired]
        xb = [pb.scores[name] for _, pb in paired]
        ci = paired_bootstrap_ci(xa, xb, resamples=resamples, seed=seed)
        mean_a, mean_b = sum(xa) / len(xa), sum(xb) / len(xb)
        out[name] = ScoreDifference(
            mean_a=mean_a, mean_b=mean_b, difference=mean_a - mean_b, difference_ci=_list(ci)
        )
    return out


def _test(paired: list[tuple[_Outcome, _Outcome]], metric: Metric) -> PairedTest:
    cells = [(pa.first[metric], pb.first[metric]) for pa, pb in paired]
    b = sum(x and not y for x, y in cells)
    c = sum(y and not x for x, y in cells)
    p = mcnemar_exact(b, c)
    ratio, ci = discordant_odds_ratio(b, c)
    return PairedTest(
        both=sum(x and y for x, y in cells),
        a_only=b,
        b_only=c,
        neither=sum(not x and not y for x, y in cells),
        p_value=p,
        p_holm=p,
        cohens_g=cohens_g(b, c),
        odds_ratio=ratio,
        odds_ratio_ci=None if ci is None else list(ci),
    )


def _adjust(groups: Iterable[GroupComparison]) -> None:
    """Holm-adjust, per metric, the McNemar p-values of comparisons that form one family."""
    groups = list(groups)
    for m in METRICS:
        tests: list[PairedTest] = [getattr(g, m) for g in groups]
        for t, adj in zip(tests, holm([t.p_value for t in tests]), strict=True):
            t.p_holm = adj


def _leakage_pair(a: _ArmData, b: _ArmData) -> tuple[_ArmData, _ArmData] | None:
    """(original, obfuscated) when a and b are one solver on a suite and its obfuscated form."""
    if a.info.solver != b.info.solver or len(a.info.suites) != 1 or len(b.info.suites) != 1:
        return None
    sa, sb = a.info.suites[0], b.info.suites[0]
    if sb == sa + OBFUSCATED_SUFFIX:
        return a, b
    if sa == sb + OBFUSCATED_SUFFIX:
        return b, a
    return None


def _probe(orig: _ArmData, obf: _ArmData, resamples: int, seed: int) -> LeakageProbe:
    cmp = _compare(orig, obf, "correct", resamples, seed)
    return LeakageProbe(
        solver=orig.info.solver,
        suite=orig.info.suites[0],
        original=orig.info.name,
        obfuscated=obf.info.name,
        n=cmp.overall.n,
        drop=cmp.overall.difference,
        drop_ci=cmp.overall.difference_ci,
        overall=cmp.overall,
        by_leakage=cmp.by_leakage,
        excluded=cmp.excluded,
    )


def _list(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else [ci[0], ci[1]]


def _having(by_sample: dict[str, list[AttemptRecord]], verdict: Verdict) -> list[str]:
    """Samples any of whose attempts has ``verdict``."""
    return sorted(s for s, rs in by_sample.items() if any(r.verdict is verdict for r in rs))
