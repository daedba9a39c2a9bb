from manifest import read_version


def test_version():
    assert read_version('{"name": "demo", "version": "1.2.0"}') == "1.2.0"


def test_empty_text():
    assert read_version("") is None
