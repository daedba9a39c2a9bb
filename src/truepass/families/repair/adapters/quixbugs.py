"""QuixBugs (Python) -> repair samples.

Reads the layout shipped in ``../shared/benchmarks/quixbugs-python/``: ``quixbugs_python.jsonl``
(one record per program: ``name``, ``buggy_program``, ``correct_program``, ``pytest_file``,
``graph_test_program``, ``json_testcases``) and ``support_files.json`` (upstream ``conftest.py``,
``python_testcases/load_testdata.py``, the ``node.py`` copies, ``tester.py``).

Layout of a sample (the upstream one, so the upstream pytest files run unchanged):

* code: ``python_programs/<name>.py`` (the buggy program; for the graph programs also
  ``python_programs/node.py``). The upstream graph drivers (``python_programs/<name>_test.py``,
  for ``tester.py``, not pytest) and ``tester.py`` are not included: they are not tests and a
  ``*_test.py`` file would be collected by pytest.
* tests, in both phases: the upstream ``conftest.py`` (defines ``--correct``/``--runslow``; at the
  root, so pytest puts the root on ``sys.path`` and ``python_programs.<name>`` imports), and
  ``python_testcases/load_testdata.py`` (JSON programs) or ``python_testcases/node.py`` (graph
  programs).
* visible: ``python_testcases/test_<name>.py`` (upstream, verbatim) with
  ``json_testcases/<name>.json`` holding the visible cases; hidden: the same test module as
  ``python_testcases/test_<name>_hidden.py`` reading ``json_testcases/<name>_hidden.json``.
  Graph programs (test functions ``test1``..``testN``): the module is split by function, the
  other module-level code kept in both.

Split: the first third (rounded up) of the cases are visible, the rest hidden; when the first case
the buggy program fails lies later (measured once at upstream 4257f44, ``_FIRST_FAILING``), that
case is made visible too, so the buggy program fails a visible test.

Slow cases: upstream skips some cases unless ``--runslow`` (knapsack's last case) or always
(levenshtein's long case). A test skipped for the reference fix too would never be "passed", so
these cases are dropped from the generated data instead (recorded in ``meta.dropped_cases``).

Timeouts: ``bitcount``'s buggy version loops forever, so samples run pytest with pytest-timeout
(``test_command``: ``python -m pytest -p pytest_timeout --timeout=N``; N = 5 s, 30 s for
levenshtein whose reference takes ~4 s on one case). The harness appends no
test paths to a custom pytest command; pytest then collects the workspace, which holds exactly the
phase's test files, so each phase runs its own tests.

Defect types (from the token diff of the changed line(s), buggy -> fixed):
``missing-code`` (the fix only adds lines), ``missing-condition`` (adds an ``and``/``or``
clause), ``comparison`` (a comparison operator or ``any``/``all`` swapped), ``operator`` (an
arithmetic/bitwise operator swapped), ``off-by-one`` (adds or removes ``+ 1``/``- 1``, or a
``<``/``<=`` change of a bound), ``wrong-variable`` (one name replaced by another or argument
order swapped), ``extra-code`` (the fix only removes code), ``other``.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from truepass import pyast
from truepass.errors import SuiteError
from truepass.families.repair.adapters.quixbugs_fix import classify, describe, minimal_fix
from truepass.families.repair.schema import FaultLocation, RepairSample, Tests
from truepass.jsonlines import json_objects
from truepass.patches.apply import unified_diff

RECORDS = "quixbugs_python.jsonl"
SUPPORT = "support_files.json"
SOURCE = "QuixBugs (github.com/jkoppel/QuixBugs @4257f44, MIT)"
TIMEOUT_S = 5
# Programs whose reference needs longer per case (levenshtein's third case takes ~4 s alone and
# was flaky at 5 s under load); measured at 4257f44.
_SLOW_TIMEOUT_S = {"levenshtein": 30}


def test_command(name: str) -> list[str]:
    """pytest with a per-test timeout (no paths: pytest collects the phase's workspace)."""
    timeout = _SLOW_TIMEOUT_S.get(name, TIMEOUT_S)
    return ["python", "-m", "pytest", "-p", "pytest_timeout", f"--timeout={timeout}"]


_NEEDED_SUPPORT = ("conftest.py", "python_testcases/load_testdata.py", "python_testcases/node.py")

# 0-based index (after dropping skipped cases) of the first case the buggy program fails, where it
# is past the first third; measured by running the upstream tests at 4257f44.
_FIRST_FAILING: dict[str, int] = {
    "breadth_first_search": 2,
    "depth_first_search": 4,
    "detect_cycle": 3,
    "is_valid_parenthesization": 2,
    "lis": 8,
    "next_palindrome": 4,
    "shunting_yard": 2,
}


def load_quixbugs(path: Path) -> tuple[list[RepairSample], bytes]:
    """Load the QuixBugs Python directory ``path`` (see the module docstring for the layout)."""
    return load_programs(path, RECORDS, _NEEDED_SUPPORT, _record, _sample)


class FieldError(ValueError):
    """A record's field is wrong: reported with the record's location and the field's name."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def load_programs(
    path: Path,
    records_name: str,
    needed_support: tuple[str, ...],
    check_record: Callable[[str, dict[str, Any]], Any],
    make_sample: Callable[[Any, dict[str, str]], RepairSample],
) -> tuple[list[RepairSample], bytes]:
    """The samples of a QuixBugs directory (either language): ``records_name`` (JSON lines, one
    program each, checked by ``check_record``) and :data:`SUPPORT`, whose ``needed_support``
    files must be there; each record becomes a sample through ``make_sample``. The bytes
    returned are those the suite's content hash covers."""
    path = Path(path)
    if not path.is_dir():
        raise SuiteError(f"{path} is not a directory (expected {records_name} and {SUPPORT})")
    records_path, support_path = path / records_name, path / SUPPORT
    raw_records = read_input(records_path)
    raw_support = read_input(support_path)
    support = _support(support_path, raw_support, needed_support)
    samples: list[RepairSample] = []
    seen: set[str] = set()
    try:
        text = raw_records.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{records_path} is not UTF-8 text: {exc}") from exc
    for _, where, obj in json_objects(text, records_path, SuiteError, "record"):
        record = check_record(where, obj)
        if record["name"] in seen:
            raise SuiteError(f"duplicate program '{record['name']}'", location=where, field="name")
        seen.add(record["name"])
        try:
            samples.append(make_sample(record, support))
        except FieldError as exc:
            raise SuiteError(str(exc), location=where, field=exc.field) from exc
        except (ValueError, SyntaxError, ValidationError) as exc:
            raise SuiteError(str(exc), location=where) from exc
    if not samples:
        raise SuiteError(f"{records_path} holds no records")
    return samples, raw_records + b"\0" + raw_support


def read_input(p: Path) -> bytes:
    """The bytes of an input file (a :class:`SuiteError` naming it when unreadable)."""
    try:
        return p.read_bytes()
    except OSError as exc:
        raise SuiteError(f"cannot read {p}: {exc.strerror or exc}") from exc


def _support(where: Path, raw: bytes, needed: tuple[str, ...]) -> dict[str, str]:
    """Path -> text of the support files (upstream's null entries left out); every ``needed``
    file must be there."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        line = getattr(exc, "lineno", 1)
        raise SuiteError(f"invalid JSON: {exc}", location=f"{where}:{line}") from exc
    if not isinstance(data, dict) or not all(isinstance(v, str | None) for v in data.values()):
        raise SuiteError("expected an object of path -> file text (or null)", location=f"{where}:1")
    missing = [k for k in needed if not isinstance(data.get(k), str)]
    if missing:
        raise SuiteError(
            f"missing support files: {', '.join(missing)} (use upstream's support_files.json)",
            location=f"{where}:1",
        )
    return {k: v for k, v in data.items() if isinstance(v, str)}


def _record(where: str, rec: dict[str, Any]) -> dict[str, str | None]:
    """The record, its fields checked."""
    for key in ("name", "buggy_program", "correct_program", "pytest_file"):
        if not isinstance(rec.get(key), str) or not rec[key]:
            raise SuiteError("missing or not a non-empty string", location=where, field=key)
    for key in ("graph_test_program", "json_testcases"):
        if rec.get(key) is not None and not isinstance(rec[key], str):
            raise SuiteError("must be a string or null", location=where, field=key)
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", rec["name"]):
        raise SuiteError(f"'{rec['name']}' is not a module name", location=where, field="name")
    no_cases = not rec.get("json_testcases") and not rec.get("graph_test_program")
    if no_cases and not _test_functions(rec["pytest_file"]):
        raise SuiteError("no test cases (no json_testcases, no test functions)", location=where)
    return rec


# ---------------------------------------------------------------- building one sample


def _sample(rec: dict[str, str | None], support: dict[str, str]) -> RepairSample:
    name = str(rec["name"])
    buggy, correct, test_py = (
        str(rec["buggy_program"]),
        str(rec["correct_program"]),
        str(rec["pytest_file"]),
    )
    program = f"python_programs/{name}.py"
    fixed, changed_lines, pairs = minimal_fix(buggy, correct)
    if fixed == buggy:
        raise ValueError("the correct program does not change the buggy program's code")
    files = {program: buggy}
    common = {"conftest.py": support["conftest.py"]}
    meta: dict[str, object] = {"upstream_name": name, "program": name}  # pairs across languages
    if rec.get("json_testcases"):
        common["python_testcases/load_testdata.py"] = support["python_testcases/load_testdata.py"]
        cases = _json_cases(str(rec["json_testcases"]))
        skipped = _upstream_skipped(test_py)
        kept = [c for c in cases if c[1][0] not in skipped]
        dropped = [i for i, c in enumerate(cases) if c[1][0] in skipped]
        if not kept:
            raise ValueError("every JSON test case is skipped upstream")
        vis_idx = _visible_indices(name, len(kept))
        hidden_name = f"{name}_hidden"
        hidden_py, n = re.subn(
            rf"load_json_testcases\(\s*{name}\.__name__\s*\)",
            f'load_json_testcases("{hidden_name}")',
            test_py,
        )
        if n != 1:
            raise ValueError("pytest_file does not call load_json_testcases(<name>.__name__)")
        vis_lines = [kept[i][0] for i in vis_idx]
        hid_lines = [kept[i][0] for i in range(len(kept)) if i not in vis_idx]
        visible = {
            **common,
            f"python_testcases/test_{name}.py": test_py,
            f"json_testcases/{name}.json": "".join(line + "\n" for line in vis_lines),
        }
        hidden = {}
        if hid_lines:
            hidden = {
                **common,
                f"python_testcases/test_{name}_hidden.py": hidden_py,
                f"json_testcases/{hidden_name}.json": "".join(line + "\n" for line in hid_lines),
            }
        meta.update(cases=len(kept), visible_cases=len(vis_lines), dropped_cases=dropped)
    else:
        common["python_testcases/node.py"] = support["python_testcases/node.py"]
        if "python_programs/node.py" in support:
            files["python_programs/node.py"] = support["python_programs/node.py"]
        funcs = _test_functions(test_py)
        if not funcs:
            raise ValueError("pytest_file has no test functions")
        vis_idx = _visible_indices(name, len(funcs))
        vis_funcs = [funcs[i] for i in vis_idx]
        hid_funcs = [f for i, f in enumerate(funcs) if i not in vis_idx]
        visible = {**common, f"python_testcases/test_{name}.py": _keep_only(test_py, vis_funcs)}
        hidden = {}
        if hid_funcs:
            hidden = {
                **common,
                f"python_testcases/test_{name}_hidden.py": _keep_only(test_py, hid_funcs),
            }
        meta.update(cases=len(funcs), visible_cases=len(vis_funcs), dropped_cases=[])
    return RepairSample(
        id=f"quixbugs-{name}",
        language="python",
        defect_type=classify(pairs),
        description=describe(name, buggy),
        files=files,
        tests=Tests(visible=visible, hidden=hidden),
        fix=unified_diff(files, {**files, program: fixed}),
        fault=[FaultLocation(file=program, lines=changed_lines)],
        source=SOURCE,
        leakage="public-old",
        test_command=test_command(name),
        meta=meta,
    )


def _visible_indices(name: str, n: int) -> list[int]:
    return visible_indices(n, _FIRST_FAILING.get(name))


def visible_indices(n: int, first_failing: int | None = None) -> list[int]:
    """The split of ``n`` cases (shared with the Java adapter): the 0-based indices of the visible
    ones, the first third (rounded up, at least one), plus ``first_failing`` (the first case the
    buggy program fails) when it lies later."""
    k = max(1, math.ceil(n / 3)) if n > 1 else 1
    idx = set(range(min(k, n)))
    if first_failing is not None and first_failing < n:
        idx.add(first_failing)
    return sorted(idx)


def _json_cases(text: str) -> list[tuple[str, list[object]]]:
    """(raw line, parsed [args, expected]) per non-empty line."""
    out: list[tuple[str, list[object]]] = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"json_testcases line {i}: invalid JSON: {exc.msg}") from exc
        if not isinstance(case, list) or len(case) != 2:
            raise ValueError(f"json_testcases line {i}: expected [args, expected]")
        out.append((line.strip(), case))
    return out


def _upstream_skipped(test_py: str) -> list[object]:
    """Inputs the upstream test skips without ``--runslow`` (``if ... input_data == [...]:
    pytest.skip(...)``)."""
    skipped: list[object] = []
    for node in ast.walk(pyast.parse(test_py)):
        if not isinstance(node, ast.If):
            continue
        body_skips = any(
            isinstance(s, ast.Expr)
            and isinstance(s.value, ast.Call)
            and ast.unparse(s.value.func) == "pytest.skip"
            for s in node.body
        )
        if not body_skips:
            continue
        for cmp in ast.walk(node.test):
            if (
                isinstance(cmp, ast.Compare)
                and isinstance(cmp.left, ast.Name)
                and cmp.left.id == "input_data"
                and len(cmp.ops) == 1
                and isinstance(cmp.ops[0], ast.Eq)
            ):
                try:
                    skipped.append(ast.literal_eval(cmp.comparators[0]))
                except ValueError:
                    continue
    return skipped


def _test_functions(test_py: str) -> list[ast.FunctionDef]:
    try:
        tree = pyast.parse(test_py)
    except SyntaxError as exc:
        raise ValueError(f"pytest_file: {exc}") from exc
    return [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]


def _keep_only(test_py: str, keep: list[ast.FunctionDef]) -> str:
    """The module without the test functions not in ``keep`` (everything else verbatim)."""
    lines = test_py.splitlines(keepends=True)
    drop: set[int] = set()
    kept = {id(f) for f in keep}
    for f in _test_functions(test_py):
        if any(f.name == k.name for k in keep) or id(f) in kept:
            continue
        start = min([f.lineno] + [d.lineno for d in f.decorator_list])
        drop.update(range(start - 1, (f.end_lineno or f.lineno)))
    text = "".join(line for i, line in enumerate(lines) if i not in drop)
    return re.sub(r"\n{4,}", "\n\n\n", text)


# ---------------------------------------------------------------- the fix
