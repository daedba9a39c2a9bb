"""What a family may do beyond its core (:class:`~truepass.families.base.Family`: schema, judge,
reference and null answers), each a small protocol it declares by having its members.

The summary, the report and the builders ask ``isinstance(family, Measured)`` ("can you?") and
never read a default: a family that does not declare a capability does not have it. What solvers
ask of a family (prompts, agent tasks) is :mod:`truepass.solvers.capabilities`.

- :class:`Measured`: metrics its summary adds per solver; :class:`Charted`: which of them the
  report charts against k; :class:`Headlined`: which of them a run's end shows beside the verdict
  table (:func:`headline_metrics`);
- :class:`Configured`: options of its own that change what its summary reports (``run
  --family-option KEY=VALUE``; review's positive class), recorded in the manifest and stated in
  the summary;
- :class:`Patched`: its answers are patches to its samples' code (repair), which other families
  can build on (patch-correctness samples from repair runs).

Health checks beyond the reference and null answers are :meth:`Family.more_health`; candidate
judging is the judge's own business (repair's ``workflow/judging.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Mapping

    from truepass.answers import Answer
    from truepass.patches.apply import AppliedPatch
    from truepass.records import AttemptRecord


@runtime_checkable
class Measured(Protocol):
    """A family whose summary adds metrics of its own (``metrics`` in summary.json)."""

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """Metrics per solver, e.g. text or classification scores; verdict rates, pass@k and
        the process metrics of solvers that act are computed for every family."""
        ...


@runtime_checkable
class Charted(Measured, Protocol):
    """A measured family whose main metrics the report charts against k (``--shots`` sweeps)
    instead of the correct rate."""

    main_metrics: ClassVar[tuple[str, ...]]
    """Keys of :meth:`metrics` to chart, in this order."""


@runtime_checkable
class Headlined(Measured, Protocol):
    """A measured family whose headline metrics a run's end shows beside the verdict table
    (repair: the similarity to the reference fix and the composite scores), when they are not
    the metrics it charts (:class:`Charted`, whose report curves leave the correct rate out)."""

    headline_metrics: ClassVar[tuple[str, ...]]
    """Keys of :meth:`metrics` to show, in this order."""


def headline_metrics(family: object) -> tuple[str, ...]:
    """What a run's end shows of ``family``'s metrics beside the verdict table: its
    :attr:`Headlined.headline_metrics`, else its :attr:`Charted.main_metrics`, else none."""
    if isinstance(family, Headlined):
        return family.headline_metrics
    if isinstance(family, Charted):
        return family.main_metrics
    return ()


@runtime_checkable
class Configured(Protocol):
    """A family with options of its own (``run --family-option KEY=VALUE``), e.g. the positive
    class of a label family's metrics. They change what is computed from records (the metrics),
    never how an answer is judged: a Dask worker's own instance judges without them."""

    def configure(self, options: Mapping[str, str]) -> None:
        """Take ``options`` (:class:`~truepass.errors.InputError` for an unknown key or value,
        naming the known ones)."""
        ...

    def options(self) -> dict[str, str]:
        """Every option in force, defaults included (the manifest's and the summary's
        ``family_options``)."""
        ...


@runtime_checkable
class Patched(Protocol):
    """A family whose answers are patches to its samples' code."""

    def code_files(self, sample: Any) -> dict[str, str]:
        """The sample's code as a patch finds it (path -> text; its tests aside)."""
        ...

    def apply_patch(self, sample: Any, answer: Answer) -> AppliedPatch:
        """``answer`` applied to the sample's code; edits to its tests are dropped
        (:class:`~truepass.errors.PatchError` when it does not apply)."""
        ...
