"""Test-suite minimisation: the fewest added cases that still kill the same mutants.

A greedy set cover (Chvátal's: within a factor ln(m) + 1 of the optimum): repeatedly take the
case that kills the most mutants not yet killed, until every mutant that some case kills is
killed. Ties go to the cheaper case (a ``cost``, e.g. the length of its arguments' text), then to
the earlier one, so the result is deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set


def greedy_cover(
    kills: Mapping[int, Set[str]],
    *,
    targets: Set[str] | None = None,
    cost: Mapping[int, float] | None = None,
) -> list[int]:
    """Cases (keys of ``kills``, each mapped to the mutants it kills) covering ``targets``.

    ``targets`` defaults to every mutant some case kills; mutants no case kills are ignored.
    Returns the chosen case keys in the order they were chosen.
    """
    reachable = set().union(*kills.values()) if kills else set()
    left = set(reachable if targets is None else targets & reachable)
    chosen: list[int] = []
    candidates = sorted(kills)
    while left:
        best = max(
            candidates,
            key=lambda c: (len(kills[c] & left), -(cost or {}).get(c, 0.0), -c),
        )
        gain = kills[best] & left
        if not gain:  # cannot happen: every target is reachable
            break
        chosen.append(best)
        left -= gain
        candidates.remove(best)
    return chosen


def kill_matrix(rows: Mapping[str, Sequence[bool]]) -> dict[int, set[str]]:
    """Transpose per-mutant kill rows (``row[i]``: case ``i`` kills it) into per-case sets."""
    out: dict[int, set[str]] = {}
    for mutant, row in rows.items():
        for i, killed in enumerate(row):
            out.setdefault(i, set())
            if killed:
                out[i].add(mutant)
    return out
