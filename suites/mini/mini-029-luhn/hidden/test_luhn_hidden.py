from luhn import check_digit, is_valid, luhn_checksum


def test_test_card_numbers():
    assert is_valid("4539 1488 0343 6467")
    assert is_valid("4111-1111-1111-1111")


def test_single_error_detected():
    assert not is_valid("4111111111111112")


def test_check_digit():
    assert check_digit("7992739871") == 3
    assert check_digit("411111111111111") == 1


def test_checksum_of_nines():
    assert luhn_checksum("99") == 8


def test_rejects_junk():
    assert not is_valid("4111a111")
    assert not is_valid("0")
