"""Build a summarize suite from Python source: a directory, a git repository, or an installed
distribution (``truepass build-suite summarize``; docs/summarize-format.md).

Code is read with :mod:`ast`; nothing is imported or run. A sample is a module-level function or
a method of a class (at any depth of classes, also under ``if``/``try``/``with`` blocks); a
function defined inside another function is part of that function's code, not a sample.

The study's filters, applied in this order, each function dropped by the first one it fails
(:data:`FILTERS`): files in test directories, names containing ``test``/``Test``, dunder
methods, no docstring, docstrings over 500 words; then two of ours: a docstring with no first
paragraph to use as the summary, and a body that is only the docstring (nothing to summarise).

In a git work tree the files tracked at HEAD are read (uncommitted edits and untracked files are
not), and each function's timestamp is the latest author date over its lines in ``git blame``
at that commit: one ``git blame`` per file, run in parallel (``git log -L`` per function gives
the same dates on line edits and is far slower; see docs/summarize-format.md).
"""

from __future__ import annotations

import ast
import io
import os
import re
import shutil
import subprocess
import sys
import time
import tokenize
import warnings
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import cast, get_args

from truepass import pyast
from truepass.errors import InputError
from truepass.families.summarize.schema import SummarizeSample
from truepass.suites.fields import Leakage

MAX_DOCSTRING_WORDS = 500

FILTERS: dict[str, str] = {
    "test-file": "in a test directory or test file (tests/, test_*.py, *_test.py, conftest.py)",
    "test-name": "its name, or its class's, contains 'test' or 'Test'",
    "dunder": "a dunder method (__init__, __eq__, ...)",
    "no-docstring": "no docstring",
    "long-docstring": f"a docstring over {MAX_DOCSTRING_WORDS} words",
    "no-summary": "the docstring has no first paragraph (it opens with :param, >>>, ...)",
    "docstring-only": "the body is only the docstring: nothing to summarise",
    "limit": "beyond --limit",
}
"""Why a function is dropped, in the order the filters apply."""

TEST_DIRS = frozenset({"test", "tests", "testing"})
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "dist-packages"})
LEAKAGE_TIERS: tuple[str, ...] = get_args(Leakage)
BLAME_WORKERS = min(8, os.cpu_count() or 1)

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")  # the newlines ast counts, no others
_NOT_ID = re.compile(r"[^A-Za-z0-9._/:@+-]")
_SECTION = re.compile(
    r"^(?:args|arguments|parameters|params|returns?|yields?|raises|examples?|notes?|"
    r"attributes|keyword arguments|other parameters|see also|references|warnings?|todo)\s*:?\s*$",
    re.IGNORECASE,
)
_FIELD = re.compile(r"^:[^:`\s][^:`]*:(?:\s|$)")  # ":param x: ...", not a role (":class:`X`")
_HEX = re.compile(rb"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")


@dataclass(frozen=True)
class Function:
    """One definition found in a file, with the first filter it fails (None: kept)."""

    path: str
    class_name: str | None
    name: str
    start: int  # first line, decorators included (1-based)
    end: int  # last line
    docstring: str | None  # the whole docstring, cleaned (inspect.cleandoc)
    summary: str  # its first paragraph, on one line
    code: str  # the definition without its docstring, dedented ("" when dropped)
    drop: str | None

    @property
    def qualname(self) -> str:
        return f"{self.class_name}.{self.name}" if self.class_name else self.name


@dataclass
class BuildReport:
    """What a build read and kept: ``found`` = ``kept`` + the sum of ``dropped``."""

    project: str
    origin: str  # "directory", "git" or "package"
    root: str
    commit: str | None = None  # git: the commit read (HEAD)
    version: str | None = None  # package: the distribution's version
    files: int = 0  # Python files read
    unparsable: list[str] = field(default_factory=list)  # files ast cannot parse (or decode)
    found: int = 0
    kept: int = 0
    dropped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FILTERS, 0))
    seconds: float = 0.0
    blame_seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return asdict(self)


# ---------------------------------------------------------------------------------- extraction


def summary_of(docstring: str) -> str:
    """The reference summary: the docstring's first paragraph, its lines joined by spaces.

    The paragraph ends at a blank line, or at a line opening a field list or section (``:param
    x:``, ``@param``, ``>>>``, ``Args:``, ``Returns:``, ...) when no blank line comes first (a
    line opening with a role, ``:class:`X```, goes on); a docstring that opens with one has no
    summary (``''``).
    """
    words: list[str] = []
    for line in docstring.strip().splitlines():
        s = line.strip()
        if not s or s.startswith(("@", ">>>")) or _FIELD.match(s) or _SECTION.match(s):
            break
        words.append(s)
    return " ".join(words)


