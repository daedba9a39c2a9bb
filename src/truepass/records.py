"""Persisted result records (one line of results.jsonl each); documented in docs/results.md."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from truepass.errors import InputError
from truepass.judges.verdicts import FlagDetail, PhaseResult
from truepass.metrics.localisation import Localisation
from truepass.metrics.quality import QualityDelta
from truepass.metrics.root_cause import NamedCause
from truepass.patches.fakefix import FLAG_NAMES
from truepass.usage import Usage


class AttemptRecord(BaseModel):
    """One judged attempt of one solver on one sample. Fields a newer truepass wrote are kept
    (``extra="allow"``), so reading and re-writing results never loses them."""

    model_config = ConfigDict(extra="allow")

    suite: str
    sample_id: str
    defect_type: str
    leakage: str
    solver: str
    attempt: int = Field(ge=0)
    patch_id: str | None = None
    verdict: str
    flags: list[str] = Field(default_factory=list)
    flag_details: list[FlagDetail] = Field(default_factory=list)
    regressions: list[str] = Field(default_factory=list)
    quality: QualityDelta | None = None
    localisation: Localisation | None = None
    named_cause: NamedCause | None = None
    visible: PhaseResult | None = None
    hidden: PhaseResult | None = None
    patch: str = ""
    changed_files: list[str] = Field(default_factory=list)
    details: str = ""
    test_output: str = ""
    sandbox_tier: str = ""
    infra_retries: int = 0
    solve_s: float = 0.0
    duration_s: float = 0.0
    usage: Usage | None = Field(None, description="model calls, tokens, latency, cost")
    parse: str | None = Field(None, description="how the model's answer was parsed")
    solver_meta: dict[str, object] = Field(default_factory=dict)


FAKE_FIX_FLAGS = frozenset(FLAG_NAMES)


def is_correct(record: AttemptRecord) -> bool:
    """A correct verdict that no fake-fix flag casts doubt on: what rates count as correct.

    A patch that passes every test but, say, special-cases the tests' inputs or edits the tests
    is reported with its verdict and flags, and is not counted as correct (``flagged_correct``).
    """
    return record.verdict == "correct" and not FAKE_FIX_FLAGS.intersection(record.flags)


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
