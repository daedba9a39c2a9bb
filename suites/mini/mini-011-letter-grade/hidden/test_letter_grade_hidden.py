import pytest
from letter_grade import grade_counts, letter_grade


def test_every_band_floor():
    assert [letter_grade(s) for s in (90, 80, 70, 60)] == ["A", "B", "C", "D"]


def test_just_below_a_floor():
    assert letter_grade(89.5) == "B"
    assert letter_grade(59.9) == "F"


def test_extremes():
    assert letter_grade(100) == "A"
    assert letter_grade(0) == "F"


def test_counts():
    counts = grade_counts([90, 85, 80, 79.5, 60, 12])
    assert counts == {"A": 1, "B": 2, "C": 1, "D": 1, "F": 1}


def test_out_of_range():
    with pytest.raises(ValueError):
        letter_grade(101)
