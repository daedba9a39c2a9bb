"""Human review of a run (issue 28, item 5): a stratified sample of its attempts for a review
sheet, the labels a reviewer gives back, and their agreement with truepass's verdicts.

Layout in the run directory (docs/results.md)::

    review/sheets/SHEET_ID.json   the attempts a sheet holds (written when it is exported)
    review/labels/SHEET_ID.json   the labels imported for it (``review-import``; again: replaced)
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from truepass.analysis.agreement import (
    Agreement,
    LabelledAttempt,
    ReviewLabel,
    agreement,
    truepass_class,
)
from truepass.errors import InputError
from truepass.records import AttemptRecord
from truepass.vocabulary import FAKE_FIX_FLAGS, NOT_COUNTED

DEFAULT_SHARE = 0.4
"""Seed 001 reviewed about 40% of its samples by hand."""

SHEETS = Path("review") / "sheets"
LABELS = Path("review") / "labels"


def attempt_key(record: AttemptRecord) -> str:
    """``SOLVER/SAMPLE/ATTEMPT``: an attempt's name on a sheet and in a labels file."""
    return f"{record.solver}/{record.sample_id}/{record.attempt}"


def run_hash(records: Sequence[AttemptRecord], suite_hash: str = "") -> str:
    """What a sheet's labels belong to: a hash of the suite's content hash and of every attempt's
    key, verdict, flags and patch (so labels of another run, or of this run judged again
    differently, are refused; two runs with the very same attempts cannot be told apart)."""
    digest = hashlib.sha256(suite_hash.encode("utf-8"))
    for r in sorted(records, key=lambda r: (r.solver, r.sample_id, r.attempt)):
        line = [attempt_key(r), str(r.verdict), sorted(r.flags), r.patch or ""]
        digest.update(json.dumps(line).encode("utf-8") + b"\n")
    return digest.hexdigest()[:16]


class Stratum(BaseModel):
    """One stratum of a run's counted attempts: a verdict, whether a fake-fix flag is present,
    and a solver."""

    model_config = ConfigDict(frozen=True)

    verdict: str
    flagged: bool
    solver: str
    size: int = Field(description="the stratum's counted attempts")
    drawn: int = Field(description="how many the sheet holds")


class SheetPlan(BaseModel):
    """A sheet: which attempts of which run, drawn how."""

    sheet_id: str
    run_hash: str
    run: str = Field(description="the run directory's name when exported")
    seed: int
    requested: int = Field(description="the size asked for (--size, or --share of counted)")
    population: int = Field(description="counted attempts of the run")
    strata: list[Stratum]
    entries: list[str] = Field(description="attempt keys, in the sheet's (shuffled) order")
    show_verdicts: bool = False
    created: str = ""


def flagged(record: AttemptRecord) -> bool:
    return bool(set(FAKE_FIX_FLAGS).intersection(record.flags))


def allocate(sizes: Sequence[int], n: int) -> list[int]:
    """Proportional allocation of ``n`` draws over strata of ``sizes`` with at least one per
    non-empty stratum and at most its size: ``floor(n * size / total)`` raised to 1, then the
    draws left go one at a time to the largest remainders (ties: the earlier stratum). The total
    is ``n`` unless there are more non-empty strata than ``n`` (then one each) or fewer attempts
    than ``n`` (then all)."""
    total = sum(sizes)
    if total == 0:
        return [0] * len(sizes)
    n = min(n, total)
    quotas = [n * s / total for s in sizes]
    out = [min(s, max(1, int(q))) if s else 0 for s, q in zip(sizes, quotas, strict=True)]
    while sum(out) < n:
        open_ = [i for i, s in enumerate(sizes) if out[i] < s]
        best = max(open_, key=lambda i: (quotas[i] - out[i], -i))
        out[best] += 1
    return out


def plan_sheet(
    records: Sequence[AttemptRecord],
    *,
    run: str,
    suite_hash: str = "",
    size: int | None = None,
    share: float | None = None,
    seed: int = 0,
    show_verdicts: bool = False,
) -> SheetPlan:
    """Draw a stratified sample of the counted attempts (strata: verdict x flagged x solver,
    proportional allocation, :func:`allocate`), the same for the same records, size and seed.
    Within a stratum the attempts are drawn with ``random.Random(seed)`` from their key order;
    the sheet shows them shuffled, so that strata (verdicts) do not show in the order."""
    if size is not None and share is not None:
        raise InputError("give --size or --share, not both", field="--size")
    counted = sorted(
        (r for r in records if r.verdict not in NOT_COUNTED),
        key=lambda r: (r.solver, r.sample_id, r.attempt),
    )
    if not counted:
        raise InputError("the run has no counted attempt to review")
    groups: dict[tuple[str, bool, str], list[AttemptRecord]] = defaultdict(list)
    for r in counted:
        groups[(str(r.verdict), flagged(r), r.solver)].append(r)
    keys = sorted(groups)
    wanted = size if size is not None else round((share or DEFAULT_SHARE) * len(counted))
    wanted = max(1, wanted)
    drawn = allocate([len(groups[k]) for k in keys], wanted)
    rng = random.Random(seed)
    chosen: list[AttemptRecord] = []
    for key, n in zip(keys, drawn, strict=True):
        chosen.extend(rng.sample(groups[key], n))
    rng.shuffle(chosen)
    entries = [attempt_key(r) for r in chosen]
    rhash = run_hash(records, suite_hash)
    ident = json.dumps([rhash, seed, wanted, entries, show_verdicts]).encode("utf-8")
    return SheetPlan(
        sheet_id=hashlib.sha256(ident).hexdigest()[:12],
        run_hash=rhash,
        run=run,
        seed=seed,
        requested=wanted,
        population=len(counted),
        strata=[
            Stratum(verdict=k[0], flagged=k[1], solver=k[2], size=len(groups[k]), drawn=n)
            for k, n in zip(keys, drawn, strict=True)
        ],
        entries=entries,
        show_verdicts=show_verdicts,
        created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )


