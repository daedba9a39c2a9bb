import pytest
from stats import mean, stdev, variance


def test_two_points():
    assert variance([0, 4]) == pytest.approx(4.0)


def test_textbook_stdev():
    assert stdev([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2.0)


def test_shift_invariant():
    assert variance([101, 102, 103, 110]) == pytest.approx(variance([1, 2, 3, 10]))


def test_scaling_squares():
    assert variance([0, 6]) == pytest.approx(9 * variance([0, 2]))


def test_empty_sample():
    with pytest.raises(ValueError):
        mean([])
    with pytest.raises(ValueError):
        variance([])
