"""Shared pieces of the rebuild tests: a small hand-written task over the installed ``rev``."""

from __future__ import annotations

import shutil

import pytest

from truepass.families.rebuild.schema import RebuildSample
from truepass.families.rebuild.sources import sha256_of

REV_TESTS = """\
def test_stdin_001(program):
    r = program([], stdin=b"hello\\nworld\\n")
    assert r.returncode == 0
    assert r.stdout == b"olleh\\ndlrow\\n"
    assert r.stderr == b""


def test_files_001(program):
    r = program(["a.txt"], files={"a.txt": b"abc\\n"})
    assert r.returncode == 0
    assert r.stdout == b"cba\\n"
    assert r.stderr == b""


def test_files_002(program):
    r = program(["missing.txt"])
    assert r.returncode == 1
    assert r.stdout == b""
    assert r.stderr == b"rev: cannot open missing.txt: No such file or directory\\n"


def test_stdin_002(program):
    r = program([], stdin=b"ab")
    assert r.returncode == 0
    assert r.stdout == b"ba"
    assert r.stderr == b""
"""

PYTHON_REV = """\
#!/usr/bin/env python3
import sys


def rev(data):
    out = []
    for line in data.split(b"\\n"):
        out.append(line[::-1])
    return b"\\n".join(out)


def main():
    status = 0
    names = sys.argv[1:] or ["-"]
    for name in names:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            try:
                with open(name, "rb") as fh:
                    data = fh.read()
            except OSError as exc:
                sys.stderr.write(f"rev: cannot open {name}: {exc.strerror}\\n")
                status = 1
                continue
        sys.stdout.buffer.write(rev(data))
    return status


sys.exit(main())
"""

PYTHON_COMPILE = "cp rev.py rev\nchmod +x rev\n"


def rev_task(**changes: object) -> RebuildSample:
    """A four-test task over /usr/bin/rev (tests written by hand from what it prints)."""
    gold = shutil.which("rev") or "/usr/bin/rev"
    data: dict[str, object] = {
        "family": "rebuild",
        "id": "rev",
        "program": "rev",
        "gold": gold,
        "gold_sha256": sha256_of(gold),
        "package": {"binary": "bsdextrautils", "source": "util-linux", "version": "2.38.1"},
        "loc": 80,
        "docs": {"help_args": ["--help"], "man": "rev"},
        "tests": {"test_rev.py": REV_TESTS},
        "test_timeout_s": 5.0,
        "build_timeout_s": 60.0,
    }
    data.update(changes)
    return RebuildSample.model_validate(data)


def needs_rev() -> None:
    """Skip where rev is missing (Debian package bsdextrautils)."""
    if shutil.which("rev") is None:
        pytest.skip("rev is not installed (apt-get install bsdextrautils)")
