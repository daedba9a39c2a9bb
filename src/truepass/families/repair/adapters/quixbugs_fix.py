"""QuixBugs: the smallest fix between a buggy and a correct program, the kind of defect it is, and
the description a solver sees (from the program's docstring)."""

from __future__ import annotations

import ast
import difflib
import io
import re
import tokenize
from collections.abc import Callable

from truepass import pyast


def _code_lines(src: str) -> list[int]:
    """0-based indices of the lines of top-level statements other than bare strings
    (docstrings, and the alternative versions upstream keeps in string literals)."""
    tree = pyast.parse(src)
    out: list[int] = []
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        out.extend(range(node.lineno - 1, node.end_lineno or node.lineno))
    return out


def _comment_free(src: str) -> list[str]:
    """Each line of ``src`` without its comment and trailing blanks (comparison keys)."""
    lines = src.splitlines()
    cut: dict[int, int] = {}
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            cut[tok.start[0] - 1] = tok.start[1]
    return [(line[: cut[i]] if i in cut else line).rstrip() for i, line in enumerate(lines)]


def minimal_fix(buggy: str, correct: str) -> tuple[str, list[int], list[tuple[str, str]]]:
    """Apply to ``buggy`` only the code changes of ``correct`` (upstream correct files drop the
    docstring and keep alternatives in strings). Returns the fixed text, the 1-based buggy lines
    the fix changes, and (buggy, fixed) text pairs of the changed regions."""
    return splice(
        buggy,
        correct,
        (_comment_free(buggy), _code_lines(buggy)),
        (_comment_free(correct), _code_lines(correct)),
    )


def splice(
    buggy: str,
    correct: str,
    b_code: tuple[list[str], list[int]],
    c_code: tuple[list[str], list[int]],
) -> tuple[str, list[int], list[tuple[str, str]]]:
    """:func:`minimal_fix` for any language: ``b_code``/``c_code`` are each text's comparison key
    per line (the line without comments) and the 0-based indices of its code lines (the only
    lines compared). The differing code lines of ``correct`` replace those of ``buggy``; the other
    buggy lines (comments, docs) stay. Returns the fixed text, the 1-based buggy lines the fix
    changes (a pure insertion counts as the code line before it), and (buggy, fixed) key pairs of
    the changed regions."""
    b_lines, c_lines = buggy.splitlines(), correct.splitlines()
    (b_keys, b_idx), (c_keys, c_idx) = b_code, c_code
    sm = difflib.SequenceMatcher(
        None, [b_keys[i] for i in b_idx], [c_keys[j] for j in c_idx], autojunk=False
    )
    out = list(b_lines)
    changed: set[int] = set()
    pairs: list[tuple[str, str]] = []
    # apply from the bottom so earlier indices stay valid
    for tag, i1, i2, j1, j2 in reversed(sm.get_opcodes()):
        if tag == "equal":
            continue
        new = [c_lines[c_idx[j]] for j in range(j1, j2)]
        old_rows = [b_idx[i] for i in range(i1, i2)]
        pairs.append(
            (
                "\n".join(b_keys[r] for r in old_rows),
                "\n".join(c_keys[c_idx[j]] for j in range(j1, j2)),
            )
        )
        if old_rows:
            start, end = old_rows[0], old_rows[-1] + 1
            changed.update(r + 1 for r in range(start, end))
        else:  # pure insertion: after the preceding code line (or before the first)
            start = end = b_idx[i1 - 1] + 1 if i1 > 0 else b_idx[0]
            changed.add(max(start, 1))
        out[start:end] = new
    fixed = "\n".join(out) + ("\n" if buggy.endswith("\n") else "")
    return fixed, sorted(changed), list(reversed(pairs))


# ---------------------------------------------------------------- classification, description

