"""Behavioural tests of a gold program (``truepass build-rebuild``, docs/rebuild-format.md).

The pipeline: read the option grammar from the gold's ``--help`` and man page
(:mod:`~truepass.families.rebuild.grammar`); make candidate cases along the benchmark's dimensions
(:mod:`~truepass.families.rebuild.inputs`); record what the gold does in each, several times, and
drop the ones that hang or change between runs; keep the cases that add line coverage of an
instrumented build of the gold (a small baseline per dimension aside) and grow new ones near
them while coverage grows; write them as pytest functions (:mod:`~truepass.families.rebuild.emit`)
and verify the file as it will run: against the gold (``gold-fail``, ``gold-flaky``), the
assertion linter (``lint:RULE``) and dummy programs (``dummy-pass``).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import NamedTuple, TypeVar

import pytest

from truepass.errors import InputError, TruepassError
from truepass.families.rebuild.candidates import grow_wider, wider_cases
from truepass.families.rebuild.emit import Case, Expected, render_module
from truepass.families.rebuild.gaps import explain
from truepass.families.rebuild.grammar import Grammar, grammar_of, read_help, read_man
from truepass.families.rebuild.harness._truepass_rebuild import Program
from truepass.families.rebuild.inputs import DIMENSIONS, Seeds, unique_cases
from truepass.families.rebuild.inputs import load_seeds as load_seeds
from truepass.families.rebuild.judge import expected_tests
from truepass.families.rebuild.recipes import Coverage
from truepass.families.rebuild.sandboxed import harness_binds, record_cases, run_tests
from truepass.families.rebuild.schema import (
    CoverageGaps,
    Docs,
    Generation,
    IgnoreReason,
    Package,
    RebuildSample,
    Structure,
)
from truepass.paths import file_lock
from truepass.sandbox import Limits
from truepass.sandbox.session import SandboxSession

Progress = Callable[[str, int, int], None]
Lines = frozenset[tuple[str, int]]

BASELINE = 2
"""Tests kept per dimension whatever their coverage, so that every dimension is represented."""
GROW_BATCH = 30
"""The fewest new candidates a growth round makes."""
MAX_BATCH = 400
"""The most new candidates a growth round makes."""
MAX_ROUNDS = 12
PLATEAU_ROUNDS = 2
"""Unproductive rounds in a row (no new covered lines, too few new behaviours) after which
growth stops."""
PLATEAU_GAIN = 0.05
"""The share of a round's new cases that must show a behaviour not seen before for the round
to count as productive (while fewer behaviours than the budget are known)."""
MAX_OUTPUT = 16_384
"""Bytes of stdout, stderr or a file beyond which a case makes an unreadable test: dropped."""
SLOW = IgnoreReason.SLOW_OR_HANG.value
FLAKY = IgnoreReason.GOLD_FLAKY.value


@dataclass(frozen=True)
class CoverageProbe:
    """An instrumented build of the gold: its binary, a way to zero its counters and a way to
    read the lines covered since (with the number of lines there are)."""

    binary: Path
    reset: Callable[[], None]
    measure: Callable[[], tuple[Lines, int]]
    env: tuple[tuple[str, str], ...] = ()
    """What every run of the binary needs in its environment (LLVM: where its profile goes)."""
    tool: str = "gcov"
    tree: Path | None = None
    """The source tree the lines are in (to say which lines the tests miss, and why)."""
    executable: Callable[[], Lines] | None = None
    """Every executable line (after a run: what the counters list, run or not)."""
    hold: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext
    """Held while a pass of runs is measured: the counters are this pass's alone."""


@dataclass
class Recording:
    """A candidate case and what the gold did (``problem`` says why it cannot be a test)."""

    case: Case
    expected: Expected | None = None
    problem: str | None = None
    lines: Lines = frozenset()
    order: int = 0


BLACK_BOX_FACTOR = 2
"""Without coverage (a toolchain that cannot measure it), the test budget is this many times
larger: more cases chosen by behaviour make up for none chosen by coverage."""


@dataclass(frozen=True)
class Settings:
    """How many tests, how they are chosen and checked."""

    max_tests: int = 60
    min_tests: int | None = None
    """With coverage: when coverage has plateaued below this many tests (None: ``max_tests``),
    fill up with cases of behaviours not seen yet (other exit statuses, messages, outputs), as
    without coverage."""
    seed: int = 0
    reruns: int = 3
    verify_runs: int = 6
    """Runs of the finished test file on the gold: with the recording's ``reruns``, nine runs
    must agree (gron's ``--no-sort`` prints two keys of a map in either order: three agreeing
    runs left one such test in 800, and its oracle failed it)."""
    record_timeout_s: float = 5.0
    test_timeout_s: float = 10.0
    jobs: int = max(1, min(8, os.cpu_count() or 1))


