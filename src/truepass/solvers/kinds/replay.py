"""``replay:FILE``: answers made elsewhere, read from a patches file (docs/patches-format.md).

Two record formats, told apart per record:

* truepass's own: ``sample_id``, optional ``id`` (echoed as ``patch_id``), and exactly one
  answer: ``patch`` (a unified diff), ``files`` (path -> whole new content), ``text`` (free text)
  or ``label`` (``{"decision": ..., "rationale": ...}``);
* SWE-bench predictions, as every agent harness writes them: ``instance_id``,
  ``model_name_or_path`` and ``model_patch`` (an empty or null patch is ``no-patch``). Their
  solver is named after ``model_name_or_path``: one file may hold several models, each a solver.

The file is JSONL, a JSON list of records, or a JSON object keyed by instance id (mini-swe-agent's
``preds.json``: each value a record, its ``instance_id`` the key when absent). Other fields are
ignored. Several records for one sample become attempts 0, 1, ... in file order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from truepass.answers import Answer, Label
from truepass.errors import InputError
from truepass.jsonlines import json_objects
from truepass.solvers.base import SolveContext, Solver, SolverBase
from truepass.solvers.registry import SolverKind, SolverOptions
from truepass.vocabulary import AnswerKind

if TYPE_CHECKING:
    from truepass.families.base import Family

Answers = dict[str, list[Answer]]  # sample id -> its answers, in file order


def read_answers(path: Path, known_ids: set[str] | None = None) -> dict[str, Answers]:
    """A patches file's answers by solver name: ``replay:PATH`` for truepass's own records,
    ``model_name_or_path`` for SWE-bench predictions. Every malformed record raises
    :class:`InputError` with its place (line, item or key) and field."""
    if not path.is_file():
        raise InputError("no such patches file", location=str(path))
    by_solver: dict[str, Answers] = {}
    text = path.read_text(encoding="utf-8", errors="strict")
    for where, key, obj in _records(text, path):
        if "instance_id" in obj or "model_patch" in obj or key is not None:
            solver, sample_id, answer = _prediction(obj, key, where)
        else:
            solver, sample_id = f"replay:{path}", _sample_id(obj, where)
            patch_id = obj.get("id")
            if patch_id is not None and not isinstance(patch_id, str | int):
                raise InputError("must be a string or an integer", location=where, field="id")
            answer = _answer(obj, where, None if patch_id is None else str(patch_id))
        if known_ids is not None and sample_id not in known_ids:
            field = "sample_id" if solver.startswith("replay:") else "instance_id"
            raise InputError(f"no sample '{sample_id}' in the suite", location=where,
                             field=field)  # fmt: skip
        by_solver.setdefault(solver, {}).setdefault(sample_id, []).append(answer)
    if not by_solver:
        raise InputError("the patches file holds no patches", location=str(path))
    return by_solver


def _records(text: str, path: Path) -> Iterator[tuple[str, str | None, dict[str, Any]]]:
    """``(where, key, record)`` of a JSONL file, a JSON list or a JSON object keyed by instance
    id (``key`` is that id; None otherwise)."""
    whole = _whole_json(text)
    if isinstance(whole, list):
        for i, item in enumerate(whole):
            where = f"{path}: item {i}"
            if not isinstance(item, dict):
                raise InputError("each item must be a JSON object", location=where)
            yield where, None, item
    elif isinstance(whole, dict):
        for key, item in whole.items():
            yield f"{path}: key '{key}'", key, item
    else:
        for _, where, obj in json_objects(text, path):
            yield where, None, obj


def _whole_json(text: str) -> list[Any] | dict[str, dict[str, Any]] | None:
    """The file as one JSON list, or as one object keyed by instance id whose values are all
    records; None for JSONL (a one-line JSONL file is a record, not a keyed object)."""
    if text.lstrip()[:1] not in ("[", "{"):
        return None
    try:
        whole = json.loads(text)
    except ValueError:
        return None
    if isinstance(whole, list):
        return whole
    if isinstance(whole, dict) and whole and all(isinstance(v, dict) for v in whole.values()):
        return whole
    return None


def _sample_id(obj: dict[str, Any], where: str) -> str:
    sample_id = obj.get("sample_id")
    if not isinstance(sample_id, str) or not sample_id:
        raise InputError("required, a non-empty string", location=where, field="sample_id")
    return sample_id


def _prediction(obj: dict[str, Any], key: str | None, where: str) -> tuple[str, str, Answer]:
    """(solver, sample id, answer) of one SWE-bench prediction."""
    instance = obj.get("instance_id", key)
    if not isinstance(instance, str) or not instance:
        raise InputError("required, a non-empty string", location=where, field="instance_id")
    if key is not None and instance != key:
        raise InputError(f"'{instance}' under the key '{key}'", location=where,
                         field="instance_id")  # fmt: skip
    model = obj.get("model_name_or_path")
    if not isinstance(model, str) or not model.strip():
        raise InputError("required, a non-empty string (the solver's name)", location=where,
                         field="model_name_or_path")  # fmt: skip
    patch = obj.get("model_patch")
    if patch is not None and not isinstance(patch, str):
        raise InputError("must be a string holding a unified diff, or null", location=where,
                         field="model_patch")  # fmt: skip
    if not patch or not patch.strip():
        return model.strip(), instance, Answer(no_patch=True, meta={"model_patch": patch})
    return model.strip(), instance, Answer(diff=patch)


ANSWER_FIELDS = ("patch", "files", "text", "label")


def _answer(obj: dict[str, Any], where: str, patch_id: str | None) -> Answer:
    given = [f for f in ANSWER_FIELDS if f in obj]
    if len(given) != 1:
        raise InputError("give exactly one of 'patch' (a unified diff), 'files', 'text' or "
                         "'label'", location=where, field="patch")  # fmt: skip
    value = obj[given[0]]
    if given[0] == "files":
        if not (
            isinstance(value, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())
        ):
            raise InputError("must be an object of path -> file content (strings)",
                             location=where, field="files")  # fmt: skip
        return Answer(files=value, patch_id=patch_id)
    if given[0] == "label":
        try:
            return Answer(label=Label.model_validate(value), patch_id=patch_id)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(["label", *(str(x) for x in err["loc"])])
            raise InputError(err["msg"], location=where, field=loc) from None
    if not isinstance(value, str):
        what = "a unified diff" if given[0] == "patch" else "text"
        raise InputError(f"must be a string holding {what}", location=where, field=given[0])
    if given[0] == "text":
        return Answer(text=value, patch_id=patch_id)
    return Answer(diff=value, patch_id=patch_id)


class ReplaySolver(SolverBase):
    """Replays the answers of a file, attempt by attempt, on any family that takes their kinds."""

    def __init__(self, name: str, patches: Answers):
        self.name = name
        self.patches = patches

    def serves(self, family: Family) -> str | None:
        kinds = {a.kind for answers in self.patches.values() for a in answers}
        foreign = sorted(kinds - family.answer_kinds - {AnswerKind.NONE})
        if not foreign:
            return None
        return (
            f"{family.name} samples take {', '.join(sorted(family.answer_kinds))} answers, "
            f"not {', '.join(foreign)}"
        )

    def attempts(self, sample: Any) -> int:
        return len(self.patches.get(sample.id, []))

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        return self.patches[sample.id][attempt]


def _replay(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    """One solver per name in the file (one per model for SWE-bench predictions)."""
    found = read_answers(Path(spec.removeprefix("replay:")), known_ids)
    return [ReplaySolver(name, answers) for name, answers in found.items()]


ORDER = 20
KINDS = (
    SolverKind("replay", "replay:FILE", _replay, accepts=lambda spec: spec.startswith("replay:")),
)
