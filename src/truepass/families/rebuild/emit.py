"""The pytest source of generated rebuild tests: one readable test function per case, calling
the ``program`` fixture and asserting the gold's exit status, stdout, stderr and files. A long
input that several tests give (a seed file) is written once, as a module constant."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from truepass.families.rebuild.harness._truepass_rebuild import Run

_INDENT = "    "
_WIDTH = 96
SHARED_MIN = 256
"""An input of at least this many bytes that two or more tests give is a module constant."""


@dataclass(frozen=True)
class Case:
    """One run of the program: its arguments, standard input, files and environment."""

    dimension: str
    args: tuple[str, ...] = ()
    stdin: bytes = b""
    files: tuple[tuple[str, bytes], ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    note: str = ""

    @property
    def key(self) -> tuple[object, ...]:
        """What makes two cases the same run (the dimension and note aside)."""
        return (self.args, self.stdin, self.files, self.env)


Expected = Run
"""What the gold did in a case: a run of the ``program`` fixture (its stdout, stderr, exit
status and the files it wrote)."""


def _quote(text: str) -> str:
    """A Python literal of ``text``, double-quoted when it can be."""
    lit = repr(text)
    if lit.startswith("'") and '"' not in text:
        lit = '"' + lit[1:-1].replace("\\'", "'") + '"'
    return lit


def _bytes(data: bytes) -> str:
    lit = repr(data)
    if lit.startswith("b'") and b'"' not in data:
        lit = 'b"' + lit[2:-1].replace("\\'", "'") + '"'
    return lit


def bytes_literal(data: bytes, indent: int) -> str:
    """``data`` as a bytes literal: one line when it fits, else one piece per line of the data
    inside parentheses (adjacent literals concatenate)."""
    single = _bytes(data)
    pieces = data.splitlines(keepends=True)
    if len(pieces) <= 1 and len(single) + indent * 4 <= _WIDTH:
        return single
    if len(pieces) <= 1:
        pieces = [data[i : i + 64] for i in range(0, len(data), 64)]
    pad = _INDENT * (indent + 1)
    body = "\n".join(pad + _bytes(p) for p in pieces)
    return "(\n" + body + "\n" + _INDENT * indent + ")"


def _data(data: bytes, indent: int, shared: Mapping[bytes, str]) -> str:
    return shared.get(data) or bytes_literal(data, indent)


def _files_literal(
    files: Mapping[str, bytes] | Sequence[tuple[str, bytes]],
    indent: int,
    shared: Mapping[bytes, str] | None = None,
) -> str:
    items = list(files.items()) if isinstance(files, Mapping) else list(files)
    if not items:
        return "{}"
    pad = _INDENT * (indent + 1)
    body = "\n".join(
        f"{pad}{_quote(name)}: {_data(content, indent + 1, shared or {})},"
        for name, content in items
    )
    return "{\n" + body + "\n" + _INDENT * indent + "}"


def _call(case: Case, shared: Mapping[bytes, str]) -> str:
    args = "[" + ", ".join(_quote(a) for a in case.args) + "]"
    parts = [args]
    if case.stdin:
        parts.append(f"stdin={_data(case.stdin, 2, shared)}")
    if case.files:
        parts.append(f"files={_files_literal(case.files, 2, shared)}")
    if case.env:
        env = "{" + ", ".join(f"{_quote(k)}: {_quote(v)}" for k, v in case.env) + "}"
        parts.append(f"env={env}")
    one = f"{_INDENT}r = program({', '.join(parts)})"
    if "\n" not in one and len(one) <= _WIDTH:
        return one
    inner = "".join(f"{_INDENT * 2}{p},\n" for p in parts)
    return f"{_INDENT}r = program(\n{inner}{_INDENT})"


def shared_inputs(cases: Sequence[Case]) -> dict[bytes, str]:
    """Inputs (standard input, file contents) of at least :data:`SHARED_MIN` bytes that two or
    more of ``cases`` give, named ``INPUT_1``, ``INPUT_2``... in the order they first appear."""
    uses: Counter[bytes] = Counter()
    for case in cases:
        uses.update({case.stdin, *(content for _, content in case.files)})
    shared = [data for data, n in uses.items() if n >= 2 and len(data) >= SHARED_MIN]
    return {data: f"INPUT_{i + 1}" for i, data in enumerate(shared)}


def _docstring(note: str) -> str:
    """The note as a one-line docstring: shortened first, then made safe (printable ASCII, no
    double quote to run into the closing ones, backslashes doubled)."""
    text = " ".join(note.split())
    if len(text) > _WIDTH - 13:
        text = text[: _WIDTH - 16] + "..."
    text = re.sub(r"[^\x20-\x7e]", "?", text).replace('"', "'").replace("\\", "\\\\")
    return f'{_INDENT}"""{text}"""' if text else ""


def render_test(
    name: str, case: Case, expected: Expected, shared: Mapping[bytes, str] | None = None
) -> str:
    """The source of one test function (inputs in ``shared`` by their constant's name)."""
    lines = [f"def {name}(program):"]
    if doc := _docstring(case.note):
        lines.append(doc)
    lines.append(_call(case, shared or {}))
    lines.append(f"{_INDENT}assert r.returncode == {expected.returncode}")
    lines.append(f"{_INDENT}assert r.stdout == {bytes_literal(expected.stdout, 1)}")
    lines.append(f"{_INDENT}assert r.stderr == {bytes_literal(expected.stderr, 1)}")
    if expected.files:
        lines.append(f"{_INDENT}assert r.files == {_files_literal(dict(expected.files), 1)}")
    return "\n".join(lines) + "\n"


def render_module(header: str, tests: Sequence[tuple[str, Case, Expected]]) -> str:
    """A pytest module: the header as its docstring, the shared inputs, then the test
    functions."""
    doc = header.replace("\\", "\\\\").replace('"""', "'''").strip()
    shared = shared_inputs([case for _, case, _ in tests])
    parts = [f'"""{doc}\n"""\n']
    if shared:
        parts.append("".join(f"{n} = {bytes_literal(d, 0)}\n" for d, n in shared.items()))
    parts += [render_test(name, case, expected, shared) for name, case, expected in tests]
    return "\n\n".join(parts)
