"""Turn a model's free-text response into an :class:`Answer`, repairing sloppy diffs.

Tried in this order: unified diffs (fenced or bare; wrong or missing hunk numbers and counts,
missing ``a/``/``b/`` prefixes and missing file headers are repaired where the intent is
unambiguous), then fenced code blocks holding whole files, whole functions or methods (spliced
in by name), or several files (each block after its path). Every answer is checked with
:func:`apply_diff` and returned as one canonical diff from :func:`unified_diff`. Text work only:
nothing of the response is ever executed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from truepass.answers import Answer
from truepass.errors import PatchError
from truepass.families.repair import languages
from truepass.families.repair.schema import is_test_or_runner_file
from truepass.families.repair.splice import _Block, _merge, _Reject, _target
from truepass.patches.apply import DEV_NULL, apply_diff, unified_diff

Kind = Literal["diff", "repaired-diff", "whole-file", "function", "multi-file", "none"]
Hunk = tuple[tuple[int | None, ...], list[str]]
Section = tuple[str | None, str | None, list[Hunk]]
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`]*?)\s*$")
_HUNK = re.compile(r"^@@+\s*(?:-(\d+)(?:,(\d+))?)?\s*(?:\+(\d+)(?:,(\d+))?)?\s*(?:@@+.*)?$")
_DIFF_LANGS = {"diff", "patch", "udiff"}


@dataclass(frozen=True)
class ParseOutcome:
    """The answer found in a response (None if none), its form, and ``detail``: the repairs
    made, or why nothing usable was found. The caller keeps the raw response."""

    answer: Answer | None
    kind: Kind
    detail: str


def parse_response(text: str, files: dict[str, str]) -> ParseOutcome:
    """Find the patch in a model's ``text`` against the buggy ``files`` (path -> content).

    Pass every file the model may edit (code and visible tests): a diff touching any other
    path is rejected, and edits to test files are kept, so that the judge can flag them.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    blocks, prose, unclosed = _blocks(text)
    reasons = ["an unclosed code fence (a cut-off response?) was ignored"] if unclosed else []
    diffs = [b.body for b in blocks if b.lang in _DIFF_LANGS or _looks_like_diff(b.body)]
    diffs += [d for p in prose for d in _bare_diffs(p)]
    done: list[tuple[dict[str, str], list[str]]] = []
    for n, diff in enumerate(diffs, start=1):
        try:
            done.append(_apply_sloppy(diff, files))
        except (_Reject, PatchError) as exc:
            reasons.append(f"diff {n}: {exc}")
    if done:
        return _diff_outcome(files, done, reasons)
    fences = {"", *languages.code_fences()}
    code = [b for b in blocks if b.body not in diffs and b.lang in fences]
    if not (blocks or diffs or unclosed):  # the whole response may be bare code
        code = [_Block("", "", text, "")]
    return _code_outcome(files, code, reasons)


