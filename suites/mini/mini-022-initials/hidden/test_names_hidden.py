from names import full_name, initials


def test_explicit_none():
    assert initials("grace", "hopper", None) == "GH"


def test_empty_middle_name():
    assert initials("Alan", "Turing", "") == "AT"


def test_full_name():
    assert full_name("Ada", "Lovelace", "king") == "Ada K. Lovelace"
    assert full_name("Ada", "Lovelace") == "Ada Lovelace"
    assert full_name("Ada", "Lovelace", "") == "Ada Lovelace"


def test_single_letters():
    assert initials("x", "y", "z") == "XZY"
