"""The repair judge: apply, run visible tests from pristine copies, then hidden; assign a verdict.

Nothing the candidate says is believed: a phase passes only when every test the suite expects
(collected on the reference fix, or named by ``tests.expected``) is reported passed through the
result channel, the session finished, and the process exited 0 (1 if only other tests failed).
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable

from truepass import pyast
from truepass.answers import Answer
from truepass.errors import PatchError, SandboxError
from truepass.families.repair import (
    differential,
    languages,
    pyramid,
    selection,
    similarity,
    strategy,
    style,
)
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.environments.uvtool import EnvironmentUnbuilt
from truepass.families.repair.evidence import RepairEvidence
from truepass.families.repair.fakefix import detect_fake_fix
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.patchtypes import patch_type
from truepass.families.repair.runners import runner_for
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.testids import resolve_expected
from truepass.judged import FlagDetail, JudgeConfig, Judged, PhaseResult
from truepass.metrics.localisation import localisation
from truepass.metrics.quality import quality_delta
from truepass.metrics.root_cause import NamedCause, named_cause
from truepass.patches.apply import AppliedPatch
from truepass.sandbox.testrun import TestRun
from truepass.vocabulary import PASSES_VISIBLE, CheckStatus, Verdict


class InfraFailure(Exception):
    """The sandbox failed to run the tests even after retries."""


class CanaryAlarm(Exception):
    """A canary test reported the wrong outcome: the test framework was told what to say."""

    def __init__(self, lies: list[str]) -> None:
        super().__init__("; ".join(lies))
        self.lies = lies


class MissingModule(Exception):
    """The tests could not start: a module they import is not installed here (the environment,
    not the sandbox: never retried)."""

    def __init__(self, module: str) -> None:
        super().__init__(module)
        self.module = module


_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")


def missing_module(sample: RepairSample, tr: TestRun) -> str | None:
    """The module a run could not import, when it is none of the sample's own files (a
    dependency of the code that this environment lacks), else None."""
    own = {
        part.removesuffix(".py")
        for path in [*sample.files, *sample.tests.visible, *sample.tests.hidden]
        for part in path.split("/")
    }
    for name in _NO_MODULE.findall(tr.output):
        if name.split(".")[0] not in own:
            return name
    return None


Runner = Callable[..., TestRun]  # (code, tests, *, first=None, coverage=False)


def _runner(
    sample: RepairSample,
    config: JudgeConfig,
    retries: list[int],
    canaries: bool = False,
    missing_lies: bool = True,
) -> Runner:
    """The judge's test runs of ``sample``: retried when the sandbox fails, with the harness's
    canaries when ``canaries``: a wrong outcome raises :class:`CanaryAlarm`, and so does a
    canary missing from a clean session when ``missing_lies`` (the judge's runs; the check,
    which finds out whether the sample's runs collect canaries at all, passes False)."""
    tests_runner = runner_for(sample)
    extra = {"canaries": True} if canaries else {}

    def run(
        code: dict[str, str],
        tests: dict[str, str],
        *,
        first: list[str] | None = None,
        coverage: bool = False,
    ) -> TestRun:
        last = ""
        for attempt in range(config.infra_retries + 1):
            try:
                tr = tests_runner.run(
                    sample, code, tests, limits=config.limits, coverage=coverage, first=first,
                    **extra,
                )  # fmt: skip
            except SandboxError as exc:
                last = str(exc)
            else:
                lies = [*tr.canary_lies, *(tr.canaries_missing if missing_lies else [])]
                if lies:
                    raise CanaryAlarm(lies)
                if tr.started or tr.timed_out:
                    return tr
                module = missing_module(sample, tr)
                if module is not None:
                    raise MissingModule(module)
                last = f"the test harness did not start (exit {tr.returncode}): {tr.output[-500:]}"
            if attempt < config.infra_retries:
                retries[0] += 1
        raise InfraFailure(last)

    return run


def phase_result(tr: TestRun, expected: list[str]) -> PhaseResult:
    """Compare a run with the expected test ids; ``ok`` only if all ran, passed and it finished.

    Tests outside ``expected`` (which a sample's ``tests.expected`` can narrow) do not count and
    are not listed: exit status 1 is accepted when only they, or the canaries that must fail,
    failed."""
    if not tr.trusted_channel:
        ok = tr.returncode == 0 and not tr.timed_out
        return PhaseResult(expected=0, passed=0, failed=0 if ok else 1, missing=0, ok=ok)
    want = set(expected)
    passed = tr.passed & want
    missing = [n for n in expected if n not in tr.outcomes]
    failing = sorted((tr.failed & want) | set(tr.collect_errors))
    others = tr.failed - want  # outside what the suite expects: not counted
    others |= {n for n, outcome in tr.canaries.items() if outcome != "passed"}
    ok = (
        tr.finished
        and (tr.returncode == 0 or (tr.returncode == 1 and bool(others)))
        and not tr.timed_out
        and len(passed) == len(want) > 0
        and not failing
    )
    return PhaseResult(
        expected=len(expected),
        passed=len(passed),
        failed=len(failing),
        missing=len(missing),
        ok=ok,
        failing=(failing + missing)[:20],
    )


def check_sample(sample: RepairSample, config: JudgeConfig) -> RepairCheck:
    """Validate one sample: buggy fails visible (hidden, when the visible tests are regression
    tests: ``tests.visible_role``), the reference fix passes everything. Where the
    sample's language has canaries, the check runs them too; a sample on which they do not
    behave (its own configuration skips or fails them) is judged without them, and says why."""
    try:
        fixed = apply_to_sample(sample, Answer(diff=sample.fix))
    except PatchError as exc:
        return RepairCheck(
            sample_id=sample.id,
            valid=False,
            status=CheckStatus.REFERENCE_FAILS,
            reason=f"reference fix: {exc}",
        )
    canaries, note = languages.get(sample.language).canaries, ""
    try:
        runs = _check_runs(sample, fixed.files, _runner(sample, config, [0], canaries, False))
        done = [tr for tr in runs if tr is not None]
        if canaries and not any(tr.canaries for tr in done):
            # the runs stand (without canaries), but the judge need not add them
            canaries, note = False, "no canary reported (the sample's configuration skips them)"
        elif canaries and any(tr.canaries_missing for tr in done):
            raise CanaryAlarm([m for tr in done for m in tr.canaries_missing])
    except CanaryAlarm as exc:
        canaries, note = False, f"canaries misbehave on the pristine code: {exc}"
        try:
            runs = _check_runs(sample, fixed.files, _runner(sample, config, [0]))
        except (InfraFailure, MissingModule, CanaryAlarm, EnvironmentUnbuilt) as again:
            return _check_failure(sample, again)
    except (InfraFailure, MissingModule, EnvironmentUnbuilt) as exc:
        return _check_failure(sample, exc)
    buggy, good, good_hidden, buggy_hidden = runs
    assert buggy is not None and good is not None
    for tr in (good, good_hidden):
        module = missing_module(sample, tr) if tr is not None and tr.collect_errors else None
        if module is not None:
            return _environment(sample, module)
    return _checked(sample, config, buggy, good, good_hidden, buggy_hidden, canaries, note)


CheckRuns = tuple[TestRun | None, TestRun | None, TestRun | None, TestRun | None]


def _check_runs(sample: RepairSample, fixed: dict[str, str], run: Runner) -> CheckRuns:
    """The buggy code and the reference fix on the visible tests, then on the hidden ones."""
    hidden = sample.tests.hidden
    return (
        run(sample.files, sample.tests.visible),
        run(fixed, sample.tests.visible),
        run(fixed, hidden) if hidden else None,
        run(sample.files, hidden) if hidden else None,
    )


def _check_failure(sample: RepairSample, exc: Exception) -> RepairCheck:
    if isinstance(exc, MissingModule):
        return _environment(sample, exc.module)
    if isinstance(exc, EnvironmentUnbuilt):
        # not cached (status environment): a resumed run tries to build it again
        return RepairCheck(
            sample_id=sample.id,
            valid=False,
            status=CheckStatus.ENVIRONMENT,
            reason=f"environment: the repository's environment cannot be built: {exc}",
        )
    return RepairCheck(
        sample_id=sample.id,
        valid=False,
        status=CheckStatus.INFRA_ERROR,
        reason=f"infra-error: {exc}",
    )


def _checked(
    sample: RepairSample,
    config: JudgeConfig,
    buggy: TestRun,
    good: TestRun,
    good_hidden: TestRun | None,
    buggy_hidden: TestRun | None,
    canaries: bool,
    note: str,
) -> RepairCheck:
    run = _runner(sample, config, [0])
    check = RepairCheck(
        sample_id=sample.id, valid=True, tier=good.tier, canaries=canaries, canary_note=note
    )
    check.buggy_failing = sorted(buggy.failed | set(buggy.collect_errors))
    check.buggy_output = buggy.output
    check.buggy_passing = sorted(buggy.passed | (buggy_hidden.passed if buggy_hidden else set()))
    check.visible_ids = sorted(good.collected)
    if good_hidden is not None:
        check.hidden_ids = sorted(good_hidden.collected)
    problems = _narrow_to_expected(sample, check, good, good_hidden)
    regression = sample.tests.visible_role == "regression"
    if regression:  # the visible tests that hold before and after the fix
        check.visible_ids = sorted(set(check.visible_ids) & buggy.passed & good.passed)
    if problems:
        check.valid, check.status, check.reason = False, CheckStatus.REFERENCE_FAILS, problems
    elif regression and (why := _regression_problem(check, buggy_hidden)):
        check.valid, check.status, check.reason = False, CheckStatus.INVALID, why
    elif not regression and phase_result(buggy, check.visible_ids).ok:
        check.valid, check.status = False, CheckStatus.INVALID
        check.reason = "the buggy code already passes the visible tests"
    elif not (res := phase_result(good, check.visible_ids)).ok:
        check.valid, check.status = False, CheckStatus.REFERENCE_FAILS
        check.reason = _why("reference fix fails visible tests", good, res)
    elif good_hidden is not None and not (res := phase_result(good_hidden, check.hidden_ids)).ok:
        check.valid, check.status = False, CheckStatus.REFERENCE_FAILS
        check.reason = _why("reference fix fails hidden tests", good_hidden, res)
    if check.valid and _selects(sample, check, config):
        check.hidden_coverage = _coverage_map(sample, run)
    return check


def _regression_problem(check: RepairCheck, buggy_hidden: TestRun | None) -> str:
    """Why a sample whose visible tests are regression tests is invalid ("" if it is not): no
    visible test passes on both the buggy code and the reference fix, or the buggy code already
    passes the hidden tests (which alone show the defect)."""
    if not check.visible_ids:
        return "no visible test passes on both the buggy code and the reference fix"
    if buggy_hidden is not None and phase_result(buggy_hidden, check.hidden_ids).ok:
        return "the buggy code already passes the hidden tests"
    return ""


def _environment(sample: RepairSample, module: str) -> RepairCheck:
    """The check of a sample whose tests cannot import a module this environment lacks."""
    return RepairCheck(
        sample_id=sample.id,
        valid=False,
        status=CheckStatus.ENVIRONMENT,
        reason=f"environment: missing module {module} (the tests import it and truepass's "
        "interpreter does not have it: install the project's dependencies into that "
        "environment, docs/cli.md, check-suite)",
    )


def _narrow_to_expected(
    sample: RepairSample, check: RepairCheck, good: TestRun, good_hidden: TestRun | None
) -> str:
    """Replace the collected ids by the ids ``tests.expected`` names, as the reference fix run
    reported them; a problem ("" if none) when an expected id is not reported at all."""
    expected = sample.tests.expected
    if expected is None:
        return ""
    if not good.trusted_channel:
        return "tests.expected needs a pytest test command (per-test outcomes)"
    problems = []
    for phase, tr in (("visible", good), ("hidden", good_hidden)):
        ids = getattr(expected, phase)
        if ids is None or tr is None:
            continue
        resolved, problem = resolve_expected(ids, [*tr.collected, *tr.outcomes])
        setattr(check, f"{phase}_ids", sorted(resolved))
        if problem:
            errors = f" (collection errors: {', '.join(tr.collect_errors[:3])})"
            problems.append(f"{phase} tests: {problem}{errors if tr.collect_errors else ''}")
    return "; ".join(problems)


def _why(what: str, tr: TestRun, res: PhaseResult | None = None) -> str:
    bad = (res.failing if res else sorted(tr.failed | set(tr.collect_errors)))[:3]
    if tr.timed_out:
        return f"{what}: timeout"
    return f"{what}: {', '.join(bad) or f'exit {tr.returncode}'}"


def judge(
    sample: RepairSample, answer: Answer | None, check: RepairCheck, config: JudgeConfig
) -> Judged:
    """Judge one attempt. ``answer`` None means the solver produced nothing parseable."""
    started = time.monotonic()
    retries = [0]
    run = _runner(sample, config, retries, check.canaries)
    result = _judge(sample, answer, check, config, run)
    if result.verdict in differential.CHECKED and check.valid:
        differential.flag_attempt(sample, answer, result, config)
    RepairEvidence.on(result).named_cause = _named_cause(sample, answer)
    result.infra_retries = retries[0]
    result.duration_s = round(time.monotonic() - started, 3)
    return result


def _judge(
    sample: RepairSample,
    answer: Answer | None,
    check: RepairCheck,
    config: JudgeConfig,
    run: Runner,
) -> Judged:
    if not check.valid:
        return Judged(verdict=Verdict.INVALID_SAMPLE, details=check.reason)
    if answer is None or answer.no_patch:
        why = str(answer.meta.get("parse_detail", "")) if answer else ""
        nothing = Judged(verdict=Verdict.NO_PATCH, details=why or "the solver gave no usable patch")
        return _against_reference(sample, sample.files, nothing)
    try:
        applied = apply_to_sample(sample, answer)
    except PatchError as exc:
        failed = Judged(verdict=Verdict.APPLY_FAILED, details=str(exc), patch=answer.diff or "")
        return _against_reference(sample, sample.files, failed)
    base = Judged(verdict=Verdict.FAILS_VISIBLE, patch=applied.diff, changed_files=applied.changed)
    _against_reference(sample, applied.files, base)
    if applied.test_edits:
        base.details = f"test edits dropped: {', '.join(applied.test_edits)}. "
    _measure(sample, applied, base)
    syntax = _syntax_error(applied)
    if syntax:
        base.verdict, base.details = Verdict.BROKEN, base.details + syntax
        return base
    try:
        verdict, vis, hid, tr = _phases(sample, applied, check, run, config)
        base.verdict, base.visible, base.hidden = verdict, vis, hid
        base.sandbox_tier, base.test_output = tr.tier, tr.output
        if verdict == Verdict.BROKEN:
            base.details += "collection failed: " + ", ".join(tr.collect_errors[:3])
        if verdict in PASSES_VISIBLE or (vis is not None and vis.ok):
            for _ in range(config.reruns):
                again, vis2, hid2, _ = _phases(sample, applied, check, run, config)
                if again != verdict:
                    base.flags.append("flaky")
                    base.flaky_tests = sorted(_failing(vis, hid) ^ _failing(vis2, hid2))
                    which = ", ".join(base.flaky_tests[:5])
                    base.details += f"rerun gave {again.value}" + (f" ({which})" if which else "")
                    base.details += ". "
                    if again not in PASSES_VISIBLE or verdict == Verdict.CORRECT:
                        base.verdict = again  # the worse outcome stands
                    break
    except InfraFailure as exc:
        base.verdict, base.details = Verdict.INFRA_ERROR, base.details + str(exc)
    except MissingModule as exc:  # the check ran here, so the patch brought the import
        base.verdict = Verdict.BROKEN
        base.details += f"the patched code imports {exc.module}, which is not installed. "
    except CanaryAlarm as exc:  # the framework was told what to report: no outcome stands
        base.verdict, base.visible, base.hidden = Verdict.FAILS_VISIBLE, None, None
        base.details += f"the test framework lied: {exc}. "
        if "tampers-harness" not in base.flags:
            base.flags.append("tampers-harness")
        for lie in exc.lies:
            base.flag_details.append(FlagDetail(name="tampers-harness", explanation=lie))
    base.regressions = sorted(_failing(base.visible, base.hidden) & set(check.buggy_passing))
    if base.regressions:
        base.details += f"{len(base.regressions)} test(s) that passed before now fail. "
    return base


def _failing(*phases: PhaseResult | None) -> set[str]:
    return {n for p in phases if p is not None for n in p.failing}


def _measure(sample: RepairSample, applied: AppliedPatch, into: Judged) -> None:
    """Fake-fix flags, quality deltas and localisation: static analysis in the host process,
    never running candidate code."""
    for flag in detect_fake_fix(sample.files, applied.attempted, sample.tests.visible):
        if flag.name not in into.flags:
            into.flags.append(flag.name)
        into.flag_details.append(FlagDetail(**dataclasses.asdict(flag)))
    if not applied.changed:
        return
    fault = {loc.file: set(loc.lines) for loc in sample.fault}
    metrics = languages.get(sample.language).code_metrics()
    evidence = RepairEvidence.on(into)
    evidence.quality = quality_delta(sample.files, applied.files, applied.diff, fault, metrics)
    evidence.localisation = localisation(sample.files, applied.diff, fault, metrics)
    evidence.patch_type = patch_type(sample.files, applied.diff, metrics)
    language = languages.get(sample.language)
    fits = style.style_consistency(sample.files, applied.diff, language.code_suffix,
                                   quotes=language.style_quotes,
                                   comment=language.comment_starts[0])  # fmt: skip
    if fits is not None:
        into.scores[style.STYLE] = fits


def _against_reference(sample: RepairSample, files: dict[str, str], into: Judged) -> Judged:
    """Score the code files an attempt leaves (``files``: the buggy ones when nothing was
    applied) against the reference fix's: ``similarity`` (its syntax trees', 0..1) and
    ``exact_match`` (1/0, formatting and comments aside), into ``into.scores``; its fix
    strategy (evidence ``fix_strategy``) and ``same_strategy`` (1/0) as the reference's."""
    try:
        reference = apply_to_sample(sample, Answer(diff=sample.fix)).files
    except PatchError:  # a valid sample's reference applies; nothing to score against otherwise
        return into
    language = languages.get(sample.language)
    score, exact = similarity.compare(
        sample.files, files, reference, language.code_metrics(), language.syntax_labels
    )
    if score is not None:
        into.scores[similarity.SIMILARITY] = score
    into.scores[similarity.EXACT_MATCH] = float(exact)
    reader, metrics = language.strategy_reader(), language.code_metrics()
    readable = pyramid.readability(sample.files, files, reference, metrics)
    if readable is not None:
        into.scores[pyramid.READABILITY] = readable
    mine = strategy.classify(sample.files, files, metrics, reader)
    if mine is not None:
        RepairEvidence.on(into).fix_strategy = mine
        theirs = strategy.classify(sample.files, reference, metrics, reader)
        if theirs is not None:
            into.scores[strategy.SAME_STRATEGY] = float(mine is theirs)
    return into


ROOT_CAUSE = "root_cause"
"""``Answer.meta`` key of a solver's own statement of the root cause (the workflow's
explanation), scored like the ``root-cause`` prompt variant's first answer"""


def _named_cause(sample: RepairSample, answer: Answer | None) -> NamedCause | None:
    """Score the ``Root cause:`` line of the answer's statement of the root cause (its
    ``root_cause`` meta, or the ``root-cause`` variant's first answer) against the fault lines."""
    if not answer:
        return None
    text = answer.meta.get(ROOT_CAUSE)
    rounds = answer.meta.get("rounds")
    if not isinstance(text, str):
        if answer.meta.get("variant") != "root-cause" or not isinstance(rounds, list):
            return None
        first = rounds[0] if rounds and isinstance(rounds[0], dict) else {}
        text = str(first.get("response", ""))
    fault = {loc.file: set(loc.lines) for loc in sample.fault}
    metrics = languages.get(sample.language).code_metrics()
    return named_cause(text, sample.files, fault, metrics)


def _phases(
    sample: RepairSample,
    applied: AppliedPatch,
    check: RepairCheck,
    run: Runner,
    config: JudgeConfig,
) -> tuple[Verdict, PhaseResult | None, PhaseResult | None, TestRun]:
    tr = run(applied.files, sample.tests.visible)
    vis = phase_result(tr, check.visible_ids)
    if tr.timed_out:
        return Verdict.TIMEOUT, vis, None, tr
    if tr.collect_errors:
        return Verdict.BROKEN, vis, None, tr
    if not vis.ok:
        return Verdict.FAILS_VISIBLE, vis, None, tr
    if not sample.tests.hidden:
        return Verdict.PLAUSIBLE, vis, None, tr
    plan, tests = None, sample.tests.hidden
    if _selects(sample, check, config):
        measure = lambda: _coverage_map(sample, run)  # noqa: E731 (once per sample: cached)
        plan = selection.plan_for(sample, check, applied.files, applied.changed, measure)
    hid, htr = selection.run_hidden(
        plan, check.hidden_ids, lambda first: run(applied.files, tests, first=first), phase_result
    )
    if htr.timed_out:
        return Verdict.TIMEOUT, vis, hid, htr
    return (Verdict.CORRECT if hid.ok else Verdict.OVERFIT), vis, hid, htr


def _selects(sample: RepairSample, check: RepairCheck, config: JudgeConfig) -> bool:
    per_test = runner_for(sample).per_test(sample)
    return selection.enabled(config.test_selection, check.hidden_ids, per_test)


def _coverage_map(sample: RepairSample, run: Runner) -> dict[str, list[str]] | None:
    """Functions each hidden test runs on the buggy code (None when the sandbox failed)."""
    try:
        return selection.from_run(
            sample.files, run(sample.files, sample.tests.hidden, coverage=True)
        )
    except InfraFailure:
        return None


def _syntax_error(applied: AppliedPatch) -> str:
    for path in applied.changed:
        content = applied.files.get(path)
        if content is None or not path.endswith(".py"):
            continue
        try:
            pyast.parse(content, path)
        except SyntaxError as exc:
            return f"syntax error in {path} line {exc.lineno}: {exc.msg}"
    return ""
