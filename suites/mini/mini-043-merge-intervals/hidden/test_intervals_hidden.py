from intervals import covered_length, merge_intervals


def test_touching_intervals_merge():
    assert merge_intervals([(1, 2), (2, 3)]) == [(1, 3)]


def test_contained_interval():
    assert merge_intervals([(1, 10), (2, 3), (4, 5)]) == [(1, 10)]


def test_chain():
    assert merge_intervals([(7, 9), (1, 4), (3, 8)]) == [(1, 9)]


def test_empty():
    assert merge_intervals([]) == []


def test_covered_length():
    assert covered_length([(0, 5), (3, 8), (10, 12)]) == 10
