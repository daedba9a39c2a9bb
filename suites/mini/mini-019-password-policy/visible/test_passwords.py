from passwords import is_strong


def test_good_password():
    assert is_strong("Password1")


def test_needs_uppercase():
    assert not is_strong("password1")


def test_too_short():
    assert not is_strong("Pw1")
