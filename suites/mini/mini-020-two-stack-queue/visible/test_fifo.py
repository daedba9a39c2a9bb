from fifo import Queue


def test_new_queue_is_empty():
    assert Queue().is_empty()


def test_not_empty_after_push():
    q = Queue()
    q.push(1)
    assert not q.is_empty()


def test_first_in_first_out():
    q = Queue()
    q.push("a")
    q.push("b")
    assert q.pop() == "a"
