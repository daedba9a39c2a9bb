from ranges import filter_range


def test_keeps_values_inside():
    assert filter_range([1, 5, 10, 15], 4, 12) == [5, 10]


def test_nothing_inside():
    assert filter_range([1, 2], 5, 6) == []
