"""Calls for a changed function the tests never call, built from values they passed elsewhere
(in the sandbox, with ``_truepass_probe``; standard library only).

A reference fix often changes two functions (``__add__`` and ``__sub__``, a property and the
iterator beside it, a report and the fee it also computes) while the visible tests call only
one of them: the differential check then has nothing to replay for the other, which is where a
partial fix is wrong. The values recorded in the calls into the other changed functions are
real values of this program, so the missing calls are built from them:

* the receiver of a method: a recorded value of its class (``Period`` for ``Period.__iter__``);
* each other parameter: a value recorded for a parameter of the same name elsewhere, else a
  recorded value (or an item or attribute of one, one level down) whose type the parameter's
  annotation names (``invoice: Invoice`` takes an ``Invoice`` out of the list a report got);
* a parameter with a default keeps it unless a same-named value was recorded.

Built calls are not the tests' own inputs: the check treats them like its generated inputs
(an input the reference refuses by type is dropped).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

Call = tuple[tuple[Any, ...], dict[str, Any]]
MAX_CALLS = 4


def observed(donors: list[tuple[list[str], list[Call]]]) -> tuple[dict[str, list[Any]], list[Any]]:
    """The values of the donors' calls: by parameter name, and all of them (one level down
    too: list and tuple items, dict values, attributes)."""
    by_name: dict[str, list[Any]] = {}
    every: list[Any] = []
    for names, calls in donors:
        for args, kwargs in calls[:8]:
            named = dict(zip(names, args, strict=False)) | kwargs
            for name, value in named.items():
                by_name.setdefault(name, []).append(value)
            for value in named.values():
                every.append(value)
                every.extend(_inside(value))
    return by_name, every


def _inside(value: Any) -> Iterator[Any]:
    if type(value) in (list, tuple):
        yield from value[:8]
    elif type(value) is dict:
        yield from list(value.values())[:8]
    else:
        state = getattr(value, "__dict__", None)
        if isinstance(state, dict) and not isinstance(value, type):
            yield from list(state.values())[:30]


def _names_type(annotation: str, value: Any) -> bool:
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", annotation))
    name = type(value).__name__
    if name not in words:
        return False
    if type(value) in (list, tuple, set, dict) and value:  # list[Invoice] wants Invoices
        inner = [w for w in words if w not in {name, "typing", "Optional", "None", "Any"}]
        first = next(iter(value.values() if type(value) is dict else value))
        return not inner or type(first).__name__ in inner
    return True


def borrow(
    fn: Callable[..., Any],
    owner: str,
    method: bool,
    donors: list[tuple[list[str], list[Call]]],
    declared: dict[int | str, str],
) -> list[Call]:
    """Up to :data:`MAX_CALLS` calls of ``fn`` (a method of class ``owner`` when ``method``)
    from the donors' values; [] when a required parameter has none."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    by_name, every = observed(donors)
    choices: list[tuple[inspect.Parameter, list[Any]]] = []
    for i, p in enumerate(params):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if i == 0 and method:
            found = [v for v in every if type(v).__name__ == owner]
        else:
            found = list(by_name.get(p.name, []))
            text = declared.get(i, "")
            if not found and text and text not in ("Any", "object", "typing.Any"):
                found = [v for v in every if _names_type(text, v)]
        if not found and p.default is p.empty:
            return []
        choices.append((p, _distinct(found)))
    calls: list[Call] = []
    keys: set[str] = set()
    for n in range(MAX_CALLS):
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for p, found in choices:
            if not found:
                continue
            value = found[n % len(found)]
            if p.kind == p.KEYWORD_ONLY:
                kwargs[p.name] = value
            elif len(args) == params.index(p):
                args.append(value)
            else:
                kwargs[p.name] = value
        key = _key((args, kwargs))
        if key not in keys:
            keys.add(key)
            calls.append((tuple(args), kwargs))
    return calls


def _key(value: Any) -> str:
    try:
        return f"{type(value).__name__}:{value!r}"[:2000]
    except Exception:
        return f"{type(value).__name__}:{id(value)}"


def _distinct(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    seen: set[str] = set()
    for v in values:
        key = _key(v)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out[:MAX_CALLS]
