"""Test selection for large hidden test sets: the tests related to the changed code run first.

The hidden tests run once on the buggy code with per-test coverage (the harness's
``TRUEPASS_COVERAGE``, as for fault localisation): the *coverage map* says which functions each
test executes. A patch's changed lines (both sides of the diff) are mapped to the functions that
hold them. The *related* tests are those executing a changed function, those the buggy code fails
and those the map knows nothing about. The hidden phase is still one pytest session of every
hidden test, with the related tests first; as soon as one of them does not pass, the session stops
(as ``-x`` would): the phase has failed whatever the rest does. A passing patch runs exactly the
tests, under exactly the timeout, of a run without selection, so the verdict is the same and the
cost is nearly the same; a patch that fails a related test saves the rest of the tests.

This assumes what any reordering does (``-p random``, pytest-xdist): a test's outcome does not
depend on the tests that ran before it. Whenever the map cannot be trusted the tests run in their
own order, and the record says why (``fallback``): a new function or file, a change to module- or
class-level code, a non-Python file. A non-pytest test command is never reordered.
"""

from __future__ import annotations

import ast
import bisect
import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from truepass import pyast
from truepass.judged import TestSelection
from truepass.patches.apply import changed_lines

if TYPE_CHECKING:
    from truepass.families.repair.checks import RepairCheck
    from truepass.families.repair.schema import RepairSample
    from truepass.judged import PhaseResult
    from truepass.sandbox.testrun import TestRun

MAX_SELECT_BYTES = 100_000  # the ids travel in one environment variable (Linux caps it at 128 KiB)
MODULE = "<module>"  # owner of module- and class-level statements


@dataclass(frozen=True)
class Plan:
    """The tests a hidden phase runs first (None: all in their own order), and why not."""

    first: list[str] | None
    total: int
    fallback: str = ""


def enabled(flag: bool | None, hidden_ids: list[str], pytest: bool) -> bool:
    """Whether the hidden phase of a sample uses selection: only when asked (``flag`` True;
    the default, None, is off), and never with a non-pytest test command or no hidden tests.

    Off by default because it does not pay for itself: on the bundled ``project`` suite (399
    hidden tests a sample) the coverage map adds 1.5 s to each sample check and selection saves
    0.6 s on each attempt that fails a hidden test, while most attempts never reach the hidden
    phase (benchmarks/test_selection.py, docs/benchmarks.md)."""
    return bool(flag) and pytest and bool(hidden_ids)


# --- where code lives: functions and module-level statements ------------------------------------


@dataclass(frozen=True)
class Layout:
    """Line spans of a module's functions (``f``, ``Class.method``; nested defs belong to their
    outermost function) and of its other module- and class-level statements."""

    starts: list[int]
    spans: list[tuple[int, int, str]]  # sorted by start, disjoint

    def owner(self, line: int) -> str | None:
        """The function holding ``line``, :data:`MODULE`, or None (blank or comment line)."""
        i = bisect.bisect_right(self.starts, line) - 1
        if i >= 0 and self.spans[i][0] <= line <= self.spans[i][1]:
            return self.spans[i][2]
        return None

    @property
    def functions(self) -> set[str]:
        return {name for _, _, name in self.spans if name != MODULE}


