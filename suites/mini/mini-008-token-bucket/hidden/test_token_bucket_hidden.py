import pytest
from token_bucket import TokenBucket


def test_refill_is_capped_at_capacity():
    bucket = TokenBucket(capacity=2, rate=1)
    assert bucket.allow(0.0) and bucket.allow(0.0)
    results = [bucket.allow(100.0) for _ in range(3)]
    assert results == [True, True, False]


def test_partial_refill_not_enough():
    bucket = TokenBucket(capacity=1, rate=4)
    assert bucket.allow(0.0)
    assert not bucket.allow(0.125)
    assert bucket.allow(0.25)


def test_clock_going_backwards_adds_nothing():
    bucket = TokenBucket(capacity=1, rate=1, now=10.0)
    assert bucket.allow(10.0)
    assert not bucket.allow(5.0)


def test_cost_larger_than_capacity():
    bucket = TokenBucket(capacity=3, rate=1)
    assert not bucket.allow(1000.0, cost=4)
    assert bucket.allow(1000.0, cost=3)


def test_bad_arguments():
    with pytest.raises(ValueError):
        TokenBucket(capacity=0, rate=1)
