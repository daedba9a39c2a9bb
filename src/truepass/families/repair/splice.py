"""Fenced code blocks: which file of the sample each is for, and how it goes into that file
(replacing it whole, or splicing its functions, methods, classes and constants in by name, as
the file's language does it: :meth:`Language.merge_block
<truepass.families.repair.languages.base.Language.merge_block>`).

Used by :func:`truepass.families.repair.parse.parse_response` once no diff in a response applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal, cast

from truepass.families.repair import languages
from truepass.families.repair.schema import is_test_or_runner_file

BlockKind = Literal["whole-file", "function"]


@dataclass(frozen=True)
class _Block:
    lang: str
    info: str
    body: str
    before: str  # the prose between the previous block and this one


class _Reject(Exception):
    """One candidate is unusable; the next one is tried."""


def _target(block: _Block, files: dict[str, str]) -> tuple[str, str, bool]:
    """The file a code block is for, its body, and whether the response named that file."""
    body = block.body
    for tok in re.split(r"[\s:=\"',]+", block.info):
        if (path := _mention(tok, files)) is not None:
            return path, body, True
    first, _, rest = body.partition("\n")
    m = re.fullmatch(r"\s*#\s*(?:(?:file(?:name)?|path)\s*:\s*)?(\S+)\s*", first, re.I)
    if m and (path := _mention(m.group(1), files)) is not None:
        return path, rest, True
    near = [ln for ln in block.before.split("\n") if ln.strip()][-3:]
    if (path := _mention("\n".join(near), files)) is not None:
        return path, body, True
    code = [p for p in files if not is_test_or_runner_file(p)] or list(files)
    if len(code) == 1:
        return code[0], body, False

    def shared(p: str) -> int:
        language = languages.of_path(p)
        if language is None:
            return 0
        return len(language.defined_names(body) & language.defined_names(files[p]))

    score = {p: shared(p) for p in code}
    best = [*sorted(score.values(), reverse=True), 0]
    if best[0] == 0 or best[0] == best[1]:
        raise _Reject("names no file and shares no functions with exactly one file")
    return max(score, key=lambda p: score[p]), body, False


def _mention(text: str, files: dict[str, str]) -> str | None:
    """The known path mentioned last in ``text`` (a base name that no other file has counts)."""
    bases = [PurePosixPath(p).name for p in files]
    found = [
        (m.end(), p)
        for p in files
        for key in {p, PurePosixPath(p).name if bases.count(PurePosixPath(p).name) == 1 else p}
        for m in re.finditer(rf"(?<![\w/.-]){re.escape(key)}(?![\w/-]|\.\w)", text)
    ]
    return max(found)[1] if found else None


def _merge(path: str, current: str, body: str, named: bool) -> tuple[str, BlockKind]:
    """``current`` with the block applied: replaced whole, or with its functions spliced in by
    the file's language; a file of no known language only when the response names it."""
    language = languages.of_path(path)
    if language is None:
        if not named:
            raise _Reject(
                f"'{path}' is not code of a known language and the response does not name it"
            )
        return body, "whole-file"
    try:
        text, kind = language.merge_block(path, current, body, named)
    except ValueError as exc:
        raise _Reject(str(exc)) from exc
    return text, cast(BlockKind, kind)
