import pytest
from matrix import identity, matmul


def test_general_square_product():
    assert matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]]) == [[19, 22], [43, 50]]


def test_row_times_column():
    assert matmul([[1, 2, 3]], [[4], [5], [6]]) == [[32]]


def test_column_times_row():
    assert matmul([[1], [2]], [[3, 4]]) == [[3, 4], [6, 8]]


def test_rectangular():
    a = [[1, 0, 2], [0, 1, 0]]
    b = [[1, 2], [3, 4], [5, 6]]
    assert matmul(a, b) == [[11, 14], [3, 4]]


def test_identity_on_the_left():
    assert matmul(identity(2), [[1, 2, 3], [4, 5, 6]]) == [[1, 2, 3], [4, 5, 6]]


def test_mismatched_sizes():
    with pytest.raises(ValueError):
        matmul([[1, 2]], [[1, 2]])
