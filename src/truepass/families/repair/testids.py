"""Match test ids a suite expects (``tests.expected``) with the ids pytest reports.

Expected ids come from elsewhere (SWE-bench's ``FAIL_TO_PASS``/``PASS_TO_PASS``, hand-written
lists); the reported ids are the node ids our pytest reporter sends. Both are normalised
(whitespace trimmed, ``\\`` to ``/``, a leading ``./`` and old-style ``::()`` instance parts
dropped) and then matched, in this order:

1. the same id;
2. an id whose parameter part was cut at a space (``test_b[a`` for ``test_b[a b]``, a known
   SWE-bench log-parsing artefact): every reported id that starts with it;
3. a bare test name (``test_b``, as SymPy's instances give them): every reported test of that
   name, in any file and with any parameters;
4. the same test under a file path that differs only by leading directories (a different pytest
   rootdir): ``tests/test_x.py::test_b`` and ``test_x.py::test_b``, when exactly one matches;
5. a unittest id, ``test_b (tests.test_x.TestA)`` (unittest's and SWE-bench logs' spelling) or
   ``tests.test_x.TestA.test_b`` (``python -m unittest``'s): the reported node id
   ``tests/test_x.py::TestA::test_b`` (pytest runs unittest test cases), also under leading
   directories the module path leaves out, when exactly one matches.

Ids that cannot be test ids at all (a space outside the parameters) never match:
:func:`non_pytest_reason` says why, so the caller can fail loudly instead of counting the test
as not run. The judge uses :func:`resolve_expected` in ``check_sample``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

_UNITTEST_STYLE = re.compile(r"^(\w+) \(([\w.]+)\)$")
_UNITTEST_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*){2,}$")
_BARE_NAME = re.compile(r"^[A-Za-z_]\w*$")
SHOWN_IDS = 5


def normalise_test_id(test_id: str) -> str:
    """The comparable form of a pytest node id."""
    out = test_id.strip().replace("\\", "/")
    while out.startswith("./"):
        out = out[2:]
    return out.replace("::()::", "::")


def non_pytest_reason(test_id: str) -> str | None:
    """Why ``test_id`` cannot be a pytest node id, or None when it can be."""
    tid = test_id.strip()
    if not tid:
        return "an empty test id"
    if _UNITTEST_STYLE.match(tid):
        return None
    head = tid.split("[", 1)[0]
    if " " in head:
        return f"'{tid}' has a space outside its parameters; a pytest node id has none"
    return None


def _function(node_id: str) -> str:
    """``tests/test_x.py::TestA::test_b[p]`` -> ``test_b``."""
    return node_id.rsplit("::", 1)[-1].split("[", 1)[0]


def unittest_dotted(test_id: str) -> str | None:
    """The dotted unittest form of a unittest id (either spelling), None for other ids."""
    if m := _UNITTEST_STYLE.match(test_id):
        return f"{m.group(2)}.{m.group(1)}"
    return test_id if _UNITTEST_DOTTED.match(test_id) else None


def _as_dotted(node_id: str) -> str:
    """``tests/test_x.py::TestA::test_b`` -> ``tests.test_x.TestA.test_b`` ("" if no file)."""
    path, sep, rest = node_id.partition("::")
    if not sep or not path.endswith(".py") or "[" in rest:
        return ""
    return path[:-3].replace("/", ".") + "." + rest.replace("::", ".")


def _path_suffix_match(want: str, have: str) -> bool:
    w_path, sep_w, w_rest = want.partition("::")
    h_path, sep_h, h_rest = have.partition("::")
    if not (sep_w and sep_h) or w_rest != h_rest or w_path == h_path:
        return False
    return w_path.endswith("/" + h_path) or h_path.endswith("/" + w_path)


def match_one(expected: str, reported: dict[str, str]) -> tuple[list[str], str]:
    """Reported ids (original spelling) that ``expected`` names, and why none when empty;
    ``reported`` maps normalised id -> original id."""
    why = non_pytest_reason(expected)
    if why:
        return [], why
    want = normalise_test_id(expected)
    if want in reported:
        return [reported[want]], ""
    dotted = unittest_dotted(want)
    if dotted is not None:
        found = sorted(
            orig
            for norm, orig in reported.items()
            if (d := _as_dotted(norm)) and (d == dotted or d.endswith("." + dotted))
        )
        if len(found) > 1:
            return [], f"'{expected}' is ambiguous: it could be any of {found[:SHOWN_IDS]}"
        return found, ""
    if want.count("[") > want.count("]"):
        found = sorted(orig for norm, orig in reported.items() if norm.startswith(want))
    elif _BARE_NAME.match(want):
        found = sorted(orig for norm, orig in reported.items() if _function(norm) == want)
    else:
        found = sorted(orig for norm, orig in reported.items() if _path_suffix_match(want, norm))
        if len(found) > 1:
            return [], f"'{expected}' is ambiguous: it could be any of {found[:SHOWN_IDS]}"
    return found, ""


def resolve_expected(expected: list[str], reported: Iterable[str]) -> tuple[list[str], str]:
    """The reported ids that ``expected`` names, and a problem ("" when every id matched).

    The problem lists every id that matched nothing (with the reason for ids that are not
    pytest node ids or are ambiguous) and the reported ids closest to the first of them, so a
    mismatch between the suite's ids and the run's is never mistaken for a test that did not
    run.
    """
    table = {normalise_test_id(r): r for r in reported}
    resolved: list[str] = []
    unmatched: list[str] = []
    reasons: list[str] = []
    for exp in expected:
        found, why = match_one(exp, table)
        if not found:
            unmatched.append(exp)
            if why:
                reasons.append(why)
        resolved.extend(f for f in found if f not in resolved)
    if not unmatched:
        return resolved, ""
    shown = ", ".join(repr(u) for u in unmatched[:SHOWN_IDS])
    more = f" and {len(unmatched) - SHOWN_IDS} more" if len(unmatched) > SHOWN_IDS else ""
    near = difflib.get_close_matches(normalise_test_id(unmatched[0]), table, SHOWN_IDS, 0.0)
    seen = ", ".join(repr(table[n]) for n in near) or "none (nothing was collected)"
    problem = (
        f"{len(unmatched)} expected test id(s) not reported by the run: {shown}{more}; "
        f"{len(table)} reported, the nearest: {seen}"
    )
    if reasons:
        problem += "; " + "; ".join(dict.fromkeys(reasons))
    return resolved, problem