@dataclass
class Generated:
    """The tests made for one gold, and how."""

    file: str
    source: str
    names: list[str]
    ignore: dict[str, str]
    generation: Generation
    dropped: dict[str, int] = field(default_factory=dict)
    grammar: Grammar | None = None
    dummy_passes: dict[str, list[str]] = field(default_factory=dict)


# --- recording ---------------------------------------------------------------------------------

_TEMP = re.compile(rb"run-[A-Za-z0-9_]{8}")
_CLOCK = re.compile(rb"\b[0-2]\d:[0-5]\d:[0-5]\d\b")
_DURATION = re.compile(
    rb"\b\d+(?:\.\d+)? ?(?:ns|us|\xc2\xb5s|ms)\b"
    rb"|\b(?:took|elapsed|in|real|user|sys|time)[: =]+\d+(?:\.\d+)? ?(?:s|secs?|seconds?)\b",
    re.IGNORECASE,
)
"""A time the run took ("Total in 0 ms", "took 0.01s"): the next run, on a busier machine or
another build, may take longer."""


def _timestamps() -> list[bytes]:
    now = datetime.now(UTC)
    local = datetime.now()
    return [d.strftime(f).encode() for d in (now, local) for f in ("%Y-%m-%d", "%b %e", "%b %d")]


def natural_problem(case: Case, expected: Expected) -> str | None:
    """Outputs that carry the run's directory, the time or how long the run took:
    nondeterministic by nature (the gold's own reruns may still agree)."""
    given = case.stdin + b"".join(c for _, c in case.files) + " ".join(case.args).encode()
    outputs = [expected.stdout, expected.stderr, *expected.files.values()]
    if any(len(o) > MAX_OUTPUT for o in outputs):
        return "output-too-large"
    for out in outputs:
        if _TEMP.search(out):
            return FLAKY
        for pattern in (_CLOCK, _DURATION):
            if any(m.group() not in given for m in pattern.finditer(out)):
                return FLAKY
        if any(stamp in out and stamp not in given for stamp in _timestamps()):
            return FLAKY
    return None


def run_case(program: Program, case: Case, timeout: float) -> Expected | None:
    """What ``program`` does in ``case`` (None: it did not finish in time)."""
    try:
        run = program(
            list(case.args), stdin=case.stdin, files=dict(case.files), env=dict(case.env),
            timeout=timeout,
        )  # fmt: skip
    except pytest.fail.Exception:
        return None
    return Expected(run.stdout, run.stderr, run.returncode, dict(run.files))


S = TypeVar("S")
T = TypeVar("T")


RECORD_LIMITS = Limits(timeout_s=600.0, disk_mb=256, max_processes=64, output_bytes=64 << 20)
"""The sandbox the gold is recorded and the tests are verified in (each command's own time
limit is set from its cases)."""


GOLD_MOUNT = "/opt/truepass-gold"


def gold_binds(gold: str, name: str) -> tuple[dict[str, str], str]:
    """The sandbox's binds for recording: the harness, and the gold at ``/opt/truepass-gold/NAME``
    (wherever it lies on the host); and the gold's path inside."""
    inside = f"{GOLD_MOUNT}/{name}"
    return {**harness_binds(), os.path.realpath(gold): inside}, inside


def record(
    gold: str, name: str, cases: Sequence[Case], settings: Settings, start: int = 0,
    progress: Progress | None = None,
) -> list[Recording]:  # fmt: skip
    """Run every case ``settings.reruns`` times on the gold, in the sandbox the tests are judged
    in (so that what it does there is what the tests expect); a case is usable when every run
    finished and all agree."""
    rounds = max(1, settings.reruns)
    by_round: dict[int, list[Expected | None]] = {}
    binds, inside = gold_binds(gold, name)
    lock = threading.Lock()

    def one_round(session: SandboxSession, _: None, i: int) -> None:
        got = record_cases(
            session, cases, program=inside, name=name, timeout_s=settings.record_timeout_s
        )
        with lock:
            by_round[i] = got
            if progress:
                progress("recording the gold", len(by_round), rounds)

    side_by_side(binds, settings.jobs, list(range(rounds)), one_round)
    results = [by_round[i] for i in range(rounds)]
    out: list[Recording] = []
    for index, case in enumerate(cases):
        runs = [r[index] for r in results]
        order = start + index
        if any(run is None for run in runs):
            out.append(Recording(case, problem=SLOW, order=order))
            continue
        seen = [run for run in runs if run is not None]
        if any(other != seen[0] for other in seen[1:]):
            out.append(Recording(case, problem=FLAKY, order=order))
            continue
        out.append(Recording(case, seen[0], natural_problem(case, seen[0]), order=order))
    return out


