from dictdiff import dict_diff


def test_added_key():
    assert dict_diff({"a": 1}, {"a": 1, "b": 2}) == (["b"], [], [])


def test_changed_key():
    assert dict_diff({"a": 1}, {"a": 2}) == ([], [], ["a"])
