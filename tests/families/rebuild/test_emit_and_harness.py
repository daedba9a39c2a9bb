"""The emitter's docstrings for any note, and the ``program`` runner's output limit."""

from __future__ import annotations

import ast
import shutil

import pytest

from truepass.families.rebuild.emit import Case, Expected, render_module
from truepass.families.rebuild.harness._truepass_rebuild import OUTPUT_LIMIT, Program


@pytest.mark.parametrize(
    "note",
    ['operands "hello\\tworld\\n \'x"', 'a """ b', "ends in a backslash \\", "\\" * 200,
     'FORMAT "%s"' + "x" * 200, "tab\there\x00and \u00e9"],
)  # fmt: skip
def test_any_note_gives_a_module_that_parses(note: str) -> None:
    case = Case("args", ("%s\\n",), note=note)
    source = render_module("Header.", [("test_args_001", case, Expected(b"\n", b"", 0))])
    fn = ast.parse(source).body[1]
    assert isinstance(fn, ast.FunctionDef)
    doc = ast.get_docstring(fn) or ""
    assert doc and '"' not in doc and len(doc) <= 96  # shortened, double quotes made single


def test_a_program_that_writes_without_end_fails_the_run() -> None:
    yes, echo = shutil.which("yes"), shutil.which("echo")
    assert yes is not None and echo is not None
    with pytest.raises(pytest.fail.Exception, match=f"{OUTPUT_LIMIT} bytes or more"):
        Program(yes, "yes")([], timeout=20)
    run = Program(echo, "echo")(["hi"])
    assert (run.stdout, run.stderr, run.returncode) == (b"hi\n", b"", 0)
