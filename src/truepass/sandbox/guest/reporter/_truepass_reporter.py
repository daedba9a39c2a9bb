"""pytest plugin loaded inside the sandbox (``-p _truepass_reporter``): reports every test outcome
through the result channel, a pipe the harness holds, never through stdout or a workspace file.

It is loaded before any conftest or test module, takes the channel's descriptor out of the
environment and keeps its own reference, so the candidate's code cannot find it by name.
Standard library and pytest only: this file runs with the candidate, not with truepass.

A cold run imports it once per test process and reads the environment then. A warm test runner
(``truepass.sandbox.guest.pytestworker``) imports it once per worker, before any run exists, and
calls
:func:`load_environment` again in each run's child, after setting that run's environment.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO

import pytest

_CHANNEL: TextIO = sys.stderr
_WANT_COVERAGE = False
_TEST_FILES: set[str] = set()
_SELECT: Any = None
_FIRST: frozenset[str] = frozenset()
_SESSION = None
_cov = None
_contexts: dict[str, str] = {}


def load_environment() -> None:
    """Take this run's channel and settings out of the environment (and out of reach)."""
    global _CHANNEL, _WANT_COVERAGE, _TEST_FILES, _SELECT, _FIRST, _SESSION, _cov
    fd = int(os.environ.pop("TRUEPASS_CHANNEL_FD", "-1"))
    _CHANNEL = os.fdopen(os.dup(fd), "w", buffering=1, encoding="utf-8") if fd >= 0 else sys.stderr
    if fd >= 0:
        os.close(fd)
    _WANT_COVERAGE = os.environ.pop("TRUEPASS_COVERAGE", "") == "1"
    _TEST_FILES = set(filter(None, os.environ.pop("TRUEPASS_TEST_FILES", "").split(os.pathsep)))
    _SELECT = json.loads(os.environ.pop("TRUEPASS_SELECT", "null") or "null")
    _FIRST = frozenset(_SELECT.get("ids", [])) if isinstance(_SELECT, dict) else frozenset()
    _SESSION, _cov = None, None
    _contexts.clear()


load_environment()


def _emit(event: str, **data: object) -> None:
    _CHANNEL.write(json.dumps({"event": event, **data}) + "\n")
    _CHANNEL.flush()


def _short(report) -> str:  # type: ignore[no-untyped-def]
    text = getattr(report, "longreprtext", "") or ""
    return text[-2000:]


def pytest_configure(config) -> None:  # type: ignore[no-untyped-def]
    global _cov
    _emit("start", python=sys.version.split()[0])
    if _WANT_COVERAGE:
        import coverage

        _cov = coverage.Coverage(data_file=None, branch=False, include=[os.getcwd() + "/*"])
        _cov.start()


def pytest_collectreport(report) -> None:  # type: ignore[no-untyped-def]
    if report.failed:
        _emit("collect-error", nodeid=report.nodeid, message=_short(report))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items) -> None:  # type: ignore[no-untyped-def]
    """Test selection: the listed tests run ``first`` (each group keeps its order)."""
    global _SESSION
    if not isinstance(_SELECT, dict) or _SELECT.get("mode") != "first":
        return
    _SESSION = session
    items[:] = [i for i in items if i.nodeid in _FIRST] + [
        i for i in items if i.nodeid not in _FIRST
    ]


def pytest_collection_finish(session) -> None:  # type: ignore[no-untyped-def]
    _emit("collected", nodeids=[item.nodeid for item in session.items])


def pytest_runtest_setup(item) -> None:  # type: ignore[no-untyped-def]
    if _cov is not None:
        _cov.switch_context(item.nodeid)


def pytest_runtest_logreport(report) -> None:  # type: ignore[no-untyped-def]
    if report.when == "call" or report.outcome != "passed":
        _emit(
            "test",
            nodeid=report.nodeid,
            when=report.when,
            outcome=report.outcome,
            message=_short(report) if report.outcome != "passed" else "",
        )
    if report.outcome != "passed" and report.nodeid in _FIRST and _SESSION is not None:
        # a test run first did not pass: the phase has failed, the rest need not run (as -x)
        if not _SESSION.shouldfail:
            _emit("stopped", nodeid=report.nodeid)
        _SESSION.shouldfail = f"truepass: {report.nodeid} did not pass"


def pytest_sessionfinish(session, exitstatus) -> None:  # type: ignore[no-untyped-def]
    if _cov is not None:
        _cov.stop()
        data = _cov.get_data()
        lines: dict[str, dict[str, list[int]]] = {}
        root = os.getcwd() + "/"
        for path in data.measured_files():
            rel = path[len(root) :] if path.startswith(root) else path
            if rel in _TEST_FILES or os.path.basename(rel) == "conftest.py":
                continue
            for lineno, ctxs in (data.contexts_by_lineno(path) or {}).items():
                for ctx in ctxs:
                    if ctx:
                        lines.setdefault(ctx, {}).setdefault(rel, []).append(lineno)
        _emit("coverage", lines=lines)
    _emit("finish", exitstatus=int(exitstatus))
