from paginate import page_count, paginate


def test_first_page():
    assert paginate(list(range(10)), 1, 3) == [0, 1, 2]


def test_page_count():
    assert page_count(10, 3) == 4
