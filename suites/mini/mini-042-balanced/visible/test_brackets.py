from brackets import balanced


def test_nested():
    assert balanced("f(a[1], {b: 2})")


def test_unclosed():
    assert not balanced("(()")
