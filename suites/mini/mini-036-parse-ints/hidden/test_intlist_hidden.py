from intlist import parse_ints, total


def test_signed_numbers():
    assert parse_ints("-4, +5, 6") == [-4, 5, 6]


def test_floats_are_malformed():
    assert parse_ints("1.5, 2") == [2]


def test_blank_entries():
    assert parse_ints(" , 7 ,, ") == [7]


def test_other_separator():
    assert parse_ints("10; -2; ten", sep=";") == [10, -2]


def test_total():
    assert total("3, -1, oops, 4") == 6
