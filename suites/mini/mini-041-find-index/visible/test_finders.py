from finders import find_first, find_index


def is_even(n):
    return n % 2 == 0


def test_find_index():
    assert find_index(is_even, [1, 3, 4, 6]) == 2


def test_find_first():
    assert find_first(is_even, [1, 3, 4, 6]) == 4
