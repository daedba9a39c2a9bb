import pytest
from durations import format_duration, split_duration


def test_half_a_day_is_hours():
    assert format_duration(13 * 3600) == "13h"


def test_exactly_one_day():
    assert split_duration(86400) == (1, 0, 0, 0)


def test_just_under_a_day():
    assert split_duration(86399) == (0, 23, 59, 59)


def test_week():
    assert format_duration(7 * 86400 + 30) == "7d 30s"


def test_negative():
    with pytest.raises(ValueError):
        split_duration(-1)
