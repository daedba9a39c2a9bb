from matrix import identity, matmul


def test_identity_is_neutral():
    assert matmul([[1, 2], [3, 4]], identity(2)) == [[1, 2], [3, 4]]


def test_swap_columns():
    assert matmul([[1, 2], [3, 4]], [[0, 1], [1, 0]]) == [[2, 1], [4, 3]]
