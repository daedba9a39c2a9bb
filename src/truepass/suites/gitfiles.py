"""Read a local git repository's tracked text files at a commit (``git ls-tree`` and
``git cat-file``), without checking anything out: the user's working tree is never touched.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from truepass.paths import check_relative_path

MAX_FILE_BYTES = 1_000_000  # larger files are skipped (data, vendored bundles), and listed
SHOWN_SKIPS = 50


class GitError(Exception):
    """git failed or the repository/commit is not there; the message says what to do, ``field``
    which instance field it concerns (``repo`` or ``base_commit``)."""

    def __init__(self, message: str, field: str = "base_commit"):
        super().__init__(message)
        self.field = field


@dataclass
class Snapshot:
    """The text files of a commit, the id of its tree (a hash of every file) and what was left
    out, by reason (``binary``, ``too-large``, ``symlink``, ``submodule``, ``bad-path``)."""

    files: dict[str, str]
    tree: str
    skipped: dict[str, list[str]] = field(default_factory=dict)

    def skip_reason(self, path: str) -> str | None:
        """Why ``path`` is not in ``files`` although the commit has it (None if it is not
        skipped)."""
        return next((why for why, paths in self.skipped.items() if path in paths), None)

    def skipped_summary(self) -> dict[str, object]:
        """Counts by reason and the first paths, for a sample's ``meta``."""
        out: dict[str, object] = {why: len(paths) for why, paths in sorted(self.skipped.items())}
        every = sorted(p for paths in self.skipped.values() for p in paths)
        if every:
            out["paths"] = every[:SHOWN_SKIPS]
            out["max_file_bytes"] = MAX_FILE_BYTES
        return out


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    git = shutil.which("git")
    if git is None:
        raise GitError(
            "git is not installed (the swebench adapter reads repositories with it)", field="repo"
        )
    proc = subprocess.run(
        [git, "-C", str(repo), *args], input=data, capture_output=True, check=False
    )
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"`git {' '.join(args[:3])}` failed in {repo}: {err[-500:]}")
    return proc.stdout


def git_text(repo: Path, *args: str) -> str:
    """What ``git -C repo ARGS`` prints, as text; raises :class:`GitError` saying why not."""
    return _git(repo, *args).decode("utf-8", "replace")


def check_repository(repo: Path, commit: str) -> None:
    """Raise :class:`GitError` unless ``repo`` is a git repository holding ``commit``."""
    if not repo.is_dir():
        raise GitError(f"{repo} is not a directory", field="repo")
    try:
        _git(repo, "rev-parse", "--git-dir")
    except GitError as exc:
        raise GitError(f"{repo} is not a git repository ({exc})", field="repo") from exc
    try:
        _git(repo, "cat-file", "-e", f"{commit}^{{commit}}")
    except GitError as exc:
        raise GitError(
            f"commit {commit} is not in {repo}; fetch it (`git -C {repo} fetch origin {commit}`, "
            "or clone without --depth)"
        ) from exc


def snapshot(repo: Path, commit: str, max_bytes: int = MAX_FILE_BYTES) -> Snapshot:
    """The text files tracked at ``commit`` (UTF-8, no NUL byte, at most ``max_bytes``)."""
    check_repository(repo, commit)
    tree = _git(repo, "rev-parse", f"{commit}^{{tree}}").decode().strip()
    listing = _git(repo, "ls-tree", "-r", "-l", "-z", "--full-tree", commit)
    skipped: dict[str, list[str]] = {}
    wanted: list[tuple[str, str]] = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, sha, size = meta.decode().split()
        path = raw_path.decode("utf-8", "replace")
        reason = _skip_reason(path, mode, kind, size, max_bytes)
        if reason:
            skipped.setdefault(reason, []).append(path)
        else:
            wanted.append((path, sha))
    fetch = sorted({sha for _, sha in wanted if sha not in _TEXTS})
    for sha, blob in zip(fetch, _blobs(repo, fetch), strict=True):
        _TEXTS[sha] = None if b"\0" in blob else _utf8(blob)
    files: dict[str, str] = {}
    for path, sha in wanted:
        text = _TEXTS[sha]
        if text is None:
            skipped.setdefault("binary", []).append(path)
        else:
            files[path] = text
    return Snapshot(files=files, tree=tree, skipped=skipped)


# Text of every blob read, by its id (None: binary): snapshots of many commits of a repository
# share one string per distinct file content, so memory grows with what changed, not with the
# number of commits read.
_TEXTS: dict[str, str | None] = {}


@functools.lru_cache(maxsize=64)
def _cached_snapshot(repo: str, commit: str) -> Snapshot:
    return snapshot(Path(repo), commit)


def files_at(repo: str, commit: str) -> dict[str, str]:
    """The text files of ``repo`` at ``commit`` (as :func:`snapshot`; cached). Do not change
    the dict: it is shared."""
    return _cached_snapshot(repo, commit).files


def _skip_reason(path: str, mode: str, kind: str, size: str, max_bytes: int) -> str | None:
    if kind == "commit":
        return "submodule"
    if mode == "120000":
        return "symlink"
    if kind != "blob":
        return "not-a-file"
    try:
        if check_relative_path(path) != path:
            return "bad-path"
    except ValueError:
        return "bad-path"
    if size.isdigit() and int(size) > max_bytes:
        return "too-large"
    return None


def _utf8(blob: bytes) -> str | None:
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _blobs(repo: Path, shas: list[str]) -> list[bytes]:
    """Contents of ``shas`` in order, from one ``git cat-file --batch`` process."""
    if not shas:
        return []
    out = _git(repo, "cat-file", "--batch", data=("\n".join(shas) + "\n").encode())
    blobs = []
    pos = 0
    for sha in shas:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode().split()
        if len(header) != 3 or header[0] != sha:
            raise GitError(f"unexpected `git cat-file` output for {sha} in {repo}: {header}")
        size = int(header[2])
        blobs.append(out[end + 1 : end + 1 + size])
        pos = end + 1 + size + 1
    return blobs
