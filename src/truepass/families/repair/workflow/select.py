"""Stage 4: pre-filter the candidates and select one, using only the visible tests and the
tests the workflow writes itself (fuzzed calls of the changed functions). The hidden tests are
never read here.

Pre-filter, each step on what the one before kept: the answer holds a patch
(:func:`truepass.families.repair.parse.parse_response`); distinct patches (duplicates add a vote to
the
first); it applies and every changed Python file compiles (``compile``, in this process: the code
is compiled, never run); it passes every visible test, applied to a fresh sandboxed workspace
with the pristine tests (:func:`truepass.families.repair.solvers.sbfl.passes_visible`). A candidate
that edits
the tests is not run and cannot be selected.

Selection among the passing candidates, best first: no fake-fix flag from the static detectors
(:func:`truepass.families.repair.fakefix.detect_fake_fix`, which read only the visible tests),
then the most agreement with the other candidates on fuzzed inputs (:mod:`.fuzz`), then the most
votes, then the smallest diff, then the first asked for. When none passes, the first that
compiles is the answer (judged like any other), else the first parsed, else none.
"""

from __future__ import annotations

from dataclasses import dataclass

from truepass.answers import Answer
from truepass.errors import PatchError
from truepass.families.repair.fakefix import detect_fake_fix
from truepass.families.repair.parse import ParseOutcome
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.solvers.sbfl import TestSubset, passes_visible
from truepass.families.repair.workflow import fuzz
from truepass.families.repair.workflow.meta import Candidate, FuzzStage, Selection, SelectionReason
from truepass.metrics.quality import changed_lines, enclosing_function, function_spans
from truepass.patches.apply import AppliedPatch
from truepass.sandbox import Limits


@dataclass
class Pool:
    """The candidates of one attempt as stage 4 sees them."""

    records: list[Candidate]
    applied: dict[str, AppliedPatch]
    """candidate id -> the code after its patch (distinct candidates that apply)"""
    infra_errors: int = 0


def prefilter(
    sample: RepairSample,
    parsed: list[tuple[int | None, ParseOutcome]],
    expected: list[str],
    subset: TestSubset | None,
    limits: Limits,
) -> Pool:
    """Parse, deduplicate, apply, compile and run the visible tests on each candidate."""
    pool = Pool([], {})
    first_of: dict[str, Candidate] = {}
    for i, (seed, outcome) in enumerate(parsed, start=1):
        answer = outcome.answer
        c = Candidate(
            id=f"c{i}",
            seed=seed,
            parse_kind=outcome.kind,
            parse_detail=outcome.detail,
            diff=answer.diff if answer is not None else None,
        )
        pool.records.append(c)
        if answer is None or c.diff is None:
            continue
        twin = first_of.get(c.diff)
        if twin is not None:
            c.duplicate_of = twin.id
            twin.votes += 1
            continue
        first_of[c.diff] = c
        _apply_and_compile(sample, answer, c, pool)
        applied = pool.applied.get(c.id)
        if applied is None or not c.compiles or c.test_edits:
            continue
        verdict = passes_visible(sample, applied.files, expected, subset, limits)
        if verdict is None:
            pool.infra_errors += 1
        c.visible = verdict
    return pool


