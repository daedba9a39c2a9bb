"""Parsing model responses into answers: every accepted form, repaired diffs, and rejections."""

from __future__ import annotations

import pytest

from truepass.families.repair.parse import parse_response
from truepass.patches.apply import apply_diff

TWO = '''"""Bounds."""

import math


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return lo
    return x


def span(lo, hi):
    return hi - lo
'''
TWO_FIXED = TWO.replace("        return lo\n    return x", "        return hi\n    return x")
FILES = {"bounds.py": TWO}

FIXED_FUNC = """def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
"""

GOOD_DIFF = """--- a/bounds.py
+++ b/bounds.py
@@ -8,4 +8,4 @@ def clamp(x, lo, hi):
         return lo
     if x > hi:
-        return lo
+        return hi
     return x
"""


def fixed(outcome, files=FILES) -> dict[str, str]:  # type: ignore[no-untyped-def]
    assert outcome.answer is not None, outcome.detail
    return apply_diff(files, outcome.answer.diff)


def test_clean_fenced_diff_with_prose() -> None:
    text = (
        f"The second branch returns the wrong bound.\n\n```diff\n{GOOD_DIFF}```\n\nThis fixes it."
    )
    out = parse_response(text, FILES)
    assert out.kind == "diff", out.detail
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_bare_diff_between_prose() -> None:
    text = "Here is the patch:\n" + GOOD_DIFF.rstrip("\n ") + "\nThat should do it."
    out = parse_response(text, FILES)
    assert out.kind in ("diff", "repaired-diff"), out.detail
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_crlf_response() -> None:
    out = parse_response(f"```diff\n{GOOD_DIFF}```".replace("\n", "\r\n"), FILES)
    assert fixed(out) == {"bounds.py": TWO_FIXED}


@pytest.mark.parametrize(
    ("header", "note"),
    [
        ("@@ -40,5 +40,5 @@", "recomputed"),
        ("@@ -8,9 +8,2 @@", "recomputed"),
        ("@@ @@", "recomputed"),
        ("@@", "recomputed"),
    ],
)
def test_wrong_or_missing_hunk_numbers_are_repaired(header: str, note: str) -> None:
    diff = GOOD_DIFF.replace("@@ -8,4 +8,4 @@ def clamp(x, lo, hi):", header)
    out = parse_response(f"Fix:\n```diff\n{diff}```", FILES)
    assert out.kind == "repaired-diff"
    assert note in out.detail
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_missing_prefixes_and_headers() -> None:
    plain = GOOD_DIFF.replace("a/bounds.py", "bounds.py").replace("b/bounds.py", "bounds.py")
    out = parse_response(f"```diff\n{plain}```", FILES)
    assert out.kind == "repaired-diff" and "prefixes" in out.detail
    assert fixed(out) == {"bounds.py": TWO_FIXED}
    headless = "\n".join(GOOD_DIFF.splitlines()[2:]) + "\n"
    out = parse_response(f"```diff\n{headless}```", FILES)
    assert out.kind == "repaired-diff" and "no file headers" in out.detail
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_headerless_diff_picks_the_only_file_it_fits() -> None:
    files = {"bounds.py": TWO, "other.py": "def f():\n    return 1\n"}
    headless = "\n".join(GOOD_DIFF.splitlines()[2:]) + "\n"
    out = parse_response(f"```diff\n{headless}```", files)
    assert fixed(out, files)["bounds.py"] == TWO_FIXED


def test_whole_file_python_block() -> None:
    text = (
        "Sure! The bug is in `clamp`: it returns `lo` when x is too high.\n\n"
        f"```python\n{TWO_FIXED}```\n\nNow `clamp(9, 0, 5)` returns 5."
    )
    out = parse_response(text, FILES)
    assert out.kind == "whole-file", out.detail
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_function_only_block_is_spliced() -> None:
    text = f"Replace `clamp` with:\n```python\n{FIXED_FUNC}```\nThe rest stays the same."
    out = parse_response(text, FILES)
    assert out.kind == "function", out.detail
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_function_block_with_new_import_and_helper() -> None:
    block = "import functools\n\n\ndef _pick(a, b):\n    return b\n\n\n" + FIXED_FUNC
    out = parse_response(f"```python\n{block}```", FILES)
    new = fixed(out)["bounds.py"]
    assert "import functools\n" in new and "def _pick(a, b):" in new
    assert "def span(lo, hi):" in new and "return hi\n    return x" in new


