from luhn import is_valid


def test_known_valid_number():
    assert is_valid("79927398713")


def test_known_invalid_number():
    assert not is_valid("79927398710")
