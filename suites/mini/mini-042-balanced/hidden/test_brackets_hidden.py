from brackets import balanced, first_unbalanced


def test_wrong_order():
    assert not balanced("(]")
    assert not balanced("([)]")


def test_extra_closer():
    assert not balanced("())")


def test_only_openers():
    assert not balanced("[[{")


def test_empty_and_plain_text():
    assert balanced("")
    assert balanced("no brackets here")


def test_first_unbalanced():
    assert first_unbalanced(["()", "{", "]"]) == 1
    assert first_unbalanced(["()", "[]"]) == -1
