from intervals import merge_intervals


def test_overlap():
    assert merge_intervals([(1, 3), (2, 6), (8, 10)]) == [(1, 6), (8, 10)]


def test_sorts_disjoint():
    assert merge_intervals([(5, 6), (1, 2)]) == [(1, 2), (5, 6)]