def layout(source: str) -> Layout | None:
    """The :class:`Layout` of Python ``source``; None when it does not parse."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError):
        return None
    spans: list[tuple[int, int, str]] = []
    _collect(tree.body, "", spans)
    spans.sort()
    return Layout([s for s, _, _ in spans], spans)


def _collect(body: list[ast.stmt], prefix: str, spans: list[tuple[int, int, str]]) -> None:
    for node in body:
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        end = node.end_lineno or node.lineno
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            spans.append((start, end, prefix + node.name))
        elif isinstance(node, ast.ClassDef) and node.body:
            spans.append((start, node.body[0].lineno - 1, MODULE))  # decorators and header
            _collect(node.body, f"{prefix}{node.name}.", spans)
        else:
            spans.append((start, end, MODULE))


def changed_functions(
    before: dict[str, str], after: dict[str, str], changed: list[str]
) -> tuple[set[str], str]:
    """Functions (``path::name``) a patch changes, or a reason why that cannot be said.

    Lines are taken from both sides of the diff (removed lines in the buggy file, added lines in
    the patched one), so that an insertion is placed exactly. Blank and comment lines between
    statements are ignored.
    """
    found: set[str] = set()
    for path in changed:
        if path not in before:
            return set(), f"the patch adds {path}"
        if path not in after:
            return set(), f"the patch deletes {path}"
        if not path.endswith(".py"):
            return set(), f"the patch changes {path}, not Python code"
        old, new = layout(before[path]), layout(after[path])
        if old is None or new is None:
            return set(), f"{path} does not parse"
        added = sorted(new.functions - old.functions)
        if added:
            return set(), f"the patch adds function {path}::{added[0]}"
        sides = ((old, changed_lines(before[path], after[path])),
                 (new, changed_lines(after[path], before[path])))  # fmt: skip
        for lay, lines in sides:
            for line in lines:
                owner = lay.owner(line)
                if owner == MODULE:
                    return set(), f"the patch changes module-level code ({path} line {line})"
                if owner:
                    found.add(f"{path}::{owner}")
    return found, ""


# --- the coverage map ----------------------------------------------------------------------------


def coverage_map(
    files: dict[str, str], coverage: dict[str, dict[str, list[int]]], ran: list[str]
) -> dict[str, list[str]]:
    """Test id -> functions (``path::name``) of ``files`` whose body it executed, for every test
    in ``ran``. Lines of module-level statements (run at import) are not counted."""
    layouts = {p: layout(c) for p, c in files.items() if p.endswith(".py")}
    out: dict[str, list[str]] = {}
    for test in ran:
        funcs: set[str] = set()
        for path, lines in coverage.get(test, {}).items():
            lay = layouts.get(path)
            if lay is None:
                continue
            for line in lines:
                owner = lay.owner(line)
                if owner and owner != MODULE:
                    funcs.add(f"{path}::{owner}")
        out[test] = sorted(funcs)
    return out


def from_run(files: dict[str, str], run: TestRun) -> dict[str, list[str]]:
    """The coverage map of a hidden run with coverage on the buggy ``files``; empty (every test
    unknown) when the run did not finish."""
    if not run.finished or run.timed_out:
        return {}
    return coverage_map(files, run.coverage, sorted(run.outcomes))


class CoverageCache:
    """Coverage maps by sample content hash, computed once per process even when several
    attempts of one sample are judged at the same time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: dict[str, threading.Lock] = {}
        self._maps: dict[str, dict[str, list[str]]] = {}

    def get(
        self, key: str, compute: Callable[[], dict[str, list[str]] | None]
    ) -> dict[str, list[str]] | None:
        """The map under ``key``, computing it if needed; a None result is not cached."""
        with self._lock:
            lock = self._keys.setdefault(key, threading.Lock())
        with lock:
            if key not in self._maps:
                value = compute()
                if value is None:
                    return None
                self._maps[key] = value
            return self._maps[key]

    def clear(self) -> None:
        with self._lock:
            self._maps.clear()


CACHE = CoverageCache()


def sample_key(sample_json: str) -> str:
    """Content hash of a sample (its canonical JSON)."""
    return hashlib.sha256(sample_json.encode("utf-8")).hexdigest()


# --- the plan ------------------------------------------------------------------------------------


def plan_for(
    sample: RepairSample,
    check: RepairCheck,
    files: dict[str, str],
    changed: list[str],
    measure: Callable[[], dict[str, list[str]] | None],
) -> Plan:
    """:func:`plan` for a patched sample, from the check's coverage map or, when the check has
    none, one ``measure`` makes (once per sample and process: :data:`CACHE`)."""
    cmap = check.hidden_coverage
    if cmap is None:
        cmap = CACHE.get(sample_key(sample.model_dump_json()), measure)
    passing = set(check.buggy_passing)
    return plan(check.hidden_ids, cmap, passing, sample.files, files, changed)


def plan(
    hidden_ids: list[str],
    cmap: dict[str, list[str]] | None,
    buggy_passing: set[str],
    before: dict[str, str],
    after: dict[str, str],
    changed: list[str],
) -> Plan:
    """Which hidden tests run first for a patch, or why they run in their own order."""
    total = len(hidden_ids)
    if cmap is None:
        return Plan(None, total, "no coverage map of the buggy code")
    funcs, why = changed_functions(before, after, changed)
    if why:
        return Plan(None, total, why)
    first = [
        t
        for t in hidden_ids
        if t not in cmap or t not in buggy_passing or funcs.intersection(cmap[t])
    ]
    if not first:
        return Plan(None, total, "no hidden test runs the changed code")
    if len(json.dumps(first)) > MAX_SELECT_BYTES:
        return Plan(None, total, "too many test ids to pass to the harness")
    return Plan(first, total)


# --- the hidden phase ---------------------------------------------------------------------------

Stage = Callable[[list[str] | None], "TestRun"]
Score = Callable[["TestRun", list[str]], "PhaseResult"]


def run_hidden(
    plan: Plan | None, expected: list[str], stage: Stage, score: Score
) -> tuple[PhaseResult, TestRun]:
    """Run the hidden phase as ``plan`` says and score it as the judge scores any run.

    ``stage(first)`` runs the hidden tests, the ids ``first`` before the others (None: in their
    own order); ``score`` is the judge's ``phase_result``. When a test run first failed and
    stopped the session, the result counts the tests that ran (``expected`` stays the total).
    """
    first = plan.first if plan is not None else None
    tr = stage(first)
    if not tr.stopped:
        result = score(tr, expected)
    else:  # the phase failed; the tests that never ran are not "missing"
        ran = [t for t in expected if t in tr.outcomes or t == tr.stopped]
        result = score(tr, ran).model_copy(update={"expected": len(expected)})
    if plan is not None:
        result.selection = TestSelection(
            total=plan.total,
            related=len(first or []),
            ran=sum(t in tr.outcomes for t in expected),
            stopped_early=bool(tr.stopped),
            fallback=plan.fallback,
        )
    return result, tr
