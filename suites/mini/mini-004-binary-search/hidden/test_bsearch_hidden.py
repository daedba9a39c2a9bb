from bsearch import binary_search, contains

XS = [1, 3, 5, 7, 9, 11]


def test_finds_every_element():
    for i, x in enumerate(XS):
        assert binary_search(XS, x) == i


def test_finds_every_element_odd_length():
    ys = XS[:-1]
    for i, y in enumerate(ys):
        assert binary_search(ys, y) == i


def test_single_element():
    assert binary_search([4], 4) == 0
    assert binary_search([4], 5) == -1


def test_empty():
    assert binary_search([], 1) == -1


def test_absent_values():
    for x in (0, 2, 4, 6, 8, 10, 12):
        assert not contains(XS, x)
