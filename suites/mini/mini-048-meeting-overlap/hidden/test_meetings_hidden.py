from meetings import conflicts, overlaps


def test_back_to_back_either_order():
    assert not overlaps((10, 11), (9, 10))


def test_containment():
    assert overlaps((9, 17), (12, 13))
    assert overlaps((12, 13), (9, 17))


def test_far_apart():
    assert not overlaps((1, 2), (5, 6))
    assert not overlaps((5, 6), (1, 2))


def test_conflicts():
    day = [(9, 10), (10, 11), (10, 12), (13, 14), (8, 9)]
    assert conflicts(day) == [(1, 2)]
