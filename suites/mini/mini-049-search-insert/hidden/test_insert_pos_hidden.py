from insert_pos import insert_sorted, search_insert


def test_empty_list():
    assert search_insert([], 3) == 0


def test_before_the_start():
    assert search_insert([1, 3, 5, 6], 0) == 0


def test_leftmost_of_duplicates():
    assert search_insert([1, 2, 2, 2, 3], 2) == 1


def test_single_element():
    assert search_insert([4], 4) == 0
    assert search_insert([4], 9) == 1


def test_insert_sorted():
    assert insert_sorted([], 1) == [1]
    assert insert_sorted([1, 3], 4) == [1, 3, 4]
    assert insert_sorted([1, 3], 2) == [1, 2, 3]