def test_quoted_buggy_code_then_fix() -> None:
    buggy_func = FIXED_FUNC.replace("return hi", "return lo")
    text = (
        f"The current code:\n```python\n{buggy_func}```\nis wrong. Fixed:\n"
        f"```python\n{FIXED_FUNC}```"
    )
    out = parse_response(text, FILES)
    assert fixed(out) == {"bounds.py": TWO_FIXED}


METHODS = """class Stack:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.insert(0, x)

    def pop(self):
        return self.items.pop()
"""


def test_method_block_spliced_into_class() -> None:
    files = {"stack.py": METHODS}
    for block in (
        "def push(self, x):\n    self.items.append(x)\n",
        "    def push(self, x):\n        self.items.append(x)\n",
        "class Stack:\n    def push(self, x):\n        self.items.append(x)\n",
    ):
        out = parse_response(f"```python\n{block}```", files)
        assert out.kind == "function", out.detail
        assert fixed(out, files) == {"stack.py": METHODS.replace("insert(0, x)", "append(x)")}


def test_several_files_each_after_its_path() -> None:
    files = {"pkg/a.py": "def a():\n    return 1\n", "pkg/b.py": "def b():\n    return 2\n"}
    text = (
        "Two changes.\n\n`pkg/a.py`:\n```python\ndef a():\n    return 10\n```\n\n"
        "And in pkg/b.py:\n```python\ndef b():\n    return 20\n```\n"
    )
    out = parse_response(text, files)
    assert out.kind == "multi-file", out.detail
    assert fixed(out, files) == {
        "pkg/a.py": "def a():\n    return 10\n",
        "pkg/b.py": "def b():\n    return 20\n",
    }


def test_block_matched_by_shared_function_names() -> None:
    files = {"a.py": "def a():\n    return 1\n", "b.py": "def b():\n    return 2\n"}
    out = parse_response("```python\ndef b():\n    return 3\n```", files)
    assert fixed(out, files)["b.py"] == "def b():\n    return 3\n"


def test_unparsable_block_gives_way_to_the_next() -> None:
    text = (
        f"```python\ndef clamp(x, lo, hi)\n    return hi\n```\nOops, typo. Again:\n"
        f"```python\n{FIXED_FUNC}```"
    )
    out = parse_response(text, FILES)
    assert out.kind == "function"
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_broken_diff_falls_back_to_code_block() -> None:
    bad = GOOD_DIFF.replace("     if x > hi:", "     if x >= hi:")
    out = parse_response(f"```diff\n{bad}```\nOr the whole file:\n```python\n{TWO_FIXED}```", FILES)
    assert out.kind == "whole-file"
    assert "diff 1" in out.detail or fixed(out)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "I am not sure what the bug is. Could you share more context?",
        "```python\nprint(clamp(9, 0, 5))\n```",
        "```python\n" + TWO + "```",  # the buggy code, unchanged
        "```bash\npytest -q\n```",
        "```diff\n@@ -1,2 +1,2 @@\n-nothing like this\n+is in the file\n```",
        # not Python
        "```python\ndef clamp(x, lo, hi):\n    return max(lo, min(x, hi)\n```",
        # a fence cut off by the token limit
        "Here is the fix:\n```python\ndef clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n",
    ],
)
def test_garbage_is_none(text: str) -> None:
    out = parse_response(text, FILES)
    assert out.answer is None and out.kind == "none"
    assert out.detail


def test_ambiguous_block_between_two_files_is_none() -> None:
    files = {"a.py": "def f():\n    return 1\n", "b.py": "def f():\n    return 2\n"}
    out = parse_response("```python\ndef f():\n    return 3\n```", files)
    assert out.kind == "none" and "file" in out.detail


def test_ambiguous_headerless_hunk_without_numbers_is_none() -> None:
    files = {"m.py": "x = 1\ny = 1\nx = 1\ny = 1\n"}
    out = parse_response("```diff\n@@ @@\n x = 1\n-y = 1\n+y = 2\n```", files)
    assert out.kind == "none" and "places" in out.detail


def test_bare_python_response() -> None:
    out = parse_response(FIXED_FUNC, FILES)
    assert out.kind == "function"
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_bullets_after_a_bare_diff_are_not_hunk_lines() -> None:
    text = "Patch:\n" + GOOD_DIFF + "- returns hi now\n- nothing else changes\n"
    out = parse_response(text, FILES)
    assert fixed(out) == {"bounds.py": TWO_FIXED}


