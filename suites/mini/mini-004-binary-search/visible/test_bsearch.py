from bsearch import binary_search, contains


def test_finds_last():
    assert binary_search([1, 3, 5, 7, 9], 9) == 4


def test_finds_middle():
    assert binary_search([1, 3, 5, 7, 9], 5) == 2


def test_missing():
    assert binary_search([1, 3, 5, 7, 9], 4) == -1
    assert not contains([1, 3, 5, 7, 9], 10)
