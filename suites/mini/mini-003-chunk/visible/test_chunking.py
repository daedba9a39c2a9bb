from chunking import chunk, flatten


def test_uneven_split():
    assert chunk([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]


def test_round_trip():
    assert flatten(chunk([1, 2, 3], 2)) == [1, 2, 3]