def side_by_side(
    binds: dict[str, str], jobs: int, items: Sequence[T],
    work: Callable[[SandboxSession, S, T], None],
    prepare: Callable[[SandboxSession], S] | None = None,
) -> None:  # fmt: skip
    """``work(session, prepared, item)`` for every item, the items dealt out to ``jobs``
    recording sandboxes (``binds`` read-only) that run side by side, each set up once by
    ``prepare`` (``prepared`` is None without it). The first failure is raised once all have
    ended."""
    n = max(1, min(jobs, len(items)))

    def share(part: Sequence[T]) -> None:
        with SandboxSession(limits=RECORD_LIMITS, ro_binds=binds) as session:
            prepared = prepare(session) if prepare is not None else None
            for item in part:
                work(session, prepared, item)  # type: ignore[arg-type]

    with ThreadPoolExecutor(n, "truepass-rebuild") as pool:
        futures = [pool.submit(share, items[i::n]) for i in range(n)]
    for future in futures:
        future.result()


def measure(probe: CoverageProbe, name: str, recs: Sequence[Recording], settings: Settings,
            progress: Progress | None = None) -> int:  # fmt: skip
    """Fill in the lines each usable recording covers on the instrumented build; the total
    number of lines."""
    program = Program(str(probe.binary), name)
    total = 0
    usable = [r for r in recs if r.problem is None]
    with probe.hold():
        for i, rec in enumerate(usable):
            probe.reset()
            case = replace(rec.case, env=rec.case.env + probe.env) if probe.env else rec.case
            run_case(program, case, settings.record_timeout_s * 4)
            rec.lines, lines = probe.measure()
            total = max(total, lines)  # a run that left no profile tells no total
            if progress:
                progress("measuring coverage", i + 1, len(usable))
    return total


# --- selection ---------------------------------------------------------------------------------


def trivial(case: Case, expected: Expected, help_text: bytes) -> bool:
    """Whether a dummy program would pass: silent success, ``cat`` of stdin, the usage text."""
    if expected.files:
        return False
    if expected.returncode == 0 and not expected.stderr:
        return expected.stdout in (b"", case.stdin, help_text)
    return expected.returncode == 1 and not expected.stdout and expected.stderr == help_text


def _signature(rec: Recording) -> tuple[object, ...]:
    """A coarse behaviour: the dimension, exit status, first line of stderr (numbers and quoted
    words blanked), whether there is output and whether files were written."""
    assert rec.expected is not None
    first = rec.expected.stderr.split(b"\n", 1)[0]
    first = re.sub(rb"'[^']*'|\"[^\"]*\"|\d+", b"_", first)
    exp = rec.expected
    return (rec.case.dimension, exp.returncode, first, bool(exp.stdout), bool(exp.files))


def behaviour(rec: Recording) -> tuple[object, ...]:
    """A fine behaviour: everything the gold did (exit status, stdout, stderr, files written);
    two cases with the same one are the same observation of the program."""
    assert rec.expected is not None
    exp = rec.expected
    return (exp.returncode, exp.stdout, exp.stderr, tuple(sorted(exp.files.items())))


def select_by_coverage(
    pool: Sequence[Recording], chosen: list[Recording], covered: set[tuple[str, int]],
    limit: int, is_trivial: Callable[[Recording], bool], baseline: bool,
) -> None:  # fmt: skip
    """Add to ``chosen`` (in place) a baseline per dimension, then greedily the recordings that
    add the most lines not yet covered, until none adds any or ``limit`` is reached."""
    taken = {id(r) for r in chosen}
    if baseline:
        for dim in DIMENSIONS:
            have = sum(1 for r in chosen if r.case.dimension == dim)
            for _ in range(BASELINE - have):
                options = [r for r in pool if r.case.dimension == dim and id(r) not in taken]
                if not options or len(chosen) >= limit:
                    break
                best = max(
                    options,
                    key=lambda r: (not is_trivial(r), len(r.lines - covered), -r.order),
                )
                chosen.append(best)
                taken.add(id(best))
                covered |= best.lines
    while len(chosen) < limit:
        best, gain = None, 0
        for rec in pool:
            if id(rec) in taken:
                continue
            new = len(rec.lines - covered)
            if new > gain or (best is not None and new == gain and new > 0 and
                              is_trivial(best) and not is_trivial(rec)):  # fmt: skip
                best, gain = rec, new
        if best is None:
            return
        chosen.append(best)
        taken.add(id(best))
        covered |= best.lines