def is_test_path(path: str) -> bool:
    """A file in a test directory (``test``, ``tests``, ``testing``, ``test_*``, ``*_test(s)``)
    or a test file (``test_*.py``, ``*_test.py``, ``test.py``, ``tests.py``, ``conftest.py``)."""
    *dirs, name = PurePosixPath(path).parts
    for d in (x.lower() for x in dirs):
        if d in TEST_DIRS or d.startswith("test_") or d.endswith(("_test", "_tests")):
            return True
    stem = name.removesuffix(".py")
    return (
        stem in {"test", "tests", "conftest"} or stem.startswith("test_") or stem.endswith("_test")
    )


def _is_test_name(name: str) -> bool:
    return "test" in name or "Test" in name


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _definitions(
    body: Sequence[ast.stmt], classes: tuple[str, ...] = ()
) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, tuple[str, ...]]]:
    """Functions and methods in source order, not descending into function bodies."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node, classes
        elif isinstance(node, ast.ClassDef):
            yield from _definitions(node.body, (*classes, node.name))
        elif isinstance(node, ast.Match):
            for case in node.cases:
                yield from _definitions(case.body, classes)
        elif isinstance(node, ast.If | ast.For | ast.AsyncFor | ast.While | ast.With |
                        ast.AsyncWith | ast.Try | ast.TryStar):  # fmt: skip
            yield from _definitions(node.body, classes)
            for handler in getattr(node, "handlers", []):  # in source order
                yield from _definitions(handler.body, classes)
            yield from _definitions(getattr(node, "orelse", []), classes)
            yield from _definitions(getattr(node, "finalbody", []), classes)


def _bytes_cut(line: str, start: int | None = None, end: int | None = None) -> str:
    """``line[start:end]`` in UTF-8 bytes (ast's column offsets)."""
    return line.encode("utf-8")[start:end].decode("utf-8")


def code_without_docstring(node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str]) -> str:
    """The definition's source (decorators included) without its docstring, with the ``def``
    line's indentation removed from every line that has it. ``node`` must have a docstring and a
    statement after it; ``lines`` are the file's lines without their line ends."""
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    end = node.end_lineno or node.lineno
    seg = lines[first - 1 : end]
    doc = node.body[0]
    a, b = doc.lineno - first, (doc.end_lineno or doc.lineno) - first
    head = _bytes_cut(seg[a], end=doc.col_offset)
    tail = _bytes_cut(seg[b], start=doc.end_col_offset).lstrip()
    if tail.startswith(";"):
        tail = tail[1:].lstrip()
    rest = seg[b + 1 :]
    joined = (head + tail).rstrip()
    if joined.strip():
        replacement = [joined]
    else:  # the docstring had lines of its own: drop them and the blank lines after them
        replacement = []
        while rest and not rest[0].strip():
            rest = rest[1:]
    seg = seg[:a] + replacement + rest
    indent = _bytes_cut(lines[node.lineno - 1], end=node.col_offset)
    if indent.strip():
        indent = ""
    out = [ln[len(indent) :] if indent and ln.startswith(indent) else ln for ln in seg]
    return "\n".join(ln.rstrip() if not ln.strip() else ln for ln in out) + "\n"


def extract_functions(text: str, path: str) -> list[Function]:
    """Every function and method of one file with the filter it fails (``test-file`` when
    ``path`` is a test file). Raises SyntaxError (or ValueError) when ``text`` does not parse."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning on invalid escapes in old code
        tree = pyast.parse(text, path)
    lines = [ln.rstrip("\r\n") for ln in _LINE.findall(text)]
    test_file = is_test_path(path)
    found: list[Function] = []
    for node, classes in _definitions(tree.body):
        doc = ast.get_docstring(node, clean=True)
        doc = doc if doc and doc.strip() else None
        summary = summary_of(doc) if doc else ""
        if test_file:
            drop: str | None = "test-file"
        elif _is_test_name(node.name) or any(_is_test_name(c) for c in classes):
            drop = "test-name"
        elif _is_dunder(node.name):
            drop = "dunder"
        elif doc is None:
            drop = "no-docstring"
        elif len(doc.split()) > MAX_DOCSTRING_WORDS:
            drop = "long-docstring"
        elif not summary:
            drop = "no-summary"
        elif len(node.body) == 1:
            drop = "docstring-only"
        else:
            drop = None
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        found.append(
            Function(
                path=path,
                class_name=".".join(classes) or None,
                name=node.name,
                start=first,
                end=node.end_lineno or node.lineno,
                docstring=doc,
                summary=summary,
                code=code_without_docstring(node, lines) if drop is None else "",
                drop=drop,
            )
        )
    return found


def decode_source(data: bytes) -> str | None:
    """A Python file's text, by its coding cookie or BOM (UTF-8 by default); None if it is not
    text in that encoding."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return None


