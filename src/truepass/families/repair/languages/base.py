"""What a language gives the repair family (docs/architecture.md, "Repair: languages").

Everything of repair that depends on what a sample is written in asks the sample's language
(:func:`truepass.families.repair.languages.get`): how its tests run in the sandbox and report
per-test outcomes (the runner), which files are its code, how prompts name it, how an agent runs
its visible tests, and what it can do beyond that. A capability a language lacks is ``None`` (or
``False``) and the feature that needs it says so, never guesses.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from truepass.families.repair.fakefix.flags import Flag
    from truepass.families.repair.strategy import StrategyReader
    from truepass.metrics.quality import CodeMetrics
    from truepass.sandbox.models import Limits
    from truepass.sandbox.testrun import TestRun

# A language reads samples and localisations without importing their modules (they import the
# language registry): a sample is a ``RepairSample``, a localisation ``solvers.sbfl``'s
# ``Localisation``, a candidate ``solvers.candidates``' ``Candidate``, a change
# ``fakefix.change``'s ``Change``.


class TestRunner(Protocol):
    """Runs a sample's tests in the sandbox."""

    __test__ = False  # not a pytest test class

    def run(
        self,
        sample: Any,
        code: dict[str, str],
        tests: dict[str, str],
        *,
        limits: Limits,
        coverage: bool = False,
        first: list[str] | None = None,
        canaries: bool = False,
    ) -> TestRun:
        """One sandboxed test run; ``coverage`` and ``first`` (tests run first, stopping at the
        first that fails) only where :meth:`per_test` holds; ``canaries`` (asked only of a
        language with :attr:`Language.canaries`): add the harness's canary tests and take their
        outcomes out into ``TestRun.canaries`` and ``canary_lies``."""
        ...

    def per_test(self, sample: Any) -> bool:
        """Does this sample's run report per-test outcomes (needed for test selection)?"""
        ...


class Language:
    """One language of repair samples. Subclass it, set the class attributes, give a
    :meth:`runner`; then ship it as ``families/repair/languages/NAME.py`` (defining
    ``LANGUAGE``) or through the ``truepass.languages`` entry point of a package of your own."""

    name: ClassVar[str]
    """as a sample's ``language`` field spells it"""
    title: ClassVar[str]
    """as prompts name it ("Python")"""
    fence: ClassVar[str]
    """the info string of its fenced code blocks in prompts and answers"""
    fence_aliases: ClassVar[tuple[str, ...]] = ()
    """other info strings that mark an answer's code block as its code (``py``)"""
    code_suffix: ClassVar[str]
    """the extension of its code files (what localisation ranks and prompts show as code)"""
    comment_starts: ClassVar[tuple[str, ...]]
    """how a comment line starts (lines that are only comment are never suspicious)"""
    agent_address_space: ClassVar[bool] = True
    """whether an agent's commands run under the address-space limit (a JVM's do not)"""
    differential: ClassVar[bool] = False
    """whether the differential check against the reference fix applies (a pytest plugin)"""
    workflow: ClassVar[bool] = False
    """whether ``workflow:MODEL`` works on its samples"""
    style_quotes: ClassVar[bool] = False
    """whether style consistency checks the quote character of string literals
    (:mod:`truepass.families.repair.style`)"""
    canaries: ClassVar[bool] = False
    """whether its runner adds canary tests (``run(..., canaries=True)``): the judge then
    catches a framework told to pass every test (:mod:`truepass.sandbox.canaries`)"""
    min_timeout_s: ClassVar[float] = 3.0
    """the floor of a candidate test run's timeout in ``baseline:templates``' search"""
    template_caps: ClassVar[tuple[int, float] | None] = None
    """``baseline:templates``' own caps for it (candidates, seconds) where a validation costs
    more than Python's; None: the solver's"""

    def runner(self) -> TestRunner:
        """How its tests run in the sandbox (one shared instance)."""
        raise NotImplementedError

    def validate(self, sample: Any) -> None:
        """Refuse a sample it cannot run (``ValueError``, read by the suite loader as the
        sample's error); the default accepts every sample."""

    def agent_test_command(self, sample: Any) -> str:
        """The shell command that runs the visible tests in an agent's workspace."""
        raise NotImplementedError

    def template_candidates(self, sample: Any, loc: Any, per_op: int) -> Iterator[Any] | None:
        """``baseline:templates``' candidates for the sample, in search order; None: the
        language has no mutation operators (the solver answers nothing)."""
        return None

    def fake_fix_flags(self, change: Any) -> list[Flag]:
        """The flags its fake-fix detectors raise on its files of ``change``, in any order
        (:mod:`truepass.families.repair.fakefix`); the default has no detectors, and
        ``touches-tests``, which reads no syntax, is raised for every language anyway."""
        return []

    def code_metrics(self) -> CodeMetrics | None:
        """Complexity, lint and function spans of its code files, for quality deltas and
        localisation at the function level; None: the patch's size and its lines only."""
        return None

    def syntax_labels(self, source: str) -> list[tuple[int, str]] | None:
        """(line, label) of every node of a file's syntax tree in pre-order, for the similarity
        to the reference fix (:mod:`truepass.families.repair.similarity`); None when it does not
        parse. The default has no parser: the similarity then reads tokens."""
        return None

    def strategy_reader(self) -> StrategyReader | None:
        """How the fix strategy reads its code (:mod:`truepass.families.repair.strategy`): its
        labeller marking conditions, and its operator, try and guard labels. The default has
        none: a change of its code is ``other``."""
        return None

    def defined_names(self, text: str) -> set[str]:
        """The names of the functions (methods, classes) a text of its code defines, which tell
        which file an answer's unnamed code block is for; the default knows none."""
        return set()

    def merge_block(self, path: str, current: str, body: str, named: bool) -> tuple[str, str]:
        """The file ``path`` (now ``current``) with an answer's code block ``body`` applied,
        and how: ``"whole-file"`` or ``"function"`` (spliced in by name). ``named``: the answer
        named the file. ``ValueError`` (its message the reason) for a block that cannot go in;
        the default replaces a named file whole and refuses an unnamed block."""
        if not named:
            raise ValueError(f"a {self.title} block for '{path}' that the response does not name")
        return body, "whole-file"
