"""truepass's import graph, read with ``ast`` (no module is imported).

Every import counts: at module level, inside a function (a lazy import still ties two modules
together) and under ``if TYPE_CHECKING:`` (a type-only import ties their meaning). The
architecture tests and ``scripts/layout_figures.py`` read the layout through this one module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "src" / "truepass"


@dataclass(frozen=True)
class Import:
    target: str  # the deepest truepass module the import names
    type_only: bool  # under ``if TYPE_CHECKING:``


def module_names(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        test = getattr(node, "test", None)
        if isinstance(node, ast.If) and (
            (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
        ):
            for inner in node.body:
                skipped |= {id(n) for n in ast.walk(inner)}
    return skipped


def imports_of(name: str, path: Path, known: set[str]) -> set[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[Import] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # each name is a submodule (an edge to it) or something the module defines
            targets = [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            while parts and ".".join(parts) not in known:
                parts.pop()
            if parts and parts[0] == "truepass" and ".".join(parts) != name:
                found.add(Import(".".join(parts), id(node) in type_only))
    return found


def import_graph(*, type_only: bool = True, root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the truepass modules it imports (with ``type_only``, TYPE_CHECKING ones too)."""
    modules = module_names(root)
    known = set(modules)
    return {
        name: {i.target for i in imports_of(name, path, known) if type_only or not i.type_only}
        for name, path in modules.items()
    }


def package_of(module: str, depth: int = 2) -> str:
    """``truepass.families.repair.judge`` -> ``truepass.families`` (depth 2)."""
    return ".".join(module.split(".")[:depth])


def family_folders(root: Path = ROOT) -> list[str]:
    """The built-in families' folders: ``truepass.families.NAME``."""
    return sorted(
        f"truepass.families.{p.name}"
        for p in (root / "families").iterdir()
        if (p / "__init__.py").is_file()
    )


def package_node(module: str, folders: Sequence[str] = ()) -> str:
    """The node ``module`` belongs to in the package graph: its family's folder
    (``truepass.families.repair``) when it is in one of ``folders``, else its top-level package
    (``truepass.families`` for the seam, ``truepass.runner`` for a top-level module)."""
    for folder in folders:
        if module == folder or module.startswith(folder + "."):
            return folder
    return package_of(module)


def collapse(graph: dict[str, set[str]], key) -> dict[str, set[str]]:
    """The graph among groups of modules (``key(module)``), self-edges left out."""
    out: dict[str, set[str]] = {}
    for v, ws in graph.items():
        out.setdefault(key(v), set()).update(key(w) for w in ws if key(w) != key(v))
    return out


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = []
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(sorted(graph.get(root, ())))))
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


# -- the layers ----------------------------------------------------------------------------------

SOLVER_KINDS = ("truepass.solvers.kinds", "truepass.agents")
"""The built-in solver kinds outside a family: their modules are plug-ins on the kernel."""
TOP = ("truepass.cli", "truepass.__main__")
"""The command line (and ``python -m truepass``, which runs it): above everything, it may import
anything."""


def plugin_folders(root: Path = ROOT) -> list[str]:
    """The plug-in nodes: each family's folder, each built-in solver kind's module or package.
    A repair language is part of repair's folder."""
    kinds = sorted(
        f"truepass.solvers.kinds.{p.stem}"
        for p in (root / "solvers" / "kinds").glob("*.py")
        if p.stem != "__init__"
    )
    return [*family_folders(root), *kinds, "truepass.agents"]


def within(module: str, folder: str) -> bool:
    return module == folder or module.startswith(folder + ".")


def is_kernel(module: str, plugins: Sequence[str]) -> bool:
    """A kernel module: neither a plug-in's nor the CLI's."""
    return not any(within(module, f) for f in (*plugins, *SOLVER_KINDS, *TOP))
