"""The test runs of the ``baseline:templates`` repair tool: fault localisation and validation.

Localisation is spectrum-based (Ochiai): the visible tests run once on the buggy code, in the
sandbox, with per-test line coverage of the sample's code files (``.py``, or ``.java`` for Java
samples, whose runner reports coverage in the same shape). A line covered by many failing tests
and few passing ones is suspicious: ``ochiai = ef / sqrt((ef + nf) * (ef + ep))``. Validation
runs a candidate against the visible tests (the failing tests' files first, when that is a real
subset).
"""

from __future__ import annotations

import builtins
import math
import re
from dataclasses import dataclass, field

from truepass.errors import SandboxError
from truepass.families.repair import languages
from truepass.families.repair.judge import phase_result
from truepass.families.repair.runners import runner_for
from truepass.families.repair.schema import RepairSample
from truepass.sandbox import Limits
from truepass.sandbox.testrun import TestRun

GIVEN_SCORE = 2.0  # above any Ochiai score (at most 1.0): given fault lines rank first


@dataclass(frozen=True)
class SuspiciousLine:
    """One line of one code file and how suspicious it is."""

    file: str
    line: int
    score: float


@dataclass
class Localisation:
    """Ranked lines and what the buggy run showed (failing tests and their messages)."""

    source: str  # "given" (the sample's fault lines first) or "sbfl"
    lines: list[SuspiciousLine]
    failing: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)  # built-in exceptions seen, commonest first
    duration_s: float = 0.0
    fallback: str = ""  # why SBFL fell back to all lines in file order ("" when it did not)


def ochiai(ef: int, ep: int, nf: int) -> float:
    """Ochiai suspiciousness: ef/sqrt((ef+nf)*(ef+ep)); 0 when the line is never failed over."""
    denominator = math.sqrt((ef + nf) * (ef + ep))
    return ef / denominator if denominator else 0.0


def exception_types(messages: list[str]) -> list[str]:
    """Built-in exception names seen in failing test output, most frequent first
    (``AssertionError`` excluded: it is the test's own complaint)."""
    counts: dict[str, int] = {}
    for text in messages:
        for name in re.findall(r"\b([A-Z][A-Za-z]*(?:Error|Exception|Iteration))\b", text):
            exc = getattr(builtins, name, None)
            if isinstance(exc, type) and issubclass(exc, Exception) and exc is not AssertionError:
                counts[name] = counts.get(name, 0) + 1
    return sorted(counts, key=lambda n: -counts[n])


def rank_lines(
    coverage: dict[str, dict[str, list[int]]],
    failing: set[str],
    passing: set[str],
    files: list[str],
) -> list[SuspiciousLine]:
    """Lines of ``files`` covered by at least one failing test, most suspicious first.

    ``coverage`` maps a test id to {file: lines}; ``failing`` and ``passing`` are the test ids of
    each outcome (a failing test missing from ``coverage`` still counts in ``nf``). Ties are
    broken by file order, then line order.
    """
    ef: dict[tuple[str, int], int] = {}
    ep: dict[tuple[str, int], int] = {}
    wanted = set(files)
    for test, per_file in coverage.items():
        counts = ef if test in failing else ep if test in passing else None
        if counts is None:
            continue
        for path, lines in per_file.items():
            if path in wanted:
                for n in set(lines):
                    counts[(path, n)] = counts.get((path, n), 0) + 1
    order = {path: i for i, path in enumerate(files)}
    ranked = [
        SuspiciousLine(path, n, ochiai(e, ep.get((path, n), 0), len(failing) - e))
        for (path, n), e in ef.items()
    ]
    ranked.sort(key=lambda s: (-s.score, order[s.file], s.line))
    return ranked


