import pytest
from wrapping import fill, wrap


def test_space_counts_towards_width():
    assert wrap("aaa bb", 5) == ["aaa", "bb"]


def test_no_line_too_long():
    text = "the quick brown fox jumps over the lazy dog"
    for width in range(5, 20):
        assert all(len(line) <= width for line in wrap(text, width))


def test_exact_fits():
    assert wrap("one two three", 7) == ["one two", "three"]


def test_long_word_alone():
    assert wrap("a verylongword b", 4) == ["a", "verylongword", "b"]


def test_fill():
    assert fill("ab cd ef", 5) == "ab cd\nef"


def test_bad_width():
    with pytest.raises(ValueError):
        wrap("x", 0)
