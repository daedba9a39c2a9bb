"""Code the trusted parent compiles once for warm test runs: pristine files only.

In every run pytest rewrites the asserts of each test module and conftest it imports (parse,
transform, compile), and Python compiles each code module (no bytecode is written in the
sandbox): on a project of fifteen modules and a dozen test files that is about a third of a
warm run. A sample's tests, and the code files a patch leaves unchanged, are the same bytes in
every run, so the parent compiles each once, exactly as the child would (pytest's own
``rewrite_asserts`` then ``compile``; Python's ``compile(data, path, "exec",
dont_inherit=True)``), in the same interpreter, and ships the marshalled code with the run. The
child uses it only for the same path with exactly the same bytes on disk
(``pytestworker.install_precompiled``); anything else is compiled there as usual. A file whose
compilation fails or warns is left to the child, so that its error or warning shows in the run
as it would in a cold one. Nothing here runs the code, and the candidate's own (changed or
added) files are never compiled here.
"""

from __future__ import annotations

import base64
import functools
import marshal
import posixpath
import warnings
from collections.abc import Mapping

from truepass import pyast

WORKSPACE = "/workspace"


def rewrites_for(tests: Mapping[str, str], root: str = WORKSPACE) -> dict[str, str]:
    """Path -> base64 of the marshalled assertion-rewritten code of every ``.py`` file of
    ``tests`` (pristine test files) whose rewrite is clean."""
    return _each(tests, root, _rewritten)


def compiled_for(files: Mapping[str, str], root: str = WORKSPACE) -> dict[str, str]:
    """Path -> base64 of the marshalled code of every ``.py`` file of ``files`` (pristine code
    files: never the candidate's) whose compilation is clean."""
    return _each(files, root, _compiled)


def _each(files: Mapping[str, str], root: str, make: object) -> dict[str, str]:
    found = {}
    for path, source in files.items():
        if path.endswith(".py") and isinstance(source, str):
            code = make(posixpath.join(root, path), source)  # type: ignore[operator]
            if code is not None:
                found[path] = code
    return found


@functools.lru_cache(maxsize=2048)
def _rewritten(path: str, source: str) -> str | None:
    try:
        from _pytest.assertion.rewrite import rewrite_asserts
    except ImportError:  # pragma: no cover - pytest is a dependency
        return None
    data = source.encode()

    def make() -> object:
        tree = pyast.parse(data, path)
        rewrite_asserts(tree, data, path, None)
        return pyast.compile_tree(tree, path)

    return _clean(make)


@functools.lru_cache(maxsize=2048)
def _compiled(path: str, source: str) -> str | None:
    data = source.encode()
    return _clean(lambda: compile(data, path, "exec", dont_inherit=True))


def _clean(make: object) -> str | None:
    """The marshalled result of ``make()`` in base64, or None if it raised or warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            code = make()  # type: ignore[operator]
        except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
            return None
    if caught:
        return None
    return base64.b64encode(marshal.dumps(code)).decode("ascii")
