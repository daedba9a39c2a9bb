from kvconfig import parse_config


def test_skips_lines_without_equals():
    assert parse_config("a = 1\njunk\nb=2") == {"a": "1", "b": "2"}


def test_comments():
    assert parse_config("# hello\nname = demo") == {"name": "demo"}
