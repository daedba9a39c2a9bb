from roman import from_roman, to_roman


def test_three():
    assert to_roman(3) == "III"


def test_four():
    assert to_roman(4) == "IV"


def test_parse():
    assert from_roman("XIV") == 14
