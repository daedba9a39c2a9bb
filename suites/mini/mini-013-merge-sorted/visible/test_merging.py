from merging import merge, merge_sort


def test_merge_numbers():
    assert merge([1, 4, 6], [2, 3, 7]) == [1, 2, 3, 4, 6, 7]


def test_sort_numbers():
    assert merge_sort([3, 1, 2]) == [1, 2, 3]
