from meetings import overlaps


def test_back_to_back():
    assert not overlaps((9, 10), (10, 11))


def test_overlapping():
    assert overlaps((9, 11), (10, 12))
