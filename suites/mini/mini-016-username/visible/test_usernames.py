from usernames import is_valid_username


def test_plain_names():
    assert is_valid_username("alice")
    assert is_valid_username("bob42")


def test_must_start_with_letter():
    assert not is_valid_username("9lives")


def test_too_short():
    assert not is_valid_username("al")
