import pytest
from paginate import page_count, paginate

ITEMS = list(range(10))


def test_middle_page():
    assert paginate(ITEMS, 2, 3) == [3, 4, 5]


def test_last_partial_page():
    assert paginate(ITEMS, 4, 3) == [9]


def test_past_the_end_is_empty():
    assert paginate(ITEMS, 5, 3) == []


def test_pages_cover_everything_once():
    pages = [paginate(ITEMS, p, 4) for p in range(1, page_count(len(ITEMS), 4) + 1)]
    assert [x for page in pages for x in page] == ITEMS


def test_bad_arguments():
    with pytest.raises(ValueError):
        paginate(ITEMS, 0, 3)
    with pytest.raises(ValueError):
        paginate(ITEMS, 1, 0)


def test_page_count_edges():
    assert page_count(0, 3) == 0
    assert page_count(9, 3) == 3
