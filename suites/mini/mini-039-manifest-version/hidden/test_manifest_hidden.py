from manifest import is_prerelease, read_version


def test_broken_json():
    assert read_version('{"version": "1.0"') is None
    assert read_version("version: 1.0") is None


def test_not_an_object():
    assert read_version('["1.0"]') is None


def test_missing_or_non_string_version():
    assert read_version('{"name": "x"}') is None
    assert read_version('{"version": 2}') is None


def test_prerelease():
    assert is_prerelease('{"version": "2.0.0-rc1"}')
    assert not is_prerelease('{"version": "2.0.0"}')
    assert not is_prerelease("{oops")
