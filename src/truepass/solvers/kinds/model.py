"""Model solvers: ``openai:MODEL``, ``local:smollm2``, ``local:PATH.gguf``, one solver per
prompt variant (``--prompt``) and demonstration count (``--shots``); how a sample becomes a
prompt is the family's (:class:`~truepass.solvers.capabilities.Prompted`)."""

from __future__ import annotations

from truepass.solvers.base import Solver
from truepass.solvers.registry import SolverKind, SolverOptions


def _accepts(spec: str) -> bool:
    from truepass.models import is_model_spec

    return is_model_spec(spec)


def _build(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    from truepass.solvers.llm_factory import llm_solvers

    return list(llm_solvers(spec, options.models))


ORDER = 40
KINDS = (
    SolverKind("model", "openai:MODEL | local:smollm2 | local:PATH.gguf", _build, accepts=_accepts),
)
