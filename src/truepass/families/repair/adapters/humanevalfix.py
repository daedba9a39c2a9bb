"""HumanEvalFix (HumanEvalPack, Python split) -> repair samples.

One record of ``humanevalpack_python.jsonl`` becomes one sample:

* ``solution.py``: the record's ``declaration`` (imports, helper functions, the signature of the
  entry point; no docstring) followed by ``buggy_solution`` (the body). This is what the upstream
  HumanEvalFix harness executes, so helpers such as ``poly`` or ``encode_cyclic`` are present.
* ``test_example.py`` (visible): ``example_test``. ``test_hidden.py`` (hidden): the full ``test``.
  Both import ``solution`` with ``from solution import *`` (upstream runs code and test in one
  namespace, and some checks call helpers of the declaration) and run ``check(entry_point)``.
  Each ``check`` is split with :mod:`ast` into one pytest function per *test statement* (a
  top-level ``assert`` of its body, or a top-level statement that contains an assert, e.g. a
  loop of asserts); the other top-level statements (imports, seeded RNGs, helper values) are kept,
  in order, as setup in every function. A ``check`` with a single test statement stays one test.
* ``fix``: unified diff from the buggy module to ``declaration + canonical_solution``; ``fault``:
  the buggy lines that diff changes (a pure insertion points at the line before it).

Upstream quirks handled here (recorded under ``meta``):

* six records have an empty ``example_test`` (Python/38, 41, 50, 83, 84, 160): their visible
  tests are the full ``test`` as well (``meta.visible_from = "test"``), so no overfitting gap
  can be measured on them;
* one ``example_test`` (Python/119) starts with a stray, indented copy of the solution body; the
  text from the first column-0 ``def check(`` on is used (``meta.example_test_repaired``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pydantic import ValidationError

from truepass import pyast
from truepass.errors import SuiteError
from truepass.families.repair.schema import FaultLocation, RepairSample, Tests
from truepass.jsonlines import json_objects
from truepass.patches.apply import changed_lines, unified_diff
from truepass.suites.validation import invalid_sample

DATA_FILE = "humanevalpack_python.jsonl"
MODULE = "solution.py"
VISIBLE_TEST = "test_example.py"
HIDDEN_TEST = "test_hidden.py"
SOURCE = "HumanEvalPack/HumanEvalFix (github.com/bigcode-project/octopack @e17a8f6, MIT)"
REQUIRED = (
    "task_id",
    "declaration",
    "buggy_solution",
    "canonical_solution",
    "bug_type",
    "entry_point",
    "example_test",
    "test",
)
OPTIONAL_TEXT = ("prompt", "docstring", "instruction", "failure_symptoms")
_TASK_ID = re.compile(r"^Python/(\d+)$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class _RecordError(Exception):
    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


def load_humanevalfix(path: Path) -> tuple[list[RepairSample], bytes]:
    """Read HumanEvalPack Python records (the ``.jsonl`` file or its directory).

    Returns the samples and the bytes read. Raises :class:`SuiteError` naming the file, the line
    and the field of the first malformed record.
    """
    data_file = _data_file(Path(path))
    try:
        raw = data_file.read_bytes()
    except OSError as exc:
        raise SuiteError(f"cannot read: {exc}", location=str(data_file)) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteError(f"not UTF-8: {exc}", location=str(data_file)) from exc
    samples: list[RepairSample] = []
    seen: dict[str, int] = {}
    for lineno, where, record in json_objects(text, data_file, SuiteError, "record"):
        try:
            sample = record_to_sample(record)
        except _RecordError as exc:
            raise SuiteError(exc.message, location=where, field=exc.field) from exc
        except ValidationError as exc:
            raise invalid_sample(exc, "record", where) from exc
        if sample.id in seen:
            raise SuiteError(
                f"duplicate task '{record['task_id']}' (first on line {seen[sample.id]})",
                location=where,
                field="task_id",
            )
        seen[sample.id] = lineno
        samples.append(sample)
    if not samples:
        raise SuiteError("no records", location=str(data_file))
    return samples, raw


def _data_file(path: Path) -> Path:
    if path.is_file():
        return path
    if path.is_dir():
        if (path / DATA_FILE).is_file():
            return path / DATA_FILE
        found = sorted(path.glob("*.jsonl"))
        if len(found) == 1:
            return found[0]
        raise SuiteError(
            f"expected {DATA_FILE} (or a single .jsonl file) in the directory", location=str(path)
        )
    raise SuiteError("no such file or directory", location=str(path))


def record_to_sample(record: dict[str, object]) -> RepairSample:
    """One HumanEvalPack record -> one sample (raises ``_RecordError`` naming the field)."""
    fields: dict[str, str] = {}
    for name in REQUIRED:
        if name not in record:
            raise _RecordError(name, "required field is missing")
        value = record[name]
        if not isinstance(value, str):
            raise _RecordError(name, f"must be a string, got {type(value).__name__}")
        fields[name] = value
    for name in OPTIONAL_TEXT:
        value = record.get(name)
        if value is not None and not isinstance(value, str):
            raise _RecordError(name, f"must be a string, got {type(value).__name__}")
    match = _TASK_ID.match(fields["task_id"])
    if not match:
        raise _RecordError("task_id", f"expected 'Python/<number>', got {fields['task_id']!r}")
    entry = fields["entry_point"]
    if not _IDENT.match(entry):
        raise _RecordError("entry_point", f"not a Python identifier: {entry!r}")
    defect_type = normalise_bug_type(fields["bug_type"])
    if not defect_type:
        raise _RecordError("bug_type", "must not be empty")

    buggy = _module(fields["declaration"], fields["buggy_solution"])
    fixed = _module(fields["declaration"], fields["canonical_solution"])
    for name, module in (("buggy_solution", buggy), ("canonical_solution", fixed)):
        try:
            pyast.parse(module)
        except SyntaxError as exc:
            raise _RecordError(name, f"declaration + {name} is not valid Python: {exc}") from exc
    if buggy == fixed:
        raise _RecordError("buggy_solution", "identical to canonical_solution: nothing to fix")

    meta: dict[str, object] = {
        "task_id": fields["task_id"],
        "entry_point": entry,
        "bug_type": fields["bug_type"],
    }
    if isinstance(record.get("failure_symptoms"), str):
        meta["failure_symptoms"] = record["failure_symptoms"]

    hidden = _pytest_file(fields["test"], entry, "test", meta)
    if fields["example_test"].strip():
        visible = _pytest_file(fields["example_test"], entry, "example_test", meta)
        meta["visible_from"] = "example_test"
    else:
        visible = hidden
        meta["visible_from"] = "test"

    return RepairSample(
        id=f"humanevalfix-{int(match.group(1))}",
        language="python",
        defect_type=defect_type,
        description=_description(record, entry),
        files={MODULE: buggy},
        tests=Tests(visible={VISIBLE_TEST: visible}, hidden={HIDDEN_TEST: hidden}),
        fix=unified_diff({MODULE: buggy}, {MODULE: fixed}),
        fault=[FaultLocation(file=MODULE, lines=changed_lines(buggy, fixed))],
        source=SOURCE,
        leakage="public-old",
        meta=meta,
    )


def normalise_bug_type(bug_type: str) -> str:
    """``"value misuse"`` -> ``"value-misuse"``."""
    return "-".join(re.findall(r"[a-z0-9]+", bug_type.lower()))


def _module(declaration: str, body: str) -> str:
    if declaration and not declaration.endswith("\n"):
        declaration += "\n"
    text = declaration + body
    return text if text.endswith("\n") else text + "\n"


# --- description ---------------------------------------------------------------------------------

_EXAMPLE_START = re.compile(r"^\s*(>>>|(for )?examples?\b|e\.g\.)", re.IGNORECASE)
_SENTENCE = re.compile(r"^(.+?[.!?])(?=\s|$)")


def _description(record: dict[str, object], entry: str) -> str:
    doc = _prompt_docstring(record.get("prompt"), entry)
    if not doc and isinstance(record.get("docstring"), str):
        doc = str(record["docstring"])
    if doc:
        sentence = first_sentence(doc)
        if sentence:
            return sentence
    instruction = record.get("instruction")
    if isinstance(instruction, str) and instruction.strip():
        return first_sentence(instruction) or instruction.strip()
    return f"Fix the function `{entry}` so that it passes its tests."


def _prompt_docstring(prompt: object, entry: str) -> str:
    if not isinstance(prompt, str):
        return ""
    try:
        tree = pyast.parse(prompt + "    pass\n")
    except SyntaxError:
        return ""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == entry:
            return ast.get_docstring(node) or ""
    return ""


def first_sentence(text: str) -> str:
    """The first sentence of the first paragraph, stopping before any example."""
    kept: list[str] = []
    for line in text.strip().splitlines():
        if not line.strip():
            if kept:
                break
            continue
        if _EXAMPLE_START.match(line):
            break
        kept.append(line.strip())
    flat = " ".join(" ".join(kept).split())
    match = _SENTENCE.match(flat)
    return (match.group(1) if match else flat).strip()


# --- tests ---------------------------------------------------------------------------------------


def _pytest_file(source: str, entry: str, field: str, meta: dict[str, object]) -> str:
    """A pytest module running ``check(entry)``, one test function per test statement."""
    try:
        tree = pyast.parse(source)
    except SyntaxError as exc:
        # Python/119's example_test starts with an indented stray copy of the solution body.
        start = re.search(r"^def check\(", source, re.MULTILINE)
        if start is None:
            raise _RecordError(field, f"not valid Python: {exc}") from exc
        source = source[start.start() :]
        try:
            tree = pyast.parse(source)
        except SyntaxError as exc2:
            raise _RecordError(field, f"not valid Python: {exc2}") from exc2
        meta[f"{field}_repaired"] = "dropped text before the first 'def check('"
    checks = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "check"]
    if len(checks) != 1:
        raise _RecordError(field, f"expected one top-level 'def check(...)', found {len(checks)}")
    check = checks[0]
    if len(check.args.args) != 1 or check.args.vararg or check.args.kwonlyargs:
        raise _RecordError(field, "'check' must take exactly one argument (the candidate)")
    param = check.args.args[0].arg

    # module-level statements other than `check` and the `check(...)` call are kept verbatim
    prelude = []
    for node in tree.body:
        if node is check or _is_check_call(node):
            continue
        prelude.append(_segment(source, node))

    head = [
        f'"""HumanEvalFix {field}: check({entry}) (generated by truepass from the record)."""',
        "",
        "from solution import *  # noqa: F403  (helpers of the declaration, as upstream)",
        f"from solution import {entry}",
        "",
        *prelude,
    ]
    test_stmts = [s for s in check.body if _is_test_statement(s)]
    if len(test_stmts) <= 1 or not _own_lines(check):
        body = [
            "",
            _segment(source, check),
            "",
            "",
            "def test_check() -> None:",
            f"    check({entry})",
        ]
        meta[f"{field}_tests"] = 1
        return _tidy(head + body)

    width = max(2, len(str(len(test_stmts))))
    body = []
    for k, stmt in enumerate(test_stmts, start=1):
        name = f"{k:0{width}d}"
        lines = [_segment(source, s) for s in check.body if s is stmt or not _is_test_statement(s)]
        first = stmt.lineno
        body += [
            "",
            "",
            f"def _check_{name}({param}):  # test statement at line {first} of '{field}'",
            *lines,
            "",
            "",
            f"def test_check_{name}() -> None:",
            f"    _check_{name}({entry})",
        ]
    meta[f"{field}_tests"] = len(test_stmts)
    return _tidy(head + body)


def _tidy(lines: list[str]) -> str:
    return re.sub(r"\n{4,}", "\n\n\n", "\n".join(lines)).rstrip("\n") + "\n"


def _own_lines(check: ast.FunctionDef) -> bool:
    """True when every statement of the body starts on its own line after the ``def`` line
    (no ``a; b`` and no one-line ``def``): then whole source lines can be spliced safely."""
    last = max(check.lineno, *(a.end_lineno or a.lineno for a in check.args.args))
    for stmt in check.body:
        if stmt.lineno <= last:
            return False
        last = stmt.end_lineno or stmt.lineno
    return True


def _is_check_call(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "check"
    )


def _is_test_statement(stmt: ast.stmt) -> bool:
    """A top-level assert, or a statement holding an assert (a loop of asserts)."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return False
    return any(isinstance(n, ast.Assert) for n in ast.walk(stmt))


def _segment(source: str, node: ast.stmt) -> str:
    """The statement's exact source lines (comments inside it and original indentation kept)."""
    lines = source.splitlines()
    start = node.lineno
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        start = min([start, *(d.lineno for d in node.decorator_list)])
    end = node.end_lineno or node.lineno
    return "\n".join(lines[start - 1 : end])
