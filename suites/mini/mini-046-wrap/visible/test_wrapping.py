from wrapping import wrap


def test_line_exactly_full():
    assert wrap("aa bb cc", 5) == ["aa bb", "cc"]


def test_empty():
    assert wrap("", 10) == []
