"""Python's parser for truepass's own process, one thread at a time.

CPython 3.11 keeps the AST constructor's recursion depth in interpreter-wide state: when two
threads build trees at once (a garbage collection inside one parse can hand the GIL to the
other), the first fails with ``SystemError: AST constructor recursion depth mismatch``
(python/cpython#106905; 3.12 changed when collections run, 3.13 made the state per parse).
Judging runs in threads, and it parses candidates, tests and reference fixes, so every parse in
the parent goes through here under one lock, as does third-party code that parses (radon):
``with exclusive(): ...``. A parse takes milliseconds; the lock costs nothing measurable. Code
shipped into the sandbox (``harness/``, the worker scripts) runs single-threaded and does not
import this.
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_LOCK = threading.RLock()


@contextmanager
def exclusive() -> Iterator[None]:
    """Hold the parser lock around a call into code that parses Python itself."""
    with _LOCK:
        yield


def parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)`` under the lock; raises as ``ast.parse`` does."""
    with _LOCK:
        return ast.parse(source, filename=filename)


def parse_expression(source: str, filename: str = "<unknown>") -> ast.Expression:
    """``ast.parse(source, mode="eval")`` under the lock."""
    with _LOCK:
        return ast.parse(source, filename=filename, mode="eval")


def compile_tree(tree: ast.Module, filename: str) -> Any:
    """``compile(tree, filename, "exec", dont_inherit=True)`` under the lock: turning a tree back
    into C structures uses the same interpreter-wide depth counter in 3.11."""
    with _LOCK:
        return compile(tree, filename, "exec", dont_inherit=True)
