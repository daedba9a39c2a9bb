"""Run a sample's tests on given code inside the sandbox and read what happened.

Outcomes come from the result channel written by the ``_truepass_reporter`` pytest plugin, never
from the candidate's stdout or files; the caller compares them with the tests the suite expects.

A pytest run is *warm* where it can be (:mod:`truepass.sandbox.testpool`: a sandboxed worker
with pytest imported forks a fresh confined child per run) and *cold* otherwise
(:func:`~truepass.sandbox.run_sandboxed`: bubblewrap and a new interpreter per run). Both give
the same :class:`TestRun` for the same input. Cold: custom (non-pytest) test commands, coverage
runs, the ``rlimits-only`` tier, ``warm=False`` or ``TRUEPASS_WARM_TESTS=0``, and any run the
warm pool could not carry out.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from truepass.families.repair.schema import RepairSample
from truepass.sandbox import Limits, SandboxResult, run_sandboxed, testpool
from truepass.sandbox.canaries import Canaries, pytest_canaries
from truepass.sandbox.execution import sandbox_env
from truepass.sandbox.precompiled import compiled_for, rewrites_for
from truepass.sandbox.testrun import HARNESS_MOUNT, TestRun, harness_dir, parse_run

log = logging.getLogger(__name__)


def is_pytest_command(argv: list[str] | None) -> bool:
    """True when the suite's test command is pytest (then per-test outcomes are available)."""
    if argv is None:
        return True
    head = [Path(a).name for a in argv[:3]]
    return head[:1] == ["pytest"] or head[1:3] == ["-m", "pytest"]


def pytest_args(sample: RepairSample, test_paths: Iterable[str]) -> list[str]:
    """The arguments after ``pytest`` of the sample's pytest ``test_command``, for a run of the
    test files ``test_paths``: an argument that names another of the sample's test files is left
    out (it belongs to the other phase: one command names the visible and the hidden test
    modules when their paths differ, as in SWE-bench's ``issue-only`` setting)."""
    argv = sample.test_command
    assert argv is not None and is_pytest_command(argv)
    start = 1 if Path(argv[0]).name == "pytest" else 3
    elsewhere = set(sample.test_files) - set(test_paths)
    return [a for a in argv[start:] if a not in elsewhere]


def build_argv(
    sample: RepairSample,
    test_paths: list[str],
    last: Sequence[str] = (),
    *,
    python: str = sys.executable,
    plugins: Sequence[str] = (),
) -> list[str]:
    """The command run in the workspace: pytest with our reporter, or the suite's own command;
    ``last``: test files pytest runs after the others (the canaries). A suite's own pytest
    command keeps its own selection (:func:`pytest_args`): ``last`` is not added to it (a path
    argument would replace the directories it collects), its collection finds them or not (the
    check says which)."""
    if sample.test_command is None:
        args = [*test_paths, *last]
    elif is_pytest_command(sample.test_command):
        args = pytest_args(sample, test_paths)
    else:
        return list(sample.test_command)
    # -P keeps the workspace off sys.path while pytest and the reporter load, so a candidate's
    # `pytest.py` or `_truepass_reporter.py` cannot shadow them.
    return [
        python, "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider",
        "-p", "_truepass_reporter", *(a for p in plugins for a in ("-p", p)),
        "-o", "console_output_style=classic", *args,
    ]  # fmt: skip


def run_tests(
    sample: RepairSample,
    code: dict[str, str],
    tests: dict[str, str],
    *,
    limits: Limits,
    coverage: bool = False,
    first: list[str] | None = None,
    warm: bool | None = None,
    canaries: bool = False,
) -> TestRun:
    """Lay out ``code`` and pristine ``tests`` in a fresh workspace and run them sandboxed.

    ``canaries``: add this process's canary tests (:mod:`truepass.sandbox.canaries`) beside
    the tests, run last; their outcomes go to ``TestRun.canaries`` and ``canary_lies``, never
    among the run's own. Only for pytest commands.

    ``first``: test ids the harness runs before the others; the session stops as soon as one of
    them does not pass (``TestRun.stopped``). Ignored with a non-pytest test command.
    ``warm``: True or False forces a warm or a cold run where both are possible; None (the
    default) asks ``TRUEPASS_WARM_TESTS`` (warm unless it says ``0``).
    """
    pytest = is_pytest_command(sample.test_command)
    cset = pytest_canaries(_test_dir(tests)) if canaries and pytest else None
    extra = cset.files if cset else {}
    files: dict[str, str | bytes] = {**code, **tests, **extra}
    env = {
        "PYTHONPATH": HARNESS_MOUNT,
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "TRUEPASS_TEST_FILES": os.pathsep.join(sorted({*tests, *extra})),
    }
    if coverage:
        env["TRUEPASS_COVERAGE"] = "1"
    if first is not None:
        env["TRUEPASS_SELECT"] = json.dumps({"mode": "first", "ids": first})
    if sample.environment is not None:
        return _without(cset, _run_in_environment(sample, code, tests, extra, files, env, limits))
    argv = build_argv(sample, sorted(tests), list(extra))
    binds = {str(harness_dir()): HARNESS_MOUNT}
    if pytest and not coverage and testpool.warm_wanted(warm):
        pristine = {p: c for p, c in code.items() if sample.files.get(p) == c and p not in tests}
        result = _run_warm(argv, files, {**tests, **extra}, pristine, env, limits)
        if result is not None:
            run = parse_run(result, channel=True)
            run.warm = True
            return _without(cset, run)
    result = run_sandboxed(argv, files, limits=limits, env=env, ro_binds=binds)
    return _without(cset, parse_run(result, channel=pytest))