# --------------------------------------------------------------------------------- the sources


@dataclass
class _Source:
    """Python files (path relative to the project root, bytes) in path order, and where from."""

    origin: str
    root: Path
    files: list[tuple[str, bytes]]
    name: str
    commit: str | None = None
    cwd: Path | None = None  # git: where to run git blame (paths are relative to it)
    version: str | None = None


class _GitFailed(Exception):
    pass


def _git(cwd: Path, *args: str, data: bytes | None = None) -> bytes:
    git = shutil.which("git")
    if git is None:
        raise _GitFailed("git is not installed")
    env = {**os.environ, "GIT_PAGER": "cat", "LC_ALL": "C"}
    proc = subprocess.run([git, "-C", str(cwd), *args], input=data, capture_output=True,
                          env=env, check=False)  # fmt: skip
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise _GitFailed(f"`git {' '.join(args[:2])}` failed in {cwd}: {err[-300:]}")
    return proc.stdout


def _cat_blobs(cwd: Path, shas: list[str]) -> list[bytes]:
    """Contents of ``shas`` in order, from one ``git cat-file --batch``."""
    if not shas:
        return []
    out = _git(cwd, "cat-file", "--batch", data=("\n".join(shas) + "\n").encode())
    blobs, pos = [], 0
    for sha in shas:
        nl = out.index(b"\n", pos)
        header = out[pos:nl].split()
        if len(header) != 3 or header[0].decode() != sha:
            raise _GitFailed(f"unexpected `git cat-file` output for {sha}")
        size = int(header[2])
        blobs.append(out[nl + 1 : nl + 1 + size])
        pos = nl + 1 + size + 1
    return blobs


def _from_git(path: Path) -> _Source | None:
    """The ``.py`` files tracked at HEAD under ``path`` (None: not in a git work tree with a
    commit, or nothing tracked there)."""
    try:
        if _git(path, "rev-parse", "--is-inside-work-tree").strip() != b"true":
            return None
        commit = _git(path, "rev-parse", "--verify", "-q", "HEAD^{commit}").decode().strip()
        listing = _git(path, "ls-tree", "-r", "-z", commit)  # relative to path, under it
    except _GitFailed:
        return None
    wanted: list[tuple[str, str]] = []
    for entry in listing.split(b"\0"):
        meta, _, raw = entry.partition(b"\t")
        if not raw or not raw.endswith(b".py"):
            continue
        mode, kind, sha = meta.decode().split()
        if kind == "blob" and mode != "120000":
            wanted.append((raw.decode("utf-8", "surrogateescape"), sha))
    if not wanted:
        return None
    wanted.sort()
    try:
        blobs = _cat_blobs(path, [sha for _, sha in wanted])
    except _GitFailed as exc:
        raise InputError(str(exc), location=str(path)) from exc
    files = [(p, blob) for (p, _), blob in zip(wanted, blobs, strict=True)]
    return _Source("git", path, files, path.name, commit=commit, cwd=path)


