"""A test run inside the sandbox as the host reads it: the per-test outcomes that the guest
side's reporter (``guest/reporter/_truepass_reporter.py``, a pytest plugin using only the standard
library and pytest) writes to the result channel, never the candidate's stdout or files.

Any family whose judge runs pytest in the sandbox reads its runs here (repair's test runs,
rebuild's behavioural tests); the Java harness writes the same events with a nonce.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from truepass.sandbox.models import SandboxResult

HARNESS_MOUNT = "/opt/truepass-harness"
OUTPUT_TAIL = 4000


def harness_dir() -> Path:
    """Host directory of the in-sandbox pytest plugin (the guest side: standard library and
    pytest only)."""
    return Path(str(resources.files("truepass.sandbox") / "guest" / "reporter"))


@dataclass
class TestRun:
    """One test process: per-test outcomes and everything needed to explain them."""

    __test__ = False  # not a pytest test class

    tier: str
    returncode: int | None
    timed_out: bool
    started: bool  # the reporter loaded: False means the harness, not the candidate, failed
    finished: bool  # the session ended normally (not exited early or killed)
    collected: list[str] = field(default_factory=list)
    outcomes: dict[str, str] = field(default_factory=dict)  # nodeid -> passed|failed|skipped
    messages: dict[str, str] = field(default_factory=dict)
    collect_errors: list[str] = field(default_factory=list)
    coverage: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    output: str = ""
    duration_s: float = 0.0
    trusted_channel: bool = True  # False for custom test commands judged by exit code only
    stopped: str = ""  # the test run first that did not pass, when it stopped the session
    warm: bool = False  # run by a warm worker (testpool), not a sandbox of its own
    canaries: dict[str, str] = field(default_factory=dict)  # the harness's canaries' outcomes
    canary_lies: list[str] = field(default_factory=list)  # canaries whose outcome was wrong
    canaries_missing: list[str] = field(default_factory=list)  # silent in a clean session

    @property
    def passed(self) -> set[str]:
        return {n for n, o in self.outcomes.items() if o == "passed"}

    @property
    def failed(self) -> set[str]:
        return {n for n, o in self.outcomes.items() if o != "passed"}


_TIMING = re.compile(r" in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d\))?")
_ADDRESS = re.compile(r"\b0x[0-9a-f]{6,16}\b")


def stable_output(text: str) -> str:
    """Test output without what changes from run to run (durations, object addresses), so
    that prompts built from it, and their cache keys, are reproducible."""
    return _ADDRESS.sub("0x…", _TIMING.sub("", text))


def parse_run(result: SandboxResult, *, channel: bool, nonce: str | None = None) -> TestRun:
    """Read the channel's JSON lines into a :class:`TestRun`; ``channel`` False: a custom test
    command judged by its exit status alone. With ``nonce``, only events carrying it count (the
    Java harness's: :mod:`~truepass.families.repair.javarun`)."""
    output = stable_output(result.stdout + result.stderr)[-OUTPUT_TAIL:]
    run = TestRun(
        tier=result.tier,
        returncode=result.returncode,
        timed_out=result.timed_out,
        started=not channel,
        finished=not channel,
        output=output,
        duration_s=result.duration_s,
        trusted_channel=channel,
    )
    if not channel:
        return run
    for event in channel_events(result.channel.decode("utf-8", errors="replace")):
        if nonce is None or event.get("nonce") == nonce:
            _absorb(run, event)
    return run


def channel_events(channel: str) -> Iterator[dict]:  # type: ignore[type-arg]
    """The JSON objects of a result channel, one per line; malformed lines are skipped."""
    for raw in channel.splitlines():
        try:
            event = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(event, dict):
            yield event


def _absorb(run: TestRun, event: dict) -> None:  # type: ignore[type-arg]
    kind = event.get("event")
    if kind == "start":
        run.started = True
    elif kind == "collected":
        run.collected = [str(n) for n in event.get("nodeids", [])]
    elif kind == "collect-error":
        run.collect_errors.append(str(event.get("nodeid", "")))
        run.messages[str(event.get("nodeid", ""))] = str(event.get("message", ""))
    elif kind == "test":
        nodeid, outcome = str(event.get("nodeid")), str(event.get("outcome"))
        # a failed or skipped setup/teardown outweighs a passing call
        if run.outcomes.get(nodeid, "passed") == "passed":
            run.outcomes[nodeid] = outcome
        if event.get("message"):
            run.messages[nodeid] = str(event["message"])
    elif kind == "coverage" and isinstance(event.get("lines"), dict):
        run.coverage = event["lines"]
    elif kind == "stopped":
        run.stopped = str(event.get("nodeid", ""))
    elif kind == "finish":
        run.finished = True
