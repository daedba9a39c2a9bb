from versions import compare_versions


def test_numeric_not_lexical():
    assert compare_versions("1.2", "1.10") == -1


def test_trailing_zero():
    assert compare_versions("2.0", "2.0.0") == 0
