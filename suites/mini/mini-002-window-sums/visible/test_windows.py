from windows import moving_average, window_sums


def test_pairs():
    assert window_sums([1, 2, 3, 4], 2) == [3, 5, 7]


def test_moving_average():
    assert moving_average([2, 4, 6], 2) == [3.0, 5.0]
