"""The verdict of a function-level check, computed in the trusted parent only.

The child inside the sandbox reports, per case, the tagged plain value its function returned
(or the exception it raised); the worker reports timeouts and deaths. Here those reports are
decoded strictly (:func:`decode_response`: framing, the case index of every message, the tagged
form, exact types) and compared with the expected values, which never left this process
(:func:`judge`, with :func:`truepass.sandbox.guest.plainvalues.plain_equal`). A candidate can only
make
this process see plain values: never an object of its own whose ``__eq__`` would decide.
"""

from __future__ import annotations

import dataclasses
import json
import signal
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from truepass.sandbox.guest import plainvalues
from truepass.sandbox.workerproc import Response, WorkerDied

CaseStatus = Literal["pass", "fail", "error", "timeout"]
CheckStatus = Literal["pass", "fail", "error", "timeout", "broken", "infra-error"]
_U32 = 4


@dataclass(frozen=True)
class Case:
    """One test case: positional ``args`` and the ``expected`` return value (both plain
    values, see :mod:`truepass.sandbox.guest.plainvalues`) and the case's limits: ``timeout_s``
    seconds of CPU time and ``wall_s`` seconds of wall-clock time (by default
    :func:`wall_limit` of ``timeout_s``)."""

    args: list[Any]
    expected: Any
    timeout_s: float = 1.0
    wall_s: float | None = None

    @property
    def wall_limit_s(self) -> float:
        """The wall-clock limit: ``wall_s``, or :func:`wall_limit` of the CPU limit."""
        return self.wall_s if self.wall_s is not None else wall_limit(self.timeout_s)

    def args_json(self) -> str:
        """The JSON text of the tagged ``args`` sent to the worker (computed once per case: a
        family that judges many attempts of a sample keeps its cases and sends them again)."""
        text = self.__dict__.get("_args_json")
        if text is None:
            text = self.__dict__["_args_json"] = json.dumps(plainvalues.encode(list(self.args)))
        return text

    def check_plain(self) -> None:
        """Raise :class:`~truepass.sandbox.guest.plainvalues.Unserialisable` unless ``expected``
        is a plain value (checked once per case)."""
        if "_plain" not in self.__dict__:
            plainvalues.check_plain(self.expected)
            self.__dict__["_plain"] = True


def wall_limit(cpu_s: float) -> float:
    """The default wall-clock limit of a case allowed ``cpu_s`` of CPU time: ``3 * cpu_s + 2``
    seconds, room for a machine so busy that the case gets a third of a core, and for code that
    waits (sleeps, blocks) without computing, which only this limit stops."""
    return 3.0 * cpu_s + 2.0


@dataclass(frozen=True)
class CaseResult:
    """How one case went. The reprs are filled in only for cases that did not pass."""

    index: int
    status: CaseStatus
    input_repr: str = ""
    expected_repr: str = ""
    got_repr: str = ""
    error: str | None = None  # "Type: message" of an exception, or what went wrong
    output: str = ""  # stdout and stderr written during this case (capped per check)
    duration_s: float = 0.0  # measured by the worker, from the previous case's result
    cpu_s: float = 0.0  # CPU time of the call (see Outcome.cpu_s)


@dataclass(frozen=True)
class CheckResult:
    """The verdict of one check. ``status`` is ``pass``, the status of the first case that did
    not pass, ``broken`` (the code does not load: syntax or import error, exception at import,
    missing entry point) or ``infra-error`` (only from ``check_many(infra_errors="result")``)."""

    passed: bool
    status: CheckStatus
    cases: list[CaseResult]
    duration_s: float
    error: str | None = None  # why the code is broken, or the infra error
    output: str = ""  # output while loading the code
    output_truncated: bool = False
    sandbox: str = ""  # e.g. "bwrap+landlock7+seccomp"
    canaries: int = 0  # the harness's canary cases run among these (never shown in ``cases``)
    canary_lies: tuple[str, ...] = ()  # each canary that reported the wrong outcome


