from rle import rle_encode


def test_runs():
    assert rle_encode("aaab") == [("a", 3), ("b", 1)]


def test_empty():
    assert rle_encode("") == []