def select_by_behaviour(
    pool: Sequence[Recording], limit: int, is_trivial: Callable[[Recording], bool],
    chosen: Sequence[Recording] = (),
) -> list[Recording]:  # fmt: skip
    """Without coverage: round-robin over the dimensions, first one case per coarse behaviour
    (:func:`_signature`: exit status, first line of stderr, output or not), then one per fine
    behaviour (:func:`behaviour`: any output not seen), then the rest in order; never a case a
    dummy would pass. With ``chosen``, adds to those (returns them and the new ones)."""
    taken = {id(r) for r in chosen}
    useful = [r for r in pool if not is_trivial(r) and id(r) not in taken]
    by_dim = {d: [r for r in useful if r.case.dimension == d] for d in DIMENSIONS}
    chosen = list(chosen)
    keys: tuple[Callable[[Recording], tuple[object, ...]] | None, ...] = (
        _signature,
        behaviour,
        None,
    )
    for key in keys:
        seen = {key(r) for r in chosen} if key is not None else set()
        queues = {d: list(reversed(rs)) for d, rs in by_dim.items()}
        while len(chosen) < limit and any(queues.values()):
            for dim in DIMENSIONS:
                queue = queues[dim]
                while queue and len(chosen) < limit:
                    rec = queue.pop()
                    if id(rec) in taken:
                        continue
                    if key is not None:
                        k = key(rec)
                        if k in seen:
                            continue
                        seen.add(k)
                    chosen.append(rec)
                    taken.add(id(rec))
                    break
    return chosen


def _usable(rec: Recording, is_trivial: Callable[[Recording], bool]) -> bool:
    return rec.problem is None and not is_trivial(rec)


def grow_rounds(
    recs: list[Recording], tried: set[tuple[object, ...]], budget: int, *,
    grow: Callable[[Sequence[Recording], int], list[Case]],
    record_more: Callable[[list[Case], int], list[Recording]],
    is_trivial: Callable[[Recording], bool],
    added_lines: Callable[[list[Recording]], bool] | None = None,
    enough: Callable[[], bool] | None = None,
) -> int:  # fmt: skip
    """Grow candidates in rounds until the pool is big enough, or behaviour (and coverage)
    plateaus; ``recs`` and ``tried`` (case keys) are extended in place; returns the rounds run.

    Each round asks ``grow(recs, n)`` for ``n`` new cases (:data:`GROW_BATCH` at least, twice
    the behaviours still missing at most :data:`MAX_BATCH`), records those not tried yet with
    ``record_more(cases, first_order)``, and counts the new behaviours (:func:`behaviour`) among
    the usable, non-trivial ones. A round is *productive* when ``added_lines`` (coverage mode:
    whether its recordings added covered lines) says so, or, while fewer than ``budget``
    behaviours are known, when at least :data:`PLATEAU_GAIN` of its cases showed a new one.
    Growth stops after :data:`PLATEAU_ROUNDS` unproductive rounds in a row, after
    :data:`MAX_ROUNDS`, when nothing new can be made, or when ``enough()`` (default: ``budget``
    behaviours known)."""
    seen = {behaviour(r) for r in recs if _usable(r, is_trivial)}
    done = enough or (lambda: len(seen) >= budget)
    stale = rounds = 0
    while rounds < MAX_ROUNDS and stale < PLATEAU_ROUNDS and not done():
        n = min(MAX_BATCH, max(GROW_BATCH, 2 * (budget - len(seen))))
        new = [c for c in unique_cases(grow(recs, n)) if c.key not in tried]
        if not new:
            break
        tried |= {c.key for c in new}
        more = record_more(new, len(recs))
        recs += more
        fresh = {behaviour(r) for r in more if _usable(r, is_trivial)} - seen
        seen |= fresh
        rounds += 1
        lines = added_lines(more) if added_lines is not None else False
        varied = len(seen) - len(fresh) < budget and len(fresh) >= PLATEAU_GAIN * len(new)
        stale = 0 if lines or varied else stale + 1
    return rounds


# --- verification ------------------------------------------------------------------------------


def run_pytest(session: SandboxSession, file: str, source: str, program: str, name: str,
               timeout_s: float, n_tests: int) -> dict[str, tuple[str, str]]:  # fmt: skip
    """Run one test file on ``program`` as a task runs it, in ``session``'s sandbox; test name
    -> (outcome, message), where the outcome is ``passed``, ``failed`` or ``missing`` (never
    reported). No canaries: this verifies our own generated tests on the gold and the dummies,
    whose runs nobody judges."""
    run = run_tests(
        session, {file: source}, (), program=program, name=name, run_timeout_s=timeout_s,
        expected=n_tests, canaries=False,
    )  # fmt: skip
    results: dict[str, tuple[str, str]] = {}
    for test_id, outcome in run.outcomes.items():
        test = test_id.rsplit("::", 1)[-1]
        message = run.messages.get(test_id, "")
        results[test] = ("passed", "") if outcome == "passed" else ("failed", message)
    return results


DUMMIES: dict[str, str] = {
    "silent": "#!/bin/sh\nexit 0\n",
    "cat": "#!/bin/sh\nexec cat\n",
    "cat-args": (  # the file operands (and '-'), concatenated; options ignored
        '#!/bin/sh\nn=0\nfor a in "$@"; do case "$a" in -?*) ;; *) n=1; cat -- "$a";; esac; done\n'
        '[ "$n" = 1 ] || exec cat\n'
    ),
    "usage": "#!/bin/sh\nexec cat {help}\n",
    "usage-error": "#!/bin/sh\ncat {help} >&2\nexit 1\n",
}
"""Programs that do nothing useful: a test any of them passes tests nothing."""


