"""Canary tests: the harness's own tests, added to every test run it trusts, whose outcomes the
candidate cannot know in advance (docs/sandbox.md, "Canaries").

A patch to library code, not to any test, can make the test framework report success for every
test: the tests import the library, and the library replaces a piece of the framework while it
is imported (a runner's method, the report's outcome, ``assert`` itself through an import hook,
``unittest``'s assertions). Every expected test then reports passed through the trusted channel.
No static flag can list every spelling of that. A canary can catch the whole class: among the
run's tests are some that must fail and some that must pass, in each style the suites use (a
plain pytest function, a parametrised test, a ``unittest.TestCase`` method), under names drawn
at random for this process. A framework told to pass everything passes the ones that must fail.

:func:`pytest_canaries` writes them; :meth:`Canaries.take` moves their outcomes out of a
:class:`~truepass.sandbox.testrun.TestRun` (so that nothing else ever sees them) and notes each
canary that lied.
"""

from __future__ import annotations

import functools
import secrets
import string
from dataclasses import dataclass
from typing import Literal

from truepass.sandbox.testrun import TestRun

Must = Literal["passed", "failed"]


@dataclass(frozen=True)
class Canary:
    """One canary test: its node id, the outcome it must report and its style."""

    nodeid: str
    must: Must
    style: str


@dataclass(frozen=True)
class Canaries:
    """The canary files of one run (path -> source) and the canaries they hold."""

    files: dict[str, str]
    canaries: tuple[Canary, ...]

    def take(self, run: TestRun) -> None:
        """Move the canaries out of ``run`` (collected ids, outcomes, messages, collection
        errors) into ``run.canaries`` and note in ``run.canary_lies`` each canary whose outcome
        is wrong: one that must fail and passed, or one that must pass and did not; and in
        ``run.canaries_missing`` each that never reported from a session that ran to its end
        with every test of its own passing (a session that stopped early or failed may not
        reach the canaries, which run last; where the sample's check saw them, the judge takes
        a missing one for a lie). A run without a trusted channel is left alone."""
        if not run.trusted_channel:
            return
        ids = {c.nodeid for c in self.canaries}
        in_files = tuple(self.files)
        run.collected = [n for n in run.collected if n not in ids]
        run.collect_errors = [n for n in run.collect_errors if not n.startswith(in_files)]
        outcomes = {c.nodeid: run.outcomes.pop(c.nodeid, None) for c in self.canaries}
        clean = run.finished and not run.stopped and run.outcomes and not run.failed
        for canary in self.canaries:
            outcome = outcomes[canary.nodeid]
            run.messages.pop(canary.nodeid, None)
            if outcome is None:
                if clean and not run.collect_errors:
                    run.canaries_missing.append(
                        f"the canary {canary.style} test {canary.nodeid} never reported, "
                        "though every other test passed"
                    )
                continue
            run.canaries[canary.nodeid] = outcome
            if outcome != canary.must:
                run.canary_lies.append(
                    f"the canary {canary.style} test {canary.nodeid} must {_verb(canary.must)} "
                    f"and reported {outcome}"
                )


def _verb(must: Must) -> str:
    return "pass" if must == "passed" else "fail"


def _name() -> str:
    """A random lower-case identifier of 10 letters."""
    return "".join(secrets.choice(string.ascii_lowercase) for _ in range(10))


@functools.cache
def process_names() -> tuple[str, ...]:
    """Ten names for this process's canaries (drawn once: a candidate sees only its own run),
    and two values of theirs compare (``values()``)."""
    return tuple(_name() for _ in range(10))


def values() -> tuple[int, int]:
    """Two different numbers drawn for this process: a canary that must fail compares them."""
    _, _, _, _, _, _, _, _, a, b = process_names()
    return sum(map(ord, a)), sum(map(ord, b)) + 1000


def pytest_canaries(test_dir: str = "") -> Canaries:
    """This process's pytest canaries, in one test file beside the run's tests (``test_dir``,
    relative to the workspace): a plain function, a parametrised one and a ``unittest``
    method that must fail, and one of each that must pass. The values compared are drawn at
    random too, and the failing ones differ by a computed amount."""
    file_stem, plain_fail, plain_pass, param_fail, param_pass, cls, fail, ok, a, b = process_names()
    left, right = values()
    path = f"{test_dir.rstrip('/')}/test_{file_stem}.py" if test_dir else f"test_{file_stem}.py"
    source = f"""import unittest

import pytest

_{a} = {left}
_{b} = {right}


def test_{plain_fail}():
    assert _{a} * 2 == _{a} + _{b}


def test_{plain_pass}():
    assert _{a} * 2 == _{a} + _{a}


@pytest.mark.parametrize("value", [_{a}])
def test_{param_fail}(value):
    assert value == _{b}


@pytest.mark.parametrize("value", [_{a}])
def test_{param_pass}(value):
    assert value == _{a}


class Test{cls.capitalize()}(unittest.TestCase):
    def test_{fail}(self):
        self.assertEqual(_{a}, _{b})

    def test_{ok}(self):
        self.assertEqual(_{a}, _{a})
"""
    case = f"Test{cls.capitalize()}"
    canaries = (
        Canary(f"{path}::test_{plain_fail}", "failed", "plain"),
        Canary(f"{path}::test_{plain_pass}", "passed", "plain"),
        Canary(f"{path}::test_{param_fail}[{left}]", "failed", "parametrised"),
        Canary(f"{path}::test_{param_pass}[{left}]", "passed", "parametrised"),
        Canary(f"{path}::{case}::test_{fail}", "failed", "unittest"),
        Canary(f"{path}::{case}::test_{ok}", "passed", "unittest"),
    )
    return Canaries({path: source}, canaries)
