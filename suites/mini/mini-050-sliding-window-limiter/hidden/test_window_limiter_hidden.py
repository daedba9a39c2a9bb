import pytest
from window_limiter import SlidingWindowLimiter


def test_event_exactly_one_window_old_has_expired():
    limiter = SlidingWindowLimiter(limit=2, window=10)
    assert limiter.allow(0)
    assert limiter.allow(1)
    assert limiter.allow(10)
    assert not limiter.allow(10.5)


def test_refused_events_do_not_count():
    limiter = SlidingWindowLimiter(limit=1, window=5)
    assert limiter.allow(0)
    assert not limiter.allow(4)
    assert limiter.allow(5)


def test_limit_one():
    limiter = SlidingWindowLimiter(limit=1, window=1)
    assert [limiter.allow(t) for t in (0, 0.5, 1, 1.5, 2)] == [True, False, True, False, True]


def test_bad_arguments():
    with pytest.raises(ValueError):
        SlidingWindowLimiter(limit=0, window=1)
