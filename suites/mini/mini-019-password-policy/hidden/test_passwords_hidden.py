from passwords import is_strong, weak_passwords


def test_needs_a_digit():
    assert not is_strong("Passwordx")
    assert not is_strong("ABCDEFGH")


def test_digits_only():
    assert not is_strong("12345678")


def test_exactly_min_length():
    assert is_strong("Abcdefg1")
    assert not is_strong("Abcdef1")


def test_all_caps_with_digit():
    assert is_strong("PASSWORD9")


def test_weak_passwords():
    assert weak_passwords(["Secret123", "secret123", "SecretABC"]) == ["secret123", "SecretABC"]