def _run_in_environment(
    sample: RepairSample,
    code: dict[str, str],
    tests: dict[str, str],
    extra: dict[str, str],
    files: dict[str, str | bytes],
    env: dict[str, str],
    limits: Limits,
) -> TestRun:
    """A cold run with the repository's own environment (bound read-only at its own path):
    its interpreter, its packages and its pytest plugins (autoloaded, as the repository runs
    them); its compiled extensions laid into the workspace, or rebuilt first in the sandbox
    when ``code`` changes their sources. Coverage runs need ``coverage`` in the environment.

    Raises:
        EnvironmentUnbuilt: the environment cannot be built (the sample is invalid, said why).
    """
    from truepass.families.repair.environments.build import ready

    assert sample.environment is not None
    built = ready(sample.environment, sample.files)
    plugins = ["_truepass_extensions"] if built.rebuilds(code) else []
    argv = build_argv(sample, sorted(tests), list(extra), python=built.python, plugins=plugins)
    env = {k: v for k, v in env.items() if k != "PYTEST_DISABLE_PLUGIN_AUTOLOAD"}
    binds = {str(harness_dir()): HARNESS_MOUNT, **built.binds()}
    result = run_sandboxed(
        argv, {**files, **built.overlay_for(code)}, limits=limits, env=env, ro_binds=binds
    )
    return parse_run(result, channel=is_pytest_command(sample.test_command))


def _without(cset: Canaries | None, run: TestRun) -> TestRun:
    """``run`` with the canaries' outcomes taken out of its own (see :meth:`Canaries.take`)."""
    if cset is not None:
        cset.take(run)
    return run


def _test_dir(tests: dict[str, str]) -> str:
    """Where the canaries go: the directory of the first test file (its conftest applies)."""
    first = min(tests, default="")
    return first.rsplit("/", 1)[0] if "/" in first else ""


WARM_PLUGINS = ("_truepass_reporter",)  # every pytest run's `-p` plugins (build_argv)


def warm_pool_key(limits: Limits) -> testpool.PoolKey:
    """The key of this process's warm pool for runs under ``limits`` (runs differing only in
    ``timeout_s`` or ``cpu_s`` share it)."""
    return testpool.PoolKey(
        limits=limits,
        ro_binds=((str(harness_dir()), HARNESS_MOUNT),),
        pythonpath=HARNESS_MOUNT,
        plugins=WARM_PLUGINS,
    )


def _run_warm(
    argv: list[str],
    files: dict[str, str],
    tests: dict[str, str],
    pristine: dict[str, str],
    env: dict[str, str],
    limits: Limits,
) -> SandboxResult | None:
    """The run on this process's warm pool; None when it must be cold (no pool here, or the
    pool could not carry it out: said in the log). ``tests`` and ``pristine`` (the sample's
    code files the patch left unchanged) are compiled here once (:mod:`~truepass.sandbox.
    precompiled`); nothing the candidate wrote is."""
    pool = testpool.shared_pool(warm_pool_key(limits))
    if pool is None:
        return None
    # everything a cold run's process finds in its environment; the prelude's shell adds PWD
    full_env = sandbox_env(home="/tmp", channel_fd=-1, extra=env)
    full_env["PWD"] = testpool.WORKSPACE
    try:
        args = argv[argv.index("pytest") + 1 :]
        compiled = {"rewrites": rewrites_for(tests), "compiled": compiled_for(pristine)}
        return pool.run(args, full_env, files, compiled, limits)
    except testpool.WarmUnavailable as exc:
        log.info("warm test run failed, running it cold: %s", exc)
        return None
