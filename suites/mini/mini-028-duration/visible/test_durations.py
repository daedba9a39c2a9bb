from durations import format_duration


def test_hours_minutes_seconds():
    assert format_duration(3725) == "1h 2m 5s"


def test_more_than_a_day():
    assert format_duration(90000) == "1d 1h"


def test_zero():
    assert format_duration(0) == "0s"
