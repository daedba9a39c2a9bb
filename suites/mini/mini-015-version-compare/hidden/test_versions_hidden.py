import pytest
from versions import compare_versions


def test_greater():
    assert compare_versions("1.10", "1.9") == 1
    assert compare_versions("2", "1.99.99") == 1


def test_less():
    assert compare_versions("0.9.1", "0.10") == -1


def test_antisymmetric():
    pairs = [("1.0", "1.0.1"), ("3.4.5", "3.4"), ("10", "9.9")]
    for a, b in pairs:
        assert compare_versions(a, b) == -compare_versions(b, a)


def test_shorter_is_smaller_when_rest_positive():
    assert compare_versions("1.2", "1.2.1") == -1


def test_rejects_garbage():
    with pytest.raises(ValueError):
        compare_versions("1.x", "1.0")
