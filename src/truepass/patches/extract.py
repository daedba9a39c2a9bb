"""Read the code out of a model's answer to a codegen prompt.

Three shapes are understood, tried in this order:

- ``fenced``: a Markdown code block that defines the entry point (the last such block wins);
- ``function``: unfenced text that defines the entry point (prose before it and after it is cut
  away: the longest run of lines that parses as Python and defines it);
- ``completion``: a continuation of the prompt (an indented function body), the way base models
  answer; the prompt is put in front of it.

The prompt's own imports and helper definitions are put in front of the extracted code, so a
model that writes only the function still gets ``from typing import List`` and any helper the
problem defines. Nothing here runs the code.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from truepass import pyast

FENCE = re.compile(r"^(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M)


@dataclass(frozen=True)
class Extracted:
    code: str | None
    kind: str  # fenced | function | completion | none
    detail: str = ""


def _defines(code: str, name: str) -> bool:
    try:
        tree = pyast.parse(code)
    except SyntaxError:
        return False
    return any(
        isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name for n in tree.body
    )


def prelude(prompt: str, entry_point: str) -> str:
    """The prompt without the entry point's own definition: imports and helpers."""
    try:
        tree = pyast.parse(prompt)
    except SyntaxError:
        return ""
    lines = prompt.splitlines(keepends=True)
    keep: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == entry_point:
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # a module docstring (MBPP-style prompts) is not code
        start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
        keep.extend(lines[start - 1 : node.end_lineno])
    return "".join(keep)


def _longest_parsing_run(text: str, name: str) -> str | None:
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if re.match(r"(async\s+)?def\s+" + name + r"\b", ln)]
    for start in starts:
        # take imports directly above the def, then trim trailing lines until it parses
        first = start
        while first > 0 and re.match(r"(import |from \S+ import |@)", lines[first - 1]):
            first -= 1
        for end in range(len(lines), start, -1):
            chunk = "\n".join(lines[first:end]) + "\n"
            if _defines(chunk, name):
                return chunk
    return None


def extract_code(response: str, prompt: str, entry_point: str) -> Extracted:
    """The candidate module in ``response``, or ``Extracted(None, "none", why)``."""
    head = prelude(prompt, entry_point)
    blocks = [m.group(3) for m in FENCE.finditer(response)]
    for block in reversed(blocks):
        code = _longest_parsing_run(block, entry_point)
        if code:
            return Extracted(_join(head, code), "fenced")
    code = _longest_parsing_run(response, entry_point)
    if code:
        return Extracted(_join(head, code), "function")
    for body in [*blocks, response]:
        if not body.startswith((" ", "\t")):
            continue
        kept = []  # the indented body: it ends at the first line back at column 0
        for line in body.splitlines():
            if line.strip() and not line[0].isspace():
                break
            kept.append(line)
        candidate = prompt + "\n".join(kept).rstrip() + "\n"
        if _defines(candidate, entry_point):
            return Extracted(candidate, "completion")
    why = "no code defining" if not blocks else "no code block defining"
    return Extracted(None, "none", f"{why} '{entry_point}' in the answer")


def _join(head: str, code: str) -> str:
    if not head.strip() or code.startswith(head):
        return code
    return head.rstrip("\n") + "\n\n\n" + code
