"""The ``review`` adapter: external code-review JSONL -> review samples, through a field mapping.

``--suite review:MAPPING.toml`` reads the JSONL file the mapping names, renaming its fields to
ours; ``--suite review:FILE.jsonl`` reads a file whose lines already use our field names (the
``family`` field may be left out). The mapping (docs/review-format.md)::

    data = "cls-test.jsonl"        # the JSONL file, relative to the mapping file
    preset = "codereviewer"        # optional: start from a known dataset's mapping
    [fields]                       # our field = their field (dotted for nested objects)
    diff = "patch"
    dialogue = "msg"
    decision = "y"
    [decisions]                    # their value = our decision
    "0" = "accept"
    "1" = "reject"
    [roles]                        # their dialogue role = ours (reviewer | author)
    [defaults]                     # constant values for fields the file lacks
    project = "codereviewer"
    leakage = "public-old"

Every error names the file, the line and the field (ours and theirs).
"""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from truepass.errors import SuiteError
from truepass.families.formats import SuiteFormat
from truepass.families.review.schema import ReviewSample
from truepass.jsonlines import json_objects
from truepass.suites.validation import describe_validation_error

FIELDS = (
    "id", "project", "diff", "files", "description", "decision", "dialogue", "timestamp",
    "source", "leakage", "category", "meta",
)  # fmt: skip
"""Our fields a mapping may name (``diff`` and ``files`` are the sample's ``change``)."""
REQUIRED = ("diff", "decision")
MAPPING_KEYS = frozenset({"data", "preset", "fields", "decisions", "roles", "defaults"})
DECISIONS = {
    "accept": "accept", "accepted": "accept", "approve": "accept", "approved": "accept",
    "merged": "accept", "reject": "reject", "rejected": "reject", "declined": "reject",
    "abandoned": "reject", "changes_requested": "reject",
}  # fmt: skip
"""Their decision values understood without a ``[decisions]`` table (lower-cased)."""
ROLES = {"reviewer": "reviewer", "author": "author", "owner": "author", "submitter": "author"}

OURS: dict[str, Any] = {
    "fields": {"diff": "change.diff", "files": "change.files"},
    "decisions": {},
    "roles": {},
    "defaults": {},
}
"""The mapping of a JSONL file in our own format (``--suite review:FILE.jsonl``)."""

PRESETS: dict[str, dict[str, Any]] = {
    "codereviewer": {
        # CodeReviewer's diff-quality-estimation files (Li et al., 2022): a diff hunk, the
        # review comment it got, y = 1 when the hunk needed one (read as: not accepted as is)
        "fields": {
            "id": "id",
            "project": "proj",
            "diff": "patch",
            "dialogue": "msg",
            "decision": "y",
        },
        "decisions": {"0": "accept", "1": "reject"},
        "defaults": {"leakage": "public-old"},
    },
}


def load_review(path: Path) -> tuple[list[ReviewSample], bytes]:
    """Review samples of an external JSONL file, read through a mapping (see the module)."""
    if path.is_dir():
        raise SuiteError(
            "give the mapping (.toml) or the JSONL file, not a directory", location=str(path)
        )
    if path.suffix == ".toml":
        mapping, mapping_bytes = read_mapping(path)
        data = (path.parent / str(mapping["data"])).resolve()
        if not data.is_file():
            raise SuiteError(f"no such data file: {data}", location=str(path), field="data")
    else:
        mapping, mapping_bytes, data = dict(OURS), b"", path
    raw = data.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteError(f"not UTF-8 text ({exc})", location=str(data)) from exc
    samples: list[ReviewSample] = []
    seen: dict[str, int] = {}
    for lineno, where, obj in json_objects(text, data, SuiteError, "record"):
        sample = convert(obj, mapping, where, default_id=f"{data.stem}-{lineno}", data=data)
        if sample.id in seen:
            raise SuiteError(
                f"duplicate id '{sample.id}' (first on line {seen[sample.id]})",
                location=where,
                field=_theirs(mapping, "id"),
            )
        seen[sample.id] = lineno
        samples.append(sample)
    return samples, mapping_bytes + b"\n" + raw


def read_mapping(path: Path) -> tuple[dict[str, Any], bytes]:
    """The mapping file, checked, with its preset applied (the file's entries win)."""
    raw = path.read_bytes()
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SuiteError(f"not a valid TOML mapping: {exc}", location=str(path)) from exc
    unknown = sorted(set(data) - MAPPING_KEYS)
    if unknown:
        raise SuiteError(
            f"unknown key (a mapping has {', '.join(sorted(MAPPING_KEYS))})",
            location=str(path),
            field=unknown[0],
        )
    if not isinstance(data.get("data"), str):
        raise SuiteError("the JSONL file to read (a string)", location=str(path), field="data")
    preset: dict[str, Any] = {}
    if "preset" in data:
        if data["preset"] not in PRESETS:
            raise SuiteError(
                f"unknown preset {data['preset']!r} (known: {', '.join(PRESETS)})",
                location=str(path),
                field="preset",
            )
        preset = PRESETS[data["preset"]]
    out: dict[str, Any] = {"data": data["data"]}
    for table in ("fields", "decisions", "roles", "defaults"):
        given = data.get(table, {})
        if not isinstance(given, dict):
            raise SuiteError("must be a table", location=str(path), field=table)
        out[table] = {**preset.get(table, {}), **given}
    for ours, theirs in out["fields"].items():
        if ours not in FIELDS:
            raise SuiteError(
                f"not one of our fields ({', '.join(FIELDS)})",
                location=str(path),
                field=f"fields.{ours}",
            )
        if not isinstance(theirs, str) or not theirs:
            raise SuiteError(
                "must name their field (a string)", location=str(path), field=f"fields.{ours}"
            )
    for table, allowed in (("decisions", ("accept", "reject")), ("roles", ("reviewer", "author"))):
        for theirs, ours in out[table].items():
            if ours not in allowed:
                raise SuiteError(
                    f"must be {' or '.join(allowed)}, got {ours!r}",
                    location=str(path),
                    field=f"{table}.{theirs}",
                )
    for ours in out["defaults"]:
        if ours not in FIELDS:
            raise SuiteError(
                f"not one of our fields ({', '.join(FIELDS)})",
                location=str(path),
                field=f"defaults.{ours}",
            )
    return out, raw


