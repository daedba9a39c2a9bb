"""Persisted result records (one line of results.jsonl each); documented in docs/results.md."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
    model_validator,
)

from truepass.errors import InputError
from truepass.judged import Judged
from truepass.metrics.localisation import Localisation
from truepass.metrics.quality import QualityDelta
from truepass.metrics.root_cause import NamedCause
from truepass.metrics.tree import Submission
from truepass.usage import Usage
from truepass.vocabulary import FAKE_FIX_FLAGS, Verdict

PUBLISHED_EVIDENCE: dict[str, type[BaseModel] | None] = {
    "quality": QualityDelta,  # repair
    "localisation": Localisation,  # repair
    "named_cause": NamedCause,  # repair, the root-cause prompt variant
    "failed_case": None,  # codegen: phase, index, args, expected, got
    "submission": Submission,  # rebuild
}
"""Evidence fields every line of ``results.jsonl`` has carried at its top level since before
evidence was a family's own (:class:`~truepass.judged.Evidence`), null where a family has none:
a public contract, so they are written for every record still, each where it always stood
(:data:`_PUBLISHED_AFTER`), with the model it holds (the CSV export's ``NAME.SUB`` columns). A
family's other evidence fields follow the declared ones."""
_PUBLISHED_AFTER = {
    "quality": "regressions",
    "localisation": "quality",
    "named_cause": "localisation",
    "failed_case": "hidden",
    "submission": "scores",
}


class AttemptRecord(Judged):
    """One judged attempt of one solver on one sample: what the judge returned
    (:class:`~truepass.judged.Judged`) and where it came from. Read back, every top-level field a
    record holds that is not declared here is evidence (the family's, or a newer truepass's), so
    reading and re-writing results never loses one."""

    model_config = ConfigDict(extra="allow")

    @model_validator(mode="before")
    @classmethod
    def _evidence_at_the_top(cls, data: Any) -> Any:
        # results.jsonl keeps evidence at the top level (PUBLISHED_EVIDENCE): gather it back
        if isinstance(data, dict) and "evidence" not in data:
            data = dict(data)
            data["evidence"] = {k: data.pop(k) for k in list(data) if k not in cls.model_fields}
        return data

    suite: str
    sample_id: str
    defect_type: str
    leakage: str
    solver: str
    attempt: int = Field(ge=0)
    patch_id: str | None = None
    solve_s: float = 0.0
    usage: Usage | None = Field(None, description="model calls, tokens, latency, cost")
    parse: str | None = Field(None, description="how the model's answer was parsed")
    solver_meta: dict[str, object] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _in_reading_order(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # the attempt first, then what the judge returned with its evidence at the top level
        # (RECORD_FIELDS), then any other evidence field
        data: dict[str, Any] = handler(self)
        evidence = data.pop("evidence", None) or {}
        data |= {k: evidence.pop(k, None) for k in PUBLISHED_EVIDENCE} | evidence
        return {k: data[k] for k in RECORD_FIELDS if k in data} | data

    @classmethod
    def of(cls, judged: Judged, **fields: Any) -> AttemptRecord:
        """The record of ``judged`` with the attempt's other ``fields`` (its evidence kept as
        the family's own type)."""
        return cls.model_validate({**dict(judged), **fields})


def _field_order() -> tuple[str, ...]:
    own = [f for f in AttemptRecord.model_fields if f not in Judged.model_fields]
    cut = own.index("patch_id") + 1  # where the attempt came from, then how it was judged
    judged = [f for f in Judged.model_fields if f != "evidence"]
    for key in PUBLISHED_EVIDENCE:  # the evidence at the top level, where it always stood
        judged.insert(judged.index(_PUBLISHED_AFTER[key]) + 1, key)
    return (*own[:cut], *judged, *own[cut:])


_M = TypeVar("_M", bound=BaseModel)


def read_meta_entry(meta: Mapping[str, object], key: str, model: type[_M]) -> _M | None:
    """``meta[key]`` (of an attempt's ``solver_meta``) read as ``model``; None when it holds none,
    or one in a shape this truepass does not read (edited by hand, or from another version): the
    report then shows the attempt without it rather than failing."""
    value = meta.get(key)
    if not isinstance(value, dict):
        return None
    try:
        return model.model_validate(value)
    except ValidationError:
        return None


RECORD_FIELDS = _field_order()
"""The fields of a record line in reading order (the attempt, what the judge returned with the
published evidence, how the solver got there): the columns of the CSV export."""


def is_correct(record: Judged) -> bool:
    """A correct verdict that no fake-fix flag casts doubt on: what rates count as correct.

    A patch that passes every test but, say, special-cases the tests' inputs or edits the tests
    is reported with its verdict and flags, and is not counted as correct (``flagged_correct``).
    """
    return record.verdict is Verdict.CORRECT and not set(FAKE_FIX_FLAGS).intersection(record.flags)


def read_results(run: Path, *, allow_empty: bool = False) -> list[AttemptRecord]:
    """Read a run directory's ``results.jsonl`` (or that file itself).

    Raises:
        InputError: the path is missing, holds no results.jsonl, a line is malformed (with
            ``file:line``), an attempt appears twice, or there is no attempt at all.
    """
    path = run / "results.jsonl" if run.is_dir() else run
    if not run.exists():
        raise InputError("no such run directory", location=str(run))
    if not path.is_file():
        raise InputError("no results.jsonl: not a run directory", location=str(run))
    records: list[AttemptRecord] = []
    seen: set[tuple[str, str, int]] = set()
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            try:
                rec = AttemptRecord.model_validate_json(line)
            except ValidationError as exc:
                err = exc.errors()[0]
                loc = ".".join(str(x) for x in err["loc"]) or None
                raise InputError(err["msg"], location=where, field=loc) from None
            key = (rec.solver, rec.sample_id, rec.attempt)
            if key in seen:
                raise InputError(
                    f"attempt {rec.attempt} of sample {rec.sample_id!r} by solver "
                    f"{rec.solver!r} appears twice",
                    location=where,
                )
            seen.add(key)
            records.append(rec)
    if not records and not allow_empty:
        raise InputError("results.jsonl holds no attempts", location=str(path))
    return records
