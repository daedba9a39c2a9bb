"""The structure of a source tree: source files, directory depth, functions and their mean
length, and lines of code, as `lizard <https://github.com/terryyin/lizard>`_ counts them.

lizard reads C, C++, Python, Rust, Go, Java, JavaScript, Lua, ... without compiling anything;
a file in a language it does not read still counts as a source file, with no functions.
Lengths are NLOC: lines that hold code, neither blank nor only comment.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

import lizard

from truepass.families.rebuild.schema import Structure

LANGUAGES = {
    ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".cxx": "C++", ".hpp": "C++",
    ".hh": "C++", ".py": "Python", ".rs": "Rust", ".go": "Go", ".java": "Java",
    ".js": "JavaScript", ".ts": "TypeScript", ".rb": "Ruby", ".pl": "Perl", ".pm": "Perl",
    ".sh": "Shell", ".bash": "Shell", ".lua": "Lua", ".hs": "Haskell", ".ml": "OCaml",
    ".zig": "Zig", ".swift": "Swift", ".kt": "Kotlin", ".cs": "C#", ".d": "D", ".nim": "Nim",
    ".y": "Yacc", ".l": "Lex", ".awk": "AWK", ".tcl": "Tcl",
}  # fmt: skip
"""Source files by extension (``compile.sh`` itself and build files are not counted)."""


def _text(content: str | bytes) -> str:
    return content if isinstance(content, str) else content.decode("utf-8", "replace")


def analyze(name: str, content: str | bytes) -> lizard.FileInformation | None:
    """lizard's analysis of one file (``name`` picks the language), or None when lizard does
    not read that language or its reader fails on this file (some bundled JavaScript makes
    lizard 1.17's raise: a file a rebuild submits, or one in a gold's tree, must not end the
    judging or the count)."""
    if lizard.get_reader_for(name) is None:
        return None
    try:
        return lizard.analyze_file.analyze_source_code(name, _text(content))
    except Exception:  # a reader's own bug, on input it does not expect
        return None


def nloc(path: Path) -> int:
    """Lines of code of one file: lizard's NLOC, or for a language lizard does not read,
    its non-blank lines that are not only a ``#``, ``//``, ``/*`` or ``*`` comment."""
    text = path.read_text(errors="replace")
    info = analyze(path.name, text)
    if info is not None:
        return int(info.nloc)
    count = 0
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(("#", "//", "/*", "*")):
            count += 1
    return count


def depth_of(path: str) -> int:
    """The directory level of a relative path: ``a.c`` is 0, ``src/a.c`` is 1."""
    return len(PurePosixPath(path).parts) - 1


def structure_of(files: Mapping[str, str | bytes]) -> Structure:
    """The structure of the source files ``files`` (relative path -> content): how many, the
    deepest directory level among them, their functions and the mean NLOC of a function."""
    lengths: list[int] = []
    for name, content in files.items():
        info = analyze(name, content)
        if info is not None:
            lengths.extend(int(f.nloc) for f in info.function_list)
    return Structure(
        files=len(files),
        depth=max((depth_of(name) for name in files), default=0),
        functions=len(lengths),
        mean_function_length=round(sum(lengths) / len(lengths), 2) if lengths else 0.0,
    )


def source_paths(tree: Path, sources: Iterable[str | Path]) -> list[Path]:
    """``sources`` under ``tree`` as files: a directory stands for every source file under it
    (by extension, tests directories included as the package ships them), sorted."""
    found: list[Path] = []
    for source in sources:
        path = tree / source
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in LANGUAGES)
        else:
            found.append(path)
    return found


def structure_of_tree(tree: Path, sources: Iterable[str | Path]) -> Structure:
    """The structure of the sources ``sources`` (relative to ``tree``, or absolute inside it;
    directories expanded, :func:`source_paths`), e.g. a gold program's own sources in its source
    package; depths are relative to ``tree``."""
    files = {p.relative_to(tree).as_posix(): p.read_bytes() for p in source_paths(tree, sources)}
    return structure_of(files)


def lines_of_code(tree: Path, sources: Iterable[str | Path]) -> int:
    """Total NLOC (see :func:`nloc`) of ``sources`` under ``tree`` (directories expanded)."""
    return sum(nloc(p) for p in source_paths(tree, sources))
