import pytest
from roman import from_roman, to_roman


def test_fourteen():
    assert to_roman(14) == "XIV"


def test_years():
    assert to_roman(1994) == "MCMXCIV"
    assert to_roman(2024) == "MMXXIV"


def test_largest():
    assert to_roman(3999) == "MMMCMXCIX"


def test_round_trip():
    for n in range(1, 400):
        assert from_roman(to_roman(n)) == n


def test_out_of_range():
    with pytest.raises(ValueError):
        to_roman(0)
    with pytest.raises(ValueError):
        to_roman(4000)