def _walk(root: Path) -> list[str]:
    """``.py`` files under ``root`` (no hidden, cache, vendored-environment or symlinked
    directories; no symlinks)."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = [
            d for d in dirnames
            if not d.startswith(".") and d not in SKIPPED_DIRS and not (here / d).is_symlink()
            and not (here / d / "pyvenv.cfg").exists()
        ]  # fmt: skip
        for f in filenames:
            if f.endswith(".py") and not (here / f).is_symlink():
                out.append((here / f).relative_to(root).as_posix())
    return sorted(out)


def _from_directory(path: Path) -> _Source:
    files = []
    for rel in _walk(path):
        try:
            files.append((rel, (path / rel).read_bytes()))
        except OSError:
            continue
    return _Source("directory", path, files, path.name)


def _from_package(name: str) -> _Source:
    try:
        dist = metadata.distribution(name)
    except (metadata.PackageNotFoundError, ValueError):
        raise InputError(
            f"no installed distribution named '{name}' in {sys.prefix} (pip install it, or give "
            "--from PATH)",
            field="--from-package",
        ) from None
    listed = dist.files
    if listed is None:
        raise InputError(f"distribution '{name}' lists no files (no RECORD): give --from PATH",
                         field="--from-package")  # fmt: skip
    root = Path(str(dist.locate_file(""))).resolve()
    rels = sorted({
        PurePosixPath(str(f)).as_posix() for f in listed
        if f.suffix == ".py" and ".." not in f.parts and not f.parts[0].endswith(".dist-info")
        and not f.parts[0].startswith("__editable__")
    })  # fmt: skip
    files = []
    for rel in rels:
        try:
            files.append((rel, (root / rel).read_bytes()))
        except OSError:
            continue
    if not files:
        raise InputError(
            f"distribution '{name}' installs no Python files here (an editable install? give "
            "--from PATH with its source)",
            field="--from-package",
        )
    project = dist.metadata["Name"] or name
    return _Source("package", root, files, project, version=dist.version)


# ------------------------------------------------------------------------------------- git blame


def _iso(epoch: int, tz: str) -> str:
    """Epoch seconds and git's ``+hhmm`` offset as ISO 8601 (as ``git log --format=%aI``)."""
    sign = -1 if tz.startswith("-") else 1
    offset = timezone(sign * timedelta(hours=int(tz[1:3]), minutes=int(tz[3:5])))
    return datetime.fromtimestamp(epoch, offset).isoformat()


def blame_lines(cwd: Path, path: str, commit: str) -> dict[int, tuple[int, str, str]]:
    """Line number -> (author time, author tz, commit) of the commit that last changed the line,
    from ``git blame --porcelain COMMIT -- PATH``."""
    out = _git(cwd, "blame", "--porcelain", commit, "--", path)
    commits: dict[str, dict[str, str]] = {}
    line_commit: dict[int, str] = {}
    current = ""
    for raw in out.split(b"\n"):
        if not raw or raw.startswith(b"\t"):
            continue
        parts = raw.split(b" ")
        if len(parts) >= 3 and _HEX.match(parts[0]) and parts[1].isdigit() and parts[2].isdigit():
            current = parts[0].decode()
            line_commit[int(parts[2])] = current
            commits.setdefault(current, {})
        elif parts[0] in (b"author-time", b"author-tz") and len(parts) == 2:
            commits[current][parts[0].decode()] = parts[1].decode()
    return {
        n: (int(commits[c]["author-time"]), commits[c]["author-tz"], c)
        for n, c in line_commit.items()
    }


def _last_change(blame: dict[int, tuple[int, str, str]], f: Function) -> tuple[str, str] | None:
    """(ISO author date, commit) of the latest commit among the function's lines."""
    touched = [blame[n] for n in range(f.start, f.end + 1) if n in blame]
    if not touched:
        return None
    t, tz, commit = max(touched)
    return _iso(t, tz), commit


# --------------------------------------------------------------------------------------- build


def _sample_id(project: str, f: Function) -> str:
    raw = _NOT_ID.sub("_", f"{project}/{f.path}::{f.qualname}")
    return raw if re.match(r"[A-Za-z0-9_]", raw) else f"_{raw}"


