"""The rules of ``removes-assertion`` that every language shares: a check of the pristine tests
that the patched tests no longer run, and a check of the buggy code gone from the same scope of
the patched code. A language says what a check is, which checks still run, and how checks pair
(``python/assertions.py``, ``java/assertions.py``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from truepass.families.repair.fakefix.change import SourcePair
from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.nodes import NodeForms
from truepass.families.repair.fakefix.pairing import pair

N = TypeVar("N")


def removed_from_tests(
    fp: SourcePair[Any],
    forms: NodeForms[N],
    is_check: Callable[[N], bool],
    scope_id: Callable[[Any], str],
    running: Callable[[], tuple[dict[str, list[N]], Iterable[N]]],
) -> list[Flag]:
    """Checks of a pristine test file that its patched version no longer runs.

    ``running`` gives, once the patched file parses, the checks that still run in each scope (by
    ``scope_id``) and the pool of checks a renamed test may carry over."""
    flags: list[Flag] = []
    if fp.before is None:
        return flags
    before = [n for s in fp.before_scopes.values() for n in s.nodes if is_check(n)]
    if fp.after_text is None:
        if before:
            first = forms.line(before[0])
            why = f"{fp.path} is deleted with its {len(before)} assertion(s)"
            flags.append(Flag("removes-assertion", fp.path, first, f"line {first}: {why}"))
        return flags
    if fp.after is None:
        return flags
    active, carried = running()
    pool = {forms.key(n) for n in carried}
    for scope in fp.before_scopes.values():
        mine = [n for n in scope.nodes if is_check(n)]
        removed, _ = pair(mine, active.get(scope_id(scope), []), forms.key)
        for node in removed:
            if forms.key(node) in pool and scope_id(scope) not in active:
                continue  # the same check now runs in a renamed test
            line = forms.line(node)
            flags.append(
                Flag(
                    "removes-assertion",
                    fp.path,
                    line,
                    f"line {line} of the original {fp.path} (`{forms.show(node, 50)}`) "
                    f"is removed, weakened or no longer runs",
                )
            )
    return flags


def pair_two_stage(
    before: list[N], after: list[N], forms: NodeForms[N], loose: Callable[[N], Hashable]
) -> list[N]:
    """The checks of ``before`` left unpaired: identical nodes pair first, then the rest by
    ``loose`` key (the kind of check, what it is about)."""
    removed, added = pair(before, after, forms.key)
    return pair(removed, added, loose)[0]


def removed_from_code(
    path: str,
    scope: str,
    removed: list[N],
    forms: NodeForms[N],
    *,
    mentions: Callable[[N], set[str]],
    still_named: set[str],
    what: Callable[[N], str],
) -> list[Flag]:
    """A flag for each check of the buggy ``scope`` that is gone (``removed``), unless
    everything it mentions is gone too (nothing left to check)."""
    flags = []
    for node in removed:
        mentioned = mentions(node)
        if mentioned and not mentioned & still_named:
            continue
        line = forms.line(node)
        flags.append(
            Flag(
                "removes-assertion",
                path,
                line,
                f"line {line} of the buggy {path}: the {what(node)} "
                f"`{forms.show(node, 50)}` in {scope} is removed",
            )
        )
    return flags