def test_no_newline_marker_and_new_file() -> None:
    files = {"m.py": "x = 1"}
    diff = (
        "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n\\ No newline at end of file\n+x = 2\n"
        "\\ No newline at end of file\n--- /dev/null\n+++ b/helper.py\n@@ -0,0 +1 @@\n+Y = 3\n"
    )
    out = parse_response(f"```diff\n{diff}```", files)
    assert out.kind == "diff", out.detail
    assert fixed(out, files) == {"m.py": "x = 2", "helper.py": "Y = 3\n"}


def test_diffs_for_two_files_add_up_and_overlapping_ones_use_the_last() -> None:
    files = {"a.py": "A = 1\n", "b.py": "B = 1\n"}
    da = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-A = 1\n+A = 2\n"
    db = "--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-B = 1\n+B = 2\n"
    out = parse_response(f"```diff\n{da}```\nand\n```diff\n{db}```", files)
    assert fixed(out, files) == {"a.py": "A = 2\n", "b.py": "B = 2\n"}
    da3 = da.replace("A = 2", "A = 3")
    out = parse_response(f"```diff\n{da}```\nBetter:\n```diff\n{da3}```", files)
    assert fixed(out, files)["a.py"] == "A = 3\n" and "used the last" in out.detail


def test_diff_touching_a_file_outside_the_sample_is_rejected() -> None:
    diff = GOOD_DIFF.replace("bounds.py", "elsewhere.py")
    out = parse_response(f"```diff\n{diff}```", FILES)
    assert out.kind == "none" and "elsewhere.py" in out.detail


def test_test_edits_are_kept_for_the_judge_to_flag() -> None:
    files = {**FILES, "test_bounds.py": "def test_x():\n    assert False\n"}
    diff = "--- a/test_bounds.py\n+++ b/test_bounds.py\n@@ -2 +2 @@\n-    assert False\n+    pass\n"
    out = parse_response(f"```diff\n{diff}```", files)
    assert "test_bounds.py" in fixed(out, files)["test_bounds.py"] or out.answer is not None
    assert fixed(out, files)["test_bounds.py"].endswith("pass\n")


def test_path_in_fence_info_path_comment_tilde_and_indented_fences() -> None:
    files = {"pkg/a.py": "def a():\n    return 1\n", "pkg/b.py": "def a():\n    return 2\n"}
    want = {"pkg/a.py": files["pkg/a.py"], "pkg/b.py": "def a():\n    return 3\n"}
    for text in (
        '```python title="pkg/b.py"\ndef a():\n    return 3\n```',
        "```python\n# File: pkg/b.py\ndef a():\n    return 3\n```",
        "~~~python\n# pkg/b.py\ndef a():\n    return 3\n~~~",
        "1. Edit `pkg/b.py`:\n   ```python\n   def a():\n       return 3\n   ```\n",
    ):
        assert fixed(parse_response(text, files), files) == want, text


def test_constant_and_class_blocks() -> None:
    files = {"m.py": "LIMIT = 3\n\n\ndef f(x):\n    return min(x, LIMIT)\n"}
    out = parse_response("```python\nLIMIT = 4\n```", files)
    assert fixed(out, files)["m.py"].startswith("LIMIT = 4\n")
    partial = "class Stack:\n    size = 99\n\n    def push(self, x):\n        pass\n"
    out = parse_response(f"```python\n{partial}```", {"stack.py": METHODS})
    assert out.kind == "none" and "class-level" in out.detail


def test_every_mini_fix_in_every_form() -> None:
    import ast

    from truepass.suites.loader import load_suite

    for s in load_suite("mini").samples:
        want = apply_diff(s.files, s.fix)
        (path,) = s.files
        tree = ast.parse(want[path])
        fault = s.fault[0].lines[0]
        funcs = [
            n
            for n in tree.body
            if isinstance(n, ast.FunctionDef | ast.ClassDef) and n.lineno <= fault <= n.end_lineno
        ]
        forms = {
            f"The fix:\n```diff\n{s.fix}```\nDone.": "diff",
            s.fix: "diff",
            "\n".join(
                ln if not ln.startswith("@@") else "@@ @@" for ln in s.fix.split("\n")
            ): "repaired-diff",
            f"{path}:\n```python\n{want[path]}```": "whole-file",
        }
        if funcs:
            seg = ast.get_source_segment(want[path], funcs[0])
            forms[f"Replace it with:\n```python\n{seg}\n```"] = "function"
        for text, kind in forms.items():
            out = parse_response(text, s.files)
            assert out.kind == kind, (s.id, kind, out.detail)
            assert fixed(out, s.files) == want, (s.id, kind)
