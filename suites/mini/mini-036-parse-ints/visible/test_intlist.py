from intlist import parse_ints


def test_skips_words():
    assert parse_ints("1, 2, x, 3") == [1, 2, 3]


def test_clean_list():
    assert parse_ints("4,5") == [4, 5]