def save_plan(run_dir: Path, plan: SheetPlan) -> Path:
    path = run_dir / SHEETS / f"{plan.sheet_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(plan.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path


class EntryLabel(BaseModel):
    """One attempt's label in a labels file."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(min_length=1, description="SOLVER/SAMPLE/ATTEMPT, as on the sheet")
    label: ReviewLabel
    note: str = ""


class LabelsFile(BaseModel):
    """What the sheet's "download labels" button writes."""

    model_config = ConfigDict(extra="forbid")

    format: str = Field("truepass-review-labels/1", pattern=r"^truepass-review-labels/1$")
    sheet_id: str = Field(min_length=1)
    run_hash: str = Field(min_length=1)
    reviewer: str = ""
    labels: list[EntryLabel]


def read_labels(path: Path) -> LabelsFile:
    """A labels file, validated; an input error naming the file and the field."""
    if not path.is_file():
        raise InputError("no such labels file", location=str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"not JSON ({exc})", location=str(path)) from None
    try:
        return LabelsFile.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"]) or None
        raise InputError(err["msg"], location=str(path), field=loc) from None


def import_labels(
    run_dir: Path, path: Path, records: Sequence[AttemptRecord], suite_hash: str = ""
) -> Path:
    """Check a labels file against the run and its sheet, and store it as
    ``review/labels/SHEET_ID.json`` (replacing an earlier import of the same sheet).

    Raises:
        InputError: a malformed file, labels of another run or of a sheet this run never
            exported, a key that is not on the sheet, an attempt labelled twice.
    """
    labels = read_labels(path)
    here = run_hash(records, suite_hash)
    if labels.run_hash != here:
        raise InputError(
            f"these labels are of another run (run hash {labels.run_hash}; {run_dir} has "
            f"{here}): export a sheet from this run and label it",
            location=str(path),
            field="run_hash",
        )
    plan_path = run_dir / SHEETS / f"{labels.sheet_id}.json"
    if not plan_path.is_file():
        raise InputError(
            f"sheet {labels.sheet_id} was not exported from {run_dir} (no {plan_path})",
            location=str(path),
            field="sheet_id",
        )
    plan = SheetPlan.model_validate_json(plan_path.read_text(encoding="utf-8"))
    on_sheet = set(plan.entries)
    seen: set[str] = set()
    for i, item in enumerate(labels.labels):
        if item.key not in on_sheet:
            raise InputError(f"{item.key!r} is not on sheet {plan.sheet_id}", location=str(path),
                             field=f"labels.{i}.key")  # fmt: skip
        if item.key in seen:
            raise InputError(f"{item.key!r} is labelled twice", location=str(path),
                             field=f"labels.{i}.key")  # fmt: skip
        seen.add(item.key)
    out = run_dir / LABELS / f"{labels.sheet_id}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    stored = {
        **labels.model_dump(mode="json"),
        "imported": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "source": str(path),
    }
    out.write_text(json.dumps(stored, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


class StoredLabels(LabelsFile):
    model_config = ConfigDict(extra="ignore")
    imported: str = ""
    source: str = ""


def run_agreement(run_dir: Path, records: Sequence[AttemptRecord]) -> Agreement | None:
    """The agreement of every labels file imported into ``run_dir`` with the records' verdicts
    (an attempt labelled on several sheets: the latest import counts); None when none was."""
    folder = run_dir / LABELS
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        return None
    stored = []
    for f in files:
        try:
            stored.append(StoredLabels.model_validate_json(f.read_text(encoding="utf-8")))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(x) for x in err["loc"]) or None
            raise InputError(err["msg"], location=str(f), field=loc) from None
    stored.sort(key=lambda s: s.imported)
    by_key = {attempt_key(r): r for r in records}
    latest: dict[str, EntryLabel] = {}
    for s in stored:
        for item in s.labels:
            if item.key in by_key:
                latest[item.key] = item
    items = []
    for key, item in latest.items():
        r = by_key[key]
        items.append(
            LabelledAttempt(
                key=key,
                solver=r.solver,
                sample_id=r.sample_id,
                attempt=r.attempt,
                verdict=str(r.verdict),
                flags=list(r.flags),
                truepass=truepass_class(r.verdict, r.flags),
                reviewer=item.label,
                note=item.note,
            )
        )
    items.sort(key=lambda x: (x.solver, x.sample_id, x.attempt))
    return agreement(items, sheets=[s.sheet_id for s in stored])
