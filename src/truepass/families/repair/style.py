"""Style consistency (seed 002's pyramid, layer 3): does a patch follow the conventions of the
file it edits? Each check compares the lines the patch adds with the rest of the buggy file:

- **identifier case**: a name the patch introduces (one an added line binds: defines, aliases,
  loops over, assigns to or declares, and not in the buggy file; made of two or more words) has
  the case of the file's own names of two or more words: the most common of ``snake_case``,
  ``camelCase``, ``PascalCase``, ``UPPER_CASE``, or any of them the file uses for a name of the
  same initial's case (a new ``PascalCase`` class beside the file's ``PascalCase`` classes);
- **indentation**: an added line is indented with the file's character (spaces or tabs) and by
  a multiple of its unit (the greatest common divisor of the file's indentation widths);
- **quotes** (Python): an added string literal uses the file's more common quote character
  (``'`` or ``"``), unless it contains that character.

The score (0..1) is the share of consistent items over all checks together (each new name,
added line and string literal one item); None when the patch adds no code line, or the file
gives no convention to follow.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import TYPE_CHECKING

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from truepass.vocabulary import counted

if TYPE_CHECKING:
    from truepass.records import AttemptRecord

STYLE = "style_consistency"
"""The per-attempt score (``Judged.scores``)"""

_NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
_PY_STRING = re.compile(r"""(?<![\w'"])[rRbBuUfF]{0,2}('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")
_STRIP_STRINGS = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*\"""")


def case_of(name: str) -> str | None:
    """The case of a name of two or more words; None for a one-word name (``x``, ``total``,
    ``Node``), which fits every case."""
    core = name.strip("_")
    if not core:
        return None
    if "_" in core:
        if core.isupper():
            return "UPPER_CASE"
        if core.islower():
            return "snake_case"
        return "mixed"
    if core.isupper() or core.islower() or not any(c.isupper() for c in core[1:]):
        return None  # one word: x, total, Node
    if core[0].isupper():
        return "PascalCase"
    return "camelCase"


_BOUND = re.compile(
    r"\b(?:def|class|as|for|interface|enum|record)\s+([A-Za-z_]\w*)"  # a definition, alias, loop
    r"|([A-Za-z_]\w*)\s*(?::=|(?<![=!<>+\-*/%&|^~])=(?!=))"  # an assignment's target
    r"|\b(?!(?:return|new|throw|else|case|in|not|is|and|or|if|elif|while|yield|await|lambda|except|"
    r"assert|del|import|from|raise|with|instanceof)\b)[A-Za-z_][\w.]*(?:<[^>]*>)?(?:\[\])*"
    r"\s+([A-Za-z_]\w*)\s*(?=[=;,):(])"  # a declaration: TYPE NAME (Java, typed parameters)
)


def defined(line: str) -> list[str]:
    """The names a line of code binds: defines (``def``, ``class``), aliases (``as``), loops
    over (``for``), assigns to, or declares (``int total =``, ``String name)``); names it only
    uses (a library's ``ValueError``) are not the patch's to style."""
    return [next(g for g in m.groups() if g) for m in _BOUND.finditer(line)]


def _indents(lines: list[str]) -> list[str]:
    return [line[: len(line) - len(line.lstrip())] for line in lines if line.strip()]


def consistency(old: str, added: list[str], *, quotes: bool, comment: str) -> float | None:
    """The style consistency of ``added`` lines against the file ``old``; ``quotes``: check the
    quote character (Python); ``comment``: the language's line comment start (its text is no
    code)."""
    code_added = [ln for ln in added if ln.strip() and not ln.strip().startswith(comment)]
    if not code_added:
        return None
    old_lines = old.splitlines()

    def code(line: str) -> str:
        return _STRIP_STRINGS.sub("", line).split(comment, 1)[0]

    known = set(_NAME.findall("\n".join(code(ln) for ln in old_lines)))
    file_cases = Counter(c for n in known if (c := case_of(n)) is not None)
    right = total = 0
    if file_cases:
        dominant = file_cases.most_common(1)[0][0]
        new = {n for ln in code_added for n in defined(code(ln))} - known
        for name in sorted(new):
            case = case_of(name)
            if case is None:
                continue
            total += 1
            same_initial = {c for c in file_cases if (c == "PascalCase") == (case == "PascalCase")}
            right += case == dominant or case in same_initial
    indents = [i for i in _indents(old_lines) if i]
    if indents:
        char = Counter("\t" if i.startswith("\t") else " " for i in indents).most_common(1)[0][0]
        unit = math.gcd(*(len(i) for i in indents if set(i) == {char})) or 1
        for line in code_added:
            lead = line[: len(line) - len(line.lstrip())]
            total += 1
            right += (not lead) or (set(lead) == {char} and len(lead) % unit == 0)
    if quotes:
        kinds = Counter(m.group(1)[0] for ln in old_lines for m in _PY_STRING.finditer(ln))
        if kinds:
            usual = kinds.most_common(1)[0][0]
            for ln in code_added:
                for m in _PY_STRING.finditer(ln):
                    literal = m.group(1)
                    total += 1
                    right += literal[0] == usual or usual in literal[1:-1]
    return round(right / total, 4) if total else None


def style_consistency(
    buggy: dict[str, str], diff: str, code_suffix: str, *, quotes: bool, comment: str
) -> float | None:
    """The style consistency of a patch ``diff`` of the code files ``buggy`` (the language's
    ``code_suffix``), over every code file it changes; None when it adds no code line."""
    try:
        patch = PatchSet(diff.splitlines(keepends=True))
    except UnidiffParseError:
        return None
    right = total = 0.0
    for pf in patch:
        if not pf.path.endswith(code_suffix):
            continue
        added = [line.value.rstrip("\n") for hunk in pf for line in hunk if line.is_added]
        score = consistency(buggy.get(pf.path, ""), added, quotes=quotes, comment=comment)
        if score is not None:
            n = len([a for a in added if a.strip()])
            right += score * n
            total += n
    return round(right / total, 4) if total else None


def style_metrics(records: list[AttemptRecord]) -> dict[str, float]:
    """The mean style consistency over counted attempts that have one, with its 95% bootstrap
    interval."""
    from truepass.families.base import interval

    values = [r.scores[STYLE] for r in records if counted(r.verdict) and STYLE in r.scores]
    if not values:
        return {}
    return {STYLE: round(sum(values) / len(values), 4)} | interval(STYLE, values)
