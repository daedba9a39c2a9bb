"""Reading SWE-bench instance files and finding the local clones (for :mod:`.swebench`).

Errors about one instance are :class:`RecordError` (naming the field); the adapter adds the file,
line and instance id. Errors about a whole file are :class:`SuiteError` directly.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from truepass.errors import SuiteError
from truepass.families.repair.testids import non_pytest_reason
from truepass.jsonlines import json_objects

REPOS_TOML = "repos.toml"
REPOS_DIR = "repos"
REQUIRED_TEXT = ("instance_id", "repo", "base_commit", "patch", "test_patch", "problem_statement")
ID_LISTS = ("FAIL_TO_PASS", "PASS_TO_PASS")
OPTIONAL_TEXT = ("version", "environment_setup_commit")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_COMMIT = re.compile(r"^[0-9a-fA-F]{7,40}$")


class RecordError(Exception):
    """One instance is malformed: ``field`` names what is wrong (None for the whole record)."""

    def __init__(self, field: str | None, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


def read_records(path: Path, text: str) -> list[tuple[str, dict[str, object]]]:
    """``(location, instance)`` pairs; a ``.json`` file is a list, anything else JSON lines."""
    out = []
    if path.suffix == ".json" or text.lstrip().startswith("["):
        for lineno, obj in _json_list(path, text):
            out.append((f"{path}:{lineno}", obj))
        return out
    for _, where, obj in json_objects(text, path, SuiteError, "instance"):
        out.append((where, obj))
    return out


def _json_list(path: Path, text: str) -> list[tuple[int, dict[str, object]]]:
    """The elements of a JSON list with the line each starts on."""
    decoder = json.JSONDecoder()
    ws = re.compile(r"\s*")

    def skip(i: int) -> int:
        return ws.match(text, i).end()  # type: ignore[union-attr]

    def fail(msg: str, i: int) -> SuiteError:
        return SuiteError(msg, location=f"{path}:{text.count(chr(10), 0, i) + 1}")

    i = skip(0)
    if not text.startswith("[", i):
        raise fail("a .json file must hold a list of instances", i)
    i = skip(i + 1)
    out: list[tuple[int, dict[str, object]]] = []
    while not text.startswith("]", i):
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            raise fail(f"not valid JSON ({exc.msg})", exc.pos) from exc
        line = text.count("\n", 0, i) + 1
        out.append((line, _object(obj, f"{path}:{line}")))
        i = skip(end)
        if text.startswith(",", i):
            i = skip(i + 1)
        elif not text.startswith("]", i):
            raise fail("expected ',' or ']' after an instance", i)
    if text[skip(i + 1) :]:
        raise fail("unexpected text after the list", skip(i + 1))
    return out


def _object(obj: object, where: str) -> dict[str, object]:
    if not isinstance(obj, dict):
        raise SuiteError("an instance must be a JSON object", location=where)
    return obj


@dataclass(frozen=True)
class Instance:
    """One SWE-bench instance, checked; the id lists decoded and without duplicates."""

    instance_id: str
    repo: str
    base_commit: str
    patch: str
    test_patch: str
    problem_statement: str
    fail_to_pass: list[str]
    pass_to_pass: list[str]
    created_at: datetime | None = None
    extra: dict[str, str] = field(default_factory=dict)  # OPTIONAL_TEXT fields present


def instance_fields(record: dict[str, object]) -> Instance:
    """Check one instance's fields (raises :class:`RecordError` naming the field)."""
    text: dict[str, str] = {}
    for name in REQUIRED_TEXT:
        value = record.get(name)
        if value is None:
            raise RecordError(name, "required field is missing")
        if not isinstance(value, str) or not value.strip():
            raise RecordError(name, "must be a non-empty string")
        text[name] = value
    if not _REPO.match(text["repo"]):
        raise RecordError("repo", f"expected 'owner/name', got {text['repo']!r}")
    if not _COMMIT.match(text["base_commit"]):
        raise RecordError("base_commit", f"expected a commit hash, got {text['base_commit']!r}")
    f2p, p2p = (_id_list(record, name) for name in ID_LISTS)
    if not f2p:
        raise RecordError("FAIL_TO_PASS", "is empty: no test shows the defect")
    return Instance(
        **text,
        fail_to_pass=f2p,
        pass_to_pass=p2p,
        created_at=_created_at(record.get("created_at")),
        extra={n: str(record[n]) for n in OPTIONAL_TEXT if record.get(n) is not None},
    )


def _id_list(record: dict[str, object], name: str) -> list[str]:
    value = record.get(name)
    if value is None:
        raise RecordError(name, "required field is missing")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise RecordError(name, f"a string, but not a JSON-encoded list ({exc.msg})") from exc
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RecordError(name, "must be a list of test ids (or a JSON string holding one)")
    for test_id in value:
        why = non_pytest_reason(test_id)
        if why:
            raise RecordError(
                name,
                f"{why}. Remove this instance from the file (its repository's tests are not run "
                "by pytest)",
            )
    return list(dict.fromkeys(value))


def _created_at(value: object) -> datetime | None:
    if value is None:
        return None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            stamp = value / 1000 if value > 1e11 else value  # milliseconds (pandas) or seconds
            return datetime.fromtimestamp(stamp, tz=UTC)
        if isinstance(value, str):
            when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            return when if when.tzinfo else when.replace(tzinfo=UTC)
    except (ValueError, OverflowError, OSError) as exc:
        raise RecordError("created_at", f"not a date: {value!r} ({exc})") from exc
    raise RecordError("created_at", f"expected an ISO date or a timestamp, got {value!r}")


class RepoMap:
    """Where each repository's clone is: ``repos.toml`` entries, else ``repos/owner__name``."""

    def __init__(self, base: Path):
        self.base = base
        self.toml_path = base / REPOS_TOML
        self.raw = b""
        self.entries: dict[str, object] = {}
        if self.toml_path.is_file():
            self.raw = self.toml_path.read_bytes()
            try:
                self.entries = tomllib.loads(self.raw.decode("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise SuiteError(f"not valid TOML: {exc}", location=str(self.toml_path)) from exc

    def find(self, repo: str) -> Path:
        default = self.base / REPOS_DIR / repo.replace("/", "__")
        if repo in self.entries:
            value = self.entries[repo]
            if not isinstance(value, str):
                raise SuiteError(
                    f"the entry for '{repo}' must be a path string", location=str(self.toml_path)
                )
            found = self.base / Path(value).expanduser()
            if not found.is_dir():
                raise RecordError(
                    "repo",
                    f"'{repo}' maps to {found} in {REPOS_TOML}, which is not a directory; clone "
                    "it there or fix the entry",
                )
            return found
        if default.is_dir():
            return default
        raise RecordError(
            "repo",
            f"repository '{repo}' not found locally: no entry in {self.toml_path} and no "
            f"directory {default}. Clone it (`git clone https://github.com/{repo} {default}`) or "
            f'map it in {REPOS_TOML} (`"{repo}" = "path/to/clone"`)',
        )
