"""truepass: evaluate code-producing systems with verdicts a fake fix cannot fool.

The public API is small and flat::

    import truepass
    suite = truepass.load_suite("mini")
    result = truepass.run(suite, [truepass.make_solver("oracle")], Path("runs/x"))

A new task family subclasses :class:`Family` and is made known with :func:`register_family`, a
new solver kind with :func:`register_solver_kind`; an installed package adds either through an
entry point (docs/architecture.md, "Plug-ins").
"""

from __future__ import annotations

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
