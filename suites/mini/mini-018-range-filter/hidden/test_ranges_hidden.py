import pytest
from ranges import count_outside, filter_range, in_range


def test_ends_are_included():
    assert filter_range([3, 4, 12, 13], 4, 12) == [4, 12]


def test_degenerate_range():
    assert filter_range([1, 2, 2, 3], 2, 2) == [2, 2]


def test_in_range():
    assert in_range(0, 0, 1)
    assert in_range(1, 0, 1)
    assert not in_range(-0.5, 0, 1)
    assert not in_range(1.5, 0, 1)


def test_count_outside():
    assert count_outside([0, 5, 10, 20], 5, 10) == 2


def test_inverted_range():
    with pytest.raises(ValueError):
        filter_range([1], 3, 2)
