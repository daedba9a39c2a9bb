"""Repair candidates in the template baselines' order (Python and Java): suspiciousness tier,
then operator priority, then line rank."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from truepass.families.repair.solvers.sbfl import SuspiciousLine
from truepass.pycode.mutants import Mutant


@dataclass(frozen=True)
class Candidate:
    """A rendered mutant: the whole code file map after the change, and where it came from."""

    mutant: Mutant
    files: dict[str, str]
    rank: int  # 1-based position of the mutated line in the localisation ranking
    score: float


def tiers(lines: list[SuspiciousLine]) -> Iterator[list[tuple[int, SuspiciousLine]]]:
    """Consecutive runs of equally suspicious lines, each line with its 1-based rank."""
    ranked = list(enumerate(lines, start=1))
    for _, group in itertools.groupby(ranked, key=lambda r: round(r[1].score, 9)):
        yield list(group)


def ranked_candidates(
    files: dict[str, str],
    sources: dict[str, Any],
    lines: list[SuspiciousLine],
    mutants_of: Callable[[Any, int], list[Mutant]],
    render_text: Callable[[Any, Mutant], str | None],
) -> Iterator[Candidate]:
    """Candidates in order: suspiciousness tier, then operator priority, then line rank, for
    any language: ``sources`` are the parsed code files (``SourceFile`` or ``JavaSource``),
    ``mutants_of(src, line)`` a line's mutants and ``render_text`` a mutant's file text (None
    when it does not parse or changes nothing). Repeats of an earlier result are skipped."""
    seen: set[tuple[str, str]] = set()
    for tier in tiers(lines):
        pool: list[tuple[int, int, int, Mutant, SuspiciousLine]] = []
        for rank, sl in tier:
            src = sources.get(sl.file)
            if src is None:
                continue
            for m in mutants_of(src, sl.line):
                pool.append((m.priority, rank, len(pool), m, sl))
        pool.sort(key=lambda p: p[:3])
        for _, rank, _, m, sl in pool:
            text = render_text(sources[m.file], m)
            if text is None or (m.file, text) in seen:
                continue
            seen.add((m.file, text))
            yield Candidate(m, {**files, m.file: text}, rank, sl.score)