def _apply_and_compile(sample: RepairSample, answer: Answer, c: Candidate, pool: Pool) -> None:
    try:
        applied = apply_to_sample(sample, answer)
    except PatchError as exc:
        c.applies, c.error = False, str(exc)
        return
    c.applies = True
    c.changed, c.test_edits = applied.changed, applied.test_edits
    c.diff_lines = sum(
        1
        for ln in applied.diff.splitlines()
        if ln[:1] in "+-" and not ln.startswith(("+++", "---"))
    )
    c.flags = sorted(
        {f.name for f in detect_fake_fix(sample.files, applied.attempted, sample.tests.visible)}
    )
    pool.applied[c.id] = applied
    c.compiles = True
    for path in applied.changed:
        content = applied.files.get(path)
        if content is None or not path.endswith(".py"):
            continue
        try:
            compile(content, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            c.compiles = False
            line = getattr(exc, "lineno", None)
            c.error = f"{path}" + (f" line {line}" if line else "") + f": {exc}"
            return
    if c.test_edits:
        c.error = f"edits the tests ({', '.join(c.test_edits)}): not run, not selectable"


def passing(pool: Pool) -> list[Candidate]:
    return [c for c in pool.records if c.visible]


def changed_functions(sample: RepairSample, pool: Pool, ids: list[str]) -> dict[str, set[str]]:
    """Code file -> top-level functions (or the functions holding the methods) the candidates
    ``ids`` change, in buggy-code coordinates."""
    out: dict[str, set[str]] = {}
    for c in pool.records:
        if c.id not in ids or c.id not in pool.applied:
            continue
        for path, lines in changed_lines(pool.applied[c.id].diff).items():
            spans = function_spans(sample.files.get(path, ""))
            names = {enclosing_function(spans, n) for n in lines} - {None}
            out.setdefault(path, set()).update(str(n).split(".")[0] for n in names)
    return out


def compare_behaviour(
    sample: RepairSample, pool: Pool, n_inputs: int, limits: Limits, *, seed: int
) -> FuzzStage:
    """Fuzz the passing candidates' changed functions and set each one's ``agreement``."""
    good = [c for c in passing(pool) if not c.flags] or passing(pool)
    if n_inputs <= 0:
        return FuzzStage(targets=[], inputs=0, skipped="fuzzing is off (--workflow-fuzz 0)")
    if len(good) < 2:
        return FuzzStage(targets=[], inputs=0, skipped="fewer than two distinct passing candidates")
    seeds = fuzz.seed_inputs(sample.files, sample.tests.visible)
    targets = fuzz.choose_targets(seeds, changed_functions(sample, pool, [c.id for c in good]))
    if not targets:
        return FuzzStage(
            targets=[],
            inputs=0,
            skipped="the visible tests call no changed function with literal arguments",
        )
    inputs = fuzz.fuzz_inputs(targets, seeds, n_inputs, seed=seed, key=sample.id)
    if not inputs:
        return FuzzStage(targets=[t.key for t in targets], inputs=0, skipped="no new input")
    outcomes = {c.id: fuzz.run_inputs(pool.applied[c.id].files, inputs, limits) for c in good}
    scores = fuzz.agreement(
        outcomes, {c.id: c.votes for c in good}, {t.key: len(v) for t, v in inputs.items()}
    )
    for c in good:
        c.agreement = scores.get(c.id)
    return FuzzStage(targets=[t.key for t in inputs], inputs=sum(len(v) for v in inputs.values()))


def _key(c: Candidate) -> tuple[bool, float, int, int, int]:
    return (bool(c.flags), -(c.agreement or 0.0), -c.votes, c.diff_lines, int(c.id[1:]))


def select(pool: Pool) -> Selection:
    """Choose among the candidates (see the module's docstring) and say why."""
    ranked = sorted(passing(pool), key=_key)
    ranking = [c.id for c in ranked]
    if len(ranked) == 1:
        return Selection(
            selected=ranked[0].id,
            reason=SelectionReason.ONLY_PASSING,
            detail=f"{ranked[0].id} is the only candidate passing the visible tests",
            ranking=ranking,
        )
    if ranked:
        best = ranked[0]
        tied = [c for c in ranked[1:] if _key(c)[:-1] == _key(best)[:-1]]
        behind = [c for c in ranked[1:] if c not in tied]
        if behind:
            reason, detail = _why(best, behind[0])
        else:
            reason, detail = SelectionReason.FIRST, f"{best.id}: the first asked for"
        if tied:
            detail += f" (tied with {', '.join(c.id for c in tied)}, asked for later)"
        return Selection(selected=best.id, reason=reason, detail=detail, ranking=ranking)
    distinct = [c for c in pool.records if c.diff is not None and c.duplicate_of is None]
    compiled = [c for c in distinct if c.compiles and not c.test_edits]
    if compiled:
        return Selection(
            selected=compiled[0].id,
            reason=SelectionReason.NONE_PASSING,
            detail=f"no candidate passes the visible tests: {compiled[0].id}, the first that "
            "compiles",
            ranking=[],
        )
    if distinct:
        return Selection(
            selected=distinct[0].id,
            reason=SelectionReason.NONE_COMPILING,
            detail=f"no candidate compiles without editing the tests: {distinct[0].id}, the "
            "first parsed",
            ranking=[],
        )
    return Selection(
        selected=None, reason=SelectionReason.NOTHING, detail="no answer held a patch", ranking=[]
    )


def _why(best: Candidate, nxt: Candidate) -> tuple[SelectionReason, str]:
    ahead = f"{best.id} over {nxt.id}"
    if bool(best.flags) != bool(nxt.flags):
        return SelectionReason.UNFLAGGED, f"{ahead}: {nxt.id} is flagged {', '.join(nxt.flags)}"
    if (best.agreement or 0.0) != (nxt.agreement or 0.0):
        return (
            SelectionReason.AGREEMENT,
            f"{ahead}: agreement on fuzzed inputs {best.agreement or 0.0:.2f} against "
            f"{nxt.agreement or 0.0:.2f}",
        )
    if best.votes != nxt.votes:
        return SelectionReason.VOTES, f"{ahead}: {best.votes} votes against {nxt.votes}"
    return (
        SelectionReason.SMALLEST,
        f"{ahead}: {best.diff_lines} changed lines against {nxt.diff_lines}",
    )