def _theirs(mapping: dict[str, Any], ours: str) -> str:
    return str(mapping["fields"].get(ours, ours))


def _lookup(obj: dict[str, Any], dotted: str) -> tuple[bool, Any]:
    here: Any = obj
    for part in dotted.split("."):
        if not isinstance(here, dict) or part not in here:
            return False, None
        here = here[part]
    return True, here


def convert(
    obj: dict[str, Any], mapping: dict[str, Any], where: str, *, default_id: str, data: Path
) -> ReviewSample:
    """One record renamed and converted to a review sample."""
    values: dict[str, Any] = dict(mapping["defaults"])
    for ours in FIELDS:
        theirs = _theirs(mapping, ours)
        found, value = _lookup(obj, theirs)
        if found and value is not None:
            values[ours] = value
        elif ours in REQUIRED and ours not in values:
            named = f"'{theirs}'" if theirs == ours else f"'{theirs}' (our '{ours}')"
            raise SuiteError(
                f"required field {named} is missing (map it in the mapping's [fields])",
                location=where,
                field=theirs,
            )

    def fail(ours: str, message: str) -> SuiteError:
        theirs = _theirs(mapping, ours)
        return SuiteError(
            message, location=where, field=theirs if theirs == ours else f"{theirs} ({ours})"
        )

    decision = _decision(values["decision"], mapping["decisions"])
    if decision is None:
        known = sorted(mapping["decisions"]) or sorted(DECISIONS)
        raise fail(
            "decision",
            f"unknown decision {values['decision']!r} (known: {', '.join(known)}; map others "
            "in the mapping's [decisions])",
        )
    line: dict[str, Any] = {
        "family": "review",
        "id": str(values.get("id", default_id)),
        "project": str(values.get("project", data.stem)),
        "change": {"diff": values["diff"], "files": values.get("files", {})},
        "description": values.get("description", ""),
        "decision": decision,
        "dialogue": _dialogue(values.get("dialogue", []), mapping["roles"], fail),
        "timestamp": _timestamp(values.get("timestamp")),
        "source": str(values.get("source", f"review adapter: {data.name}")),
        "leakage": values.get("leakage", "public-old"),
        "category": values.get("category", "review"),
        "meta": values.get("meta", {}),
    }
    try:
        return ReviewSample.model_validate(line)
    except ValidationError as exc:
        lines = describe_validation_error(exc, where)
        raise SuiteError("invalid record after mapping:\n" + "\n".join(lines)) from exc


def _decision(value: Any, table: dict[str, str]) -> str | None:
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 1.0 reads as "1"
    key = str(value).strip().lower()  # JSON true reads as "true"
    if table:
        lowered = {str(k).lower(): v for k, v in table.items()}
        return lowered.get(key)
    return DECISIONS.get(key)


def _dialogue(value: Any, roles: dict[str, str], fail: Any) -> list[dict[str, Any]]:
    """A string is one reviewer comment; a list holds comments (strings, the reviewer's) or
    turns (objects with ``role``, ``text`` and optionally ``turning_point``)."""
    if isinstance(value, str):
        return [{"role": "reviewer", "text": value}] if value.strip() else []
    if not isinstance(value, list):
        raise fail("dialogue", f"must be a string or a list, got {type(value).__name__}")
    known = {**ROLES, **{k.lower(): v for k, v in roles.items()}}
    turns = []
    for i, turn in enumerate(value):
        if isinstance(turn, str):
            if turn.strip():
                turns.append({"role": "reviewer", "text": turn})
            continue
        if not isinstance(turn, dict) or "text" not in turn:
            raise fail("dialogue", f"turn {i} must be a string or an object with 'text'")
        role = known.get(str(turn.get("role", "reviewer")).lower())
        if role is None:
            raise fail(
                "dialogue",
                f"turn {i}: unknown role {turn.get('role')!r} (map it in the mapping's [roles])",
            )
        if str(turn["text"]).strip():
            turns.append(
                {
                    "role": role,
                    "text": str(turn["text"]),
                    "turning_point": bool(turn.get("turning_point", False)),
                }
            )
    return turns


def _timestamp(value: Any) -> str | None:
    """ISO 8601 as given; a number is read as POSIX seconds (UTC)."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, tz=UTC).isoformat()
    return str(value)


FORMAT = SuiteFormat(
    "review",
    load_review,
    "code-review records: a field mapping (.toml) naming a JSONL file, or a JSONL file in our "
    "field names (docs/review-format.md)",
)
"""``--suite review:PATH``"""