def write_dummies(session: SandboxSession, help_text: str) -> dict[str, str]:
    """The dummy programs as shell scripts in the session's workspace; name -> their path as
    the sandbox sees it."""
    where = ".truepass-dummies"
    session.write_file(f"{where}/help.txt", help_text)
    paths = {}
    for name, body in DUMMIES.items():
        session.write_file(f"{where}/{name}", body.format(help=f"/workspace/{where}/help.txt"))
        paths[name] = f"/workspace/{where}/{name}"
    return paths


def _lint(file: str, source: str) -> tuple[dict[str, str], dict[str, int]]:
    """Tests the assertion linter flags (name -> ``lint:RULE``) and findings per rule."""
    try:
        from truepass.families.rebuild import lint
    except ImportError:
        return {}, {}
    findings = lint.lint_files({file: source})
    counts = Counter(str(f.name) for f in findings)
    return dict(lint.flagged_tests(findings)), dict(sorted(counts.items()))


# --- the pipeline ------------------------------------------------------------------------------


def suite_file_name(program: str) -> str:
    return "test_" + re.sub(r"[^A-Za-z0-9_]", "_", program) + ".py"


def generate(
    program: str, gold: str, *, settings: Settings | None = None, seeds: Seeds | None = None,
    probe: CoverageProbe | None = None, help_args: Sequence[str] = ("--help",),
    man: str | None = None, header: str = "", progress: Progress | None = None,
) -> Generated:  # fmt: skip
    """Make, record, select, write and verify the tests of ``gold`` (run as ``program``)."""
    settings = settings or Settings()
    seeds = seeds or Seeds()
    started = time.monotonic()
    rng = random.Random(settings.seed)
    help_text = read_help(gold, program, list(help_args))
    grammar = grammar_of(help_text, read_man(man) if man else "")
    help_bytes = help_text.encode()

    cases = wider_cases(grammar, seeds, rng)
    recs = record(gold, program, cases, settings, progress=progress)
    tried = {c.key for c in cases}

    def is_trivial(rec: Recording) -> bool:
        assert rec.expected is not None
        return trivial(rec.case, rec.expected, help_bytes)

    def record_more(new: list[Case], start: int) -> list[Recording]:
        return record(gold, program, new, settings, start=start, progress=progress)

    def grow(bases: Sequence[Recording], n: int) -> list[Case]:
        picked = select_by_behaviour(
            [r for r in bases if r.problem is None], settings.max_tests, is_trivial, chosen
        )
        outputs = [r.expected.stdout for r in picked if r.expected is not None]
        return grow_wider([r.case for r in picked], outputs, grammar, rng, n)

    total = 0
    chosen: list[Recording] = []
    covered: set[tuple[str, int]] = set()
    if probe is not None:
        total = measure(probe, program, recs, settings, progress)
        usable = [r for r in recs if r.problem is None]
        select_by_coverage(usable, chosen, covered, settings.max_tests, is_trivial, True)

        def added_lines(more: list[Recording]) -> bool:
            nonlocal total
            total = measure(probe, program, more, settings, progress) or total
            before = len(covered)
            pool = [r for r in more if r.problem is None]
            select_by_coverage(pool, chosen, covered, settings.max_tests, is_trivial, False)
            return len(covered) > before

        grow_rounds(
            recs, tried, settings.max_tests, grow=grow, record_more=record_more,
            is_trivial=is_trivial, added_lines=added_lines,
            enough=lambda: len(chosen) >= settings.max_tests,
        )  # fmt: skip
        floor = settings.max_tests if settings.min_tests is None else settings.min_tests
        floor = min(floor, settings.max_tests)
        if len(chosen) < floor:
            usable = [r for r in recs if r.problem is None]
            chosen = select_by_behaviour(usable, floor, is_trivial, chosen)
    else:
        grow_rounds(
            recs, tried, settings.max_tests, grow=grow, record_more=record_more,
            is_trivial=is_trivial,
        )  # fmt: skip
        usable = [r for r in recs if r.problem is None]
        chosen = select_by_behaviour(usable, settings.max_tests, is_trivial)
    dropped = Counter(r.problem for r in recs if r.problem)

    if not chosen:
        raise InputError(
            f"no usable test for {gold}: every candidate hung, changed between runs or was "
            "one a dummy program passes; check that the program runs (try it with --help)"
        )
    dim_rank = {d: i for i, d in enumerate(DIMENSIONS)}
    chosen.sort(key=lambda r: (dim_rank[r.case.dimension], r.order))
    numbered: list[tuple[str, Case, Expected]] = []
    per_dim: Counter[str] = Counter()
    for rec in chosen:
        per_dim[rec.case.dimension] += 1
        assert rec.expected is not None
        numbered.append((f"test_{rec.case.dimension}_{per_dim[rec.case.dimension]:03d}",
                         rec.case, rec.expected))  # fmt: skip
    file = suite_file_name(program)
    header = header or f"Behavioural tests of {program}, recorded from {gold}."
    source = render_module(header, numbered)
    try:  # an emitter bug must not pass for 400 gold failures
        compile(source, file, "exec")
    except SyntaxError as exc:
        raise AssertionError(f"the emitted {file} does not parse: {exc}") from exc
    names = [n for n, _, _ in numbered]

    ignore, lint_counts, passes = verify(program, gold, file, source, names, help_text, settings,
                                         progress)  # fmt: skip
    kept = [n for n in names if n not in ignore]
    some_dummy = {n for n, who in passes.items() if who}
    coverage = coverage_lines = gaps = None
    if probe is not None and total:
        kept_lines: set[tuple[str, int]] = set()
        dropped_lines: set[tuple[str, int]] = set()
        for name, rec in zip(names, chosen, strict=True):
            (dropped_lines if name in ignore else kept_lines).update(rec.lines)
        coverage_lines = (len(kept_lines), total)
        coverage = round(len(kept_lines) / total, 4)
        gaps = _gaps(probe, kept_lines, dropped_lines)
    generation = Generation(
        candidates=len(recs),
        kept=len(kept),
        coverage=coverage,
        coverage_lines=coverage_lines,
        coverage_gaps=gaps,
        dummy_pass_before=round(len(some_dummy) / len(names), 4),
        dummy_pass_after=round(len(some_dummy & set(kept)) / len(kept), 4) if kept else None,
        lint_findings=lint_counts,
        seconds=round(time.monotonic() - started, 1),
    )
    return Generated(
        file=file, source=source, names=names,
        ignore={f"{file}::{n}": r for n, r in ignore.items()},
        generation=generation, dropped=dict(sorted(dropped.items())), grammar=grammar,
        dummy_passes={n: who for n, who in passes.items() if who},
    )  # fmt: skip


