"""ExecPool: verdicts, per-case reports, timeouts, output capture, calibration, throughput.

Everything runs for real in the bwrap sandbox (no mocks). No test asserts a wall-clock time.
"""

from __future__ import annotations

import math
import select
from collections.abc import Iterator

import pytest
from pool_helpers import needs_bwrap, run, start_pool

from truepass.sandbox.pool import (
    Case,
    ExecLimits,
    ExecPool,
    Job,
    PoolError,
    calibrate,
    scaled_timeouts,
    wall_limit,
)

pytestmark = needs_bwrap

ADD = """
def add(a, b):
    print("adding", a, b)
    return a + b
"""


@pytest.fixture(scope="module")
def pool() -> Iterator[ExecPool]:
    yield from start_pool(2)


def test_correct_function_passes_with_per_case_output(pool: ExecPool) -> None:
    got = run(pool, ADD, [Case([1, 2], 3), Case([2, 5], 7)], entry="add")
    assert got.passed and got.status == "pass"
    assert [c.status for c in got.cases] == ["pass", "pass"]
    assert [c.output for c in got.cases] == ["adding 1 2\n", "adding 2 5\n"]
    assert got.sandbox.startswith("bwrap")


def test_wrong_answer_names_the_input_and_expected_vs_got(pool: ExecPool) -> None:
    got = run(pool, ADD, [Case([1, 2], 3), Case([2, 2], 5), Case([0, 0], 0)], entry="add")
    assert not got.passed and got.status == "fail"
    assert len(got.cases) == 2  # stops at the first failure
    bad = got.cases[1]
    assert (bad.index, bad.status) == (1, "fail")
    assert (bad.input_repr, bad.expected_repr, bad.got_repr) == ("[2, 2]", "5", "4")


def test_every_case_is_reported_without_stop_on_first_failure(pool: ExecPool) -> None:
    cases = [Case([1, 1], 3), Case([2, 2], 4), Case([3, 3], 7)]
    got = run(pool, ADD, cases, entry="add", stop_on_first_failure=False)
    assert [c.status for c in got.cases] == ["fail", "pass", "fail"]
    assert got.status == "fail"


def test_exception_is_an_error_with_its_type(pool: ExecPool) -> None:
    got = run(pool, "def f(x):\n    return {}[x]\n", [Case(["k"], 1)])
    assert got.status == "error"
    assert got.cases[0].error == "KeyError: 'k'"
    assert got.cases[0].input_repr == "['k']"


@pytest.mark.parametrize(
    ("code", "needle"),
    [
        ("def f(x) return x\n", "SyntaxError"),
        ("import no_such_module_here\ndef f(x): return x\n", "ModuleNotFoundError"),
        ("def g(x): return x\n", "entry point 'f' is not defined"),
        ("f = 3\n", "not callable"),
        ("raise SystemExit(0)\n", "SystemExit"),
    ],
)
def test_code_that_does_not_load_is_broken(pool: ExecPool, code: str, needle: str) -> None:
    got = run(pool, code, [Case([1], 1)])
    assert (got.passed, got.status, got.cases) == (False, "broken", [])
    assert needle in (got.error or "")


def test_exiting_early_never_passes(pool: ExecPool) -> None:
    got = run(pool, "import os\ndef f(x):\n    os._exit(0)\n", [Case([1], 1)])
    assert got.status == "error"
    assert "exited with status 0" in (got.cases[0].error or "")


def test_types_are_checked_exactly(pool: ExecPool) -> None:
    code = "def f(kind):\n    return {'bool': True, 'float': 1.0, 'tuple': (1, 2)}[kind]\n"
    assert run(pool, code, [Case(["bool"], 1)]).status == "fail"  # True is not 1
    assert run(pool, code, [Case(["float"], 1)]).status == "fail"
    assert run(pool, code, [Case(["float"], 1)], int_is_float=True).passed
    assert run(pool, code, [Case(["tuple"], [1, 2])]).status == "fail"
    assert run(pool, code, [Case(["tuple"], [1, 2])], tuple_is_list=True).passed


def test_rich_plain_values_round_trip(pool: ExecPool) -> None:
    value = (1, -(10**40), 1.5, math.inf, None, "é\ud800", [True], {3: {4, 5}}, frozenset({"a"}))
    code = "import math\ndef f():\n    return " + repr(value).replace("inf", "math.inf")
    assert run(pool, code, [Case([], value)]).passed
    nan = run(pool, "def f():\n    return [float('nan')]\n", [Case([], [math.nan])])
    assert nan.passed


