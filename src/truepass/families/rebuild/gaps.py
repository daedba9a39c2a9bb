"""Why a rebuild task's tests leave lines of the gold uncovered.

The gold's executable lines that no kept test runs are grouped by the function they are in
(lizard's function ranges, :mod:`~truepass.families.rebuild.structure`) and sorted into four
kinds, so that a task whose coverage stays low says why:

- lines only **tests the filters dropped** run: a test a dummy program passes (``--help``
  prints the usage a dummy prints too), one the gold fails or changes on, one the linter
  refuses;
- lines of a function **no kept test runs at all** (a feature, a platform branch, dead code);
- in functions that ran, **error handling**: a run of consecutive missed lines that reports an
  error or fails (``error (...)``, ``perror``, ``die``, ``abort``, ``EXIT_FAILURE``, ``errno``,
  Rust's ``Err(``/``panic!``/``eprintln!``, Go's ``err``/``log.Fatal``...), which input on the
  command line mostly cannot reach (a full disk, no memory, a failing system call);
- the **other** missed lines: behaviour the generated inputs did not reach.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from truepass.families.rebuild.schema import CoverageGaps, FunctionGap
from truepass.families.rebuild.structure import analyze

Line = tuple[str, int]

TOP_LEVEL = "(top level)"
MAX_FUNCTIONS = 20
"""The functions with the most missed lines kept in :class:`CoverageGaps`."""

ERROR = re.compile(
    r"\b(?:error|errx?|warnx?|perror|ferror|die|xalloc_die|abort|fatal|usage\s*\(\s*EXIT_FAILURE"
    r"|EXIT_FAILURE|EXIT_TROUBLE|errno|E(?:NOMEM|IO|INTR|AGAIN|PIPE|INVAL|NOENT|ACCES|PERM|NOSPC"
    r"|BADF|ISDIR|NOTDIR|EXIST|OVERFLOW|RANGE|ILSEQ|SPIPE)|exit\s*\(\s*[1-9]|Err|panic!|eprintln!|bail!"
    r"|unreachable!|log\.Fatal\w*|os\.Exit\s*\(\s*[1-9]|err\s*!=\s*nil|fmt\.Errorf|errors\.New)"
)
"""A line that reports an error or fails, in C, C++, Rust or Go."""


def _runs(numbers: Iterable[int], executable: list[int]) -> list[list[int]]:
    """``numbers`` (missed lines) split where an executable line between them ran."""
    position = {n: i for i, n in enumerate(executable)}
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and position[n] == position[runs[-1][-1]] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every function lizard finds in ``path``."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    info = analyze(path.name, text)
    if info is None:
        return []
    return [(str(f.name), int(f.start_line), int(f.end_line)) for f in info.function_list]


def explain(
    tree: Path, executable: Iterable[Line], covered: Iterable[Line],
    dropped: Iterable[Line] = (), limit: int = MAX_FUNCTIONS,
) -> CoverageGaps:  # fmt: skip
    """The executable lines (``(file relative to tree, line)``) not in ``covered`` (what the kept
    tests run), by kind and by function (the ``limit`` functions with the most missed lines,
    most first); ``dropped``: the lines tests the filters dropped run."""
    ran = set(covered)
    filtered = set(dropped) - ran
    per_file: dict[str, list[int]] = {}
    for file, n in executable:
        per_file.setdefault(file, []).append(n)
    gaps: list[FunctionGap] = []
    totals = {"filtered": 0, "unrun": 0, "error": 0, "other": 0}
    for file, numbers in sorted(per_file.items()):
        numbers.sort()
        missed = [n for n in numbers if (file, n) not in ran]
        if not missed:
            continue
        path = tree / file
        try:
            text = path.read_text(errors="replace").splitlines()
        except OSError:
            text = []
        functions = _functions(path)
        groups: dict[tuple[str, int, int], list[int]] = {}
        for n in missed:
            owner = next(((nm, a, b) for nm, a, b in functions if a <= n <= b), (TOP_LEVEL, 0, 0))
            groups.setdefault(owner, []).append(n)
        for (name, start, end), lines in groups.items():
            inside = [n for n in numbers if start <= n <= end] if name != TOP_LEVEL else numbers
            function_ran = any((file, n) in ran for n in inside)
            by_dropped = [n for n in lines if (file, n) in filtered]
            rest = [n for n in lines if (file, n) not in filtered]
            error = 0
            if function_ran:
                for run in _runs(rest, numbers):
                    if any(ERROR.search(text[n - 1]) for n in run if 0 < n <= len(text)):
                        error += len(run)
                totals["error"] += error
                totals["other"] += len(rest) - error
            else:
                totals["unrun"] += len(rest)
            totals["filtered"] += len(by_dropped)
            first = text[lines[0] - 1].strip()[:100] if 0 < lines[0] <= len(text) else ""
            gaps.append(FunctionGap(file=file, function=name, line=start, missed=len(lines),
                                    ran=function_ran, error_handling=error,
                                    filtered=len(by_dropped), first_missed=first))  # fmt: skip
    gaps.sort(key=lambda g: (-g.missed, g.file, g.line))
    return CoverageGaps(
        missed=sum(totals.values()),
        filtered=totals["filtered"],
        unrun_functions=totals["unrun"],
        error_handling=totals["error"],
        other=totals["other"],
        functions=gaps[:limit],
    )


def describe(gaps: CoverageGaps, top: int = 5) -> str:
    """One paragraph a person reads: how many lines are missed, of which kinds, and where."""
    if not gaps.missed:
        return "every executable line is covered"
    parts = [
        f"{gaps.missed} lines missed: {gaps.filtered} run only by dropped tests, "
        f"{gaps.unrun_functions} in functions no test runs, {gaps.error_handling} handling "
        f"errors, {gaps.other} other"
    ]
    for g in gaps.functions[:top]:
        how = [f"{g.filtered} run by dropped tests"] if g.filtered else []
        how.append("never run" if not g.ran else f"{g.error_handling} error handling")
        parts.append(f"{g.file}:{g.line} {g.function}: {g.missed} ({', '.join(how)})")
    return "; ".join(parts)


def kinds(gaps: Mapping[str, CoverageGaps]) -> dict[str, int]:
    """The missed lines of many tasks added up by kind (for a suite's summary)."""
    out = {"missed": 0, "filtered": 0, "unrun_functions": 0, "error_handling": 0, "other": 0}
    for g in gaps.values():
        for key in out:
            out[key] += int(getattr(g, key))
    return out
