"""Java code blocks that hold methods, not a whole file: each method goes into the file in place
of the method it names (tree-sitter-java, as the Java fake-fix detectors read Java).

A block is either bare members (one or more methods or constructors, as models often answer) or
a class of the file's with only some of its methods. A method replaces the file's method of the
same name and parameter types, else the only method of that name; a method the file does not
have is added at the end of the class of the first method replaced. A block that replaces none,
names a method several classes have, or leaves the file unparsable is refused, with the reason.
A block that declares the file's class with every method the file has replaces the file
(:func:`merge`, Java's ``Language.merge_block``).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import PurePosixPath

from tree_sitter import Node

from truepass.families.repair.fakefix.java import syntax

_WRAPPER = "__TruepassBlock"


class JavaSpliceError(ValueError):
    """The block cannot be spliced into the file (the message says why)."""


def _methods(root: Node | None, wrapped: bool) -> list[syntax.Scope]:
    found = [s for s in syntax.scopes(root).values() if s.kind == "method"]
    if wrapped:  # bare members: drop the wrapper's name, keep nested classes' prefixes
        for s in found:
            s.name = s.name.removeprefix(_WRAPPER + ".")
            s.key = s.key.removeprefix(_WRAPPER + ".")
    return found


def _block_methods(body: str) -> tuple[list[syntax.Scope], str]:
    """The methods of the block and the text their positions refer to: the block read as a
    compilation unit, else as the members of a class wrapped around it."""
    root = syntax.parse(body)
    if root is not None and any(n.type in syntax.TYPES for n in root.named_children):
        return _methods(root, wrapped=False), body
    wrapped = f"class {_WRAPPER} {{\n{body}\n}}\n"
    root = syntax.parse(wrapped)
    if root is None:
        raise JavaSpliceError("does not parse as Java methods or a Java class")
    return _methods(root, wrapped=True), wrapped


def _signature(scope: syntax.Scope) -> str:
    return scope.key[scope.key.index("(") :]


def _match(method: syntax.Scope, file_methods: list[syntax.Scope]) -> syntax.Scope | None:
    """The file's method this block method replaces, None for a new one."""
    named = [m for m in file_methods if m.simple_name == method.simple_name]
    if "." in method.name:  # Class.method: only that class's methods
        same_class = [m for m in named if m.name == method.name]
        named = same_class or named
    exact = [m for m in named if _signature(m) == _signature(method)]
    pick = exact or named
    if len(pick) > 1:
        raise JavaSpliceError(f"method '{method.simple_name}' is defined in several places")
    return pick[0] if pick else None


def _doc(node: Node) -> Node | None:
    """The Javadoc (a block comment) right above a method, if any."""
    doc = node.prev_sibling
    above = (node.start_point[0], node.start_point[0] - 1)
    return (
        doc
        if doc is not None and doc.type == "block_comment" and doc.end_point[0] in above
        else None
    )


def _line_span(source: str, node: Node, with_doc: bool) -> tuple[int, int, int]:
    """The lines [first, last] ``node`` fills, and its indentation, when nothing else shares
    them (otherwise the block is refused: a one-line class holding the method)."""
    lines = source.splitlines(keepends=True)
    first, column = node.start_point
    last, end_column = node.end_point
    doc = _doc(node)
    if with_doc and doc is not None:  # the block brings its own Javadoc: the file's goes
        first, column = doc.start_point
    if lines[first][:column].strip() or lines[last][end_column:].strip():
        raise JavaSpliceError("a method to replace shares its lines with other code")
    return first, last, column


def _indented(text: str, column: int) -> str:
    pad = " " * column
    body = textwrap.dedent(text).strip("\n")
    return "".join(pad + ln if ln.strip() else ln for ln in body.splitlines(keepends=True)) + "\n"


def _source_of(text: str, scope: syntax.Scope) -> str:
    """The method's text in ``text`` (the block as parsed), with its Javadoc and annotations."""
    node = scope.root
    doc = _doc(node)
    start = node.start_byte if doc is None else doc.start_byte
    data = text.encode("utf-8")
    line_start = data.rfind(b"\n", 0, start) + 1
    if not data[line_start:start].strip():  # keep the first line's indentation, for dedent
        start = line_start
    return data[start : node.end_byte].decode("utf-8")


def names(text: str) -> set[str]:
    """The simple names of the methods a Java text (a file or a block) defines."""
    try:
        methods, _ = _block_methods(text)
    except JavaSpliceError:
        return set()
    return {m.simple_name for m in methods}


def whole_file(current: str, body: str) -> bool:
    """The block is the whole file: it declares a class and defines every method the file has."""
    try:
        methods, parsed = _block_methods(body)
    except JavaSpliceError:
        return False
    return parsed is body and names(current) <= {m.simple_name for m in methods}


def splice_methods(current: str, body: str) -> str:
    """``current`` (a Java file) with the block's methods in place of its own."""
    file_root = syntax.parse(current)
    if file_root is None:
        raise JavaSpliceError("the file itself does not parse")
    file_methods = _methods(file_root, wrapped=False)
    block, parsed = _block_methods(body)
    if not block:
        raise JavaSpliceError("holds no method")
    edits: list[tuple[int, int, str]] = []  # replace lines [first, last] with text
    fresh: list[syntax.Scope] = []
    home: tuple[Node, int] | None = None  # the class body of the first method replaced, column
    for method in block:
        target = _match(method, file_methods)
        if target is None:
            fresh.append(method)
            continue
        first, last, column = _line_span(current, target.root, _doc(method.root) is not None)
        edits.append((first, last, _indented(_source_of(parsed, method), column)))
        if home is None and target.root.parent is not None:
            home = (target.root.parent, column)
    if not edits:
        raise JavaSpliceError("replaces none of the file's methods")
    if fresh and home is not None:  # new helpers: at the end of that class, before its brace
        close = home[0].end_point[0]
        added = "".join("\n" + _indented(_source_of(parsed, m), home[1]) for m in fresh)
        edits.append((close, close - 1, added))
    lines = current.splitlines(keepends=True)
    for first, last, text in sorted(edits, key=lambda e: e[0], reverse=True):
        lines[first : last + 1] = [text]
    out = "".join(lines)
    if syntax.parse(out) is None:
        raise JavaSpliceError("splicing the block gives invalid Java")
    return out


def _declares_class(path: str, body: str) -> bool:
    """A block that declares the top-level type of ``path``."""
    stem = PurePosixPath(path).stem
    kinds = r"^\s*(?:public\s+)?(?:final\s+|abstract\s+)*(?:class|interface|enum|record)\s+"
    return re.search(kinds + re.escape(stem) + r"\b", body, re.MULTILINE) is not None


def merge(path: str, current: str, body: str, named: bool) -> tuple[str, str]:
    """A whole file (it declares the file's class with every method the file has), else its
    methods spliced in; a named block that splices nowhere replaces the file."""
    if _declares_class(path, body) and whole_file(current, body):
        return body, "whole-file"
    try:
        return splice_methods(current, body), "function"
    except JavaSpliceError as exc:
        if named or _declares_class(path, body):
            return body, "whole-file"
        raise JavaSpliceError(f"a Java block for '{path}': {exc}") from exc
