from kvconfig import get_setting, parse_config


def test_value_may_contain_equals():
    assert parse_config("url = http://x/?a=b") == {"url": "http://x/?a=b"}


def test_only_junk():
    assert parse_config("[section]\njust words\n\n") == {}


def test_later_wins():
    assert parse_config("a=1\na=2") == {"a": "2"}


def test_empty_value():
    assert parse_config("empty =") == {"empty": ""}


def test_get_setting():
    text = "host = db\noops\nport = 5432"
    assert get_setting(text, "port") == "5432"
    assert get_setting(text, "user", "admin") == "admin"
