import pytest
from retrying import TransientError, retry


def flaky(failures):
    calls = []

    def fn():
        calls.append(1)
        if len(calls) <= failures:
            raise TransientError("try again")
        return "ok"

    return fn, calls


def test_succeeds_after_transient_failures():
    fn, calls = flaky(2)
    assert retry(fn, attempts=3) == "ok"
    assert len(calls) == 3


def test_gives_up():
    fn, _ = flaky(5)
    with pytest.raises(TransientError):
        retry(fn, attempts=3)
