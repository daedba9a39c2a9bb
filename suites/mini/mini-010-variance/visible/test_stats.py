import pytest
from stats import variance


def test_small_sample():
    assert variance([1, 2, 3]) == pytest.approx(2 / 3)


def test_constant_sample():
    assert variance([5, 5, 5]) == 0