class Target(NamedTuple):
    """What the emitted tests run on while they are verified: the gold (its ``run``-th time)
    or the dummy program ``dummy``."""

    dummy: str | None = None
    run: int = 0


def _run_targets(
    program: str, gold: str, file: str, source: str, n_tests: int, help_text: str,
    targets: Sequence[Target], settings: Settings, progress: Progress | None = None,
) -> dict[Target, dict[str, tuple[str, str]]]:  # fmt: skip
    """The test file run on each of ``targets`` (the gold, or a dummy), side by side."""
    binds, inside = gold_binds(gold, program)
    results: dict[Target, dict[str, tuple[str, str]]] = {}
    lock = threading.Lock()

    def one_target(session: SandboxSession, dummies: dict[str, str], target: Target) -> None:
        path = inside if target.dummy is None else dummies[target.dummy]
        got = run_pytest(session, file, source, path, program, settings.test_timeout_s, n_tests)
        with lock:
            results[target] = got
            if progress:
                progress("verifying the tests", len(results), len(targets))

    prepare = (lambda s: write_dummies(s, help_text)) if any(t.dummy for t in targets) else None
    side_by_side(binds, settings.jobs, targets, one_target, prepare)
    return results


def gold_ignored(
    names: Sequence[str], runs: Sequence[dict[str, tuple[str, str]]]
) -> dict[str, str]:
    """The tests the gold's ``runs`` of the file do not all pass, with why: it hung
    (``slow-or-hang``), passed some runs only (``gold-flaky``) or none (``gold-fail``)."""
    ignore: dict[str, str] = {}
    for name in names:
        got = [run.get(name, ("missing", "")) for run in runs]
        outcomes = {o for o, _ in got}
        if outcomes == {"passed"}:
            continue
        if any("did not finish within" in m for _, m in got):
            ignore[name] = SLOW
        elif "passed" in outcomes:
            ignore[name] = FLAKY
        else:
            ignore[name] = IgnoreReason.GOLD_FAIL.value
    return ignore


def verify(
    program: str, gold: str, file: str, source: str, names: Sequence[str], help_text: str,
    settings: Settings, progress: Progress | None = None,
) -> tuple[dict[str, str], dict[str, int], dict[str, list[str]]]:  # fmt: skip
    """Run the emitted file as it will be run: on the gold ``verify_runs`` times, through the
    linter, and on the dummies. Returns the ignored tests (name -> reason), the lint findings
    per rule and, per test, the dummies that pass it."""
    golds = [Target(run=i) for i in range(settings.verify_runs)]
    targets = golds + [Target(dummy=d) for d in DUMMIES]
    results = _run_targets(program, gold, file, source, len(names), help_text, targets, settings,
                           progress)  # fmt: skip
    ignore = gold_ignored(names, [results[t] for t in golds])
    flagged, lint_counts = _lint(file, source)
    for name, reason in flagged.items():
        if name in names and name not in ignore:
            ignore[name] = reason
    passes = {
        name: [d for d in DUMMIES
               if results[Target(dummy=d)].get(name, ("missing", ""))[0] == "passed"]
        for name in names
    }  # fmt: skip
    for name, who in passes.items():
        if who and name not in ignore:
            ignore[name] = IgnoreReason.DUMMY_PASS.value
    return ignore, lint_counts, passes


