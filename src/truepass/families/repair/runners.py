"""Test runners of the repair family, chosen by a sample's ``language``.

A runner lays out the code and the pristine tests in a fresh sandboxed workspace, runs them and
reads per-test outcomes from the harness's own result channel (never from the candidate's
output) into a :class:`~truepass.sandbox.testrun.TestRun`. The judge, the verdicts and
everything above them only see that :class:`TestRun`; each language gives its runner
(:meth:`truepass.families.repair.languages.Language.runner`, docs/architecture.md).
"""

from __future__ import annotations

from truepass.families.repair import languages
from truepass.families.repair.languages.base import TestRunner
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.testrun import is_pytest_command, run_tests
from truepass.sandbox.models import Limits
from truepass.sandbox.testrun import TestRun


class PytestRunner:
    """Python: pytest with the ``_truepass_reporter`` plugin (or the sample's own command).

    pytest runs are warm where possible (a worker of this process's warm pool forks a fresh
    confined child per run: :mod:`truepass.sandbox.testpool`), cold otherwise; ``warm`` True or
    False forces one where both are possible, None (the default) follows
    ``TRUEPASS_WARM_TESTS`` (warm unless ``0``). Both give the same :class:`TestRun`.
    """

    def __init__(self, warm: bool | None = None) -> None:
        self.warm = warm

    def run(
        self,
        sample: RepairSample,
        code: dict[str, str],
        tests: dict[str, str],
        *,
        limits: Limits,
        coverage: bool = False,
        first: list[str] | None = None,
        canaries: bool = False,
    ) -> TestRun:
        """One test run (see :func:`~truepass.families.repair.testrun.run_tests`)."""
        return run_tests(
            sample, code, tests, limits=limits, coverage=coverage, first=first, warm=self.warm,
            canaries=canaries,
        )  # fmt: skip

    def per_test(self, sample: RepairSample) -> bool:
        return is_pytest_command(sample.test_command)


def runner_for(sample: RepairSample) -> TestRunner:
    """The runner of the sample's language (:mod:`truepass.families.repair.languages`)."""
    return languages.get(sample.language).runner()
