from dictdiff import describe, dict_diff


def test_removed_key():
    assert dict_diff({"a": 1, "b": 2}, {"a": 1}) == ([], ["b"], [])


def test_everything_at_once():
    old = {"keep": 1, "drop": 2, "edit": 3}
    new = {"keep": 1, "edit": 4, "new": 5}
    assert dict_diff(old, new) == (["new"], ["drop"], ["edit"])


def test_identical():
    assert dict_diff({"x": [1]}, {"x": [1]}) == ([], [], [])


def test_describe():
    assert describe({"b": 1, "c": 1}, {"a": 0, "c": 2}) == "+a -b ~c"
