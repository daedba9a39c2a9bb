import pytest
from settings import env_bool, env_int


def test_whitespace_is_ignored():
    assert env_int({"WORKERS": " 4 "}, "WORKERS", 1) == 4


def test_zero_is_a_value():
    assert env_int({"RETRIES": "0"}, "RETRIES", 3) == 0


def test_empty_value_is_malformed():
    with pytest.raises(ValueError):
        env_int({"PORT": ""}, "PORT", 8080)


def test_garbage_is_malformed():
    with pytest.raises(ValueError):
        env_int({"PORT": "eighty"}, "PORT", 8080)


def test_other_names_are_ignored():
    assert env_int({"HOST": "x"}, "PORT", 80) == 80


def test_env_bool():
    assert env_bool({"DEBUG": "Yes"}, "DEBUG", False) is True
    assert env_bool({"DEBUG": "0"}, "DEBUG", True) is False
    assert env_bool({}, "DEBUG", True) is True
