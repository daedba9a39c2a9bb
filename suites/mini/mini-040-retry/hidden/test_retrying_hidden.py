import pytest
from retrying import TransientError, retry


def test_first_try():
    assert retry(lambda: 42) == 42


def test_other_errors_are_not_retried():
    calls = []

    def fn():
        calls.append(1)
        raise ValueError("bad input")

    with pytest.raises(ValueError):
        retry(fn, attempts=5)
    assert len(calls) == 1


def test_attempt_count_is_exact():
    calls = []

    def fn():
        calls.append(1)
        raise TransientError("down")

    with pytest.raises(TransientError):
        retry(fn, attempts=4)
    assert len(calls) == 4


def test_bad_attempts():
    with pytest.raises(ValueError):
        retry(lambda: 1, attempts=0)
