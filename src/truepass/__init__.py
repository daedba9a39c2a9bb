"""truepass: evaluate code-producing systems with verdicts a fake fix cannot fool.

The public API is small and flat::

    import truepass
    suite = truepass.load_suite("mini")
    result = truepass.run(suite, [truepass.make_solver("oracle")], Path("runs/x"))

A new task family subclasses :class:`Family` and is made known with :func:`register_family`, a
new solver kind with :func:`register_solver_kind`; an installed package adds either through an
entry point (docs/architecture.md, "Plug-ins").

The names are imported when first used (PEP 562), so that importing a submodule (the command
line does) does not import the runner, pydantic's models and the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from truepass.answers import Answer
    from truepass.errors import InputError, PatchError, SandboxError, SuiteError, TruepassError
    from truepass.families.base import Family
    from truepass.families.registry import register as register_family
    from truepass.judged import JudgeConfig, Judged, SampleCheck
    from truepass.runner import run
    from truepass.solvers import SolverKind, SolverOptions, make_solver, make_solvers
    from truepass.solvers.registry import register as register_solver_kind
    from truepass.suites.loader import Suite, load_suite
    from truepass.vocabulary import Verdict

# public name -> (module, attribute)
_PUBLIC: dict[str, tuple[str, str]] = {
    "Answer": ("truepass.answers", "Answer"),
    "Family": ("truepass.families.base", "Family"),
    "InputError": ("truepass.errors", "InputError"),
    "JudgeConfig": ("truepass.judged", "JudgeConfig"),
    "Judged": ("truepass.judged", "Judged"),
    "PatchError": ("truepass.errors", "PatchError"),
    "SampleCheck": ("truepass.judged", "SampleCheck"),
    "SandboxError": ("truepass.errors", "SandboxError"),
    "SolverKind": ("truepass.solvers", "SolverKind"),
    "SolverOptions": ("truepass.solvers", "SolverOptions"),
    "Suite": ("truepass.suites.loader", "Suite"),
    "SuiteError": ("truepass.errors", "SuiteError"),
    "TruepassError": ("truepass.errors", "TruepassError"),
    "Verdict": ("truepass.vocabulary", "Verdict"),
    "load_suite": ("truepass.suites.loader", "load_suite"),
    "make_solver": ("truepass.solvers", "make_solver"),
    "make_solvers": ("truepass.solvers", "make_solvers"),
    "register_family": ("truepass.families.registry", "register"),
    "register_solver_kind": ("truepass.solvers.registry", "register"),
    "run": ("truepass.runner", "run"),
}

__all__ = [
    "Answer",
    "Family",
    "InputError",
    "JudgeConfig",
    "Judged",
    "PatchError",
    "SampleCheck",
    "SandboxError",
    "SolverKind",
    "SolverOptions",
    "Suite",
    "SuiteError",
    "TruepassError",
    "Verdict",
    "load_suite",
    "make_solver",
    "make_solvers",
    "register_family",
    "register_solver_kind",
    "run",
]


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'truepass' has no attribute '{name}'")
    module, attr = _PUBLIC[name]
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
