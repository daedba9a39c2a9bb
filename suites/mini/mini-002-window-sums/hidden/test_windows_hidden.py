import pytest
from windows import moving_average, window_sums


def test_triples():
    assert window_sums([1, 2, 3, 4, 5], 3) == [6, 9, 12]


def test_window_as_long_as_input():
    assert window_sums([1, 2, 3], 3) == [6]


def test_window_longer_than_input():
    assert window_sums([1, 2], 3) == []


def test_single_value_windows():
    assert window_sums([4, 5, 6], 1) == [4, 5, 6]


def test_moving_average_of_four():
    assert moving_average([1, 3, 5, 7, 9], 4) == [4.0, 6.0]


def test_bad_size():
    with pytest.raises(ValueError):
        window_sums([1, 2], 0)
