import pytest
from rates import conversion_rates, ratio


def test_zero_over_zero():
    assert ratio(0, 0) is None


def test_float_zero():
    assert ratio(2.5, 0.0) is None


def test_wrong_types_are_not_hidden():
    with pytest.raises(TypeError):
        ratio("3", 4)


def test_conversion_rates():
    stats = {"/home": (5, 200), "/new": (0, 0), "/buy": (2, 3)}
    assert conversion_rates(stats) == {"/home": 0.025, "/new": None, "/buy": 0.667}