_CMP = {"<", "<=", ">", ">=", "==", "!=", "is", "in", "not", "any", "all"}
# ``&&``/``||``: Java (Python's tokenizer never yields them)
_CONJ = {"or", "and", "||", "&&"}
_OPS = {"+", "-", "*", "/", "//", "%", "^", "&", "|", "**", "+=", "-=", "^=", "&=", "|=", "*="}


def _tokens(text: str) -> list[str]:
    try:
        return [
            t.string
            for t in tokenize.generate_tokens(io.StringIO(text.strip() + "\n").readline)
            if t.type in (tokenize.NAME, tokenize.OP, tokenize.NUMBER, tokenize.STRING)
        ]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text.split()


def classify(pairs: list[tuple[str, str]], tokens: Callable[[str], list[str]] | None = None) -> str:
    """The defect type of a fix from its (buggy, fixed) pairs; ``tokens`` splits a text into
    tokens (default: Python's tokenizer)."""
    tokens = tokens or _tokens
    if all(not old.strip() for old, _ in pairs):
        return "missing-code"
    if all(not new.strip() for _, new in pairs):
        return "extra-code"
    old = [t for o, _ in pairs for t in tokens(o)]
    new = [t for _, n in pairs for t in tokens(n)]
    removed: list[str] = []
    added: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, old, new, autojunk=False
    ).get_opcodes():
        if tag != "equal":
            removed += old[i1:i2]
            added += new[j1:j2]
    if not removed and _CONJ & set(added):
        return "missing-condition"
    if sorted(removed + added) in (["+", "1"], ["-", "1"]) and not (removed and added):
        return "off-by-one"
    if {tuple(removed), tuple(added)} == {("<",), ("<=",)} or {tuple(removed), tuple(added)} == {
        (">",),
        (">=",),
    }:
        return "off-by-one"
    if removed and added and set(removed) <= _CMP and set(added) <= _CMP:
        return "comparison"
    if removed and added and set(removed) <= _OPS and set(added) <= _OPS:
        return "operator"
    if sorted(removed) == sorted(added) or (
        removed and added and all(t.isidentifier() for t in removed + added)
    ):
        return "wrong-variable"
    return "other"


_SECTIONS = re.compile(
    r"^(Input|Output|Precondition|Preconditions|Examples?|Side effects?|Algorithm source)\b.*:?",
    re.I,
)


def describe(name: str, buggy: str) -> str:
    """One sentence from the program's docstring: its title and summary (or its output)."""
    doc = ""
    for node in pyast.parse(buggy).body:
        value = node.value if isinstance(node, ast.Expr) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            doc = value.value
            break
    paras = [p.strip() for p in re.split(r"\n\s*\n", doc) if p.strip()]
    title, prose, output = "", "", ""
    for p in paras:
        first = p.splitlines()[0].strip()
        if (_SECTIONS.match(first) and first.rstrip().endswith(":")) or first.startswith("Input:"):
            if first.lower().startswith("output") and not output:
                output = " ".join(line.strip() for line in p.splitlines()[1:])
            continue
        if first.startswith(">>>") or _SECTIONS.match(first):
            continue
        if not title and len(first.split()) <= 5:
            title = first
            rest = []
            for r in (line.strip() for line in p.splitlines()[1:]):
                if _SECTIONS.match(r):
                    break
                if " " in r:  # drop upstream slugs ("bitcount", "tortoise-hare")
                    rest.append(r)
            if rest and not prose:
                prose = " ".join(rest)
        elif not prose:
            prose = " ".join(line.strip() for line in p.splitlines())
    summary = ""
    if prose:
        summary = re.split(r"(?<=[.!?])\s", prose, maxsplit=1)[0].rstrip(".")
    elif output:
        output = re.split(r"(?<=[.!?])\s", output, maxsplit=1)[0].rstrip(".")
        summary = "returns " + output[0].lower() + output[1:]
    if title and summary:
        return f"{title}: {summary}."
    if summary or title:
        return (summary or title).rstrip(".") + "."
    return f"QuixBugs program {name}"
