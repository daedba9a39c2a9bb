from min_stack import MinStack


def test_min_is_the_smallest():
    s = MinStack()
    s.push(3)
    s.push(5)
    assert s.min() == 3


def test_min_after_pop():
    s = MinStack()
    for x in (3, 5, 1):
        s.push(x)
    assert s.min() == 1
    assert s.pop() == 1
    assert s.min() == 3
