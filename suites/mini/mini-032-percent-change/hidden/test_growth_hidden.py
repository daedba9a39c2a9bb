import pytest
from growth import growth_series, percent_change


def test_decrease():
    assert percent_change(200, 100) == -50.0


def test_from_negative_value():
    assert percent_change(-50, -25) == 50.0
    assert percent_change(-10, -20) == -100.0


def test_to_zero():
    assert percent_change(40, 0) == -100.0


def test_series():
    assert growth_series([100, 110, 99]) == [10.0, -10.0]


def test_from_zero():
    with pytest.raises(ZeroDivisionError):
        percent_change(0, 5)
