"""Find clashes between meetings given as half-open [start, end) intervals."""

from __future__ import annotations

Meeting = tuple[int, int]


def overlaps(a: Meeting, b: Meeting) -> bool:
    """True when the meetings share some time; back-to-back meetings do not overlap."""
    a_start, a_end = a
    b_start, b_end = b
    return a_start <= b_end and b_start < a_end


def conflicts(meetings: list[Meeting]) -> list[tuple[int, int]]:
    """Index pairs (i, j), i < j, of overlapping meetings."""
    found = []
    for i in range(len(meetings)):
        for j in range(i + 1, len(meetings)):
            if overlaps(meetings[i], meetings[j]):
                found.append((i, j))
    return found
