from sortedness import first_unsorted, is_sorted


def test_equal_neighbours_are_sorted():
    assert is_sorted([1, 1, 2])
    assert is_sorted([4, 4, 4])


def test_trivial_lists():
    assert is_sorted([])
    assert is_sorted([5])


def test_late_inversion():
    assert not is_sorted([1, 2, 3, 2])


def test_reverse_with_ties():
    assert is_sorted([3, 3, 1], reverse=True)
    assert not is_sorted([1, 2], reverse=True)


def test_first_unsorted():
    assert first_unsorted([1, 3, 2, 0]) == 2
    assert first_unsorted([1, 1, 2]) == -1
