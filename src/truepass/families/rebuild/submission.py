"""A rebuild submission: the files it holds (the reference answer's come from the unpacked
source package) and what kind of source tree it is (language and structure)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from truepass.answers import Answer
from truepass.errors import InputError
from truepass.families.rebuild.sources import cache_root
from truepass.families.rebuild.structure import LANGUAGES
from truepass.metrics.tree import Submission

SOURCE_DIR = "source_dir"
"""``Answer.meta`` key of the reference answer: a source tree in the rebuild cache, judged with
the answer's own files on top (its ``compile.sh``)."""


def submission_files(answer: Answer) -> dict[str, str | bytes]:
    """The tree ``answer`` submits: its files, over the source tree its meta names (the
    reference answer only; it must lie in the rebuild cache).

    Raises:
        InputError: the named source tree is missing or outside the rebuild cache.
    """
    files: dict[str, str | bytes] = {}
    source = answer.meta.get(SOURCE_DIR)
    if source is not None:
        root = Path(str(source)).resolve()
        cache = cache_root().resolve()
        if not root.is_dir() or cache not in root.parents:
            raise InputError(
                f"the reference answer's source tree {root} is not a directory in {cache}: run "
                "scripts/rebuild_setup.py (or truepass build-rebuild) to fetch it"
            )
        files.update(read_tree(root))
    files.update(answer.files or {})
    return files


def read_tree(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root`` (symlinks kept out), as bytes by relative path."""
    found: dict[str, bytes] = {}
    for here, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in {".git", ".pc"})
        for name in sorted(names):
            path = Path(here) / name
            if path.is_file() and not path.is_symlink():
                found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def language_of(files: Mapping[str, str | bytes]) -> str:
    """The language most of the submission's source lines are in (``unknown``: none)."""
    lines: Counter[str] = Counter()
    for path, content in files.items():
        language = LANGUAGES.get(PurePosixPath(path).suffix.lower())
        if language is None or PurePosixPath(path).name == "compile.sh":
            continue
        text = content if isinstance(content, str) else content.decode("utf-8", "replace")
        lines[language] += sum(1 for line in text.splitlines() if line.strip())
    if not lines:
        return "unknown"
    return max(sorted(lines), key=lambda lang: lines[lang])


def describe(files: Mapping[str, str | bytes]) -> Submission:
    """The submission's language and structure (source files, depth, functions, mean
    function length)."""
    from truepass.families.rebuild.structure import structure_of

    sources = {
        p: c
        for p, c in files.items()
        if PurePosixPath(p).suffix.lower() in LANGUAGES and PurePosixPath(p).name != "compile.sh"
    }
    shape = structure_of(sources)
    return Submission(language=language_of(files), **shape.model_dump())
