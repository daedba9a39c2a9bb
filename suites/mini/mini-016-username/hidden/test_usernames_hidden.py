from usernames import invalid_names, is_valid_username


def test_underscores_allowed():
    assert is_valid_username("alice_1")
    assert is_valid_username("a__b")


def test_other_punctuation_rejected():
    assert not is_valid_username("alice-1")
    assert not is_valid_username("bob.smith")
    assert not is_valid_username("has space")


def test_length_limits():
    assert is_valid_username("abc")
    assert is_valid_username("a" * 16)
    assert not is_valid_username("a" * 17)


def test_non_ascii_rejected():
    assert not is_valid_username("j\u00fcrgen")


def test_invalid_names():
    assert invalid_names(["ok_name", "1bad", "fine", "x"]) == ["1bad", "x"]
