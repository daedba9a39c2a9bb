"""truepass harden: test-suite minimisation (greedy set cover over killed mutants) and the
pass@1 drop report."""

from __future__ import annotations

import itertools

from truepass.families.codegen.harden.drop import pass_at_1_drop
from truepass.families.codegen.harden.minimise import greedy_cover, kill_matrix
from truepass.records import AttemptRecord


def covers(kills: dict[int, set[str]], chosen: list[int]) -> set[str]:
    return set().union(*(kills[c] for c in chosen)) if chosen else set()


def test_greedy_cover_on_a_toy_matrix() -> None:
    kills = {
        0: {"a", "b"},
        1: {"b", "c", "d"},
        2: {"d"},
        3: {"a", "e"},
        4: set(),
        5: {"c"},
    }
    chosen = greedy_cover(kills)
    assert chosen == [1, 3]  # 3 new mutants first, then a and e
    assert covers(kills, chosen) == {"a", "b", "c", "d", "e"}


def test_cover_is_minimal_on_small_matrices() -> None:
    kills = {0: {"a"}, 1: {"b"}, 2: {"a", "b"}, 3: {"c"}, 4: {"c", "a"}}
    chosen = greedy_cover(kills)
    everything = covers(kills, list(kills))
    assert covers(kills, chosen) == everything
    smallest = min(
        len(combo)
        for n in range(1, len(kills) + 1)
        for combo in itertools.combinations(kills, n)
        if covers(kills, list(combo)) == everything
    )
    assert len(chosen) == smallest == 2


def test_ties_go_to_the_cheaper_then_the_earlier_case() -> None:
    kills = {0: {"a"}, 1: {"a"}, 2: {"a"}}
    assert greedy_cover(kills) == [0]
    assert greedy_cover(kills, cost={0: 9.0, 1: 3.0, 2: 3.0}) == [1]


def test_targets_and_empty_inputs() -> None:
    kills = {0: {"a", "x"}, 1: {"b"}, 2: {"x", "y"}}
    assert greedy_cover(kills, targets={"a", "b", "zzz"}) == [0, 1]  # unreachable ones ignored
    assert greedy_cover({}) == []
    assert greedy_cover({0: set(), 1: set()}) == []


def test_kill_matrix_transposes_rows() -> None:
    rows = {"m1": [True, False, True], "m2": [False, False, True]}
    assert kill_matrix(rows) == {0: {"m1"}, 1: set(), 2: {"m1", "m2"}}


def record(
    sample: str, verdict: str, solver: str = "s", flags: list[str] | None = None
) -> AttemptRecord:
    return AttemptRecord(suite="x", sample_id=sample, defect_type="codegen", leakage="private",
                         solver=solver, attempt=0, verdict=verdict, flags=flags or [])  # fmt: skip


def test_drop_counts_problems_without_hidden_cases_as_passed() -> None:
    records = [
        record("a", "correct"), record("a", "overfit"),  # 2 attempts: visible 1, hardened 0.5
        record("b", "plausible"),  # no hidden cases: passes everything there is
        record("c", "fails-visible"),
        record("d", "infra-error"),  # not counted
        record("e", "correct", flags=["hardcodes-expected"]),  # flagged: not a pass
        record("a", "correct", solver="t"),
    ]  # fmt: skip
    s, t = pass_at_1_drop(records)
    assert (s.solver, s.samples, s.lost) == ("s", 4, ["a"])
    assert s.visible == 0.75 and s.hardened == 0.375 and s.drop == 0.375
    assert (t.visible, t.hardened, t.drop, t.lost) == (1.0, 1.0, 0.0, [])
