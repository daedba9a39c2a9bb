"""``replay:FILE``: patches made elsewhere, read from a patches JSONL file (docs/patches-format.md).

Each line: ``sample_id``, optional ``id`` (echoed as ``patch_id``), and exactly one answer:
``patch`` (a unified diff), ``files`` (path -> whole new content), ``text`` (free text) or
``label`` (``{"decision": ..., "rationale": ...}``). Other fields are ignored. Several lines for one
sample become attempts 0, 1, ... in file order.
"""

from __future__ import annotations

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


def read_patches(path: Path, known_ids: set[str] | None = None) -> dict[str, list[Answer]]:
    """Parse a patches file; every malformed line raises :class:`InputError` with its number."""
    if not path.is_file():
        raise InputError("no such patches file", location=str(path))
    by_sample: dict[str, list[Answer]] = {}
    text = path.read_text(encoding="utf-8", errors="strict")
    for _, where, obj in json_objects(text, path):
        sample_id = obj.get("sample_id")
        if not isinstance(sample_id, str) or not sample_id:
            raise InputError("required, a non-empty string", location=where, field="sample_id")
        if known_ids is not None and sample_id not in known_ids:
            raise InputError(f"no sample '{sample_id}' in the suite", location=where,
                             field="sample_id")  # fmt: skip
        patch_id = obj.get("id")
        if patch_id is not None and not isinstance(patch_id, str | int):
            raise InputError("must be a string or an integer", location=where, field="id")
        answer = _answer(obj, where, None if patch_id is None else str(patch_id))
        by_sample.setdefault(sample_id, []).append(answer)
    if not by_sample:
        raise InputError("the patches file holds no patches", location=str(path))
    return by_sample


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

    def __init__(self, path: Path, known_ids: set[str] | None = None):
        self.name = f"replay:{path}"
        self.patches = read_patches(path, known_ids)

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
    return [ReplaySolver(Path(spec.removeprefix("replay:")), known_ids)]


ORDER = 20
KINDS = (
    SolverKind("replay", "replay:FILE", _replay, accepts=lambda spec: spec.startswith("replay:")),
)
