"""Solver kinds by spec: the built-in ones (each module of ``truepass/solvers/kinds/`` and each
family's ``solvers`` package that defines ``KINDS``), those of installed plug-ins (entry points of
the group ``truepass.solvers``, :mod:`truepass.plugins`) and any registered with :func:`register`.

A kind is a name, the spec form it takes on the command line (``agent:MODEL``), a factory from a
spec to solvers, and, where it has settings of its own, a pydantic options model: the CLI makes
one ``--FIELD`` option of each of its fields, under a ``--help`` panel of the kind's own, and hands
the factory the model built from them. Adding a kind is one file.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

from pydantic import BaseModel

from truepass import plugins
from truepass.errors import InputError
from truepass.solvers.base import Solver
from truepass.solvers.settings import LLMOptions


@dataclass(frozen=True)
class SolverOptions:
    """Everything a run's solvers are built with: the model options every model-driven kind
    shares (``--prompt``, ``--samples``, ``--temperature``, ...) and each kind's own options,
    by kind name (a kind not named here gets its options model's defaults)."""

    models: LLMOptions = field(default_factory=LLMOptions)
    kinds: Mapping[str, BaseModel] = field(default_factory=dict)

    def of(self, kind: SolverKind) -> BaseModel | None:
        """``kind``'s options: as given, else its model's defaults (None: it has none)."""
        if kind.options is None:
            return None
        given = self.kinds.get(kind.name)
        return given if given is not None else kind.options()


@dataclass(frozen=True)
class SolverKind:
    """One kind of solver."""

    name: str
    """its name; specs are ``NAME`` or ``NAME:ARGUMENT`` unless :attr:`accepts` says otherwise"""
    spec: str
    """how ``--help`` and errors show its specs (``agent:MODEL``, ``replay:FILE``)"""
    build: Callable[[str, SolverOptions, set[str] | None], list[Solver]]
    """``(spec, options, the suite's sample ids) -> solvers`` (a model spec makes one solver per
    prompt variant and shot count)"""
    options: type[BaseModel] | None = None
    """its own options model (its fields become CLI options)"""
    panel: str | None = None
    """the ``--help`` panel of its options"""
    accepts: Callable[[str], bool] | None = None
    """which specs are its, when not ``NAME`` or ``NAME:...``"""

    def takes(self, spec: str) -> bool:
        if self.accepts is not None:
            return self.accepts(spec)
        return spec == self.name or spec.startswith(self.name + ":")


def register(kind: SolverKind) -> SolverKind:
    """Make ``kind`` known (a test, or a program that embeds truepass); a taken name is an
    error."""
    return REGISTRY.register(kind)


def unregister(name: str) -> None:
    """Forget a kind registered with :func:`register` (built-in ones stay)."""
    REGISTRY.unregister(name)


def kinds() -> list[SolverKind]:
    """Every known kind: the built-in ones in their order, then plug-ins', then registered."""
    return [REGISTRY.get(name) for name in REGISTRY.names()]


def spec_help() -> str:
    """``oracle | noop | replay:FILE | ...``: every kind's spec form."""
    return " | ".join(k.spec for k in kinds())


def kind_of(spec: str) -> SolverKind:
    """The kind that takes ``spec``; :class:`InputError` naming the known forms if none does."""
    for kind in kinds():
        if kind.takes(spec):
            return kind
    raise InputError(f"unknown solver '{spec}' (known: {spec_help()})", field="--solver")


def make_solver(
    spec: str, known_ids: set[str] | None = None, options: SolverOptions | None = None
) -> Solver:
    """The one solver of ``spec`` (:class:`InputError` if it makes several, as a model spec
    with several prompt variants does: use :func:`make_solvers`)."""
    made = kind_of(spec).build(spec, options or SolverOptions(), known_ids)
    if len(made) != 1:
        raise InputError(f"'{spec}' makes {len(made)} solvers; name them with make_solvers",
                         field="--solver")  # fmt: skip
    return made[0]


def make_solvers(
    specs: list[str], known_ids: set[str] | None = None, options: SolverOptions | None = None
) -> list[Solver]:
    """Every solver of a run, in the order of ``specs``; a solver named twice is an error."""
    options = options or SolverOptions()
    out: list[Solver] = []
    for spec in specs:
        out.extend(kind_of(spec).build(spec, options, known_ids))
    names = [s.name for s in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InputError(f"solver given twice: {', '.join(dupes)}", field="--solver")
    return out


@cache
def _builtin() -> dict[str, SolverKind]:
    """The kinds of ``truepass/solvers/kinds/`` (in the order of each module's ``ORDER``), then
    those of each built-in family's ``solvers`` package."""
    from truepass.families import registry as families

    builtin_kinds = importlib.import_module("truepass.solvers.kinds")

    modules = sorted(
        (importlib.import_module(f"{builtin_kinds.__name__}.{m.name}")
         for m in pkgutil.iter_modules(builtin_kinds.__path__)),
        key=lambda m: getattr(m, "ORDER", 100),
    )  # fmt: skip
    out: dict[str, SolverKind] = {}
    for module in modules:
        out.update({k.name: k for k in getattr(module, "KINDS", ())})
    out.update({k.name: k for k in families.contributed("solvers", "KINDS", SolverKind)})
    return out


REGISTRY: plugins.Registry[SolverKind] = plugins.Registry(
    "solver kind", plugins.SOLVERS, SolverKind, lambda kind: kind.name,
    lambda: tuple(_builtin()), lambda name: _builtin()[name], field="--solver", module=__name__,
)  # fmt: skip
