"""The files that run inside the sandbox (the guest side) import only the standard library, the
test tools the sandbox's interpreter has (pytest, coverage and, guarded, hypothesis), each
other, and the few truepass modules shipped beside them: never the host side of truepass, so
that nothing of the trusted process runs in the sandbox and a shipped file works without
truepass installed there."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from graph import ROOT

GUEST = [
    *sorted((ROOT / "sandbox" / "guest").rglob("*.py")),
    *sorted(ROOT.glob("families/*/harness/*.py")),
    ROOT / "families" / "codegen" / "adapters" / "humaneval_record.py",
]
TEST_TOOLS = {"pytest", "_pytest", "coverage", "hypothesis"}  # hypothesis: guarded, optional
SHIPPED = {  # truepass modules the differential probe ships into the sandbox beside its plugin
    "truepass.sandbox.guest", "truepass.sandbox.guest.plainvalues", "truepass.pycode",
    "truepass.pycode.values", "truepass.pycode.inputs", "truepass.pycode.invariants",
    "truepass.suites.literals", "truepass.pyast",
}  # fmt: skip


def _imports(path: Path) -> set[tuple[str, ...]]:
    """Each import as the modules it may name: ``import a.b`` names ``a.b``; ``from m import x``
    names ``m`` or, when ``x`` is a submodule, ``m.x``."""
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {(a.name,) for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found |= {(node.module, f"{node.module}.{a.name}") for a in node.names}
    return found


def _allowed(name: str, siblings: set[str]) -> bool:
    top = name.split(".")[0]
    return (
        top in sys.stdlib_module_names
        or top in TEST_TOOLS
        or top in siblings
        or name in SHIPPED
        or name.startswith("truepass.sandbox.guest.")  # the guest side itself
    )


def _foreign(path: Path) -> list[str]:
    siblings = {p.stem for p in path.parent.glob("*.py")}
    return sorted(
        {names[0] for names in _imports(path) if not any(_allowed(n, siblings) for n in names)}
    )


def test_the_guest_side_is_found_and_a_host_file_would_fail() -> None:
    names = {p.name for p in GUEST}
    assert {"worker.py", "confine.py", "_truepass_reporter.py", "_truepass_probe.py"} <= names
    assert "truepass.sandbox.workerproc" in _foreign(ROOT / "sandbox" / "pool.py")


def test_guest_files_import_nothing_of_the_host() -> None:
    found = {str(p.relative_to(ROOT)): bad for p in GUEST if (bad := _foreign(p))}
    assert found == {}, f"guest files importing what the sandbox does not have: {found}"


def test_the_shipped_truepass_modules_are_guest_clean_too() -> None:
    for name in SHIPPED:
        path = ROOT.parent.joinpath(*name.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        assert _foreign(path) == [], name
