"""``touches-tests``: any change to a test module or a runner-configuration file."""

from __future__ import annotations

import difflib

from truepass.families.repair.fakefix.change import Change
from truepass.families.repair.fakefix.flags import Flag


def first_changed_line(before: str, after: str) -> tuple[int, str]:
    """1-based line of the first difference in ``after`` and that line's text."""
    a, b = before.splitlines(), after.splitlines()
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        changed = [j for j in range(j1, j2) if b[j].strip()]
        if changed:
            return changed[0] + 1, b[changed[0]].strip()
        line = min(j1, max(len(b) - 1, 0))
        removed = next((a[i].strip() for i in range(i1, i2) if a[i].strip()), "")
        return line + 1, f"(removed) {removed}" if removed else (b[line].strip() if b else "")
    return 1, ""


def touches_tests(change: Change) -> list[Flag]:
    """One flag per test or runner file the patch adds, deletes or edits."""
    flags = []
    for path, (before, after) in change.test_side().items():
        if before is None:
            flags.append(Flag("touches-tests", path, 1, f"line 1: the patch adds {path}"))
        elif after is None:
            flags.append(Flag("touches-tests", path, 1, f"line 1: the patch deletes {path}"))
        else:
            line, text = first_changed_line(before, after)
            shown = text if len(text) <= 60 else text[:57] + "..."
            flags.append(
                Flag("touches-tests", path, line, f"line {line} of {path} is edited: `{shown}`")
            )
    return flags
