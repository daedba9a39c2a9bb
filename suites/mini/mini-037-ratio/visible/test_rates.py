from rates import ratio


def test_zero_denominator():
    assert ratio(1, 0) is None


def test_plain_division():
    assert ratio(3, 4) == 0.75