def _blocks(text: str) -> tuple[list[_Block], list[str], bool]:
    """Closed fenced blocks, the prose around them, and whether a fence was left open (its
    content, likely cut short, is dropped)."""
    lines = text.split("\n")
    blocks: list[_Block] = []
    prose: list[str] = []
    start = i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        pad, fence, info = len(m.group(1)), m.group(2), m.group(3)
        close = re.compile(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*")
        end = next((j for j in range(i + 1, len(lines)) if close.fullmatch(lines[j])), None)
        prose.append("\n".join(lines[start:i]))
        if end is None:
            return blocks, prose, True
        body = "".join(re.sub(rf"^ {{0,{pad}}}", "", ln) + "\n" for ln in lines[i + 1 : end])
        lang = (info.split() or [""])[0].split(":")[0].lower()
        blocks.append(_Block(lang, info, body, prose[-1]))
        start = i = end + 1
    prose.append("\n".join(lines[start:]))
    return blocks, prose, False


def _looks_like_diff(body: str) -> bool:
    lines = body.split("\n")
    return any(ln.startswith("@@") for ln in lines) or any(
        a.startswith("--- ") and b.startswith("+++ ") for a, b in pairwise(lines)
    )


def _bare_diffs(prose: str) -> list[str]:
    """Diffs written outside any fence, each from its first header line to where prose resumes."""
    out: list[str] = []
    lines = [*prose.split("\n"), ""]
    i = 0
    while i < len(lines) - 1:
        ln = lines[i]
        if ln.startswith(("diff --git", "@@")) or (
            ln.startswith("--- ") and lines[i + 1].startswith("+++ ")
        ):
            j = i + 1
            while j < len(lines) and (lines[j][:1] in " +-@\\" or lines[j].startswith("index ")):
                j += 1
            out.append("\n".join(lines[i:j]) + "\n")
            i = j
        else:
            i += 1
    return out


# ---------------------------------------------------------------- sloppy diffs


def _apply_sloppy(diff: str, files: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """Apply ``diff`` by context, tolerating bad numbers, prefixes and headers; returns the new
    files and the repairs that were needed."""
    notes: list[str] = []
    sections = _sections(diff.split("\n"), notes)
    if not sections:
        raise _Reject("no hunks")
    new = dict(files)
    for old_path, new_path, hunks in sections:
        if old_path is None and new_path is None:
            old_path = new_path = _headerless_target(hunks, files, notes)
        old_path, new_path = _known(old_path, files, notes), _known(new_path, files, notes)
        if old_path is not None and old_path not in new:
            raise _Reject(f"the diff changes '{old_path}', which is not a file of the sample")
        result = _apply_hunks(new[old_path] if old_path else "", hunks, notes)
        if old_path is not None and old_path != new_path:
            del new[old_path]
        if new_path is not None:
            new[new_path] = result
    return new, list(dict.fromkeys(notes))


def _sections(lines: list[str], notes: list[str]) -> list[Section]:
    """(old path, new path, hunks) per file; paths None for /dev/null or no headers at all."""
    sections: list[Section] = []
    lines = [*lines, ""]
    i = 0
    while i < len(lines) - 1:
        if lines[i].startswith("--- ") and lines[i + 1].startswith("+++ "):
            old, new = (_header_path(x[4:], notes) for x in lines[i : i + 2])
            sections.append((old, new, []))
            i += 2
        elif m := _HUNK.match(lines[i]):
            if not sections:
                sections.append((None, None, []))
            j = i + 1
            while (
                j < len(lines) - 1
                and lines[j][:1] in " +-\\"
                and not (lines[j].startswith("--- ") and lines[j + 1].startswith("+++ "))
            ):
                j += 1
            s1, c1, s2, c2 = (None if g is None else int(g) for g in m.groups())
            nums = (s1, 1 if c1 is None and s1 else c1, s2, 1 if c2 is None and s2 else c2)
            sections[-1][2].append((nums, lines[i + 1 : j]))
            i = j
        else:
            i += 1
    return [s for s in sections if s[2]]


def _header_path(raw: str, notes: list[str]) -> str | None:
    path = raw.split("\t")[0].strip().strip('"')
    if path == DEV_NULL:
        return None
    if path[:2] in ("a/", "b/"):
        return path[2:]
    notes.append("added the missing a/ b/ prefixes")
    return path


def _known(path: str | None, files: dict[str, str], notes: list[str]) -> str | None:
    """``path`` as a file of the sample, matched by suffix when the model wrote another root."""
    if path is None or path in files:
        return path
    hits = [f for f in files if f.endswith("/" + path) or path.endswith("/" + f)]
    if len(hits) == 1:
        notes.append(f"read path '{path}' as '{hits[0]}'")
        return hits[0]
    return path


def _headerless_target(hunks: list[Hunk], files: dict[str, str], notes: list[str]) -> str:
    code = [p for p in files if not is_test_or_runner_file(p)] or list(files)
    if len(code) > 1:
        code = [p for p in code if _fits(files[p], hunks)]
    if len(code) != 1:
        raise _Reject(f"no file headers, and the hunks fit {len(code)} files of the sample")
    notes.append(f"no file headers: applied to '{code[0]}'")
    return code[0]


def _fits(text: str, hunks: list[Hunk]) -> bool:
    try:
        _apply_hunks(text, hunks, [])
    except _Reject:
        return False
    return True


def _apply_hunks(text: str, hunks: list[Hunk], notes: list[str]) -> str:
    """``text`` with the hunks applied, each found by its context (nearest its stated line)."""
    out = text.splitlines(keepends=True)
    floor = offset = 0
    for n, (nums, body) in enumerate(hunks, start=1):
        for tries, variant in enumerate(_bodies(nums, body)):  # noqa: B007
            tagged = [(ln[:1], ln[1:]) if ln else (" ", "") for ln in variant]
            old = [t for tag, t in tagged if tag in " -"]
            at = _locate(out, old, nums, offset, floor)
            if at is not None:
                break
        else:
            raise _Reject(f"hunk {n} does not match the file")
        if at < 0:
            raise _Reject(f"hunk {n} matches {-at} places and has no usable line numbers")
        if tries:
            notes.append("dropped lines past a hunk's stated length")
        new: list[str] = []
        k, prev = at, ""
        for tag, line in tagged:
            if tag == "\\" and prev == "+":  # "\ No newline at end of file" after an added line
                new[-1] = new[-1].removesuffix("\n")
            elif tag == "+":
                new.append(line + "\n")
            elif tag in " -":
                new += [out[k]] if tag == " " else []
                k += 1
            prev = tag
        if nums[:2] != (at + bool(old) - offset, len(old)) or nums[3] != len(new):
            notes.append("recomputed hunk line numbers and counts")
        out[at:k] = new
        floor = at + len(new)
        offset += len(new) - len(old)
    return "".join(out)


def _bodies(nums: tuple[int | None, ...], body: list[str]) -> list[list[str]]:
    """Readings of a hunk body: all of it (trailing blank lines off), then only as many lines as
    its header states (prose such as ``- fixed it`` may follow a bare diff)."""
    while body and body[-1] == "":
        body = body[:-1]
    out = [body]
    if nums[1] is not None and nums[3] is not None:
        olds = news = k = 0
        while k < len(body) and (olds < nums[1] or news < nums[3]):
            olds += body[k][:1] in " -" or not body[k]
            news += body[k][:1] in " +" or not body[k]
            k += 1
        out += [body[:k]] if k < len(body) else []
    return out


def _locate(
    lines: list[str], old: list[str], nums: tuple[int | None, ...], offset: int, floor: int
) -> int | None:
    """Where ``old`` sits (nearest the stated line, after the previous hunk); a negative number
    counts the places when there are several and no line number to choose by."""
    start = nums[0]
    if not old:  # a pure insertion: only its line number can place it
        if start is None:
            return None if lines else 0
        return min(max(start + offset - (1 if nums[1] else 0), 0), len(lines))
    norm = [ln.rstrip() for ln in lines]
    want = [ln.rstrip() for ln in old]
    hits = [i for i in range(len(norm) - len(want) + 1) if norm[i : i + len(want)] == want]
    hits = [i for i in hits if i >= floor] or hits
    if not hits:
        return None
    if start is None:
        return hits[0] if len(hits) == 1 else -len(hits)
    return min(hits, key=lambda i: abs(i - (start - 1 + offset)))


def _diff_outcome(
    files: dict[str, str], done: list[tuple[dict[str, str], list[str]]], reasons: list[str]
) -> ParseOutcome:
    """Diffs of different files add up; of overlapping diffs, the last one wins."""
    touched = [{p for p in set(f) | set(files) if f.get(p) != files.get(p)} for f, _ in done]
    if all(not (a & b) for i, a in enumerate(touched) for b in touched[i + 1 :]):
        new, notes = dict(files), []
        for (f, n), paths in zip(done, touched, strict=True):
            new = {p: c for p, c in new.items() if p not in paths}
            new.update({p: f[p] for p in paths & set(f)})
            notes += n
    else:
        new, notes = done[-1][0], list(done[-1][1])
        if any(f != new for f, _ in done):
            notes.append(f"{len(done)} diffs overlap: used the last")
    return _finish(files, new, "repaired-diff" if notes else "diff", notes, reasons)


def _finish(
    files: dict[str, str], new: dict[str, str], kind: Kind, notes: list[str], reasons: list[str]
) -> ParseOutcome:
    diff = unified_diff(files, new)
    if not diff:
        return ParseOutcome(None, "none", "; ".join([*reasons, "the answer changes nothing"]))
    try:
        ok = apply_diff(files, diff) == new
    except PatchError:
        ok = False
    if not ok:  # e.g. a stray carriage return inside a line: no diff can carry it faithfully
        return ParseOutcome(None, "none", "; ".join([*reasons, "no clean diff reproduces it"]))
    return ParseOutcome(Answer(diff=diff), kind, "; ".join(dict.fromkeys(notes)) or "as given")


# ---------------------------------------------------------------- code blocks


def _code_outcome(files: dict[str, str], blocks: list[_Block], reasons: list[str]) -> ParseOutcome:
    """Apply the code blocks in order (a later block for the same file builds on the earlier)."""
    state = dict(files)
    kinds: dict[str, Kind] = {}
    for n, block in enumerate(blocks, start=1):
        try:
            path, body, named = _target(block, files)
            content, kind = _merge(path, state[path], body, named)
        except _Reject as exc:
            reasons.append(f"block {n}: {exc}")
            continue
        if content != state[path]:
            state[path], kinds[path] = content, kind
    changed = [p for p in kinds if state[p] != files[p]]
    if not changed:
        if not blocks:
            reasons.append("no diff and no code block found")
        elif len(reasons) < len(blocks):
            reasons.append("the code blocks repeat the code unchanged")
        return ParseOutcome(None, "none", "; ".join(reasons))
    kind: Kind = "multi-file" if len(changed) > 1 else kinds[changed[0]]
    return _finish(files, state, kind, [f"{kinds[p]} for '{p}'" for p in changed], [])
