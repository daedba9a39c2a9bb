import pytest
from clamping import clamp, clamp_all


def test_above_with_negative_range():
    assert clamp(7, -5, -1) == -1


def test_at_the_ends():
    assert clamp(0, 0, 10) == 0
    assert clamp(10, 0, 10) == 10


def test_degenerate_range():
    assert clamp(3, 2, 2) == 2


def test_clamp_all():
    assert clamp_all([-1, 0.5, 2], 0, 1) == [0, 0.5, 1]


def test_empty_range():
    with pytest.raises(ValueError):
        clamp(1, 5, 0)
