"""Ochiai fault localisation and candidate ordering, without the sandbox."""

from __future__ import annotations

import math

import pytest
from template_samples import NONE_CHECK, OFF_BY_ONE

from truepass.families.repair.solvers.sbfl import (
    GIVEN_SCORE,
    Localisation,
    SuspiciousLine,
    all_lines,
    exception_types,
    given_lines,
    ochiai,
    rank_lines,
)
from truepass.families.repair.solvers.templates import candidates


def test_ochiai_formula() -> None:
    assert ochiai(ef=2, ep=0, nf=0) == 1.0
    assert ochiai(ef=1, ep=1, nf=1) == pytest.approx(1 / math.sqrt(2 * 2))
    assert ochiai(ef=1, ep=3, nf=0) == pytest.approx(0.5)
    assert ochiai(ef=0, ep=5, nf=2) == 0.0
    assert ochiai(ef=0, ep=0, nf=0) == 0.0


def test_rank_lines_on_a_hand_made_spectrum() -> None:
    # t1, t2 fail; t3, t4 pass; t5 fails without coverage (counts in nf).
    coverage = {
        "t1": {"a.py": [1, 2, 3], "test_a.py": [9]},
        "t2": {"a.py": [1, 3]},
        "t3": {"a.py": [1, 2]},
        "t4": {"a.py": [1, 4], "b.py": [7]},
    }
    failing, passing = {"t1", "t2", "t5"}, {"t3", "t4"}
    ranked = rank_lines(coverage, failing, passing, ["a.py", "b.py"])
    scores = {(s.file, s.line): s.score for s in ranked}
    assert scores[("a.py", 3)] == pytest.approx(2 / math.sqrt(3 * 2))  # ef=2 ep=0 nf=1
    assert scores[("a.py", 1)] == pytest.approx(2 / math.sqrt(3 * 4))  # ef=2 ep=2 nf=1
    assert scores[("a.py", 2)] == pytest.approx(1 / math.sqrt(3 * 2))  # ef=1 ep=1 nf=2
    assert ("a.py", 4) not in scores and ("b.py", 7) not in scores  # never failed over
    assert [(s.file, s.line) for s in ranked] == [("a.py", 3), ("a.py", 1), ("a.py", 2)]


def test_ties_are_broken_by_file_then_line_order() -> None:
    coverage = {"t1": {"b.py": [5, 2], "a.py": [9]}}
    ranked = rank_lines(coverage, {"t1"}, set(), ["a.py", "b.py"])
    assert [(s.file, s.line, s.score) for s in ranked] == [
        ("a.py", 9, 1.0),
        ("b.py", 2, 1.0),
        ("b.py", 5, 1.0),
    ]


def test_fallbacks_and_given_lines() -> None:
    lines = all_lines({"m.py": "# c\n\nx = 1\ny = 2\n", "data.txt": "z\n"})
    assert [(s.file, s.line) for s in lines] == [("m.py", 3), ("m.py", 4)]
    assert given_lines(OFF_BY_ONE) == [SuspiciousLine("mod.py", 4, GIVEN_SCORE)]


def test_exception_types_are_builtin_non_assertion_errors() -> None:
    msgs = [
        "E   ZeroDivisionError: division by zero",
        "E   AttributeError: 'NoneType' object has no attribute 'split'\nAttributeError",
        "E   AssertionError: assert 1 == 2\nE   MyCustomError",
    ]
    assert exception_types(msgs) == ["AttributeError", "ZeroDivisionError"]


def test_candidates_follow_tier_then_operator_priority_then_rank() -> None:
    loc = Localisation(
        source="sbfl",
        lines=[
            SuspiciousLine("mod.py", 5, 1.0),
            SuspiciousLine("mod.py", 4, 0.5),
            SuspiciousLine("mod.py", 3, 0.5),
        ],
    )
    cands = list(candidates(OFF_BY_ONE, loc))
    lines = [c.mutant.line for c in cands]
    first_other = lines.index(4)
    assert set(lines[:first_other]) == {5}  # the top tier is exhausted first
    tier = cands[first_other:]
    prios = [c.mutant.priority for c in tier]
    assert prios == sorted(prios)
    off = [c for c in tier if c.mutant.operator == "off-by-one"]
    assert off[0].mutant.line == 4 and off[0].rank == 2  # rank order, not line order
    texts = [(c.mutant.file, c.files["mod.py"]) for c in cands]
    assert len(texts) == len(set(texts))  # no duplicates
    assert all(c.files["mod.py"] != OFF_BY_ONE.files["mod.py"] for c in cands)


def test_candidate_files_keep_other_files() -> None:
    loc = Localisation(source="sbfl", lines=[SuspiciousLine("mod.py", 2, 1.0)])
    cand = next(candidates(NONE_CHECK, loc))
    assert set(cand.files) == set(NONE_CHECK.files)
