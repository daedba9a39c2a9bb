"""The report of a large run: one row per sample and solver instead of one per attempt.

With many samples per problem (pass@k with n = 20 to 200) a run holds tens of thousands of
attempts; a page per attempt would make a report of hundreds of megabytes that no browser opens.
Above :data:`PAGE_LIMIT` attempts the report therefore shows a row per (run, solver, sample) with
its pass@k, and a page per row listing its attempts grouped by outcome (verdict, flags, tests
passed); only the first attempt of each outcome gets a full page, up to :data:`PAGE_LIMIT` pages
in all. Every attempt's full record stays in ``results.jsonl`` and the exports.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from truepass.metrics.passk import pass_at_k
from truepass.records import is_correct
from truepass.report.load import Attempt
from truepass.vocabulary import counted

PAGE_LIMIT = 2000
"""Reports with more attempts than this are grouped; and at most this many attempt pages."""


def _phase(p: object) -> str:
    if p is None:
        return "—"
    return f"{p.passed}/{p.expected}"  # type: ignore[attr-defined]


@dataclass
class Outcome:
    """Attempts of one group that ended alike: same verdict, flags and tests passed."""

    verdict: str
    flags: list[str]
    visible: str
    hidden: str
    attempts: list[int] = field(default_factory=list)
    """the attempts' numbers (``attempt`` of the record), in order"""
    page: str | None = None
    """the anchor of the full page of the first of them, when it has one"""

    @property
    def numbers(self) -> str:
        """The attempt numbers as ranges: ``0-4, 7, 9-10``."""
        return number_ranges(self.attempts)


@dataclass
class SampleGroup:
    """The attempts of one solver on one sample in one run."""

    index: int
    run: str
    solver: str
    sample_id: str
    defect_type: str
    attempts: int
    counted: int
    correct: int
    outcomes: list[Outcome]
    median_judge_s: float | None
    tokens: int | None

    @property
    def anchor(self) -> str:
        return f"sample-{self.index}"

    @property
    def verdicts(self) -> list[str]:
        return list(dict.fromkeys(o.verdict for o in self.outcomes))

    @property
    def flag_names(self) -> list[str]:
        return sorted({f for o in self.outcomes for f in o.flags})

    def verdict_counts(self) -> list[tuple[str, int]]:
        counts: dict[str, int] = {}
        for o in self.outcomes:
            counts[o.verdict] = counts.get(o.verdict, 0) + len(o.attempts)
        return sorted(counts.items(), key=lambda kv: -kv[1])

    def pass_at(self, k: int) -> float | None:
        """pass@k over the counted attempts; None with fewer than k of them."""
        if self.counted < k or k < 1:
            return None
        return pass_at_k(self.counted, self.correct, k)

    @property
    def search(self) -> str:
        return " ".join(
            [self.sample_id, self.solver, self.defect_type, self.run, *self.verdicts,
             *self.flag_names]
        ).lower()  # fmt: skip


def number_ranges(numbers: Iterable[int]) -> str:
    """``[0, 1, 2, 4]`` as ``0-2, 4``."""
    out: list[str] = []
    start = prev = None
    for n in sorted(numbers):
        if prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(f"{start}-{prev}" if prev != start else f"{start}")
        start = prev = n
    if start is not None:
        out.append(f"{start}-{prev}" if prev != start else f"{start}")
    return ", ".join(out)


def group_attempts(attempts: list[Attempt], page_limit: int = PAGE_LIMIT) -> tuple[
    list[SampleGroup], list[Attempt]
]:  # fmt: skip
    """The groups of ``attempts`` in the order they first appear, and the attempts that get a
    full page: the first of each outcome of each group, group by group, at most
    ``page_limit``."""
    by_key: dict[tuple[str, str, str], list[Attempt]] = {}
    for a in attempts:
        by_key.setdefault((a.run, a.label, a.record.sample_id), []).append(a)
    groups: list[SampleGroup] = []
    firsts: list[list[tuple[Outcome, Attempt]]] = []
    for index, ((run, label, sample_id), members) in enumerate(by_key.items(), 1):
        outcomes: dict[tuple[str, tuple[str, ...], str, str], Outcome] = {}
        first: dict[int, Attempt] = {}  # id of an outcome -> its first attempt
        for a in members:
            r = a.record
            key = (r.verdict.value, tuple(r.flags), _phase(r.visible), _phase(r.hidden))
            if key not in outcomes:
                outcomes[key] = Outcome(key[0], list(key[1]), key[2], key[3])
                first[id(outcomes[key])] = a
            outcomes[key].attempts.append(r.attempt)
        ordered = sorted(outcomes.values(), key=lambda o: -len(o.attempts))
        used = [a.record.usage for a in members if a.record.usage is not None]
        groups.append(
            SampleGroup(
                index=index,
                run=run,
                solver=label,
                sample_id=sample_id,
                defect_type=members[0].record.defect_type,
                attempts=len(members),
                counted=sum(counted(a.record.verdict) for a in members),
                correct=sum(is_correct(a.record) for a in members),
                outcomes=ordered,
                median_judge_s=round(statistics.median(a.record.duration_s for a in members), 3),
                tokens=sum(u.prompt_tokens + u.completion_tokens for u in used) if used else None,
            )
        )
        firsts.append([(o, first[id(o)]) for o in ordered])
    # pages: the first attempt of every group's most common outcome first, then the next ones
    paged: list[Attempt] = []
    depth = 0
    while len(paged) < page_limit and any(depth < len(f) for f in firsts):
        for mine in firsts:
            if depth < len(mine) and len(paged) < page_limit:
                outcome, a = mine[depth]
                outcome.page = f"attempt-{a.index}"
                paged.append(a)
        depth += 1
    paged.sort(key=lambda a: a.index)
    return groups, paged


def largest_k(pass_k: Iterable[str]) -> int | None:
    """The largest k of the ``pass@k`` names solvers report, for the groups' pass@k column."""
    ks = [int(name.split("@", 1)[1]) for name in pass_k if name.startswith("pass@")]
    return max(ks) if ks else None