def test_atol_compares_floats(pool: ExecPool) -> None:
    code = "def f():\n    return 0.1 + 0.2\n"
    assert run(pool, code, [Case([], 0.3)]).status == "fail"
    assert run(pool, code, [Case([], 0.3)], atol=1e-9).passed


def test_infinite_loop_times_out_and_the_worker_stays_usable() -> None:
    for small in start_pool(1):
        worker = small._slots[0].process
        code = "def f(x):\n    while x:\n        pass\n    return x\n"
        got = run(small, code, [Case([0], 0, 5.0), Case([1], 1, 0.3), Case([0], 0, 5.0)])
        assert got.status == "timeout"
        assert [c.status for c in got.cases] == ["pass", "timeout"]
        assert "0.3 s" in (got.cases[1].error or "")
        assert run(small, ADD, [Case([1, 2], 3)], entry="add").passed
        assert small._slots[0].process is worker  # the same worker, not a replacement


def test_after_a_timeout_a_fresh_child_resumes_at_the_next_case(pool: ExecPool) -> None:
    code = "def f(x):\n    while x == 1:\n        pass\n    return x\n"
    cases = [Case([1], 1, 0.3), Case([2], 2, 0.3), Case([3], 4, 0.3)]
    got = run(pool, code, cases, stop_on_first_failure=False)
    assert [c.status for c in got.cases] == ["timeout", "pass", "fail"]


def test_the_case_limit_counts_cpu_time_so_waiting_does_not_use_it_up(pool: ExecPool) -> None:
    code = "import time\ndef f(x):\n    time.sleep(x)\n    return x\n"
    got = run(pool, code, [Case([0.6], 0.6, timeout_s=0.3, wall_s=5.0)])
    assert got.passed, got
    assert got.cases[0].duration_s >= 0.6 > 0.3 > got.cases[0].cpu_s


def test_code_that_waits_forever_is_stopped_by_the_wall_clock_limit(pool: ExecPool) -> None:
    code = "import time\ndef f(x):\n    time.sleep(x)\n    return x\n"
    got = run(pool, code, [Case([60], 60, timeout_s=0.2, wall_s=0.5), Case([0], 0)])
    assert got.status == "timeout"
    assert "0.5 s (wall clock)" in (got.cases[0].error or "")


def test_the_default_wall_limit_leaves_room_for_a_busy_machine() -> None:
    assert Case([], None, timeout_s=0.25).wall_limit_s == wall_limit(0.25) >= 3 * 0.25
    assert Case([], None, timeout_s=0.25, wall_s=9.0).wall_limit_s == 9.0


def test_loading_that_never_ends_is_a_timeout() -> None:
    for small in start_pool(1, ExecLimits(load_timeout_s=0.5)):
        got = run(small, "while True:\n    pass\n", [Case([1], 1)])
        assert (got.status, got.cases) == ("timeout", [])
        assert "loading" in (got.error or "")


def test_output_is_captured_and_capped() -> None:
    for small in start_pool(1, ExecLimits(output_bytes=1000)):
        code = "import sys\ndef f(x):\n    print('x' * 100000)\n    sys.stderr.write('e')\n"
        code += "    return x\n"
        got = run(small, code, [Case([1], 1), Case([2], 2)])
        assert got.passed
        assert got.output_truncated
        assert sum(len(c.output) for c in got.cases) + len(got.output) == 1000


def test_a_request_larger_than_a_pipe_reaches_the_child_and_the_next_starts_clean(
    pool: ExecPool,
) -> None:
    # every child gets the same pipes: a request of many pipe buffers is written while the
    # child reads it; after a child killed while it printed, the next check's output is its own
    big, restarts = list(range(200_000)), pool.restarts  # about 1.3 MB of JSON
    assert run(pool, "def f(xs):\n    return sum(xs)\n", [Case([big], sum(big))]).passed
    noisy = "def f(xs):\n    while True:\n        print('x' * 4000, flush=True)\n"
    killed = run(pool, noisy, [Case([big], 0, 0.3)])
    assert killed.status == "timeout"
    after = run(pool, "def f(xs):\n    return xs\n", [Case([[1, 2]], [1, 2])])
    assert after.passed and after.output == "" and after.cases[0].output == ""
    assert pool.restarts == restarts


def test_large_results_overflow_into_an_error() -> None:
    for small in start_pool(1, ExecLimits(result_bytes=10_000)):
        got = run(small, "def f():\n    return list(range(100000))\n", [Case([], [])])
        assert got.status == "error"
        assert "result_bytes" in (got.cases[0].error or "")


