import pytest
from fifo import Queue


def test_drain_in_order():
    q = Queue()
    for x in (1, 2, 3):
        q.push(x)
    assert [q.pop(), q.pop(), q.pop()] == [1, 2, 3]
    assert q.is_empty()


def test_not_empty_when_only_outbox_has_items():
    q = Queue()
    q.push(1)
    q.push(2)
    assert q.pop() == 1
    assert not q.is_empty()
    assert q.peek() == 2


def test_interleaved():
    q = Queue()
    q.push(1)
    q.push(2)
    assert q.pop() == 1
    q.push(3)
    assert q.pop() == 2
    assert q.pop() == 3
    assert len(q) == 0


def test_pop_empty():
    q = Queue()
    with pytest.raises(IndexError):
        q.pop()
    q.push(1)
    q.pop()
    with pytest.raises(IndexError):
        q.peek()
