from tree import Node, count_leaves, depth


def test_empty_tree():
    assert depth(None) == 0


def test_single_node():
    assert depth(Node(1)) == 1


def test_right_spine():
    assert depth(Node(1, None, Node(2, None, Node(3, None, Node(4))))) == 4


def test_uneven():
    tree = Node(1, Node(2, Node(4), None), Node(3, None, Node(5, Node(6))))
    assert depth(tree) == 4


def test_count_leaves():
    tree = Node(1, Node(2, Node(4), None), Node(3, None, Node(5, Node(6))))
    assert count_leaves(tree) == 2
    assert count_leaves(None) == 0
