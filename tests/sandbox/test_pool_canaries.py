"""The pool's canary cases in real sandboxed checks: an honest candidate's cases come back exactly
as without them (statuses, values, errors, outputs), in both stopping modes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pool_helpers import needs_bwrap, run, start_pool

from truepass.sandbox.pool import Case, CheckResult, ExecPool

pytestmark = needs_bwrap

CODE = """
def f(x):
    print("case", x)
    if x == 3:
        raise KeyError(x)
    if x == 5:
        while True:
            pass
    return x * 2
"""


@pytest.fixture(scope="module")
def pool() -> Iterator[ExecPool]:
    yield from start_pool(1)


def seen(result: CheckResult) -> list[tuple[object, ...]]:
    return [(c.index, c.status, c.got_repr, c.error, c.output) for c in result.cases]


@pytest.mark.parametrize("stop", [True, False])
def test_an_honest_candidates_cases_are_the_same_with_canaries(pool: ExecPool, stop: bool) -> None:
    cases = [Case([x], x * 2 if x != 2 else 0, 0.3) for x in range(7)]
    plain = run(pool, CODE, cases, stop_on_first_failure=stop)
    for _ in range(5):  # new positions each time
        mixed = run(pool, CODE, cases, stop_on_first_failure=stop, canaries=True)
        assert (mixed.canaries, mixed.canary_lies) == (3, ())
        assert seen(mixed) == seen(plain)
    assert plain.canaries == 0
    if stop:  # the wrong value of case 2 is the first failure
        assert [c.status for c in plain.cases] == ["pass", "pass", "fail"]
    else:
        statuses = [c.status for c in plain.cases]
        assert statuses == ["pass", "pass", "fail", "error", "pass", "timeout", "pass"]
        assert plain.cases[4].output == "case 4\n"
