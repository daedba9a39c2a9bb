from letter_grade import letter_grade


def test_clear_cases():
    assert letter_grade(95) == "A"
    assert letter_grade(42) == "F"


def test_exactly_ninety():
    assert letter_grade(90) == "A"
