from insert_pos import search_insert


def test_present():
    assert search_insert([1, 3, 5, 6], 5) == 2


def test_after_the_end():
    assert search_insert([1, 3, 5, 6], 7) == 4


def test_in_between():
    assert search_insert([1, 3, 5, 6], 2) == 1