# --- the task ----------------------------------------------------------------------------------


@dataclass
class Built:
    """What ``truepass build-rebuild`` made: the task, its tests, and what it could not do."""

    sample: RebuildSample
    generated: Generated
    suite_jsonl: Path
    notes: list[str] = field(default_factory=list)


def _backend() -> ModuleType:
    try:
        from truepass.families.rebuild import sources
    except ImportError as exc:  # pragma: no cover - the module ships with truepass
        raise TruepassError(f"truepass.families.rebuild.sources is missing: {exc}") from None
    return sources


def _gaps(
    probe: CoverageProbe, covered: Iterable[tuple[str, int]], dropped: Iterable[tuple[str, int]]
) -> CoverageGaps | None:
    """Which lines the kept tests miss, and why (None: the probe cannot list them);
    ``dropped``: the lines the tests the filters dropped run."""
    if probe.tree is None or probe.executable is None:
        return None
    executable = probe.executable()
    return explain(probe.tree, executable, covered, dropped) if executable else None


def probe_from(backend: ModuleType, instrumented: object) -> CoverageProbe:
    """A :class:`CoverageProbe` over an instrumented build made by ``sources``."""

    def read() -> tuple[Lines, int]:
        cov = backend.measure(instrumented)
        return frozenset(cov.lines), int(cov.total)

    def executable() -> Lines:
        return frozenset(backend.measure(instrumented).executable)

    tree = getattr(instrumented, "tree", None)

    return CoverageProbe(
        binary=Path(instrumented.binary),  # type: ignore[attr-defined]
        reset=lambda: backend.reset_counters(instrumented),
        measure=read,
        env=tuple(sorted(getattr(instrumented, "env", {}).items())),
        tool=str(getattr(instrumented, "tool", "gcov")),
        tree=Path(tree) if tree is not None else None,
        executable=executable if tree is not None else None,
        hold=lambda: backend.measuring(instrumented),
    )


def _structure(tree: Path, own: Sequence[str]) -> Structure | None:
    try:
        from truepass.families.rebuild.structure import structure_of_tree
    except ImportError:  # pragma: no cover - the module ships with truepass
        return None
    try:
        return structure_of_tree(tree, own)
    except (OSError, ValueError):
        return None


def build_rebuild(
    program: str, out: Path, *, sample_id: str | None = None, source_package: str | None = None,
    settings: Settings | None = None, seeds: Seeds | None = None, coverage: bool = True,
    loc: int | None = None, progress: Progress | None = None, backend: ModuleType | None = None,
) -> Built:  # fmt: skip
    """Make the rebuild task of ``program`` and write it into the suite directory ``out``
    (``suite.jsonl``: the line of this id replaced, others kept; ``suite.toml`` if missing).

    Raises:
        InputError: an unknown program, one no Debian package owns, a wrong
            ``source_package``, or no source package to count its lines and no ``loc``.
    """
    settings = settings or Settings()
    backend = backend or _backend()
    notes: list[str] = []
    gold = backend.resolve_gold(program)
    if source_package and gold.source_package and source_package != gold.source_package:
        raise InputError(
            f"{gold.path} is built from source package '{gold.source_package}', not "
            f"'{source_package}' (dpkg says so): drop --source-package or fix it",
            field="--source-package",
        )
    own: list[str] = []
    language, coverage_note, build_timeout_s = "c", "", 600.0
    try:
        recipe = backend.recipe_for(gold)
        own = [str(p) for p in recipe.program_sources]
        language, build_timeout_s = recipe.language, recipe.build_timeout_s
        if coverage and recipe.coverage is Coverage.NONE:
            # black-box generation: a larger budget makes up for choosing without coverage
            coverage, coverage_note = False, recipe.coverage_note
            settings = replace(settings, max_tests=settings.max_tests * BLACK_BOX_FACTOR)
            notes.append(coverage_note)
    except InputError as exc:
        if loc is None:
            raise InputError(
                f"cannot tell which sources of '{gold.source_package}' are {program}'s own "
                f"({exc.reason}); the task's lines of code are counted in them: add a recipe "
                "(truepass.families.rebuild.recipes) or pass --loc N",
                field="--loc",
            ) from None
        notes.append(f"no recipe for {program}: no coverage, no structure of the original")
    tree: Path | None = None
    if own:
        try:
            tree = Path(backend.fetch_source(gold))
        except TruepassError as exc:
            if loc is None:
                raise InputError(
                    f"cannot fetch source package '{gold.source_package}' of {gold.path} "
                    f"({exc}); the task's lines of code are counted in it: make `apt-get "
                    "source` work (deb-src lines in the APT sources) or pass --loc N",
                    field="--loc",
                ) from None
            notes.append(f"no source tree ({exc}): no coverage, no structure of the original")
    if loc is None:
        assert tree is not None
        loc = int(backend.lines_of_code(tree, own))
    probe = None
    if coverage and tree is not None:
        if progress:
            progress("instrumented build of the gold", 0, 1)
        try:
            probe = probe_from(backend, backend.instrumented_build(gold))
        except TruepassError as exc:
            notes.append(f"no instrumented build ({exc}): tests chosen without coverage")
        if progress:
            progress("instrumented build of the gold", 1, 1)
    man = program if read_man(program) else None
    header = (
        f"Behavioural tests of {program}: the expected values are what {gold.path} "
        f"({gold.binary_package} {gold.version}) did (truepass build-rebuild, seed "
        f"{settings.seed})."
    )
    generated = generate(
        program, str(gold.path), settings=settings, seeds=seeds, probe=probe, man=man,
        header=header, progress=progress,
    )  # fmt: skip
    sample = RebuildSample(
        family="rebuild",
        id=sample_id or program,
        program=program,
        gold=str(gold.path),
        gold_sha256=gold.sha256,
        package=Package(
            binary=gold.binary_package,
            source=source_package or gold.source_package,
            version=gold.version,
        ),
        language=language,
        loc=max(1, loc),
        dependencies=int(backend.dependencies(gold)),
        docs=Docs(help_args=["--help"], man=man),
        tests={generated.file: generated.source},
        ignore=generated.ignore,
        original=_structure(tree, own) if tree is not None else None,
        generation=generated.generation.model_copy(
            update={
                "coverage_tool": probe.tool if probe is not None else None,
                "coverage_note": coverage_note,
            }
        ),
        test_timeout_s=settings.test_timeout_s,
        build_timeout_s=build_timeout_s,
    )
    path = write_suite(out, sample)
    return Built(sample, generated, path, notes)