class HarnessFailed(Exception):
    """The harness inside the sandbox failed before the candidate ran (an infra problem)."""


@dataclass(frozen=True)
class Outcome:
    """What one case did, before judging."""

    index: int
    kind: Literal["value", "exc", "bad", "timeout", "died", "overflow", "corrupt"]
    value: Any = None
    error: str | None = None
    output: str = ""
    duration_s: float = 0.0
    cpu_s: float = 0.0  # the child's own measure of the call if plausible, else the worker's

    def moved(self, index: int, output: str) -> Outcome:
        """This outcome at ``index`` with ``output`` (``dataclasses.replace`` without its
        per-call look-up of the fields: it is called for every case of every attempt)."""
        return Outcome(index, self.kind, self.value, self.error, output, self.duration_s,
                       self.cpu_s)  # fmt: skip


@dataclass
class Decoded:
    """A decoded response: how loading went, then the outcome of each case that ran."""

    load: Literal["ok", "broken", "timeout"] = "ok"
    load_error: str | None = None
    load_output: str = ""
    outcomes: list[Outcome] = field(default_factory=list)
    truncated: bool = False


def _frames(results: bytes) -> list[bytes]:
    frames, pos = [], 0
    while pos < len(results):
        end = pos + _U32 + int.from_bytes(results[pos : pos + _U32], "big")
        if end > len(results):
            raise WorkerDied("truncated result frame")
        frames.append(results[pos + _U32 : end])
        pos = end
    return frames


def _messages(results: bytes) -> deque[dict[str, Any]]:
    """Each frame's message (``{}`` for a frame that is not a JSON object). All are parsed in
    one ``json.loads`` when every element of the frames joined as one JSON array is an object
    and there is one per frame, else each frame on its own. The candidate's process writes
    every frame, so joining them gives it no outcome it could not write directly as frames of
    its own; the canaries are what catches such writing."""
    frames = _frames(results)
    if len(frames) > 1:
        try:
            batch = json.loads(b"[" + b",".join(frames) + b"]")
        except (ValueError, RecursionError):
            batch = None
        whole = type(batch) is list and len(batch) == len(frames)
        if whole and all(type(message) is dict for message in batch):
            return deque(batch)
    return deque(_parse(frame) for frame in frames)


def _how(event: dict[str, Any]) -> str:
    if "signal" in event:
        number = int(event["signal"])
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        return f"was killed by {name}"
    return f"exited with status {int(event.get('code', -1))}"