def all_lines(files: dict[str, str], language: str = "python") -> list[SuspiciousLine]:
    """Every non-blank, non-comment line of the code files of ``language``, in file and line
    order (score 0)."""
    lang = languages.get(language)
    suffix, comment = lang.code_suffix, lang.comment_starts
    out = []
    for path in sorted(files):
        if path.endswith(suffix):
            for n, text in enumerate(files[path].splitlines(), start=1):
                if text.strip() and not text.lstrip().startswith(comment):
                    out.append(SuspiciousLine(path, n, 0.0))
    return out


def given_lines(sample: RepairSample) -> list[SuspiciousLine]:
    """The sample's own fault lines (used only by ``baseline:templates+fault``)."""
    return [
        SuspiciousLine(loc.file, n, GIVEN_SCORE) for loc in sample.fault for n in sorted(loc.lines)
    ]


def localise(
    sample: RepairSample, expected: list[str], limits: Limits, *, given_fault: bool
) -> Localisation:
    """Run the visible tests on the buggy code with coverage and rank the suspicious lines.

    ``expected`` holds the visible test ids (from the sample check). With ``given_fault`` the
    sample's fault lines come first, then the SBFL ranking of the remaining lines.
    """
    suffix = languages.get(sample.language).code_suffix
    files = sorted(p for p in sample.files if p.endswith(suffix))
    run: TestRun | None
    try:
        run = runner_for(sample).run(
            sample, sample.files, sample.tests.visible, limits=limits, coverage=True
        )
    except SandboxError:
        run = None
    passing = run.passed & set(expected) if run else set()
    failing = {n for n in expected if n not in passing}
    if run is not None:
        failing |= set(run.collect_errors)
    loc = Localisation(
        source="given" if given_fault else "sbfl",
        lines=[],
        failing=sorted(failing),
        messages=[run.messages[n] for n in sorted(run.messages)] if run else [],
        duration_s=run.duration_s if run else 0.0,
    )
    loc.exceptions = exception_types(loc.messages)
    ranked = rank_lines(run.coverage, failing, passing, files) if run else []
    if not ranked:
        loc.fallback = (
            "sandbox error"
            if run is None
            else "no coverage"
            if not run.coverage
            else "no line covered by a failing test"
        )
        ranked = all_lines(sample.files, sample.language)
    if given_fault:
        first = given_lines(sample)
        seen = {(s.file, s.line) for s in first}
        ranked = first + [s for s in ranked if (s.file, s.line) not in seen]
    loc.lines = ranked
    return loc


@dataclass(frozen=True)
class TestSubset:
    """Some of the visible test files and the test ids they must pass."""

    tests: dict[str, str]
    expected: list[str]


def failing_subset(
    sample: RepairSample, loc: Localisation, expected: list[str]
) -> TestSubset | None:
    """The test files holding the failing tests (plus support files), when they are fewer than
    all visible test files: a cheap first check that most candidates fail."""
    if sample.test_command is not None:
        return None  # the command chooses its own tests: a subset cannot be run
    with_ids = {n.split("::")[0] for n in expected}
    failing_files = {n.split("::")[0] for n in loc.failing} & with_ids
    if not failing_files or failing_files == with_ids:
        return None
    tests = {
        p: c for p, c in sample.tests.visible.items() if p in failing_files or p not in with_ids
    }
    return TestSubset(tests, [n for n in expected if n.split("::")[0] in failing_files])


def passes_visible(
    sample: RepairSample,
    files: dict[str, str],
    expected: list[str],
    prefilter: TestSubset | None,
    limits: Limits,
) -> bool | None:
    """True when ``files`` pass every visible test; None when the sandbox kept failing."""
    stages = [(sample.tests.visible, expected)]
    if prefilter is not None:
        stages.insert(0, (prefilter.tests, prefilter.expected))
    for tests, ids in stages:
        for retry in range(2):
            try:
                tr = runner_for(sample).run(sample, files, tests, limits=limits)
                break
            except SandboxError:
                if retry:
                    return None
        if not phase_result(tr, ids).ok:
            return False
    return True
