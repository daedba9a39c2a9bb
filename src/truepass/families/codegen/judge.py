"""The codegen judge: call the candidate's function on every case in the warm sandbox pool, and
decide here, in the trusted process, from the plain values it returned.

Expected values come from the case (``expected``) or from the canonical solution, run once per
sample in the same pool when the sample is checked (the EvalPlus way). Per-case CPU-time limits
scale with the canonical solution's measured CPU time, with a floor
(:func:`truepass.sandbox.pool.scaled_timeouts`).
"""

from __future__ import annotations

import dataclasses
import time

from truepass import pyast
from truepass.answers import Answer
from truepass.errors import SandboxError
from truepass.families.codegen.checks import CodegenCheck
from truepass.families.codegen.evidence import CodegenEvidence
from truepass.families.codegen.schema import SOLUTION_FILE, CodegenCase, CodegenSample
from truepass.judged import FlagDetail, Judged, PhaseResult
from truepass.sandbox.guest.plainvalues import plain_equal
from truepass.sandbox.pool import (
    CalibrationError,
    Case,
    CaseResult,
    CheckResult,
    ExecPool,
    calibrate,
)
from truepass.suites.literals import LiteralError, format_literal, parse_literal
from truepass.vocabulary import CheckStatus, Verdict

CHECK_TIMEOUT_S = 20.0  # per case, for the canonical solution while its time is measured


def _phases(sample: CodegenSample) -> dict[str, list[CodegenCase]]:
    phases = {"visible": sample.tests.visible}
    if sample.tests.hidden:
        phases["hidden"] = sample.tests.hidden
    return phases


def check_codegen(sample: CodegenSample, pool: ExecPool) -> CodegenCheck:
    """Run the canonical solution once on every case: it must return the stated expected
    values, and where none is stated its output becomes the expected value. Limits: 4x its
    CPU time per case, at least 0.25 s of CPU time (see
    :func:`truepass.sandbox.pool.scaled_timeouts`)."""
    check = CodegenCheck(sample_id=sample.id, valid=True, tier=pool.sandbox)
    phases = _phases(sample)
    where = [(phase, i) for phase, cases in phases.items() for i in range(len(cases))]
    try:  # every case in one child: visible, then hidden
        cal = calibrate(pool, sample.reference_code, sample.entry_point,
                        [c.arguments() for cases in phases.values() for c in cases],
                        repeats=1, measure_timeout_s=CHECK_TIMEOUT_S)  # fmt: skip
    except SandboxError as exc:
        return _invalid(check, f"infra-error: {exc}", CheckStatus.INFRA_ERROR)
    except CalibrationError as exc:
        phase, index = where[exc.index]
        return _invalid(check, f"{phase} cases: canonical solution failed on input {index}: "
                        f"{exc.error}")  # fmt: skip
    except ValueError as exc:  # it does not load, or did not answer every input
        return _invalid(check, str(exc))
    offset = 0
    for phase, cases in phases.items():
        outputs = cal.outputs[offset : offset + len(cases)]
        timeouts = cal.timeouts_s[offset : offset + len(cases)]
        offset += len(cases)
        expected: list[str] = []
        for index, (case, value) in enumerate(zip(cases, outputs, strict=True)):
            at = f"{phase} case {index} ({case.args[:80]})"
            if case.expected is not None and not same(sample, parse_literal(case.expected), value):
                return _invalid(
                    check, f"canonical solution returns {format_literal(value)[:80]} on "
                    f"{at}; the case expects {case.expected[:80]}"
                )  # fmt: skip
            try:
                expected.append(case.expected or format_literal(value))
            except LiteralError:
                return _invalid(check, f"canonical solution returns a non-plain value on {at}")
        check.expected[phase] = expected
        check.timeouts[phase] = [round(t, 4) for t in timeouts]
    return check


def same(sample: CodegenSample, expected: object, got: object) -> bool:
    """The comparison of codegen verdicts: types checked (a bool is not an int, a tuple is
    not a list), floats within the sample's ``atol``; an int equals a float of the same value
    (as ``==`` in HumanEval's own tests)."""
    return plain_equal(expected, got, atol=sample.atol, int_is_float=True)


def _invalid(
    check: CodegenCheck, reason: str, status: CheckStatus = CheckStatus.REFERENCE_FAILS
) -> CodegenCheck:
    return check.model_copy(update={"valid": False, "status": status, "reason": reason})


def candidate_code(answer: Answer) -> str | None:
    """The module a codegen answer submits (``files["solution.py"]``)."""
    if answer.files and SOLUTION_FILE in answer.files:
        return answer.files[SOLUTION_FILE]
    return None


def judge_codegen(
    sample: CodegenSample, answer: Answer | None, check: CodegenCheck, pool: ExecPool,
    cases: list[Case] | None = None,
) -> Judged:  # fmt: skip
    """Judge one attempt: visible cases, then (if they all pass) hidden cases; ``cases``: the
    sample's :func:`build_cases` (built here when not given).

    ``duration_s`` is the time the check took in its worker, not the time it waited for one
    (with many attempts in flight, most of an attempt's time in this process is that wait)."""
    started = time.monotonic()
    result = _judge(sample, answer, check, pool, cases)
    if not result.duration_s:  # no check ran: invalid sample, no code, syntax error
        result.duration_s = round(time.monotonic() - started, 3)
    return result


