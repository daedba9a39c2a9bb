"""JSON Lines input (suites, patches, benchmark files): each non-blank line one JSON object, and
every problem named by its ``file:line``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from truepass.errors import InputError


@dataclass(frozen=True)
class JsonLine:
    """One non-blank line: its number, ``source:number``, and its object, or why there is none."""

    lineno: int
    where: str
    obj: dict[str, Any] | None
    problem: str = ""


def json_lines(text: str, source: object, what: str = "line") -> Iterator[JsonLine]:
    """Every non-blank line of ``text`` (from ``source``, a path or a name), in order; a line that
    is not a JSON object comes with ``obj`` None and ``problem`` saying why (``what`` names a
    line in that message: "each record must be a JSON object")."""
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        where = f"{source}:{lineno}"
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            problem = f"not valid JSON ({exc.msg} at column {exc.colno})"
            yield JsonLine(lineno, where, None, problem)
            continue
        if not isinstance(obj, dict):
            yield JsonLine(lineno, where, None, f"each {what} must be a JSON object")
            continue
        yield JsonLine(lineno, where, obj)


def json_objects(
    text: str, source: object, error: type[InputError] = InputError, what: str = "line"
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(lineno, where, obj)`` of every line, raising ``error`` (an :class:`InputError` located
    at the line) at the first line that is not a JSON object."""
    for line in json_lines(text, source, what):
        if line.obj is None:
            raise error(line.problem, location=line.where)
        yield line.lineno, line.where, line.obj
