"""One valid suite line of each family judged without running code, for tests."""

from __future__ import annotations

SUMMARY = "Return the sum of two numbers."
SUMMARIZE = {
    "family": "summarize",
    "id": "alpha/ops.py::add",
    "project": "alpha",
    "path": "ops.py",
    "function": "add",
    "code": "def add(a, b):\n    return a + b\n",
    "docstring": SUMMARY,
    "timestamp": "2022-01-01T00:00:00Z",
    "source": "written for truepass's tests",
    "leakage": "private",
}
TURN = "Why two? Nothing in the issue asks for it."
REVIEW = {
    "family": "review",
    "id": "p-1",
    "project": "p",
    "change": {"diff": "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"},
    "description": "Set a to 2.",
    "decision": "reject",
    "dialogue": [{"role": "reviewer", "text": TURN, "turning_point": True}],
    "source": "written for truepass's tests",
    "leakage": "private",
}
PATCH = {
    "family": "patch-correctness",
    "id": "toy/inc/p-0123456789",
    "buggy": {"inc.py": "def inc(x):\n    return x\n"},
    "patched": {"inc.py": "def inc(x):\n    return x + 2\n"},
    "diff": "--- a/inc.py\n+++ b/inc.py\n@@ -1,2 +1,2 @@\n def inc(x):\n-    return x\n"
    "+    return x + 2\n",
    "label": "overfitting",
    "provenance": "tool",
    "defect_type": "off-by-one",
    "project": "toy",
    "solver": "replay:overfit.jsonl",
    "source": "written for truepass's tests",
    "leakage": "private",
    "meta": {"solvers": ["replay:overfit.jsonl"], "flags": ["hardcodes-expected"]},
}