def decode_response(response: Response, cases: list[Case], load_timeout_s: float) -> Decoded:
    """Decode a worker's response. Raises :class:`WorkerDied` when the worker's own part is
    inconsistent and :class:`HarnessFailed` when the harness reported failing before the
    candidate ran; whatever the candidate could have written becomes a case outcome."""
    messages = _messages(response.results)
    decoded = Decoded(truncated=response.truncated)
    output, out_pos, next_case, loaded_once, pending = response.output, 0, 0, False, ""
    armed = False  # the current child has said it is about to run the candidate's code
    for event in response.events:
        kind, case = event.get("e"), event.get("case")
        if not isinstance(case, int) or not -1 <= case <= len(cases):
            raise WorkerDied(f"malformed event {event!r:.200}")
        if kind == "start":
            if case < next_case:
                raise WorkerDied("worker restarted at an earlier case")
            next_case, armed = case, False
            continue
        duration = float(event.get("dt", 0.0))
        cpu = float(event.get("cpu") or 0.0)
        message: dict[str, Any] = {}
        if kind == "frame":
            if not messages:
                raise WorkerDied("more frame events than frames")
            message = messages.popleft()
            reported = message.get("o")  # the child's own count: it only places output
            end = reported if type(reported) is int else out_pos
        else:
            end = int(event.get("o", out_pos))
        end = min(max(end, out_pos), len(output))
        text, out_pos = output[out_pos:end].decode("utf-8", "replace"), end
        if case == -1:
            if loaded_once:
                pending += text  # a re-forked child loading again: its output goes to the case
            else:
                decoded.load_output += text
        if kind == "frame":
            if case == -1:
                if message.get("k") == "armed" and not armed:
                    armed = True
                    continue
                if message.get("k") != "ready" or not armed:
                    return _broken_load(decoded, message, armed)
                loaded_once = True
                continue
            if case != next_case:
                raise WorkerDied(f"frame for case {case}, expected {next_case}")
            outcome = _case_outcome(case, message, pending + text, duration, cpu)
            pending, next_case = "", case + 1
        elif kind in ("timeout", "exit", "overflow"):
            if case == -1:
                why = (
                    f"loading the code took longer than {load_timeout_s:g} s"
                    if kind == "timeout"
                    else f"the process {_how(event)} while loading the code"
                    if kind == "exit"
                    else "the code's result stream overflowed while loading"
                )
                if not loaded_once:
                    decoded.load = "timeout" if kind == "timeout" else "broken"
                    decoded.load_error = why
                    return decoded
                if next_case < len(cases):  # a re-forked child failed to load again
                    decoded.outcomes.append(Outcome(next_case, "died", error=why, output=pending))
                return decoded
            if case != next_case or case >= len(cases):
                raise WorkerDied(f"{kind} event for case {case}, expected {next_case}")
            outcome = _failure_outcome(kind, event, cases[case], pending + text, duration, cpu)
            pending = ""
        else:
            raise WorkerDied(f"unknown event {kind!r:.50}")
        decoded.outcomes.append(outcome)
    if messages:
        raise WorkerDied("frames left over")
    rest = output[out_pos:].decode("utf-8", "replace")  # written around the counted streams
    if rest and decoded.outcomes:
        last = decoded.outcomes[-1]
        decoded.outcomes[-1] = dataclasses.replace(last, output=last.output + rest)
    elif rest:
        decoded.load_output += rest
    return decoded


def _broken_load(decoded: Decoded, message: dict[str, Any], armed: bool) -> Decoded:
    if message.get("k") == "harness" and not armed:  # only the harness can write before armed
        raise HarnessFailed(str(message.get("e"))[:2000])
    decoded.load = "broken"
    error = message.get("e")
    if message.get("k") == "broken" and isinstance(error, str):
        decoded.load_error = error[:2000]
    else:
        decoded.load_error = "loading the code wrote a malformed message to the result pipe"
    return decoded


def _parse(data: bytes) -> dict[str, Any]:
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    return message if isinstance(message, dict) else {}


def _case_outcome(
    index: int, message: dict[str, Any], text: str, duration: float, cpu: float
) -> Outcome:
    """The outcome a case's frame reports. Its times are the child's own measures of the call
    when they are plausible (no more than the worker measured between frames, plus 10 ms): the
    worker reads several frames that arrive together at the same moment, so its own measure
    gives the first of them all the time and the rest none."""
    kind = message.get("k")
    duration, cpu = _own_measure(message.get("t"), duration), _own_measure(message.get("c"), cpu)
    if message.get("i") != index or type(message.get("i")) is not int:
        return _corrupt(index, f"a message for case {message.get('i')!r:.40} came for case {index}")
    if kind == "ok" and "v" in message:
        try:
            value = plainvalues.decode(message["v"])
        except (ValueError, RecursionError) as exc:
            return _corrupt(index, f"malformed value: {exc}")
        return Outcome(index, "value", value=value, output=text, duration_s=duration, cpu_s=cpu)
    if kind in ("exc", "bad") and isinstance(message.get("e"), str):
        return Outcome(
            index, kind, error=message["e"][:2000], output=text, duration_s=duration, cpu_s=cpu
        )
    return _corrupt(index, f"malformed message {str(message)[:80]!r}")


def _own_measure(claimed: object, measured: float) -> float:
    """The child's ``claimed`` time when plausible (a float from 0 to ``measured`` + 10 ms),
    else the worker's ``measured`` one."""
    if type(claimed) is float and 0.0 <= claimed <= measured + 0.01:
        return claimed
    return measured