def _build(
    src: _Source, *, project: str | None, leakage: str, limit: int | None
) -> tuple[list[SummarizeSample], BuildReport]:
    if leakage not in LEAKAGE_TIERS:
        raise InputError(f"unknown leakage tier '{leakage}' (known: {', '.join(LEAKAGE_TIERS)})",
                         field="--leakage")  # fmt: skip
    if limit is not None and limit < 1:
        raise InputError("must be at least 1", field="--limit")
    started = time.perf_counter()
    name = project or src.name
    if not name:
        raise InputError("cannot tell the project's name: give --project NAME")
    report = BuildReport(project=name, origin=src.origin, root=str(src.root), commit=src.commit,
                         version=src.version)  # fmt: skip
    kept: list[Function] = []
    for path, data in src.files:
        text = decode_source(data)
        try:
            if text is None:
                raise ValueError("not text")
            functions = extract_functions(text, path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            report.unparsable.append(path)
            continue
        report.files += 1
        for f in functions:
            report.found += 1
            if f.drop:
                report.dropped[f.drop] += 1
            else:
                kept.append(f)
    ids: list[str] = []
    seen: dict[str, int] = {}
    for f in kept:
        base = _sample_id(name, f)
        seen[base] = seen.get(base, 0) + 1
        ids.append(base if seen[base] == 1 else f"{base}@{seen[base]}")
    if limit is not None and len(kept) > limit:
        report.dropped["limit"] = len(kept) - limit
        kept, ids = kept[:limit], ids[:limit]
    report.kept = len(kept)
    stamps = _timestamps(src, kept, report)
    if src.origin == "package":
        source = f"package:{name}=={src.version}"
    elif src.origin == "git":
        source = f"git:{name}@{(src.commit or '')[:12]}"
    else:
        source = f"directory:{name}"
    samples = []
    for sample_id, f in zip(ids, kept, strict=True):
        stamp = stamps.get((f.path, f.start))
        meta: dict[str, object] = {
            "docstring": f.docstring,
            "docstring_words": len((f.docstring or "").split()),
            "lines": [f.start, f.end],
        }
        if stamp:
            meta["commit"] = stamp[1]
        samples.append(
            SummarizeSample(
                family="summarize",
                id=sample_id,
                project=name,
                path=f.path,
                class_name=f.class_name,
                function=f.name,
                code=f.code,
                docstring=f.summary,
                timestamp=stamp[0] if stamp else None,
                source=source,
                leakage=cast(Leakage, leakage),  # checked above
                meta=meta,
            )
        )
    report.seconds = time.perf_counter() - started
    return samples, report


def _timestamps(
    src: _Source, kept: list[Function], report: BuildReport
) -> dict[tuple[str, int], tuple[str, str]]:
    """(path, first line) -> (ISO author date, commit) of each kept function (git only)."""
    if src.origin != "git" or src.cwd is None or src.commit is None or not kept:
        return {}
    started = time.perf_counter()
    by_file: dict[str, list[Function]] = {}
    for f in kept:
        by_file.setdefault(f.path, []).append(f)
    cwd, commit = src.cwd, src.commit

    def one(path: str) -> dict[int, tuple[int, str, str]]:
        return blame_lines(cwd, path, commit)

    try:
        with ThreadPoolExecutor(max_workers=BLAME_WORKERS) as pool:
            blames = dict(zip(by_file, pool.map(one, by_file), strict=True))
    except _GitFailed as exc:
        raise InputError(str(exc), location=str(src.root)) from exc
    out: dict[tuple[str, int], tuple[str, str]] = {}
    for path, functions in by_file.items():
        for f in functions:
            last = _last_change(blames[path], f)
            if last:
                out[(f.path, f.start)] = last
    report.blame_seconds = time.perf_counter() - started
    return out


def build_from_path(
    path: Path, *, project: str | None = None, leakage: str = "private", limit: int | None = None
) -> tuple[list[SummarizeSample], BuildReport]:
    """Samples from a source tree. In a git work tree: the files tracked at HEAD under ``path``,
    with timestamps; otherwise every ``.py`` file under it, without."""
    if not path.exists():
        raise InputError("no such file or directory", location=str(path), field="--from")
    if not path.is_dir():
        raise InputError("not a directory (give a source tree or a git repository)",
                         location=str(path), field="--from")  # fmt: skip
    root = path.resolve()
    src = _from_git(root) or _from_directory(root)
    return _build(src, project=project, leakage=leakage, limit=limit)


def build_from_package(
    name: str, *, project: str | None = None, leakage: str = "public-old",
    limit: int | None = None,
) -> tuple[list[SummarizeSample], BuildReport]:  # fmt: skip
    """Samples from the ``.py`` files an installed distribution lists (no timestamps)."""
    return _build(_from_package(name), project=project, leakage=leakage, limit=limit)


def write_suite(samples: list[SummarizeSample], report: BuildReport, out: Path) -> Path:
    """``out/suite.jsonl`` + ``suite.toml`` (as :func:`truepass.suites.loader.write_suite_dir`
    writes them) and ``build.json`` (the :class:`BuildReport`)."""
    from truepass.suites.loader import samples_hash, write_built_suite
    from truepass.suites.suite import Suite

    what = {"package": f"the installed distribution {report.project} {report.version}",
            "git": f"the git repository {report.root} at {report.commit}",
            "directory": f"the source tree {report.root}"}[report.origin]  # fmt: skip
    suite = Suite(
        name=_NOT_ID.sub("_", f"summarize-{report.project}"),
        version=report.version or (report.commit or "")[:12] or "0",
        description=f"{len(samples)} functions of {what} (truepass build-suite summarize)",
        path=out,
        content_hash=samples_hash(samples),
        samples=list(samples),
        family="summarize",
    )
    return write_built_suite(suite, out, report.to_json())
