from positions import line_col


def test_first_line():
    assert line_col("hello", 1) == (1, 2)


def test_start_of_text():
    assert line_col("hello", 0) == (1, 1)
