import pytest
from min_stack import MinStack


def test_duplicate_minimum():
    s = MinStack()
    for x in (2, 2, 4):
        s.push(x)
    s.pop()
    s.pop()
    assert s.min() == 2


def test_descending_pushes():
    s = MinStack()
    for x in (5, 4, 3):
        s.push(x)
    assert [s.min(), s.pop(), s.min(), s.pop(), s.min()] == [3, 3, 4, 4, 5]


def test_larger_pushes_do_not_change_min():
    s = MinStack()
    for x in (1, 7, 8, 9):
        s.push(x)
    s.pop()
    assert s.min() == 1
    assert len(s) == 3


def test_empty():
    s = MinStack()
    with pytest.raises(IndexError):
        s.min()
    with pytest.raises(IndexError):
        s.pop()
