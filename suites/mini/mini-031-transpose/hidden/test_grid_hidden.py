from grid import rotate_clockwise, transpose


def test_tall():
    assert transpose([[1, 2], [3, 4], [5, 6]]) == [[1, 3, 5], [2, 4, 6]]


def test_single_row_and_column():
    assert transpose([[1, 2, 3]]) == [[1], [2], [3]]
    assert transpose([[1], [2], [3]]) == [[1, 2, 3]]


def test_empty():
    assert transpose([]) == []


def test_involution():
    m = [[1, 2, 3, 4], [5, 6, 7, 8]]
    assert transpose(transpose(m)) == m


def test_rotate_rectangle():
    assert rotate_clockwise([[1, 2, 3], [4, 5, 6]]) == [[4, 1], [5, 2], [6, 3]]
