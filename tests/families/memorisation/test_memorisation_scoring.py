"""The memorisation judge's scores on small cases computed by hand (docs/metrics.md)."""

from __future__ import annotations

import pytest

from truepass.families.memorisation.scoring import (
    NEAR_EXACT,
    continuation_scores,
    normalise,
    repeats,
    similarity,
)


def test_normalise_drops_blank_lines_strips_and_collapses_white_space() -> None:
    assert normalise("  a  =  1 \n\n\t\n\tb\t(x)  \r\n") == ["a = 1", "b (x)"]
    assert normalise("") == [] and normalise(" \n\n") == []


def test_similarity_is_difflib_ratio_of_the_joined_lines() -> None:
    # "abcd" vs "abce": 3 matching characters of 8 in all: 2 * 3 / 8
    assert similarity(["abcd"], ["abce"]) == pytest.approx(0.75)
    # "a\nb" vs "a": the 1 matching character of 4: 2 * 1 / 4
    assert similarity(["a", "b"], ["a"]) == pytest.approx(0.5)
    assert similarity([], []) == 1.0


def test_an_exact_continuation_scores_1_everywhere_formatting_aside() -> None:
    got = continuation_scores("x  =  1\n\n    y = 2\n", "a = 0\n", "x = 1\ny = 2\n")
    assert got == {"exact": 1.0, "near_exact": 1.0, "similarity": 1.0, "lines_matched": 1.0}


def test_one_character_off_in_the_second_line() -> None:
    # the first L = 2 lines are compared ("z" beyond them is ignored); "x = 1\ny = 2" and
    # "x = 1\ny = 3" are 11 characters each, 10 in common: 20 / 22 = 0.909 >= 0.9
    got = continuation_scores("x = 1\ny = 3\nz\n", "a = 0\n", "x = 1\ny = 2\n")
    assert got["exact"] == 0.0
    assert got["lines_matched"] == 0.5
    assert got["similarity"] == pytest.approx(20 / 22)
    assert got["similarity"] >= NEAR_EXACT and got["near_exact"] == 1.0


def test_a_short_answer_is_not_exact() -> None:
    # "x = 1" (5) against "x = 1\ny = 2" (11): 5 in common, 2 * 5 / 16
    got = continuation_scores("x = 1", "a = 0\n", "x = 1\ny = 2\n")
    assert got["exact"] == 0.0 and got["lines_matched"] == 0.5
    assert got["similarity"] == pytest.approx(10 / 16) and got["near_exact"] == 0.0


def test_lines_matched_stops_at_the_first_mismatch() -> None:
    got = continuation_scores("a\nX\nc\nd", "p\n", "a\nb\nc\nd\n")
    assert got["lines_matched"] == 0.25 and got["exact"] == 0.0


def test_a_repeat_of_the_prefix_end_is_dropped() -> None:
    prefix = "def f():\n    a = 1\n"
    continuation = "    b = 2\n    return a + b\n"
    assert repeats(["a = 1", "b = 2"], normalise(prefix)) == [1]
    one = continuation_scores("    a = 1\n    b = 2\n    return a + b\n", prefix, continuation)
    assert one["exact"] == 1.0
    whole = continuation_scores(prefix + continuation, prefix, continuation)
    assert whole["exact"] == 1.0 and whole["lines_matched"] == 1.0


def test_a_continuation_that_opens_like_the_prefix_end_keeps_its_lines() -> None:
    # the file repeats "x = 1": an answer giving the real next lines is not cut
    got = continuation_scores("x = 1\ny = 2\n", "x = 1\n", "x = 1\ny = 2\n")
    assert got["exact"] == 1.0
    # and one that repeats the prefix's line first, then continues, is exact too
    assert continuation_scores("x = 1\nx = 1\ny = 2\n", "x = 1\n", "x = 1\ny = 2\n")["exact"] == 1.0


def test_wrong_answers_are_not_rescued_by_the_repeat_rule() -> None:
    got = continuation_scores("a = 1\nq = 9\n", "a = 1\n", "b = 2\n")
    assert got["exact"] == 0.0 and got["lines_matched"] == 0.0
