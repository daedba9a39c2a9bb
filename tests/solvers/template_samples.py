"""Small hand-made repair samples for the template solver's tests."""

from __future__ import annotations

from truepass.families.repair.schema import RepairSample


def make_sample(
    sid: str, code: str, tests: str, fix: str, fault_lines: list[int], hidden: str = ""
) -> RepairSample:
    """A one-file sample ``mod.py`` with visible tests ``test_mod.py``."""
    return RepairSample(
        id=sid,
        language="python",
        defect_type="test",
        description=f"sample {sid}",
        files={"mod.py": code},
        tests={
            "visible": {"test_mod.py": tests},
            "hidden": {"test_hidden.py": hidden} if hidden else {},
        },
        fix=fix,
        fault=[{"file": "mod.py", "lines": fault_lines}],
        source="hand-made",
        leakage="private",
    )


OFF_BY_ONE = make_sample(
    "off-by-one",
    '''def total(xs):
    """Sum of all items."""
    s = 0
    for i in range(len(xs) - 1):
        s += xs[i]
    return s


def double(x):
    return 2 * x
''',
    """from mod import double, total


def test_total():
    assert total([1, 2, 3]) == 6


def test_empty():
    assert total([]) == 0


def test_double():
    assert double(4) == 8
""",
    """--- a/mod.py
+++ b/mod.py
@@ -1,6 +1,6 @@
 def total(xs):
     \"\"\"Sum of all items.\"\"\"
     s = 0
-    for i in range(len(xs) - 1):
+    for i in range(len(xs)):
         s += xs[i]
     return s
""",
    [4],
    hidden="""from mod import total


def test_longer():
    assert total([5, 5, 5, 5]) == 20
""",
)

WRONG_COMPARISON = make_sample(
    "wrong-comparison",
    """def grade(score):
    if score > 90:
        return "A"
    if score >= 75:
        return "B"
    return "C"
""",
    """from mod import grade


def test_top():
    assert grade(95) == "A"


def test_boundary():
    assert grade(90) == "A"


def test_middle():
    assert grade(80) == "B"
    assert grade(10) == "C"
""",
    """--- a/mod.py
+++ b/mod.py
@@ -1,5 +1,5 @@
 def grade(score):
-    if score > 90:
+    if score >= 90:
         return "A"
     if score >= 75:
         return "B"
""",
    [2],
)

NONE_CHECK = make_sample(
    "none-check",
    """def initials(name):
    parts = name.split()
    return "".join(p[0].upper() for p in parts)
""",
    """from mod import initials


def test_name():
    assert initials("ada lovelace") == "AL"


def test_none():
    assert initials(None) == ""
""",
    """--- a/mod.py
+++ b/mod.py
@@ -1,3 +1,5 @@
 def initials(name):
+    if name is None:
+        return ""
     parts = name.split()
     return "".join(p[0].upper() for p in parts)
""",
    [2],
)

UNFIXABLE = make_sample(
    "unfixable",
    """def greet(name):
    return "hi"
""",
    """from mod import greet


def test_greet():
    assert greet("bob") == "Hello, Bob! Nice to meet you, bob."
""",
    """--- a/mod.py
+++ b/mod.py
@@ -1,2 +1,2 @@
 def greet(name):
-    return "hi"
+    return f"Hello, {name.title()}! Nice to meet you, {name}."
""",
    [2],
)
