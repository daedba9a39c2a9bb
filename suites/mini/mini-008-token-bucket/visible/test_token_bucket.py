from token_bucket import TokenBucket


def test_burst_then_refuse():
    bucket = TokenBucket(capacity=2, rate=2)
    assert bucket.allow(0.0)
    assert bucket.allow(0.0)
    assert not bucket.allow(0.0)


def test_refills_over_time():
    bucket = TokenBucket(capacity=2, rate=2)
    bucket.allow(0.0)
    bucket.allow(0.0)
    assert bucket.allow(0.5)
