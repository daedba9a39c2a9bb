"""Canary cases for the execution pool: the harness's own cases, mixed among a candidate's, whose
outcomes the candidate cannot know in advance (docs/sandbox.md, "Canaries").

The candidate's code runs in the same process as the code that reports its return values, so it
can tamper with that channel: write forged result frames straight to the result pipe and exit,
replace the encoder or the frame writer, and so on. Each checked run can therefore carry canary
cases at positions and with arguments drawn at random for that run (a generator seeded from
:mod:`secrets` per run): one that must
return a value the harness computes from its random arguments
(:func:`~truepass.sandbox.guest.checkchild.canary_value`) and one that must raise a known
exception (:func:`~truepass.sandbox.guest.checkchild.canary_raise`), each before a candidate
case drawn at random, and one more that must return a value after the last candidate case (so
that tampering during any of the candidate's calls is still caught). The child calls the
harness's function on them instead of the entry point, through the same call, encoding and
frames; a channel that reports something else for every case reports something else for them.

:func:`draw` makes a :class:`CanaryPlan` for a run; :meth:`CanaryPlan.weave` gives the cases to
send; :meth:`CanaryPlan.take` moves the canaries' outcomes out of the decoded response (the
candidate's cases keep their own indices, outputs and times) and says which canary lied.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import random
import secrets
import string
from dataclasses import dataclass, field
from typing import Literal

from truepass.sandbox.guest import checkchild, plainvalues
from truepass.sandbox.verdict import Case, Decoded, Outcome

Kind = Literal["value", "raise"]
KINDS: tuple[Kind, ...] = ("value", "raise")
CANARY_CPU_S = 0.25  # CPU-time limit of a canary case (the harness's call takes microseconds)
_FAILED = frozenset({"timeout", "died", "overflow"})  # the process failed: nothing was reported
_CLEAN = frozenset({"value", "bad"})  # after these the child goes on to the next case


@dataclass(frozen=True)
class CaseCanary:
    """One canary case: its index among the cases sent, its kind and its random arguments."""

    index: int
    kind: Kind
    x: int
    s: str

    def expected(self) -> tuple[str, object]:
        """``("value", v)`` or ``("exc", "Type: message")``: what the harness's own function
        does with these arguments, computed here."""
        call = checkchild.CANARY_CALLS[self.kind]
        try:
            return "value", call(self.x, self.s)
        except Exception as exc:  # canary_raise: the exception it must report
            return "exc", checkchild.describe(exc)

    def lie(self, outcome: Outcome | None, clean: bool) -> str | None:
        """What was wrong with this canary's ``outcome`` (None: it told the truth, or the
        process failed before it could report). ``clean``: every candidate case reported a
        value, so a canary that never reported, or whose process died or overflowed, was
        silenced (a timeout is no lie: a thread the candidate left running uses CPU time)."""
        if outcome is None or outcome.kind in ("died", "overflow"):
            if not clean:
                return None
            how = "never reported" if outcome is None else f"ended with {outcome.error}"
            return f"the canary case at position {self.index} {how}, though every other case did"
        if outcome.kind == "timeout" or _out_of_memory(outcome):
            return None
        kind, want = self.expected()
        if kind == "value" and outcome.kind == "value":
            if plainvalues.plain_equal(want, outcome.value):
                return None
        elif kind == "exc" and outcome.kind == "exc" and outcome.error == want:
            return None
        must = f"return {plainvalues.safe_repr(want)}" if kind == "value" else f"raise {want}"
        return f"the canary case at position {self.index} must {must} and {_reported(outcome)}"


def _out_of_memory(outcome: Outcome) -> bool:
    """The canary's few small objects could not be allocated: the candidate's process is at
    its memory limit, which is no lie."""
    return outcome.kind == "exc" and (outcome.error or "").startswith("MemoryError")


def _reported(outcome: Outcome) -> str:
    if outcome.kind == "value":
        return f"reported the value {plainvalues.safe_repr(outcome.value)}"
    if outcome.kind == "exc":
        return f"reported raising {outcome.error}"
    if outcome.kind == "bad":
        return f"reported an unserialisable value ({outcome.error})"
    return f"reported a corrupt result ({outcome.error})"


@dataclass(frozen=True)
class CanaryPlan:
    """The canary cases of one run of ``cases`` candidate cases."""

    cases: int
    canaries: tuple[CaseCanary, ...]
    """In the order of their indices (as :func:`draw` makes them)."""
    _indices: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        indices = tuple(c.index for c in self.canaries)
        if any(a >= b for a, b in itertools.pairwise(indices)):
            raise ValueError(f"canaries out of order or at one index: {indices}")
        object.__setattr__(self, "_indices", indices)

    def payload(self) -> list[list[object]]:
        """The request's ``canaries``: ``[index, kind]`` of each."""
        return [[c.index, c.kind] for c in self.canaries]

    def weave(self, cases: list[Case]) -> list[Case]:
        """The cases to send: the candidate's, each canary at its index."""
        by_index = {c.index: c for c in self.canaries}
        sent: list[Case] = []
        mine = iter(cases)
        for index in range(len(cases) + len(self.canaries)):
            canary = by_index.get(index)
            sent.append(Case([canary.x, canary.s], None, CANARY_CPU_S) if canary else next(mine))
        return sent

    def _candidate_index(self, index: int) -> int:
        return index - bisect.bisect_left(self._indices, index)

    def take(self, decoded: Decoded) -> tuple[Decoded, list[str]]:
        """``decoded`` without the canaries (the candidate's outcomes renumbered, output written
        during a canary given to the next of them), and each canary's lie (see
        :meth:`CaseCanary.lie`). A canary whose process failed (timed out, died) passes that
        failure to the candidate case that would have come next, if it has no outcome of its
        own."""
        if decoded.load != "ok":
            return decoded, []
        by_index = {c.index: c for c in self.canaries}
        seen: dict[int, Outcome] = {}
        kept: list[Outcome] = []
        carried = ""
        for outcome in decoded.outcomes:
            if outcome.index in by_index:
                seen[outcome.index] = outcome
                carried += outcome.output
                continue
            index = self._candidate_index(outcome.index)
            kept.append(outcome.moved(index, carried + outcome.output))
            carried = ""
        kept = self._pass_failures(seen, kept)
        rest = Decoded(decoded.load, decoded.load_error, decoded.load_output, kept,
                       decoded.truncated)  # fmt: skip
        if carried and kept:
            kept[-1] = dataclasses.replace(kept[-1], output=kept[-1].output + carried)
        elif carried:
            rest.load_output += carried
        clean = len(kept) == self.cases and all(o.kind in _CLEAN for o in kept)
        lies = [canary.lie(seen.get(canary.index), clean) for canary in self.canaries]
        return rest, [lie for lie in lies if lie]

    def _pass_failures(self, seen: dict[int, Outcome], kept: list[Outcome]) -> list[Outcome]:
        have = {o.index for o in kept}
        for index in sorted(seen):
            failed = seen[index]
            after = self._candidate_index(index)
            if failed.kind not in _FAILED or after >= self.cases or after in have:
                continue
            error = f"the process failed between cases, in the harness's check: {failed.error}"
            kept.append(Outcome(after, failed.kind, error=error, cpu_s=failed.cpu_s))
            have.add(after)
        return sorted(kept, key=lambda o: o.index)


def _word(rng: random.Random) -> str:
    return "".join(rng.choices(string.ascii_lowercase, k=8))


def draw(cases: int) -> CanaryPlan | None:
    """This run's canaries among ``cases`` candidate cases: one of each kind, each just before
    a candidate case drawn at random, and a value canary after the last case; arguments drawn
    at random. None without cases."""
    if cases < 1:
        return None
    # one read of the system's randomness per draw (128 bits) seeds a generator of this draw's
    # own: as unpredictable to the candidate, which never sees this process, and without the
    # forty system calls per attempt that drawing every value from ``secrets`` made
    rng = random.Random(secrets.randbits(128))
    kinds = list(KINDS)
    if rng.randrange(2):
        kinds.reverse()
    before = sorted(rng.randrange(cases) for _ in kinds)
    placed: list[tuple[int, Kind]] = [*zip(before, kinds, strict=True), (cases, "value")]
    canaries = tuple(
        CaseCanary(position + n, kind, rng.randrange(10**9) + 1, _word(rng))
        for n, (position, kind) in enumerate(placed)
    )
    return CanaryPlan(cases, canaries)
