"""The layout's figures (issue 24): lines per top-level package, modules outside each family's
folder that name it, strongly connected components, the largest module, long functions.

    python scripts/layout_figures.py          # from the repository root, in .venv
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "architecture"))

from graph import (
    ROOT,
    collapse,
    components,
    import_graph,
    module_names,
    package_node,
    package_of,
    plugin_folders,
)

LONG = 80


def main() -> None:
    modules = module_names()
    lines = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in modules.items()}
    per_package: Counter[str] = Counter()
    for m, n in lines.items():
        per_package[package_of(m) if m.count(".") >= 1 else m] += n
    print(f"lines: {sum(lines.values()):,} in {len(lines)} modules")
    for pkg, n in per_package.most_common():
        print(f"  {pkg.removeprefix('truepass.') or 'truepass'}: {n:,}")

    graph = import_graph()
    families = sorted(p.name for p in (ROOT / "families").iterdir() if (p / "__init__.py").exists())
    print("modules outside a family's folder that import it (type-only included):")
    for fam in families:
        prefix = f"truepass.families.{fam}"
        outside = sorted(
            m
            for m, ws in graph.items()
            if not (m == prefix or m.startswith(prefix + "."))
            and any(w == prefix or w.startswith(prefix + ".") for w in ws)
        )
        print(f"  {fam}: {len(outside)}  {' '.join(o.removeprefix('truepass.') for o in outside)}")

    comps = components(graph)
    print(f"module SCCs (type-only included): {len(comps)}")
    for c in comps:
        names = " ".join(x.removeprefix("truepass.") for x in c[:8])
        print(f"  {len(c)}: {names}{' ...' if len(c) > 8 else ''}")
    folders = plugin_folders()
    top = components(collapse(graph, lambda m: package_node(m, folders)))
    print(f"top-level package SCCs (each plug-in a node of its own): {len(top)}")
    for c in top:
        print(f"  {len(c)}: {' '.join(x.removeprefix('truepass.') for x in c)}")

    largest = max(lines, key=lines.__getitem__)
    print(f"largest module: {largest.removeprefix('truepass.')} ({lines[largest]} lines)")
    long_functions = []
    for m, p in modules.items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > LONG:
                    long_functions.append((n, f"{m.removeprefix('truepass.')}:{node.name}"))
    print(f"functions over {LONG} lines: {len(long_functions)}")
    for n, name in sorted(long_functions, reverse=True):
        print(f"  {n}: {name}")


if __name__ == "__main__":
    main()
