import pytest
from grades import course_grade, weighted_average


def test_unequal_weights():
    assert weighted_average([2.0, 4.0], [1.0, 3.0]) == 3.5


def test_zero_weight_is_ignored():
    assert weighted_average([10.0, 99.0], [2.0, 0.0]) == 10.0


def test_weighted_course_grade():
    grade = course_grade({"homework": 60.0, "exam": 90.0}, {"homework": 0.25, "exam": 0.75})
    assert grade == pytest.approx(82.5)


def test_missing_score_counts_as_zero():
    assert course_grade({"exam": 80.0}, {"homework": 1.0, "exam": 3.0}) == 60.0


def test_errors():
    with pytest.raises(ValueError):
        weighted_average([1.0], [1.0, 2.0])
    with pytest.raises(ValueError):
        weighted_average([1.0, 2.0], [0.0, 0.0])