def reverify(
    sample: RebuildSample, runs: int, settings: Settings | None = None,
    progress: Progress | None = None,
) -> tuple[RebuildSample, dict[str, str]]:  # fmt: skip
    """Run a made task's kept tests on its gold ``runs`` more times (side by side) and drop the
    ones any run fails, as verification does (``gold-fail``, ``gold-flaky``, ``slow-or-hang``):
    for a task made with fewer verification runs. Returns the task with them in ``ignore`` and
    ``generation.kept`` lowered (its coverage is left as made: the kept tests' lines are not
    measured again), and the tests dropped (test id -> reason)."""
    settings = settings or Settings()
    dropped: dict[str, str] = {}
    for file, source in sample.tests.items():
        names = [t.split("::", 1)[1] for t in expected_tests(sample) if t.startswith(f"{file}::")]
        targets = [Target(run=i) for i in range(runs)]
        results = _run_targets(sample.program, sample.gold, file, source, len(names), "",
                               targets, settings, progress)  # fmt: skip
        found = gold_ignored(names, list(results.values()))
        dropped.update({f"{file}::{name}": reason for name, reason in found.items()})
    generation = sample.generation.model_copy(
        update={"kept": sample.generation.kept - len(dropped)}
    )
    updated = sample.model_copy(
        update={"ignore": {**sample.ignore, **dropped}, "generation": generation}
    )
    return RebuildSample.model_validate(updated.model_dump()), dropped


def write_suite(out: Path, sample: RebuildSample) -> Path:
    """Put ``sample`` into ``out/suite.jsonl`` (replacing the line with its id, keeping the
    others, atomically) and write ``out/suite.toml`` if there is none. Processes making tasks
    of one suite side by side take turns (a lock file, ``out/.suite.lock``): no line is lost."""
    out.mkdir(parents=True, exist_ok=True)
    with file_lock(out / ".suite.lock"):
        return _write_suite(out, sample)


def _write_suite(out: Path, sample: RebuildSample) -> Path:
    path = out / "suite.jsonl"
    lines: list[str] = []
    replaced = False
    line = json.dumps(sample.model_dump(mode="json", exclude_none=True), sort_keys=True)
    if path.exists():
        for old in path.read_text(encoding="utf-8").splitlines():
            try:
                same = json.loads(old).get("id") == sample.id
            except (json.JSONDecodeError, AttributeError):
                same = False
            if same and not replaced:
                lines.append(line)
                replaced = True
            elif not same and old.strip():
                lines.append(old)
    if not replaced:
        lines.append(line)
    temp = path.with_name(f".suite.jsonl.{os.getpid()}")
    temp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(temp, path)
    toml = out / "suite.toml"
    if not toml.exists():
        toml.write_text(
            f'name = {json.dumps(out.resolve().name)}\nversion = "1.0.0"\n'
            'description = "Rebuild tasks: rebuild a command-line program from its executable '
            'and documentation (truepass build-rebuild)"\n',
            encoding="utf-8",
        )
    return path
