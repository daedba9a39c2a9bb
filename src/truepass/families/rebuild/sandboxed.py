"""Running a rebuild task's tests, and single cases, in the sandbox: how the judge runs them on
a submission, and how ``truepass build-rebuild`` records the gold and runs the dummies, so that
the expected values come from the environment the tests are judged in (a tmpfs, uid 65534, no
network: a program reading a directory gets another error on ext4 than on a tmpfs)."""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path

from truepass.errors import SandboxError
from truepass.families.rebuild.emit import Case
from truepass.families.rebuild.harness._truepass_rebuild import Run
from truepass.sandbox.canaries import pytest_canaries
from truepass.sandbox.session import SandboxSession
from truepass.sandbox.testrun import HARNESS_MOUNT, TestRun, harness_dir, parse_run

REBUILD_HARNESS_MOUNT = "/opt/truepass-rebuild"
MAX_TEST_SESSION_S = 3600.0


def rebuild_harness_dir() -> Path:
    """Host directory of the ``program`` fixture plugin and the case recorder."""
    return Path(str(resources.files("truepass.families.rebuild") / "harness"))


def harness_binds() -> dict[str, str]:
    """Read-only binds of both harness directories (the reporter and the fixture)."""
    return {str(harness_dir()): HARNESS_MOUNT, str(rebuild_harness_dir()): REBUILD_HARNESS_MOUNT}


def _harness_env() -> dict[str, str]:
    return {
        "PYTHONPATH": f"{HARNESS_MOUNT}:{REBUILD_HARNESS_MOUNT}",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


CHANNEL_PER_TEST = 16_384
"""Bytes of the result channel one test's report may take: its outcome and a failure message of
at most 2,000 characters (the reporter's cap), JSON-escaped. The channel of a test session has
room for every test's (a channel cut short would turn a submission that fails every test into
an infrastructure error, not counted: a way out of a zero score)."""


def run_tests(
    session: SandboxSession,
    tests: Mapping[str, str],
    ignore: Iterable[str],
    *,
    program: str,
    name: str,
    run_timeout_s: float,
    expected: int,
    canaries: bool = True,
) -> TestRun:
    """Write ``tests`` under a fresh directory of a random name and run them with pytest on
    ``program`` (a path as the sandbox sees it, run as ``name``), the ``ignore``d test ids
    deselected; the test files are deleted once collected. Outcomes are keyed by the task's test
    ids (``FILE.py::name``). ``canaries``: the harness's canary tests run beside them, their
    outcomes taken out into ``TestRun.canaries`` and ``canary_lies``
    (:mod:`truepass.sandbox.canaries`).

    A failure is reported in one line (``--tb=line``: the assertion and pytest's explanation of
    it, without the traceback's source): pytest finds a failing statement's source by parsing
    the whole test file again for each failure, which made a submission failing 800 generated
    tests take 30 times as long to judge as one passing them."""
    folder = f".truepass-tests-{secrets.token_hex(8)}"
    cset = pytest_canaries() if canaries else None
    for path, source in {**tests, **(cset.files if cset else {})}.items():
        session.write_file(f"{folder}/{path}", source)
    session.write_file(f"{folder}/pytest.ini", "[pytest]\n")
    # node ids are relative to the rootdir, the folder itself
    deselect = [a for t in ignore for a in ("--deselect", t)]
    argv = [
        "/usr/bin/env", "python3", "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider",
        "-p", "_truepass_reporter", "-p", "_truepass_rebuild", "-c", f"{folder}/pytest.ini",
        "--rootdir", folder, "-o", "console_output_style=classic", "--tb=line", *deselect,
        folder,
    ]  # fmt: skip
    env = {
        **_harness_env(),
        "TRUEPASS_PROGRAM": program,
        "TRUEPASS_PROGRAM_NAME": name,
        "TRUEPASS_RUN_TIMEOUT": f"{run_timeout_s:g}",
        "TRUEPASS_HIDE_TESTS": "1",
    }
    budget = 60.0 + run_timeout_s * max(1, expected)
    channel = max(session.limits.output_bytes, CHANNEL_PER_TEST * (expected + 64))
    result = session.execute(
        argv, timeout_s=min(budget, MAX_TEST_SESSION_S), env=env, output_bytes=channel
    )
    run = parse_run(result, channel=True)
    prefix = folder + "/"
    run.outcomes = {k.removeprefix(prefix): v for k, v in run.outcomes.items()}
    run.messages = {k.removeprefix(prefix): v for k, v in run.messages.items()}
    run.collected = [k.removeprefix(prefix) for k in run.collected]
    run.collect_errors = [k.removeprefix(prefix) for k in run.collect_errors]
    if cset is not None:
        cset.take(run)
    return run


RECORD_BATCH = 40
"""Cases per sandboxed command when recording (their results must fit the output cap)."""


def record_cases(
    session: SandboxSession, cases: Sequence[Case], *, program: str, name: str, timeout_s: float
) -> list[Run | None]:
    """Run ``cases`` one after the other on ``program`` in the session's sandbox,
    :data:`RECORD_BATCH` per command, each within ``timeout_s``; per case, what it did, or None
    when it did not finish in time.

    Raises:
        SandboxError: the recorder did not report every case.
    """
    out: list[Run | None] = []
    for first in range(0, len(cases), RECORD_BATCH):
        batch = cases[first : first + RECORD_BATCH]
        out += _record_batch(session, batch, program, name, timeout_s)
    return out


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _record_batch(
    session: SandboxSession, cases: Sequence[Case], program: str, name: str, timeout_s: float
) -> list[Run | None]:
    batch = [
        {
            "args": list(c.args),
            "stdin": _b64(c.stdin),
            "files": {k: _b64(v) for k, v in c.files},
            "env": dict(c.env),
            "timeout": timeout_s,
        }
        for c in cases
    ]
    path = f".truepass-cases-{secrets.token_hex(8)}.json"
    session.write_file(path, json.dumps(batch))
    argv = ["/usr/bin/env", "python3", "-P", "-m", "_truepass_record", path, program, name]
    budget = 60.0 + timeout_s * len(batch)
    result = session.execute(argv, timeout_s=min(budget, MAX_TEST_SESSION_S), env=_harness_env())
    if result.output_truncated:
        raise SandboxError(
            f"the recorder's results exceed the output cap ({session.limits.output_bytes} bytes)"
        )
    out: list[Run | None] = [None] * len(batch)
    seen: set[int] = set()
    for line in result.channel.decode("utf-8", "replace").splitlines():
        event = json.loads(line)
        index = int(event["index"])
        seen.add(index)
        if event.get("timeout"):
            continue
        out[index] = Run(
            base64.b64decode(event["stdout"]),
            base64.b64decode(event["stderr"]),
            int(event["returncode"]),
            {k: base64.b64decode(v) for k, v in event["files"].items()},
        )
    if len(seen) != len(batch):
        tail = (result.stdout + result.stderr)[-1000:]
        raise SandboxError(f"the recorder reported {len(seen)} of {len(batch)} cases: {tail}")
    return out
