import pytest
from extremes import argmax, argmin


def test_ties_pick_the_first():
    assert argmax([2, 7, 7]) == 1
    assert argmax([3, 3, 3]) == 0


def test_max_at_the_ends():
    assert argmax([9, 1, 2]) == 0
    assert argmax([1, 2, 9]) == 2


def test_negative_numbers():
    assert argmax([-5, -1, -3]) == 1


def test_single_element():
    assert argmax([42]) == 0


def test_empty():
    with pytest.raises(ValueError):
        argmax([])


def test_argmin_ties():
    assert argmin([1, 0, 0]) == 1
