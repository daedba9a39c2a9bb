"""The plug-in layout (docs/architecture.md, "Layers"): a kernel that knows no family, solver kind
or language; each family one folder that nothing outside it imports; no import cycle among
modules or among packages. Every import counts, type-only ones (``if TYPE_CHECKING:``) too; the
registries and the CLI find plug-ins by name at run time (``importlib``), which is no import.
"""

from __future__ import annotations

from graph import (
    collapse,
    components,
    family_folders,
    import_graph,
    is_kernel,
    package_node,
    plugin_folders,
    within,
)

GRAPH = import_graph()
PLUGINS = plugin_folders()


def test_the_layers_are_what_the_docs_say() -> None:
    assert "truepass.families.repair" in PLUGINS and "truepass.solvers.kinds.agent" in PLUGINS
    assert "truepass.agents" in PLUGINS
    for kernel in ("truepass.runner", "truepass.families.base", "truepass.families.registry",
                   "truepass.solvers.registry", "truepass.sandbox.testrun", "truepass.report",
                   "truepass.prompts.guard", "truepass.patches.apply"):  # fmt: skip
        assert kernel in GRAPH and is_kernel(kernel, PLUGINS), kernel
    assert not is_kernel("truepass.families.repair.languages", PLUGINS)
    assert not is_kernel("truepass.cli.run", PLUGINS)


def test_the_graph_sees_lazy_and_type_only_imports() -> None:
    # imported inside a function (runner.py writes the report once the results are written)
    assert "truepass.report" in GRAPH["truepass.runner"]
    # imported under TYPE_CHECKING only
    assert "truepass.solvers.base" in GRAPH["truepass.solvers.capabilities"]
    assert (
        "truepass.solvers.base"
        not in import_graph(type_only=False)["truepass.solvers.capabilities"]
    )


def test_no_kernel_module_imports_a_family_a_solver_kind_or_a_language() -> None:
    found = sorted(
        f"{m} -> {w}"
        for m, ws in GRAPH.items()
        if is_kernel(m, PLUGINS)
        for w in ws
        if not is_kernel(w, PLUGINS)
    )
    assert found == [], "kernel modules import plug-ins:\n" + "\n".join(found)


def test_nothing_outside_a_family_imports_it() -> None:
    found = sorted(
        f"{m} -> {w}"
        for folder in family_folders()
        for m, ws in GRAPH.items()
        if not within(m, folder)
        for w in ws
        if within(w, folder)
    )
    assert found == [], "modules import a family from outside its folder:\n" + "\n".join(found)


def test_no_import_cycle_among_modules() -> None:
    found = components(GRAPH)
    assert found == [], "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_import_cycle_among_packages() -> None:
    """Each top-level package a node, each plug-in (a family's folder, a solver kind) one of its
    own: the kernel's packages form no cycle, and no plug-in is tied into one."""
    packages = collapse(GRAPH, lambda m: package_node(m, PLUGINS))
    found = components(packages)
    assert found == [], "package cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_cycles_are_found() -> None:
    assert components({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert components({"a": {"b"}, "b": set()}) == []