def test_200_quick_checks_across_two_workers_in_order(pool: ExecPool) -> None:
    jobs = [Job(ADD, "add", [Case([i, 1], i + 1 if i % 7 else -1)]) for i in range(200)]
    results = list(pool.check_many(jobs))
    assert [r.passed for r in results] == [bool(i % 7) for i in range(200)]
    assert {r.cases[0].input_repr for r in results if not r.passed} == {
        f"[{i}, 1]" for i in range(0, 200, 7)
    }


def test_a_killed_worker_is_replaced_and_the_check_retried() -> None:
    for small in start_pool(1):
        process = small._slots[0].process
        assert process is not None and process._proc is not None
        process._proc.kill()
        process._proc.wait()
        # the kill reaches the worker inside the sandbox asynchronously (bwrap's
        # --die-with-parent): wait until it is gone, its end of the pipe closed
        stdout = process._proc.stdout
        assert stdout is not None and select.select([stdout], [], [], 30)[0]
        assert stdout.read(1) == b""
        assert run(small, ADD, [Case([1, 2], 3)], entry="add").passed
        assert small._slots[0].process is not process


def test_a_response_that_does_not_decode_gets_the_worker_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # responses are decoded after the worker is free again: the worker whose response did not
    # decode is replaced before its next check, and the check retried on a fresh one
    import truepass.sandbox.pool as pool_module

    real, calls = pool_module.decode_response, []

    def fails_once(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            raise pool_module.HarnessFailed("the harness failed (injected)")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pool_module, "decode_response", fails_once)
    for small in start_pool(1):
        first = small._slots[0].process
        assert run(small, ADD, [Case([1, 2], 3)], entry="add").passed
        assert len(calls) == 2 and small.restarts == 1
        assert small._slots[0].process is not first
        replaced = small._slots[0].process
        assert run(small, ADD, [Case([2, 2], 4)], entry="add").passed
        assert small._slots[0].process is replaced and small.restarts == 1


def test_calibrate_measures_the_canonical_solution(pool: ExecPool) -> None:
    code = "def f(n):\n    return sum(range(n))\n"
    inputs = [[10], [3_000_000]]
    cal = calibrate(pool, code, "f", inputs, repeats=2, factor=4.0, floor_s=0.5)
    assert cal.outputs == [45, 4499998500000]
    # CPU time: a 10-step sum may read as 0 on a coarse clock, three million steps never do
    assert len(cal.times_s) == 2 and cal.times_s[0] >= 0 and cal.times_s[1] > 0.01
    assert cal.timeouts_s == [max(0.5, 4.0 * t) for t in cal.times_s]
    assert run(pool, code, cal.cases()).passed
    sleepy = calibrate(pool, "import time\ndef f():\n    time.sleep(0.3)\n", "f", [[]], repeats=1)
    assert sleepy.times_s[0] < 0.1  # CPU time: sleeping costs none
    with pytest.raises(ValueError, match="ZeroDivisionError"):
        calibrate(pool, "def f(n):\n    return 1 // n\n", "f", [[1], [0]], repeats=1)


def test_scaled_timeouts_have_a_floor() -> None:
    assert scaled_timeouts([0.001, 1.0], factor=3.0, floor_s=0.2) == [0.2, 3.0]


def test_expected_values_must_be_plain(pool: ExecPool) -> None:
    with pytest.raises(TypeError, match="unserialisable type object"):
        pool.check("def f(): return 1\n", "f", [Case([], object())])


def test_the_rlimits_only_tier_still_confines_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUEPASS_SANDBOX", "rlimits-only")
    with ExecPool(workers=1) as weak:
        assert weak.sandbox.startswith("rlimits-only")
        assert run(weak, ADD, [Case([1, 2], 3)], entry="add").passed
        got = run(weak, "import os\ndef f():\n    os.fork()\n", [Case([], None)])
        assert got.status == "error"
        probe = "import os\ndef f():\n    open('t', 'w').write('x')\n    return os.getuid()\n"
        assert run(weak, probe, [Case([], 65534)]).passed  # never root, writes its scratch
        assert run(weak, "import os\ndef f():\n    return os.listdir('.')\n", [Case([], [])]).passed
        assert weak.restarts == 0


def test_infra_errors_can_be_results() -> None:
    for small in start_pool(1):
        small.close()  # a closed pool cannot run anything
        jobs = [Job(ADD, "add", [Case([1, 2], 3)])]
        got = list(small.check_many(jobs, infra_errors="result"))
        assert [(r.status, r.passed) for r in got] == [("infra-error", False)]
        with pytest.raises(PoolError, match="closed"):
            small.check(ADD, "add", [Case([1, 2], 3)])
