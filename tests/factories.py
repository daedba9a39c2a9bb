"""Small, valid repair samples written for the tests (not a bundled suite)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

BUGGY = """def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return lo
    return x
"""
FIXED = BUGGY.replace("        return lo\n    return x", "        return hi\n    return x")
VISIBLE = """from clamp import clamp


def test_high():
    assert clamp(9, 0, 5) == 5


def test_mid():
    assert clamp(3, 0, 5) == 3
"""
HIDDEN = """from clamp import clamp


def test_high_other():
    assert clamp(50, 1, 7) == 7


def test_low():
    assert clamp(-3, 1, 7) == 1
"""
FIX = """--- a/clamp.py
+++ b/clamp.py
@@ -3,4 +3,4 @@
         return lo
     if x > hi:
-        return lo
+        return hi
     return x
"""
OVERFIT = """--- a/clamp.py
+++ b/clamp.py
@@ -3,4 +3,4 @@
         return lo
     if x > hi:
-        return lo
+        return 5
     return x
"""


def sample_dict(**overrides: Any) -> dict[str, Any]:
    """A valid sample as a plain dict (one suite line)."""
    base: dict[str, Any] = {
        "id": "clamp-1",
        "language": "python",
        "defect_type": "wrong-return",
        "description": "Clamp x into [lo, hi].",
        "files": {"clamp.py": BUGGY},
        "tests": {
            "visible": {"test_clamp.py": VISIBLE},
            "hidden": {"test_clamp_hidden.py": HIDDEN},
        },
        "fix": FIX,
        "fault": [{"file": "clamp.py", "lines": [5]}],
        "source": "truepass tests",
        "leakage": "private",
        "known_overfit": OVERFIT,
    }
    base.update(overrides)
    return base


def write_suite(path: Path, lines: list[dict[str, Any] | str]) -> Path:
    """Write a JSONL suite; strings are written verbatim (to make malformed lines)."""
    path.write_text(
        "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines),
        encoding="utf-8",
    )
    return path
