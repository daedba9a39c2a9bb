"""``replay:FILE``: patches made elsewhere, read from a patches JSONL file (docs/patches-format.md).

Each line: ``sample_id``, optional ``id`` (echoed as ``patch_id``), and either ``patch`` (a unified
diff) or ``files`` (path -> whole new content). Other fields are ignored. Several lines for one
sample become attempts 0, 1, ... in file order.
"""

from __future__ import annotations

from pathlib import Path

from truepass.errors import InputError
from truepass.jsonlines import json_objects
from truepass.patches.apply import Answer
from truepass.solvers.base import SolveContext
from truepass.suites.schema import RepairSample


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
        has_patch, has_files = "patch" in obj, "files" in obj
        if has_patch == has_files:
            raise InputError("give exactly one of 'patch' (a unified diff) or 'files'",
                             location=where, field="patch")  # fmt: skip
        if has_patch and not isinstance(obj["patch"], str):
            raise InputError("must be a string holding a unified diff", location=where,
                             field="patch")  # fmt: skip
        files = obj.get("files")
        if has_files and not (
            isinstance(files, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items())
        ):
            raise InputError("must be an object of path -> file content (strings)",
                             location=where, field="files")  # fmt: skip
        answer = Answer(
            diff=obj.get("patch"),
            files=files,
            patch_id=None if patch_id is None else str(patch_id),
        )
        by_sample.setdefault(sample_id, []).append(answer)
    if not by_sample:
        raise InputError("the patches file holds no patches", location=str(path))
    return by_sample


class ReplaySolver:
    """Replays the patches of a file, attempt by attempt."""

    def __init__(self, path: Path, known_ids: set[str] | None = None):
        self.name = f"replay:{path}"
        self.patches = read_patches(path, known_ids)

    def attempts(self, sample: RepairSample) -> int:
        return len(self.patches.get(sample.id, []))

    def solve(self, sample: RepairSample, attempt: int, ctx: SolveContext) -> Answer | None:
        return self.patches[sample.id][attempt]
