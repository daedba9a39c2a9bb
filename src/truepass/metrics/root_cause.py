"""Score the root cause a model names before its fix against the suite's fault lines."""

from __future__ import annotations

import re

from pydantic import BaseModel

from truepass.metrics.quality import PYTHON, CodeMetrics, enclosing_function, spans_of

_LINE = re.compile(r"^[\s>*`_#-]*root cause\s*:\s*(?P<rest>.+)$", re.IGNORECASE | re.MULTILINE)


class NamedCause(BaseModel):
    """What the model named (``Root cause: FILE | FUNCTION | LINE``) and whether it is right."""

    text: str
    file: str | None
    function: str | None
    code: str | None
    hit_file: bool
    hit_function: bool
    hit_line: bool


def _clean(part: str) -> str:
    return part.strip().strip("`'\"*").strip()


def named_cause(
    response: str,
    buggy: dict[str, str],
    fault: dict[str, set[int]],
    metrics: CodeMetrics | None = PYTHON,
) -> NamedCause | None:
    """Parse the first ``Root cause:`` line of ``response``; None when there is none. Function
    names come from the code's language's ``metrics``."""
    match = _LINE.search(response)
    if match is None:
        return None
    parts = [_clean(p) for p in match.group("rest").split("|")]
    file, function, code = [*parts, None, None, None][:3]
    path = next((p for p in buggy if file and (p == file or file.endswith("/" + p))), None)
    wanted_functions: set[str] = set()
    wanted_code: set[str] = set()
    for fpath, lines in fault.items():
        source = buggy.get(fpath, "")
        spans = spans_of(metrics, fpath, source)
        text = source.splitlines()
        for n in lines:
            name = enclosing_function(spans, n)
            if name:
                wanted_functions.update({name, name.rsplit(".", 1)[-1]})
            if 0 < n <= len(text):
                wanted_code.add(text[n - 1].strip())
    return NamedCause(
        text=match.group(0).strip(),
        file=file or None,
        function=function or None,
        code=code or None,
        hit_file=path is not None and path in fault,
        hit_function=bool(function) and function.removesuffix("()") in wanted_functions,
        hit_line=bool(code) and code.strip() in wanted_code,
    )
