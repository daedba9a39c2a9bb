"""Turn a model's free-text response into an :class:`Answer`, repairing sloppy diffs.

Tried in this order: unified diffs (fenced or bare; wrong or missing hunk numbers and counts,
missing ``a/``/``b/`` prefixes and missing file headers are repaired where the intent is
unambiguous), then fenced code blocks holding whole files, whole functions or methods (spliced
in by name), or several files (each block after its path). Every answer is checked with
:func:`apply_diff` and returned as one canonical diff from :func:`unified_diff`. Text work only:
nothing of the response is ever executed.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePosixPath
from typing import Literal

from truepass.errors import PatchError
from truepass.patches.apply import DEV_NULL, Answer, apply_diff, unified_diff
from truepass.suites.schema import is_test_or_runner_file

Kind = Literal["diff", "repaired-diff", "whole-file", "function", "multi-file", "none"]
Hunk = tuple[tuple[int | None, ...], list[str]]
Edit = tuple[int, int, str]  # replace lines [start, end) (0-based) with text
Section = tuple[str | None, str | None, list[Hunk]]
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`]*?)\s*$")
_HUNK = re.compile(r"^@@+\s*(?:-(\d+)(?:,(\d+))?)?\s*(?:\+(\d+)(?:,(\d+))?)?\s*(?:@@+.*)?$")
_DIFF_LANGS = {"diff", "patch", "udiff"}
_CODE_LANGS = {"", "python", "py", "python3", "py3"}
_DEF = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class ParseOutcome:
    """The answer found in a response (None if none), its form, and ``detail``: the repairs
    made, or why nothing usable was found. The caller keeps the raw response."""

    answer: Answer | None
    kind: Kind
    detail: str


@dataclass(frozen=True)
class _Block:
    lang: str
    info: str
    body: str
    before: str  # the prose between the previous block and this one


class _Reject(Exception):
    """One candidate is unusable; the next one is tried."""


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
    code = [b for b in blocks if b.body not in diffs and b.lang in _CODE_LANGS]
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


def _target(block: _Block, files: dict[str, str]) -> tuple[str, str, bool]:
    """The file a code block is for, its body, and whether the response named that file."""
    body = block.body
    for tok in re.split(r"[\s:=\"',]+", block.info):
        if (path := _mention(tok, files)) is not None:
            return path, body, True
    first, _, rest = body.partition("\n")
    m = re.fullmatch(r"\s*#\s*(?:(?:file(?:name)?|path)\s*:\s*)?(\S+)\s*", first, re.I)
    if m and (path := _mention(m.group(1), files)) is not None:
        return path, rest, True
    near = [ln for ln in block.before.split("\n") if ln.strip()][-3:]
    if (path := _mention("\n".join(near), files)) is not None:
        return path, body, True
    code = [p for p in files if not is_test_or_runner_file(p)] or list(files)
    if len(code) == 1:
        return code[0], body, False
    names = _def_names(body)
    score = {p: len(names & _def_names(files[p])) for p in code}
    best = [*sorted(score.values(), reverse=True), 0]
    if best[0] == 0 or best[0] == best[1]:
        raise _Reject("names no file and shares no functions with exactly one file")
    return max(score, key=lambda p: score[p]), body, False


def _mention(text: str, files: dict[str, str]) -> str | None:
    """The known path mentioned last in ``text`` (a base name that no other file has counts)."""
    bases = [PurePosixPath(p).name for p in files]
    found = [
        (m.end(), p)
        for p in files
        for key in {p, PurePosixPath(p).name if bases.count(PurePosixPath(p).name) == 1 else p}
        for m in re.finditer(rf"(?<![\w/.-]){re.escape(key)}(?![\w/-]|\.\w)", text)
    ]
    return max(found)[1] if found else None


def _def_names(text: str) -> set[str]:
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return set()
    return {n.name for n in ast.walk(tree) if isinstance(n, _DEF | ast.ClassDef)}


def _merge(path: str, current: str, body: str, named: bool) -> tuple[str, Kind]:
    """``current`` with the block applied: replaced whole, or with its functions spliced in."""
    if not path.endswith(".py"):
        if not named:
            raise _Reject(f"'{path}' is not Python and the response does not name it")
        return body, "whole-file"
    try:
        try:
            btree = ast.parse(body)
        except SyntaxError:  # a method copied with its indentation
            body = textwrap.dedent(body)
            btree = ast.parse(body)
    except (SyntaxError, ValueError) as exc:
        raise _Reject(f"does not parse as Python (line {getattr(exc, 'lineno', '?')})") from exc
    try:
        ftree = ast.parse(current)
    except (SyntaxError, ValueError):
        return body, "whole-file"  # the buggy file itself does not parse: nothing to splice into
    fdefs, fmod = _top(ftree)
    bdefs, bmod = _top(btree)
    if fdefs <= bdefs and fmod <= bmod and (bdefs & fdefs or named or not fdefs) and btree.body:
        return body, "whole-file"
    return _splice(current, ftree, body, btree), "function"


def _top(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Top-level def/class names (and ``Class.method``), and names bound by other statements."""
    defs = {n.name for n in tree.body if isinstance(n, _DEF | ast.ClassDef)}
    defs |= {
        f"{c.name}.{m.name}"
        for c in tree.body
        if isinstance(c, ast.ClassDef)
        for m in c.body
        if isinstance(m, _DEF)
    }
    return defs, set(_bound(tree.body))


