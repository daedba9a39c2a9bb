from config_path import get_path


def test_present():
    assert get_path({"db": {"port": 5432}}, "db.port") == 5432


def test_missing_leaf_gives_default():
    assert get_path({"db": {}}, "db.host", "localhost") == "localhost"
