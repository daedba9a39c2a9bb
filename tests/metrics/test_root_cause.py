from __future__ import annotations

from truepass.metrics.root_cause import named_cause

CODE = "def a(x):\n    return x + 1\n\n\ndef b(x):\n    y = a(x)\n    return y * 2\n"
FAULT = {"m.py": {7}}


def test_right_file_wrong_function_and_line() -> None:
    got = named_cause("Sure.\nRoot cause: m.py | a | return x + 1\n...", {"m.py": CODE}, FAULT)
    assert got is not None and got.hit_file and not got.hit_function and not got.hit_line


def test_everything_right_with_decorations() -> None:
    got = named_cause("**Root cause:** `src/m.py` | `b()` | `return y * 2`", {"m.py": CODE}, FAULT)
    assert got is not None and got.hit_file and got.hit_function and got.hit_line


def test_missing_line_is_none_and_partial_answers_score_what_they_give() -> None:
    assert named_cause("no idea", {"m.py": CODE}, FAULT) is None
    got = named_cause("root cause: m.py", {"m.py": CODE}, FAULT)
    assert got is not None and got.hit_file and not got.hit_function and got.code is None
