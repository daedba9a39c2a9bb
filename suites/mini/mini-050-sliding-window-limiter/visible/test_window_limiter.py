from window_limiter import SlidingWindowLimiter


def test_limit_is_enforced():
    limiter = SlidingWindowLimiter(limit=2, window=10)
    assert limiter.allow(0)
    assert limiter.allow(1)
    assert not limiter.allow(2)


def test_window_moves_on():
    limiter = SlidingWindowLimiter(limit=1, window=10)
    assert limiter.allow(0)
    assert limiter.allow(25)
