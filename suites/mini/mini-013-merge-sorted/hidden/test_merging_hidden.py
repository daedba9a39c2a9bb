from merging import merge, merge_sort


def first(pair):
    return pair[0]


def test_merge_is_stable():
    assert merge([(1, "left")], [(1, "right")], key=first) == [(1, "left"), (1, "right")]


def test_sort_is_stable():
    records = [(2, "a"), (1, "b"), (2, "c"), (1, "d")]
    assert merge_sort(records, key=first) == [(1, "b"), (1, "d"), (2, "a"), (2, "c")]


def test_merge_with_empty_side():
    assert merge([], [1, 2]) == [1, 2]
    assert merge([1, 2], []) == [1, 2]


def test_sort_with_duplicates():
    assert merge_sort([5, 1, 5, 3, 1]) == [1, 1, 3, 5, 5]


def test_sort_by_length():
    assert merge_sort(["ccc", "a", "bb", "d"], key=len) == ["a", "d", "bb", "ccc"]
