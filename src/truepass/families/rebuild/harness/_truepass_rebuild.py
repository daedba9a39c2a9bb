"""pytest plugin loaded inside the sandbox (``-p _truepass_rebuild``): the ``program`` fixture
every rebuild test runs the program under test through.

``program(args, stdin=b"", files=None, env=None, timeout=None)`` runs the program (the path in
``TRUEPASS_PROGRAM``, with ``argv[0]`` its bare name) in a fresh directory holding ``files``, and
returns a :class:`Run`: its stdout, stderr, exit status, and the files it created or changed
there. The environment is built from nothing: ``PATH``, ``HOME`` (the run's directory),
``LC_ALL=C``, ``TZ=UTC``, then ``env``.

With ``TRUEPASS_HIDE_TESTS=1`` (the judge sets it) the test files are deleted once pytest has
collected them and this process makes itself non-dumpable, so the program under test can read
neither the tests nor the expected values in pytest's memory.

Standard library and pytest only: this file runs in the sandbox, not in truepass.
"""

from __future__ import annotations

import contextlib
import ctypes
import linecache
import os
import resource
import shutil
import subprocess
import tempfile
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pytest

_PROGRAM = os.environ.pop("TRUEPASS_PROGRAM", "")
_NAME = os.environ.pop("TRUEPASS_PROGRAM_NAME", "") or os.path.basename(_PROGRAM)
_TIMEOUT = float(os.environ.pop("TRUEPASS_RUN_TIMEOUT", "10") or "10")
_HIDE = os.environ.pop("TRUEPASS_HIDE_TESTS", "") == "1"
_PATH = "/usr/local/bin:/usr/bin:/bin"
_PR_SET_DUMPABLE = 4
OUTPUT_LIMIT = 1 << 20
"""Bytes a run may write to stdout, to stderr or to one file: beyond it the run fails (a program
that writes without end must not take the runner's memory)."""


@dataclass(frozen=True)
class Run:
    """What one run of the program did."""

    stdout: bytes
    stderr: bytes
    returncode: int
    files: dict[str, bytes] = field(default_factory=dict)


def _as_bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _tree(root: str) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for here, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(here, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as fh:
                    found[os.path.relpath(path, root)] = fh.read()
    return found


def _limit_output() -> None:
    """In the child: no file (its stdout and stderr are files) grows past the limit."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_LIMIT, OUTPUT_LIMIT))


def _read(fh: typing.IO[bytes]) -> bytes:
    fh.seek(0)
    return fh.read(OUTPUT_LIMIT)


class Program:
    """The program under test, as the ``program`` fixture gives it."""

    def __init__(self, path: str, name: str) -> None:
        self.path = path
        self.name = name

    def __call__(
        self,
        args: Sequence[str] = (),
        *,
        stdin: bytes | str = b"",
        files: Mapping[str, bytes | str] | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> Run:
        work = tempfile.mkdtemp(prefix="run-")
        try:
            for rel, content in (files or {}).items():
                path = os.path.join(work, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as fh:
                    fh.write(_as_bytes(content))
            before = _tree(work)
            environ = {"PATH": _PATH, "HOME": work, "LC_ALL": "C", "TZ": "UTC", **(env or {})}
            limit = timeout or _TIMEOUT
            with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
                try:
                    done = subprocess.run(
                        [self.name, *args], executable=self.path, cwd=work, env=environ,
                        input=_as_bytes(stdin), stdout=out, stderr=err, timeout=limit,
                        preexec_fn=_limit_output,
                    )  # fmt: skip
                except subprocess.TimeoutExpired:
                    pytest.fail(f"{self.name} did not finish within {limit:g} s", pytrace=False)
                except OSError as exc:
                    pytest.fail(f"{self.name} could not be started: {exc}", pytrace=False)
                stdout, stderr = _read(out), _read(err)
            if max(len(stdout), len(stderr)) >= OUTPUT_LIMIT:
                pytest.fail(f"{self.name} wrote {OUTPUT_LIMIT} bytes or more", pytrace=False)
            after = _tree(work)
            changed = {p: c for p, c in after.items() if before.get(p) != c}
            return Run(stdout, stderr, done.returncode, changed)
        finally:
            shutil.rmtree(work, ignore_errors=True)


@pytest.fixture
def program() -> Program:
    """The program under test (``TRUEPASS_PROGRAM``)."""
    if not _PROGRAM:
        pytest.fail("TRUEPASS_PROGRAM is not set: no program under test", pytrace=False)
    return Program(_PROGRAM, _NAME)


def pytest_configure(config) -> None:  # type: ignore[no-untyped-def]
    if _HIDE:
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def pytest_collection_finish(session) -> None:  # type: ignore[no-untyped-def]
    """Hide the tests from the program: keep their source for tracebacks in memory, then
    delete the files."""
    if not _HIDE:
        return
    paths = {str(item.path) for item in session.items}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                lines = fh.readlines()
        except OSError:
            continue
        linecache.cache[path] = (sum(map(len, lines)), None, lines, path)
    for path in paths:
        with contextlib.suppress(OSError):
            os.unlink(path)
