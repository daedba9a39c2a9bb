from sortedness import is_sorted


def test_ascending():
    assert is_sorted([1, 2, 3])


def test_descending_is_not_sorted():
    assert not is_sorted([3, 1])


def test_reverse():
    assert is_sorted([3, 2, 1], reverse=True)