def _bound(stmts: list[ast.stmt]) -> dict[str, ast.stmt]:
    """Names bound by imports and plain assignments, each with its statement."""
    out: dict[str, ast.stmt] = {}
    for st in stmts:
        if isinstance(st, ast.Import | ast.ImportFrom):
            out.update({(a.asname or a.name).split(".")[0]: st for a in st.names})
        elif isinstance(st, ast.Assign | ast.AnnAssign):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            out.update({t.id: st for t in targets if isinstance(t, ast.Name)})
    return out


def _start(node: ast.stmt) -> int:
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def _span(node: ast.stmt) -> tuple[int, int]:
    return _start(node) - 1, node.end_lineno or node.lineno


def _indent(seg: str, col: int) -> str:
    pad = " " * col
    return "".join(pad + ln if ln.strip() else ln for ln in textwrap.dedent(seg).splitlines(True))


def _splice(current: str, ftree: ast.Module, body: str, btree: ast.Module) -> str:
    """Replace the file's same-named top-level functions, classes, methods and constants; add
    new functions before the first one replaced, and new imports after the file's imports."""
    blines = body.splitlines(keepends=True)

    def seg(node: ast.stmt) -> str:
        return "".join(blines[_start(node) - 1 : node.end_lineno]).rstrip("\n") + "\n"

    top = {n.name: n for n in ftree.body if isinstance(n, _DEF | ast.ClassDef)}
    bound = _bound(ftree.body).items()
    consts = {k: v for k, v in bound if isinstance(v, ast.Assign | ast.AnnAssign)}
    methods: dict[str, list[ast.stmt]] = {}
    for c in (c for c in ftree.body if isinstance(c, ast.ClassDef)):
        for m in (m for m in c.body if isinstance(m, _DEF)):
            methods.setdefault(m.name, []).append(m)
    edits: list[Edit] = []
    fresh, imports = [], []
    for st in btree.body:
        name = getattr(st, "name", None)
        if isinstance(st, ast.Import | ast.ImportFrom):
            imports += [seg(st)] if seg(st).strip() not in current else []
        elif isinstance(st, ast.ClassDef) and isinstance(top.get(st.name), ast.ClassDef):
            edits += _class_edits(top[st.name], st, seg, current)  # type: ignore[arg-type]
        elif name in top:
            edits.append((*_span(top[name]), seg(st)))
        elif isinstance(st, _DEF) and name in methods:
            if len(methods[name]) > 1:
                raise _Reject(f"method '{name}' is defined in several classes")
            m = methods[name][0]
            edits.append((*_span(m), _indent(seg(st), m.col_offset)))
        elif isinstance(st, _DEF | ast.ClassDef):
            fresh.append(seg(st) + "\n\n")
        elif isinstance(st, ast.Assign | ast.AnnAssign) and set(_bound([st])) & set(consts):
            var = next(iter(set(_bound([st])) & set(consts)))
            edits.append((*_span(consts[var]), seg(st)))
    if not any(a != b for a, b, _ in edits):
        raise _Reject("replaces none of the file's functions")
    if fresh:  # before the top-level statement holding the first change
        first = min(a for a, b, _ in edits if a != b) + 1
        at = min(_start(s) for s in ftree.body if (s.end_lineno or 0) >= first) - 1
        edits.append((at, at, "".join(fresh)))
    if imports:
        stmts = [s for s in ftree.body if isinstance(s, ast.Import | ast.ImportFrom)]
        at = max((s.end_lineno or 0 for s in stmts), default=0)
        edits.append((at, at, "".join(imports)))
    lines = current.splitlines(keepends=True)
    last = len(lines) + 1
    for start, end, text in sorted(edits, reverse=True):
        if end > last:
            raise _Reject("the block's functions overlap in the file")
        lines[start:end] = [text]
        last = start
    try:
        ast.parse(out := "".join(lines))
    except SyntaxError as exc:
        raise _Reject(f"splicing the block gives invalid Python (line {exc.lineno})") from exc
    return out


def _class_edits(
    fcls: ast.ClassDef, bcls: ast.ClassDef, seg: Callable[[ast.stmt], str], current: str
) -> list[Edit]:
    """Edits for a class block: the whole class when it has every method, else per method."""
    fm = {m.name: m for m in fcls.body if isinstance(m, _DEF)}
    bm = [m for m in bcls.body if isinstance(m, _DEF)]
    if set(fm) <= {m.name for m in bm}:
        return [(*_span(fcls), seg(bcls))]
    rest = [s for s in bcls.body[1 if ast.get_docstring(bcls) else 0 :] if s not in bm]
    if any(seg(s).strip() not in current for s in rest):
        raise _Reject(f"a part of class '{bcls.name}' also changes its class-level code")
    end, col = fcls.end_lineno or 0, fcls.body[0].col_offset
    return [
        (*_span(fm[m.name]), _indent(seg(m), fm[m.name].col_offset))
        if m.name in fm
        else (end, end, "\n" + _indent(seg(m), col))
        for m in bm
    ]
