import pytest
from chunking import chunk, flatten


def test_empty():
    assert chunk([], 3) == []


def test_even_split_has_no_empty_chunk():
    assert chunk([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]


def test_size_one():
    assert chunk(["a", "b", "c"], 1) == [["a"], ["b"], ["c"]]


def test_size_larger_than_list():
    assert chunk([1, 2], 5) == [[1, 2]]


def test_single_item():
    assert chunk([7], 3) == [[7]]


def test_every_chunk_is_full_but_the_last():
    parts = chunk(list(range(12)), 3)
    assert [len(p) for p in parts] == [3, 3, 3, 3]
    assert flatten(parts) == list(range(12))


def test_bad_size():
    with pytest.raises(ValueError):
        chunk([1], 0)
