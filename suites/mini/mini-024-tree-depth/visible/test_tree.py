from tree import Node, depth


def test_balanced():
    assert depth(Node(1, Node(2), Node(3))) == 2


def test_only_left_child():
    assert depth(Node(1, Node(2))) == 2