def _judge(
    sample: CodegenSample, answer: Answer | None, check: CodegenCheck, pool: ExecPool,
    cases: list[Case] | None,
) -> Judged:  # fmt: skip
    if not check.valid:
        return Judged(verdict=Verdict.INVALID_SAMPLE, details=check.reason)
    code = candidate_code(answer) if answer and not answer.no_patch else None
    if code is None:
        why = str(answer.meta.get("parse_detail", "")) if answer else ""
        return Judged(verdict=Verdict.NO_PATCH, details=why or "no code in the answer")
    out = Judged(
        verdict=Verdict.FAILS_VISIBLE,
        patch=code,
        changed_files=[SOLUTION_FILE],
        sandbox_tier=pool.sandbox,
    )
    phases = _phases(sample)
    try:  # one check of every case, visible first: a child forked per attempt, not per phase
        result = _run_cases(sample, code, cases or build_cases(sample, check), pool, out)
    except SandboxError as exc:
        out.verdict, out.details = Verdict.INFRA_ERROR, str(exc)
        return out
    if result.canary_lies:
        return _lied(out, result.canary_lies)
    if result.status == "broken":
        out.visible = _counts([], len(phases["visible"]), ok=False)
        out.verdict, out.details = (
            Verdict.BROKEN,
            _syntax_error(code) or result.error or "does not load",
        )
        return out
    offset = 0
    for phase, cases in phases.items():
        mine = [c for c in result.cases if offset <= c.index < offset + len(cases)]
        if offset:  # numbered within the phase
            mine = [dataclasses.replace(c, index=c.index - offset) for c in mine]
        offset += len(cases)
        bad = next((c for c in mine if c.status != "pass"), None)
        ok = bad is None and len(mine) == len(cases)
        counts = _counts(mine, len(cases), ok=ok)
        setattr(out, phase, counts)
        if ok:
            continue
        status = bad.status if bad else result.status
        if bad is not None:
            CodegenEvidence.on(out).failed_case = {
                "phase": phase,
                "index": bad.index,
                "args": cases[bad.index].args,
                "expected": bad.expected_repr,
                "got": bad.got_repr,
                "error": bad.error,
                "status": bad.status,
            }
            out.details = f"{phase} case {bad.index} {bad.status}"
        else:  # the check ended before every case ran; its status and error say why
            out.details = f"{phase}: {result.status} after {len(mine)} of "
            out.details += f"{len(cases)} cases: {result.error or 'no reason given'}"
        if status == "timeout":
            out.verdict = Verdict.TIMEOUT
        elif phase == "hidden":
            out.verdict = Verdict.OVERFIT
        return out
    out.verdict = Verdict.CORRECT  # every case the problem has passed (hidden ones or not)
    return out


def _lied(out: Judged, lies: tuple[str, ...]) -> Judged:
    """A canary case reported the wrong outcome: the channel was told what to say, so no case's
    outcome stands; the attempt fails, flagged ``tampers-harness`` with each lie."""
    out.verdict = Verdict.FAILS_VISIBLE
    out.details = f"the case runner's channel lied: {'; '.join(lies)}"[:2000]
    out.flags.append("tampers-harness")
    out.flag_details.extend(FlagDetail(name="tampers-harness", explanation=lie) for lie in lies)
    return out


def _syntax_error(code: str) -> str | None:
    """Where ``code`` that did not load fails to parse, if that is why (parsed here only then:
    the child compiles every candidate anyway)."""
    try:
        pyast.parse(code)
    except SyntaxError as exc:
        return f"syntax error line {exc.lineno}: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:  # null bytes, absurd nesting
        return f"does not parse: {type(exc).__name__}"
    return None


def _run_cases(
    sample: CodegenSample, code: str, cases: list[Case], pool: ExecPool, out: Judged
) -> CheckResult:
    """Every case of the sample, visible then hidden, in one check that stops at the first
    case that does not pass (so hidden cases only run when every visible one passed), with the
    harness's canary cases among them (:mod:`truepass.sandbox.casecanaries`)."""
    for attempt in range(2):
        try:
            result = pool.check(
                code, sample.entry_point, cases, atol=sample.atol, int_is_float=True, canaries=True
            )
            out.duration_s = round(result.duration_s, 3)
            return result
        except SandboxError:
            if attempt:
                raise
            out.infra_retries += 1
    raise AssertionError("unreachable")


def build_cases(sample: CodegenSample, check: CodegenCheck) -> list[Case]:
    """The pool's cases of ``sample`` as ``check`` measured them, visible then hidden (a run
    builds them once per sample and sends them again for each attempt: a case encodes its
    arguments once, :meth:`~truepass.sandbox.verdict.Case.args_json`)."""
    return [
        Case(args=c.arguments(fresh=False), expected=parse_literal(exp, fresh=False), timeout_s=t)
        for phase, phase_cases in _phases(sample).items()
        for c, exp, t in zip(phase_cases, check.expected[phase], check.timeouts[phase], strict=True)
    ]


def _counts(cases: list[CaseResult], expected: int, *, ok: bool) -> PhaseResult:
    passed = sum(c.status == "pass" for c in cases)
    failing = [f"case {c.index}" for c in cases if c.status != "pass"]
    return PhaseResult(
        expected=expected,
        passed=passed,
        failed=len(failing),
        missing=expected - len(cases),
        ok=ok,
        failing=failing[:20],
    )
