import pytest
from positions import line_col, offset_of

TEXT = "def f():\n    return 1\n\nx = f()\n"


def test_second_line():
    assert line_col("ab\ncd", 3) == (2, 1)
    assert line_col("ab\ncd", 4) == (2, 2)


def test_later_lines():
    assert line_col(TEXT, TEXT.index("x")) == (4, 1)
    assert line_col(TEXT, TEXT.index("return")) == (2, 5)


def test_newline_character_belongs_to_its_line():
    assert line_col("ab\ncd", 2) == (1, 3)


def test_end_of_text():
    assert line_col("ab\n", 3) == (2, 1)


def test_round_trip():
    for offset in range(len(TEXT)):
        assert offset_of(TEXT, *line_col(TEXT, offset)) == offset


def test_out_of_range():
    with pytest.raises(IndexError):
        line_col("abc", 4)
