from extremes import argmax, argmin


def test_argmax():
    assert argmax([1, 5, 3]) == 1


def test_argmin():
    assert argmin([4, 2, 8]) == 1
