from finders import find_first, find_index


def test_not_found():
    assert find_index(str.isdigit, ["a", "b"]) == -1


def test_first_position():
    assert find_index(str.isupper, ["A", "b", "C"]) == 0


def test_index_of_strings():
    assert find_index(lambda s: s.startswith("b"), ["apple", "banana", "blueberry"]) == 1


def test_find_first_default():
    assert find_first(lambda n: n > 10, [1, 2], default=0) == 0
