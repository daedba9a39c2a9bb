"""The comparison of the differential check, in the trusted parent (docs/differential.md).

The probe (``harness/_truepass_probe.py``) sends, per replayed input, the *observable summary*
of the reference's outcome (twice) and of the candidate's. Here, and only here, they are
compared, with the rules a genuine alternative fix is allowed:

* plain values exactly (types included: ``1`` is not ``True``, a list is not a tuple), except
  that an int equals a float of the same value (as ``==`` says: ``5`` and ``5.0`` are what two
  ways of computing a number give), floats within a relative and absolute tolerance of 1e-9,
  sets and dicts whatever their order;
* exceptions by type, not by message; ``TypeError`` and ``AttributeError`` count as one kind
  (both are what a wrong-typed input gets, and which one depends on the first operation tried);
* other objects by type name, callable or not, ``__name__``, ``__doc__``, signature, length,
  their first items (all items, in any order, for sets, mappings and their views), ``str`` and
  ``repr`` (addresses stripped), and the attributes of ``__dict__`` that both sides have;
* the arguments after the call (what the call did to them), by the same rules.

An input is dropped when the reference itself times out or is slow, gives two different
outcomes, or, on a mutated input, fails with an error that marks the input as out of its domain
(:data:`INCIDENTAL`): a candidate may do anything there.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from truepass.sandbox.guest import plainvalues

Summary = dict[str, Any]
Outcome = dict[str, Any]

TOLERANCE = 1e-9
SAME_KIND = frozenset({"TypeError", "AttributeError"})
"""Exception types counted as one kind."""
INCIDENTAL = frozenset(
    {"TypeError", "AttributeError", "NameError", "UnboundLocalError", "RecursionError",
     "MemoryError", "OverflowError", "ZeroDivisionError"}
)  # fmt: skip
"""Errors of the reference on a mutated input that mark the input as one it does not take."""
_FIELDS = ("t", "callable", "__name__", "__doc__", "sig", "wrapped", "len", "str", "repr", "db")


@dataclass(frozen=True)
class Case:
    """One replayed input: the reference's outcome (twice) and the candidate's."""

    target: str
    kind: str  # recorded | none | boundary | random
    input: str
    ref: Outcome
    ref2: Outcome | None  # None: identical to ``ref``
    cand: Outcome | None  # None: identical to ``ref``; absent when the reference was slow
    ref_cpu: float
    cand_cpu: float
    slow: bool = False  # the probe did not run the candidate (the reference was slow)

    @classmethod
    def from_event(cls, event: dict[str, Any]) -> Case | None:
        """The case of a ``probe-case`` event; None when it is malformed."""
        try:
            ref, target, kind, text = event["ref"], event["target"], event["kind"], event["input"]
            ref2, cand = event.get("ref2", "same"), event.get("cand")
            if not (isinstance(ref, dict) and isinstance(target, str) and isinstance(text, str)):
                return None
            if not all(x == "same" or isinstance(x, dict) for x in (ref2, cand) if x is not None):
                return None
            return cls(
                target=target,
                kind=str(kind),
                input=text,
                ref=ref,
                ref2=None if ref2 == "same" else ref2,
                cand=None if cand == "same" else cand,
                ref_cpu=float(event.get("ref_cpu", 0.0)),
                cand_cpu=float(event.get("cand_cpu", 0.0)),
                slow="cand" not in event,
            )
        except (KeyError, TypeError, ValueError):
            return None

    def explain(self) -> str:
        """The witness in words: the input and both results."""
        cand = self.cand if self.cand is not None else self.ref
        patch, reference = say(cand, self.ref), say(self.ref, cand)
        return f"{self.input}: the patch {patch}; the reference fix {reference}"


def judge_case(case: Case) -> str:
    """``same``, ``differs``, or ``dropped:WHY`` (slow, nondeterministic, crash)."""
    if case.slow or "timeout" in case.ref:
        return "dropped:slow"
    if case.ref2 is not None and not same_outcome(case.ref, case.ref2):
        return "dropped:nondeterministic"
    if case.kind != "recorded" and case.ref.get("raise") in INCIDENTAL:
        return "dropped:crash"
    if case.cand is None or same_outcome(case.ref, case.cand):
        return "same"
    return "differs"


@dataclass
class Verdicts:
    """The cases of one probe run, by what :func:`judge_case` said."""

    compared: int = 0
    differing: list[Case] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)

    def add(self, case: Case, verdict: str) -> None:
        if verdict.startswith("dropped:"):
            self.dropped[verdict.partition(":")[2]] += 1
            return
        self.compared += 1
        if verdict == "differs":
            self.differing.append(case)

    def witness(self) -> Case | None:
        """The smallest differing input (a recorded call first on a tie)."""
        if not self.differing:
            return None
        return min(self.differing, key=lambda c: (len(c.input), c.kind != "recorded"))


def same_outcome(a: Outcome, b: Outcome) -> bool:
    """Equal under the rules above (returned value or exception, and the arguments after)."""
    if "timeout" in a or "timeout" in b:
        return "timeout" in a and "timeout" in b
    if ("raise" in a) != ("raise" in b):
        return False
    if "raise" in a:
        if not same_exception(str(a["raise"]), str(b["raise"])):
            return False
    elif not same_summary(a.get("ret"), b.get("ret")) or not same_sharing(a, b):
        return False
    after_a, after_b = a.get("after") or [], b.get("after") or []
    if len(after_a) != len(after_b):
        return False
    if not all(same_summary(x, y) for x, y in zip(after_a, after_b, strict=True)):
        return False
    kw_a, kw_b = a.get("kw_after") or {}, b.get("kw_after") or {}
    return set(kw_a) == set(kw_b) and all(same_summary(kw_a[k], kw_b[k]) for k in kw_a)


def same_sharing(a: Outcome, b: Outcome) -> bool:
    """Whether both results share the same parts with their arguments (``shares``)."""
    return (a.get("shares") or []) == (b.get("shares") or [])


def same_exception(a: str, b: str) -> bool:
    return a == b or (a in SAME_KIND and b in SAME_KIND)


def same_summary(a: Any, b: Any) -> bool:
    """Two observable summaries (see the module docstring)."""
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return a == b
    if a.get("k") != b.get("k"):
        return False
    kind = a.get("k")
    if kind == "plain":
        try:
            return plain_close(plainvalues.decode(a.get("v")), plainvalues.decode(b.get("v")))
        except ValueError:
            return False
    if kind != "obj":
        return a == b
    if any(a.get(f) != b.get(f) for f in _FIELDS):
        return False
    if ("items" in a) != ("items" in b):
        return False
    if "items" in a and not _same_items(a, b):
        return False
    va, vb = a.get("vars") or {}, b.get("vars") or {}
    return all(same_summary(va[k], vb[k]) for k in set(va) & set(vb))


def _same_items(a: Summary, b: Summary) -> bool:
    ia, ib = a.get("items") or [], b.get("items") or []
    if len(ia) != len(ib) or a.get("unordered") != b.get("unordered"):
        return False
    if a.get("unordered"):
        ia, ib = sorted(ia, key=_canonical), sorted(ib, key=_canonical)
    return all(same_summary(x, y) for x, y in zip(ia, ib, strict=True))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def plain_close(a: object, b: object) -> bool:
    """:func:`plainvalues.plain_equal`, floats within :data:`TOLERANCE` (relative or absolute)."""
    if plainvalues.plain_equal(a, b, int_is_float=True):
        return True
    ta, tb = type(a), type(b)
    if {ta, tb} == {int, float}:
        return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)  # type: ignore[arg-type]
    if ta is not tb:
        return False
    if ta is float:
        return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)  # type: ignore[arg-type]
    if ta in (list, tuple):
        return len(a) == len(b) and all(plain_close(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    if ta is dict:
        by_key = {plainvalues.typed_key(k): v for k, v in b.items()}  # type: ignore[attr-defined]
        return len(a) == len(b) and all(  # type: ignore[arg-type]
            plainvalues.typed_key(k) in by_key and plain_close(v, by_key[plainvalues.typed_key(k)])
            for k, v in a.items()  # type: ignore[attr-defined]
        )
    return False


def show(summary: Any) -> str:
    """Short text of a summary for people."""
    if not isinstance(summary, dict):
        return "?"
    if summary.get("k") == "plain":
        try:
            return plainvalues.safe_repr(plainvalues.decode(summary.get("v")), 120)
        except ValueError:
            return "?"
    if summary.get("k") == "big":
        return f"<a large {summary.get('t')}>"
    parts = [str(summary.get("t", "?"))]
    if isinstance(summary.get("__name__"), str):
        parts.append(repr(summary["__name__"]))
    if summary.get("sig"):
        parts.append(f"signature {summary['sig']}")
    if summary.get("__doc__"):
        parts.append("with a docstring")
    if "len" in summary:
        parts.append(f"len {summary['len']}")
    if summary.get("repr") and len(parts) == 1:
        return str(summary["repr"])[:120]
    return "<" + ", ".join(parts) + ">"


def say(outcome: Outcome, other: Outcome) -> str:
    """What one side did, pointing at where it differs from ``other``."""
    if "timeout" in outcome:
        return "runs out of time"
    if "raise" in outcome:
        return f"raises {outcome['raise']}"
    ret = f"returns {show(outcome.get('ret'))}"
    if "raise" in other or "timeout" in other:
        return ret
    if not same_summary(outcome.get("ret"), other.get("ret")):
        where = difference(outcome.get("ret"), other.get("ret"))
        return ret + (f" ({where})" if where else "")
    shares, other_shares = outcome.get("shares") or [], other.get("shares") or []
    if shares != other_shares:
        only = [s for s in shares if s not in other_shares]
        return ret + (f" where {only[0]}" if only else " sharing nothing with its arguments")
    after, other_after = outcome.get("after") or [], other.get("after") or []
    for j, (x, y) in enumerate(zip(after, other_after, strict=False)):
        if not same_summary(x, y):
            where = difference(x, y) or f"as {show(x)}"
            return f"{ret} and leaves argument {j} {where}"
    return ret


def difference(a: Any, b: Any, path: str = "") -> str:
    """Where two object summaries first differ, as ``with ATTR = VALUE`` ('' when they are plain
    or differ at the top)."""
    if not (isinstance(a, dict) and isinstance(b, dict)) or a.get("k") != "obj":
        return ""
    for f in _FIELDS:
        if f == "db" and a.get(f) != b.get(f):
            return f"with {path or 'its'} database holding other rows"
        if a.get(f) != b.get(f):
            return f"with {path or 'its'} {f.strip('_')} {a.get(f)!r}" if path or f != "t" else ""
    va, vb = a.get("vars") or {}, b.get("vars") or {}
    for k in sorted(set(va) & set(vb)):
        if not same_summary(va[k], vb[k]):
            deeper = difference(va[k], vb[k], f"{path}.{k}" if path else k)
            return deeper or f"with {path + '.' if path else ''}{k} = {show(va[k])}"
    return ""
