from names import initials


def test_with_middle_name():
    assert initials("ada", "lovelace", "king") == "AKL"


def test_without_middle_name():
    assert initials("Ada", "Lovelace") == "AL"
