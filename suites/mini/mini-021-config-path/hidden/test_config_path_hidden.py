from config_path import get_int, get_path

CONFIG = {"db": {"port": "5432", "pool": {"size": 0}, "debug": False}, "name": "svc"}


def test_missing_top_level():
    assert get_path(CONFIG, "cache.ttl", 60) == 60


def test_path_through_a_scalar():
    assert get_path(CONFIG, "name.first", "?") == "?"
    assert get_path(CONFIG, "db.pool.size.max", "?") == "?"
    assert get_path(CONFIG, "db.debug.level") is None


def test_falsy_values_are_returned():
    assert get_path(CONFIG, "db.pool.size", 10) == 0
    assert get_path(CONFIG, "db.debug", True) is False


def test_subtree():
    assert get_path(CONFIG, "db.pool") == {"size": 0}


def test_get_int():
    assert get_int(CONFIG, "db.port", 1) == 5432
    assert get_int(CONFIG, "db.timeout", 30) == 30
