"""Apply a candidate's answer (unified diff or whole files) to a sample's buggy files.

Applying is plain text work done in the trusted process: nothing of the candidate runs here.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from truepass.answers import Answer
from truepass.errors import PatchError
from truepass.paths import check_relative_path

DEV_NULL = "/dev/null"


@dataclass(frozen=True)
class AppliedPatch:
    """The code after the patch, what it changed, and the test-side edits it tried (dropped).

    ``attempted`` is every file as the patch would have left it, test edits included: the
    fake-fix detectors read it; the tests never run on it.
    """

    files: dict[str, str]
    changed: list[str]
    test_edits: list[str]
    diff: str
    attempted: dict[str, str] = field(default_factory=dict)


def strip_prefix(path: str) -> str:
    """``a/x.py`` and ``b/x.py`` -> ``x.py``; other paths are kept."""
    return path[2:] if path[:2] in ("a/", "b/") else path


def apply_answer(
    buggy: dict[str, str],
    visible_tests: dict[str, str],
    answer: Answer,
    *,
    test_paths: set[str] | frozenset[str] = frozenset(),
    is_test_file: Callable[[str], bool] = lambda path: False,
) -> AppliedPatch:
    """Apply ``answer`` to the buggy code and the visible tests (what a solver sees).

    Edits to test-side files (``visible_tests``, ``test_paths``, and what ``is_test_file`` names:
    the family's test modules and runner config, e.g. repair's) are
    kept in ``attempted`` for the fake-fix detectors, listed in ``test_edits``, and dropped from
    ``files``, which holds only the code the tests will run against.
    """
    base = {**visible_tests, **buggy}
    if answer.files is not None:
        new = dict(base)
        for path, content in answer.files.items():
            new[_checked(path)] = content
    elif answer.diff and answer.diff.strip():
        new = apply_diff(base, answer.diff)
    else:
        new = dict(base)

    def test_side(path: str) -> bool:
        return path in visible_tests or path in test_paths or is_test_file(path)

    test_edits = sorted(
        p for p in set(new) | set(base) if new.get(p) != base.get(p) and test_side(p)
    )
    files = {p: c for p, c in new.items() if not test_side(p)}
    files.update({p: c for p, c in buggy.items() if test_side(p)})  # e.g. a project's config
    changed = sorted(p for p in set(files) | set(buggy) if files.get(p) != buggy.get(p))
    return AppliedPatch(
        files=files,
        changed=changed,
        test_edits=test_edits,
        diff=unified_diff(buggy, files),
        attempted=new,
    )


def _checked(path: str) -> str:
    try:
        return check_relative_path(strip_prefix(path))
    except ValueError as exc:
        raise PatchError(str(exc)) from exc


def apply_diff(files: dict[str, str], diff: str) -> dict[str, str]:
    """Apply a unified diff to ``files``; hunks may have drifted (found by their context)."""
    try:
        patch = PatchSet(diff.splitlines(keepends=True))
    except UnidiffParseError as exc:
        raise PatchError(f"not a unified diff: {exc}") from exc
    if not len(patch):
        raise PatchError("the diff holds no file changes")
    new = dict(files)
    for pf in patch:
        source = None if pf.source_file == DEV_NULL else _checked(pf.source_file)
        target = None if pf.target_file == DEV_NULL else _checked(pf.target_file)
        if target is None:
            if source not in new:
                raise PatchError(f"the diff deletes '{source}', which does not exist")
            del new[source]
            continue
        if source is None:
            original: list[str] = []
        else:
            if source not in new:
                raise PatchError(f"the diff changes '{source}', which does not exist")
            original = new[source].splitlines(keepends=True)
        new[target] = "".join(_apply_hunks(original, pf, target))
        if source is not None and source != target:
            del new[source]
    return new


def _apply_hunks(lines: list[str], pf, path: str) -> list[str]:  # type: ignore[no-untyped-def]
    out = list(lines)
    offset = 0
    for n, hunk in enumerate(pf, start=1):
        old, repl = _sides(list(hunk))
        want = max(hunk.source_start - 1 + offset, 0)
        at = _find(out, old, want)
        if at is None:
            raise PatchError(f"hunk {n} of '{path}' does not match the file (near line {want + 1})")
        out[at : at + len(old)] = repl
        offset += len(repl) - len(old)
    return out


def _sides(hunk_lines: list) -> tuple[list[str], list[str]]:  # type: ignore[type-arg]
    """Old and new text of a hunk; a "\\ No newline at end of file" marker strips the newline of
    the line before it."""
    old: list[str] = []
    new: list[str] = []
    last: list[list[str]] = []
    for ln in hunk_lines:
        if ln.line_type == "\\":
            for side in last:
                side[-1] = side[-1].rstrip("\n")
            continue
        last = []
        if ln.is_context or ln.is_removed:
            old.append(ln.value)
            last.append(old)
        if ln.is_context or ln.is_added:
            new.append(ln.value)
            last.append(new)
    return old, new


def _find(lines: list[str], block: list[str], want: int) -> int | None:
    """Index where ``block`` occurs, nearest to ``want``; trailing newline differences ignored."""
    norm = [ln.rstrip("\r\n") for ln in lines]
    blk = [ln.rstrip("\r\n") for ln in block]
    if not blk:
        return min(want, len(lines))
    candidates = [i for i in range(len(norm) - len(blk) + 1) if norm[i : i + len(blk)] == blk]
    if not candidates:
        return None
    return min(candidates, key=lambda i: abs(i - want))


def unified_diff(before: dict[str, str], after: dict[str, str]) -> str:
    """A canonical ``a/``/``b/`` unified diff between two file maps (empty when equal)."""
    chunks = []
    for path in sorted(set(before) | set(after)):
        a, b = before.get(path), after.get(path)
        if a == b:
            continue
        a_lines = (a or "").splitlines(keepends=True)
        b_lines = (b or "").splitlines(keepends=True)
        for lines in (a_lines, b_lines):
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n\\ No newline at end of file\n"
        chunks.extend(
            difflib.unified_diff(
                a_lines,
                b_lines,
                fromfile=f"a/{path}" if a is not None else DEV_NULL,
                tofile=f"b/{path}" if b is not None else DEV_NULL,
            )
        )
    return "".join(chunks)


def changed_lines(old: str, new: str) -> list[int]:
    """1-based lines of ``old`` that turning it into ``new`` removes or changes; a pure insertion
    counts as the line before it (or line 1). The matcher is :func:`unified_diff`'s, so the lines
    agree with the diff: this is how suites derive ``fault`` from a reference fix."""
    old_lines = old.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, old_lines, new.splitlines(keepends=True))
    lines: set[int] = set()
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            lines.update(range(i1 + 1, i2 + 1))
        elif tag == "insert":
            lines.add(max(i1, 1))
    return sorted(n for n in lines if n <= max(len(old_lines), 1))