def _corrupt(index: int, why: str) -> Outcome:
    return Outcome(index, "corrupt", error=f"result stream corrupted: {why}")


def _failure_outcome(
    kind: str, event: dict[str, Any], case: Case, text: str, duration: float, cpu: float
) -> Outcome:
    index = int(event["case"])
    if kind == "timeout":
        error = (
            f"used more than {case.timeout_s:g} s of CPU time"
            if event.get("by") == "cpu"
            else f"took longer than {case.wall_limit_s:g} s (wall clock)"
        )
        return Outcome(index, "timeout", error=error, output=text, duration_s=duration, cpu_s=cpu)
    if kind == "overflow":
        return Outcome(index, "overflow", error="results exceeded the pool's result_bytes",
                       cpu_s=cpu)  # fmt: skip
    if event.get("signal") == signal.SIGXCPU:
        return Outcome(index, "timeout", error="CPU time limit exceeded", output=text, cpu_s=cpu)
    return Outcome(index, "died", error=f"the process {_how(event)}", output=text, cpu_s=cpu)


def judge(
    cases: list[Case],
    decoded: Decoded,
    *,
    stop_on_first_failure: bool,
    compare: dict[str, Any],
    duration_s: float,
    sandbox: str,
    canaries: int = 0,
    canary_lies: tuple[str, ...] = (),
) -> CheckResult:
    """Compare each case's outcome with its expected value (``compare``: the keyword arguments
    of :func:`~truepass.sandbox.guest.plainvalues.plain_equal`); ``canaries`` and
    ``canary_lies`` are passed to the result as they are."""
    common = {"duration_s": duration_s, "output": decoded.load_output, "sandbox": sandbox,
              "output_truncated": decoded.truncated, "canaries": canaries,
              "canary_lies": canary_lies}  # fmt: skip
    if decoded.load != "ok":
        return CheckResult(False, decoded.load, [], error=decoded.load_error, **common)
    by_index = {outcome.index: outcome for outcome in decoded.outcomes}
    results: list[CaseResult] = []
    for index, case in enumerate(cases):
        outcome = by_index.get(index)
        result = _judge_case(index, case, outcome, compare)
        results.append(result)
        if result.status != "pass" and (
            stop_on_first_failure or outcome is None or outcome.kind == "corrupt"
        ):
            break
    status: CheckStatus = next((r.status for r in results if r.status != "pass"), "pass")
    return CheckResult(status == "pass", status, results, **common)


def _judge_case(
    index: int, case: Case, outcome: Outcome | None, compare: dict[str, Any]
) -> CaseResult:
    if outcome is None:
        return _failed(index, case, "error", None, "no result for this case")
    if outcome.kind == "value":
        if plainvalues.plain_equal(case.expected, outcome.value, **compare):
            return CaseResult(index, "pass", output=outcome.output, duration_s=outcome.duration_s,
                              cpu_s=outcome.cpu_s)  # fmt: skip
        return _failed(index, case, "fail", outcome, None, got=plainvalues.safe_repr(outcome.value))
    status: CaseStatus = {"bad": "fail", "timeout": "timeout"}.get(outcome.kind, "error")  # type: ignore[assignment]
    return _failed(index, case, status, outcome, outcome.error)


def _failed(
    index: int,
    case: Case,
    status: CaseStatus,
    outcome: Outcome | None,
    error: str | None,
    *,
    got: str = "",
) -> CaseResult:
    return CaseResult(
        index=index,
        status=status,
        input_repr=plainvalues.safe_repr(case.args),
        expected_repr=plainvalues.safe_repr(case.expected),
        got_repr=got,
        error=error,
        output=outcome.output if outcome else "",
        duration_s=outcome.duration_s if outcome else 0.0,
        cpu_s=outcome.cpu_s if outcome else 0.0,
    )
