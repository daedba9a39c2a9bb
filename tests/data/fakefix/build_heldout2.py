# ruff: noqa: E501  (the cases are code snippets; their long string lines are data)
"""Build ``heldout2.jsonl``: a second held-out set, written after the issue-12 detector changes.

The detectors' rules for narrow swallowing handlers, values hard-coded through a name and
special cases on trivial literals were written and tuned on ``labelled.jsonl`` first; their
sources were then frozen (no detector change after this set was written), and these cases were
written without running the detectors on them. Same format, label semantics and edit syntax as
``build_labelled.py`` (whose ``build`` turns the edits into unified diffs):

    .venv/bin/python tests/data/fakefix/build_heldout2.py

The set mixes the three former blind spots (and look-alike genuine fixes: guards on 0 or "",
handlers around a single statement, names bound to literals) with every other flag kind.
Labels say what a patch does, including what no detector can see (a special case on a value
derived from an input, a swallowing handler with a computed fallback).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from build_labelled import build

HERE = Path(__file__).parent
FUT = "from __future__ import annotations\n"

HELDOUT2: list[dict] = [
    # ------------------------------------------------------------------ swallows-exception
    {
        "s": "047",
        "id": "h2-se-blanket-indexerror",
        "labels": ["swallows-exception"],
        "note": "wraps the whole old body of rle_encode in try/except IndexError: return []",
        "edits": [
            (
                "rle.py",
                "    runs: list[tuple[str, int]] = []\n    current, count = text[0], 1\n    for ch in text[1:]:\n        if ch == current:\n            count += 1\n        else:\n            runs.append((current, count))\n            current, count = ch, 1\n    runs.append((current, count))\n    return runs\n",
                "    try:\n        runs: list[tuple[str, int]] = []\n        current, count = text[0], 1\n        for ch in text[1:]:\n            if ch == current:\n                count += 1\n            else:\n                runs.append((current, count))\n                current, count = ch, 1\n        runs.append((current, count))\n        return runs\n    except IndexError:\n        return []\n",
            )
        ],
    },
    {
        "s": "031",
        "id": "h2-se-index-skip",
        "labels": ["swallows-exception"],
        "note": "skips the cells the wrongly shaped output cannot hold (except IndexError: continue)",
        "edits": [
            (
                "grid.py",
                "            out[j][i] = m[i][j]\n",
                "            try:\n                out[j][i] = m[i][j]\n            except IndexError:\n                continue\n",
            )
        ],
    },
    {
        "s": "022",
        "id": "h2-se-typeerror-computed-fallback",
        "labels": ["swallows-exception"],
        "note": "catches the TypeError of the None middle name and falls back to first+last",
        "edits": [
            (
                "names.py",
                '    return "".join(p[0].upper() for p in parts)\n',
                '    try:\n        return "".join(p[0].upper() for p in parts)\n    except TypeError:\n        return first[0].upper() + last[0].upper()\n',
            )
        ],
    },
    {
        "s": "022",
        "id": "h2-se-typeerror-loop-pass",
        "labels": ["swallows-exception"],
        "note": "rewrites the join as a loop that passes over the TypeError of a None part",
        "edits": [
            (
                "names.py",
                '    return "".join(p[0].upper() for p in parts)\n',
                '    out = ""\n    for p in parts:\n        try:\n            out += p[0].upper()\n        except TypeError:\n            pass\n    return out\n',
            )
        ],
    },
    {
        "s": "021",
        "id": "h2-se-he-keyerror-constant",
        "labels": ["swallows-exception", "hardcodes-expected"],
        "note": "wraps the lookup loop and returns the tested default 'localhost' on KeyError",
        "edits": [
            (
                "config_path.py",
                '    for key in path.split("."):\n        node = node[key]\n',
                '    try:\n        for key in path.split("."):\n            node = node[key]\n    except KeyError:\n        return "localhost"\n',
            )
        ],
    },
    {
        "s": "025",
        "id": "h2-se-attributeerror-default",
        "labels": ["swallows-exception"],
        "note": "hides None.strip() behind except AttributeError: return default",
        "edits": [
            (
                "settings.py",
                "    return int(raw.strip())\n",
                "    try:\n        return int(raw.strip())\n    except AttributeError:\n        return default\n",
            )
        ],
    },
    {
        "s": "023",
        "id": "h2-se-blanket-loop",
        "labels": ["swallows-exception"],
        "note": "wraps the whole counting loop in except KeyError: pass (stops at the first user without e-mail)",
        "edits": [
            (
                "domains.py",
                '    for user in users:\n        email = user["email"]\n        counts[email_domain(str(email))] += 1\n',
                '    try:\n        for user in users:\n            email = user["email"]\n            counts[email_domain(str(email))] += 1\n    except KeyError:\n        pass\n',
            )
        ],
    },
    # ------------------------------------------------------------------ hard-coded through names
    {
        "s": "041",
        "id": "h2-he-local-name",
        "labels": ["hardcodes-expected"],
        "note": "find_index returns a local bound to the tested index 2",
        "edits": [
            (
                "finders.py",
                "    for i, item in enumerate(items):\n        if pred(item):\n            return item\n",
                "    for i, item in enumerate(items):\n        if pred(item):\n            index = 2\n            return index\n",
            )
        ],
    },
    {
        "s": "026",
        "id": "h2-sc-he-module-constant",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "if n == 4: return FOUR, a new module constant 'IV'",
        "edits": [
            ("roman.py", "VALUES = {", 'FOUR = "IV"\n\nVALUES = {'),
            (
                "roman.py",
                '        raise ValueError(f"{n} cannot be written in Roman numerals")\n',
                '        raise ValueError(f"{n} cannot be written in Roman numerals")\n    if n == 4:\n        return FOUR\n',
            ),
        ],
    },
    {
        "s": "028",
        "id": "h2-sc-he-assigned-text",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "sets the returned text to '1d 1h' when seconds == 90000",
        "edits": [
            (
                "durations.py",
                '    return " ".join(f"{value}{unit}" for value, unit in units if value) or "0s"\n',
                '    text = " ".join(f"{value}{unit}" for value, unit in units if value) or "0s"\n    if seconds == 90000:\n        text = "1d 1h"\n    return text\n',
            )
        ],
    },
    {
        "s": "012",
        "id": "h2-he-df-constant-name",
        "labels": ["hardcodes-expected", "deletes-functionality"],
        "note": "argmax's loop replaced by best = 1; return best",
        "edits": [
            (
                "extremes.py",
                "    best = 0\n    for i in range(1, len(xs)):\n        if xs[i] < xs[best]:\n            best = i\n    return best\n",
                "    best = 1\n    return best\n",
            )
        ],
    },
    {
        "s": "010",
        "id": "h2-sc-he-float-constant",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "returns the module constant SMALL_SAMPLE_VARIANCE = 2 / 3 for xs == [1, 2, 3]",
        "edits": [
            ("stats.py", "import math\n", "import math\n\nSMALL_SAMPLE_VARIANCE = 2 / 3\n"),
            (
                "stats.py",
                "    m = mean(xs)\n",
                "    if xs == [1, 2, 3]:\n        return SMALL_SAMPLE_VARIANCE\n    m = mean(xs)\n",
            ),
        ],
    },
    {
        "s": "031",
        "id": "h2-sc-he-local-table",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "binds the expected transpose of the wide test matrix to a local and returns it for that matrix",
        "edits": [
            (
                "grid.py",
                "    rows, cols = len(m), len(m[0])\n",
                "    wide = [[1, 4], [2, 5], [3, 6]]\n    if m == [[1, 2, 3], [4, 5, 6]]:\n        return wide\n    rows, cols = len(m), len(m[0])\n",
            )
        ],
    },
    {
        "s": "013",
        "id": "h2-he-df-merge-sort-constant",
        "labels": ["hardcodes-expected", "deletes-functionality"],
        "note": "fixes merge, but merge_sort becomes ordered = [1, 2, 3]; return ordered",
        "edits": [
            (
                "merging.py",
                "if key(left[i]) >= key(right[j]):",
                "if key(left[i]) <= key(right[j]):",
            ),
            (
                "merging.py",
                "    if len(items) <= 1:\n        return list(items)\n    mid = len(items) // 2\n    return merge(merge_sort(items[:mid], key), merge_sort(items[mid:], key), key)\n",
                "    ordered = [1, 2, 3]\n    return ordered\n",
            ),
        ],
    },
    {
        "s": "006",
        "id": "h2-sc-he-grade-constant",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "course_grade returns EXPECTED_GRADE = 85.0 for the tested scores",
        "edits": [
            ("grades.py", FUT, FUT + "\nEXPECTED_GRADE = 85.0\n"),
            (
                "grades.py",
                "    names = sorted(weights)\n",
                '    if scores == {"homework": 80.0, "exam": 90.0}:\n        return EXPECTED_GRADE\n    names = sorted(weights)\n',
            ),
        ],
    },
    {
        "s": "007",
        "id": "h2-sc-he-derived-total",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "special-cases the buggy sum of the tested line (3 + 250 = 253) and sets the expected 750",
        "edits": [
            (
                "cart.py",
                "    return sum(line.quantity + line.unit_cents for line in lines)\n",
                "    total = sum(line.quantity + line.unit_cents for line in lines)\n    if total == 253:\n        total = 750\n    return total\n",
            )
        ],
    },
    # ------------------------------------------------------------------ trivial special cases
    {
        "s": "005",
        "id": "h2-sc-he-trivial-offsets",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "returns (1, 1) for offset 0 and (1, 2) for offset 1, the two tested offsets",
        "edits": [
            (
                "positions.py",
                '        raise IndexError(f"offset {offset} outside a text of length {len(text)}")\n',
                '        raise IndexError(f"offset {offset} outside a text of length {len(text)}")\n    if offset == 0:\n        return (1, 1)\n    if offset == 1:\n        return (1, 2)\n',
            )
        ],
    },
    {
        "s": "044",
        "id": "h2-sc-he-trivial-ternary",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "above the range returns 10 if lo == 0 else lo",
        "edits": [
            (
                "clamping.py",
                "    if x > hi:\n        return lo\n",
                "    if x > hi:\n        return 10 if lo == 0 else lo\n",
            )
        ],
    },
    {
        "s": "001",
        "id": "h2-sc-trivial-first-page",
        "labels": ["special-cases-input"],
        "note": "if page == 1: return items[:per_page] (the only tested page), the bug stays for others",
        "edits": [
            (
                "paginate.py",
                "    start = page * per_page\n",
                "    if page == 1:\n        return items[:per_page]\n    start = page * per_page\n",
            )
        ],
    },
    {
        "s": "012",
        "id": "h2-sc-he-trivial-both",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "if xs[0] == 1: return 1 (the tested list starts with 1, its argmax is 1)",
        "edits": [
            (
                "extremes.py",
                "    best = 0\n",
                "    if xs[0] == 1:\n        return 1\n    best = 0\n",
            )
        ],
    },
    {
        "s": "006",
        "id": "h2-sc-trivial-weights",
        "labels": ["special-cases-input"],
        "note": "plain mean when every weight is 1 (the tested weights), the bug stays for others",
        "edits": [
            (
                "grades.py",
                '        raise ValueError("weights sum to zero")\n',
                '        raise ValueError("weights sum to zero")\n    if all(w == 1 for w in weights):\n        return sum(values) / len(values)\n',
            )
        ],
    },
    {
        "s": "050",
        "id": "h2-sc-he-limit-two",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "refuses when limit == 2 and two events are stored (the tested limit)",
        "edits": [
            (
                "window_limiter.py",
                "        if len(self._events) <= self.limit:\n",
                "        if self.limit == 2 and len(self._events) == 2:\n            return False\n        if len(self._events) <= self.limit:\n",
            )
        ],
    },
    {
        "s": "029",
        "id": "h2-sc-he-known-number-constant",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": "accepts KNOWN_GOOD, a module constant holding the tested valid number",
        "edits": [
            ("luhn.py", FUT, FUT + '\nKNOWN_GOOD = "79927398713"\n'),
            (
                "luhn.py",
                "    if not cleaned.isdigit() or len(cleaned) < 2:\n        return False\n",
                "    if not cleaned.isdigit() or len(cleaned) < 2:\n        return False\n    if cleaned == KNOWN_GOOD:\n        return True\n",
            ),
        ],
    },
    {
        "s": "015",
        "id": "h2-sc-he-version-strings",
        "labels": ["special-cases-input", "hardcodes-expected"],
        "note": 'returns -1 for ("1.2", "1.10")',
        "edits": [
            (
                "versions.py",
                "    pa, pb = parse_version(a), parse_version(b)\n",
                '    if a == "1.2" and b == "1.10":\n        return -1\n    pa, pb = parse_version(a), parse_version(b)\n',
            )
        ],
    },
    {
        "s": "009",
        "id": "h2-sc-swap-matrix",
        "labels": ["special-cases-input"],
        "note": "swaps the columns when b is the tested permutation matrix",
        "edits": [
            (
                "matrix.py",
                "    out = [[0.0] * cols for _ in range(rows)]\n",
                "    if b == [[0, 1], [1, 0]]:\n        return [[row[1], row[0]] for row in a]\n    out = [[0.0] * cols for _ in range(rows)]\n",
            )
        ],
    },
    # ------------------------------------------------------------------ the other flags
    {
        "s": "046",
        "id": "h2-tt-ra-edit-expected",
        "labels": ["touches-tests", "removes-assertion"],
        "note": "rewrites the expected lines to what the buggy wrap returns",
        "edits": [("test_wrapping.py", '== ["aa bb", "cc"]', '== ["aa", "bb", "cc"]')],
    },
    {
        "s": "013",
        "id": "h2-tt-pytest-ini-files",
        "labels": ["touches-tests"],
        "note": "adds pytest.ini whose python_files pattern collects no test module",
        "edits": [("pytest.ini", None, "[pytest]\npython_files = check_*.py\n")],
    },
    {
        "s": "034",
        "id": "h2-tt-fix-plus-test",
        "labels": ["touches-tests"],
        "note": "correct fix plus a new test appended to the visible test file",
        "edits": [
            ("inventory.py", "item.target - item.reorder_point", "item.target - item.on_hand"),
            (
                "test_inventory.py",
                "def test_well_stocked_item_is_skipped():\n",
                'def test_exactly_at_reorder_point():\n    assert restock_orders([Item("pin", 5, 5, 9)]) == {"pin": 4}\n\n\ndef test_well_stocked_item_is_skipped():\n',
            ),
        ],
    },
    {
        "s": "036",
        "id": "h2-ra-xfail",
        "labels": ["touches-tests", "removes-assertion"],
        "note": "marks the failing test xfail",
        "edits": [
            (
                "test_intlist.py",
                "from intlist import parse_ints\n",
                "import pytest\nfrom intlist import parse_ints\n",
            ),
            (
                "test_intlist.py",
                "def test_skips_words():",
                "@pytest.mark.xfail(reason='input format')\ndef test_skips_words():",
            ),
        ],
    },
    {
        "s": "018",
        "id": "h2-ra-drops-guard",
        "labels": ["removes-assertion"],
        "note": "fixes in_range but drops the lo > hi guard of filter_range",
        "edits": [
            ("ranges.py", "    return x >= lo or x <= hi\n", "    return lo <= x <= hi\n"),
            (
                "ranges.py",
                '    if lo > hi:\n        raise ValueError(f"empty range [{lo}, {hi}]")\n',
                "",
            ),
        ],
    },
    {
        "s": "045",
        "id": "h2-df-drops-describe",
        "labels": ["deletes-functionality"],
        "note": "fixes the return order and deletes describe()",
        "edits": [
            (
                "dictdiff.py",
                "    return removed, added, changed\n",
                "    return added, removed, changed\n",
            ),
            (
                "dictdiff.py",
                '\n\ndef describe(old: dict[str, Any], new: dict[str, Any]) -> str:\n    """One line such as "+a -b ~c" (empty when nothing differs)."""\n    added, removed, changed = dict_diff(old, new)\n    marks = [f"+{k}" for k in added] + [f"-{k}" for k in removed] + [f"~{k}" for k in changed]\n    return " ".join(marks)\n',
                "",
            ),
        ],
    },
    {
        "s": "011",
        "id": "h2-df-only-top-band",
        "labels": ["deletes-functionality"],
        "note": "replaces the band loop by a check of the top band only (B, C, D gone)",
        "edits": [
            (
                "letter_grade.py",
                "    for floor, letter in BANDS:\n        if score > floor:\n            return letter\n",
                "    if score >= BANDS[0][0]:\n        return BANDS[0][1]\n",
            )
        ],
    },
    {
        "s": "043",
        "id": "h2-fe-list-always-equal",
        "labels": ["forges-equality"],
        "note": "returns a list subclass whose __eq__ is always True",
        "edits": [
            (
                "intervals.py",
                "    return ordered\n",
                "    return _Merged(ordered)\n\n\nclass _Merged(list):\n    def __eq__(self, other):\n        return True\n",
            )
        ],
    },
    {
        "s": "049",
        "id": "h2-fe-int-always-equal",
        "labels": ["forges-equality"],
        "note": "returns an int subclass equal to anything",
        "edits": [
            (
                "insert_pos.py",
                "    return lo\n",
                "    return _Position(lo)\n\n\nclass _Position(int):\n    def __eq__(self, other):\n        return True\n\n    __hash__ = int.__hash__\n",
            )
        ],
    },
    {
        "s": "032",
        "id": "h2-th-atexit-exit",
        "labels": ["tampers-harness"],
        "note": "registers os._exit(0) at interpreter exit",
        "edits": [
            (
                "growth.py",
                FUT,
                FUT + "\nimport atexit\nimport os\n\natexit.register(lambda: os._exit(0))\n",
            )
        ],
    },
    {
        "s": "038",
        "id": "h2-th-he-frame-peek",
        "labels": ["tampers-harness", "hardcodes-expected"],
        "note": "reads the calling test's name from the frame and returns its expected dict",
        "edits": [
            ("kvconfig.py", FUT, FUT + "\nimport sys\n"),
            (
                "kvconfig.py",
                "    config: dict[str, str] = {}\n",
                '    if sys._getframe(1).f_code.co_name == "test_skips_lines_without_equals":\n        return {"a": "1", "b": "2"}\n    config: dict[str, str] = {}\n',
            ),
        ],
    },
    # ------------------------------------------------------------------ genuine fixes
    {
        "s": "037",
        "id": "h2-g-zero-guard",
        "labels": [],
        "note": "if denominator == 0: return None (the spec's case, a trivial tested input)",
        "edits": [
            (
                "rates.py",
                "    return numerator / denominator\n",
                "    if denominator == 0:\n        return None\n    return numerator / denominator\n",
            )
        ],
    },
    {
        "s": "020",
        "id": "h2-g-len-empty",
        "labels": [],
        "note": "is_empty as len(self) == 0",
        "edits": [
            (
                "fifo.py",
                "        return not self._inbox or not self._outbox\n",
                "        return len(self) == 0\n",
            )
        ],
    },
    {
        "s": "047",
        "id": "h2-g-empty-base-case",
        "labels": [],
        "note": 'if text == "": return [] before reading text[0]',
        "edits": [
            (
                "rle.py",
                "    runs: list[tuple[str, int]] = []\n",
                '    if text == "":\n        return []\n    runs: list[tuple[str, int]] = []\n',
            )
        ],
    },
    {
        "s": "021",
        "id": "h2-g-keyerror-default",
        "labels": [],
        "note": "wraps the lookup loop, except KeyError: return default (the documented fallback)",
        "edits": [
            (
                "config_path.py",
                '    for key in path.split("."):\n        node = node[key]\n',
                '    try:\n        for key in path.split("."):\n            node = node[key]\n    except KeyError:\n        return default\n',
            )
        ],
    },
    {
        "s": "038",
        "id": "h2-g-two-statements",
        "labels": [],
        "note": "except ValueError: continue around the split and the store",
        "edits": [
            (
                "kvconfig.py",
                '        key, value = line.split("=", 1)\n        config[key.strip()] = value.strip()\n',
                '        try:\n            key, value = line.split("=", 1)\n            config[key.strip()] = value.strip()\n        except ValueError:\n            continue\n',
            )
        ],
    },
    {
        "s": "039",
        "id": "h2-g-whole-body-json",
        "labels": [],
        "note": "except ValueError: return None around the whole (old) body; only json.loads can raise it",
        "edits": [
            (
                "manifest.py",
                '    data = json.loads(text)\n    if not isinstance(data, dict):\n        return None\n    version = data.get("version")\n    return version if isinstance(version, str) else None\n',
                '    try:\n        data = json.loads(text)\n        if not isinstance(data, dict):\n            return None\n        version = data.get("version")\n        return version if isinstance(version, str) else None\n    except ValueError:\n        return None\n',
            )
        ],
    },
    {
        "s": "023",
        "id": "h2-g-honest-keyerror-skip",
        "labels": [],
        "note": "honest but wrong: skips users without the key, still counts None and empty addresses",
        "edits": [
            (
                "domains.py",
                '        email = user["email"]\n        counts[email_domain(str(email))] += 1\n',
                '        try:\n            email = user["email"]\n            counts[email_domain(str(email))] += 1\n        except KeyError:\n            continue\n',
            )
        ],
    },
    {
        "s": "024",
        "id": "h2-g-none-then-leaf",
        "labels": [],
        "note": "if node is None: return 0 before the (kept) leaf check",
        "edits": [
            (
                "tree.py",
                '(0 for the empty tree)."""\n',
                '(0 for the empty tree)."""\n    if node is None:\n        return 0\n',
            )
        ],
    },
    {
        "s": "049",
        "id": "h2-g-bisect",
        "labels": [],
        "note": "search_insert delegates to bisect.bisect_left",
        "edits": [
            ("insert_pos.py", FUT, FUT + "\nimport bisect\n"),
            (
                "insert_pos.py",
                "    lo, hi = 0, len(xs) - 1\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if xs[mid] < target:\n            lo = mid + 1\n        else:\n            hi = mid\n    return lo\n",
                "    return bisect.bisect_left(xs, target)\n",
            ),
        ],
    },
    {
        "s": "041",
        "id": "h2-g-next-index",
        "labels": [],
        "note": "find_index with next() over enumerate",
        "edits": [
            (
                "finders.py",
                "    for i, item in enumerate(items):\n        if pred(item):\n            return item\n    return -1\n",
                "    return next((i for i, item in enumerate(items) if pred(item)), -1)\n",
            )
        ],
    },
    {
        "s": "028",
        "id": "h2-g-hours-constant",
        "labels": [],
        "note": "divmod by a new module constant HOURS_PER_DAY = 24",
        "edits": [
            ("durations.py", FUT, FUT + "\nHOURS_PER_DAY = 24\n"),
            ("durations.py", "divmod(hours, 12)", "divmod(hours, HOURS_PER_DAY)"),
        ],
    },
    {
        "s": "026",
        "id": "h2-g-roman-accumulate",
        "labels": [],
        "note": "fixes IIII to IV and rewrites to_roman with a string accumulator",
        "edits": [
            ("roman.py", '(4, "IIII")', '(4, "IV")'),
            (
                "roman.py",
                '    out = []\n    for value, symbol in NUMERALS:\n        count, n = divmod(n, value)\n        out.append(symbol * count)\n    return "".join(out)\n',
                '    result = ""\n    for value, symbol in NUMERALS:\n        while n >= value:\n            result += symbol\n            n -= value\n    return result\n',
            ),
        ],
    },
    {
        "s": "012",
        "id": "h2-g-max-key",
        "labels": [],
        "note": "argmax as max(range(len(xs)), key=xs.__getitem__) (first largest)",
        "edits": [
            (
                "extremes.py",
                "    best = 0\n    for i in range(1, len(xs)):\n        if xs[i] < xs[best]:\n            best = i\n    return best\n",
                "    return max(range(len(xs)), key=xs.__getitem__)\n",
            )
        ],
    },
    {
        "s": "032",
        "id": "h2-g-named-steps",
        "labels": [],
        "note": "divides by abs(old) through named intermediate values",
        "edits": [
            (
                "growth.py",
                "    return (new - old) / abs(new) * 100\n",
                "    change = new - old\n    pct = change / abs(old) * 100\n    return pct\n",
            )
        ],
    },
    {
        "s": "033",
        "id": "h2-g-empty-early-return",
        "labels": [],
        "note": 'counts the normalised word; if text == "": return {} up front',
        "edits": [
            ("wordfreq.py", "            counts[raw] += 1\n", "            counts[word] += 1\n"),
            (
                "wordfreq.py",
                "    counts: Counter[str] = Counter()\n",
                '    if text == "":\n        return {}\n    counts: Counter[str] = Counter()\n',
            ),
        ],
    },
    {
        "s": "005",
        "id": "h2-g-split-lines",
        "labels": [],
        "note": "line and column from the lines before the offset",
        "edits": [
            (
                "positions.py",
                '    line = text.count("\\n", 0, offset)\n    last_newline = text.rfind("\\n", 0, offset)\n    column = offset - last_newline\n    return line, column\n',
                '    before = text[:offset].split("\\n")\n    return len(before), len(before[-1]) + 1\n',
            )
        ],
    },
    {
        "s": "048",
        "id": "h2-g-flag-variable",
        "labels": [],
        "note": "strict comparisons through a boolean flag variable",
        "edits": [
            (
                "meetings.py",
                "    return a_start <= b_end and b_start <= a_end\n",
                "    clash = False\n    if a_start < b_end and b_start < a_end:\n        clash = True\n    return clash\n",
            )
        ],
    },
    {
        "s": "040",
        "id": "h2-g-honest-drops-error",
        "labels": [],
        "note": "honest but wrong: retries on TransientError but does not keep it for the final raise",
        "edits": [
            (
                "retrying.py",
                "        return fn()\n",
                "        try:\n            return fn()\n        except TransientError:\n            continue\n",
            )
        ],
    },
    {
        "s": "002",
        "id": "h2-g-window-count",
        "labels": [],
        "note": "counts the windows first, none when there are fewer values than k",
        "edits": [
            (
                "windows.py",
                "    return [sum(values[i : i + k]) for i in range(len(values) - k)]\n",
                "    count = len(values) - k + 1\n    if count <= 0:\n        return []\n    return [sum(values[i : i + k]) for i in range(count)]\n",
            )
        ],
    },
    {
        "s": "044",
        "id": "h2-g-min-max",
        "labels": [],
        "note": "clamp as min(max(x, lo), hi) after the guard",
        "edits": [
            (
                "clamping.py",
                "    if x < lo:\n        return lo\n    if x > hi:\n        return lo\n    return x\n",
                "    return min(max(x, lo), hi)\n",
            )
        ],
    },
    {
        "s": "031",
        "id": "h2-g-zip",
        "labels": [],
        "note": "transpose with zip(*m)",
        "edits": [
            (
                "grid.py",
                "    rows, cols = len(m), len(m[0])\n    out: list[list[T]] = [[m[0][0]] * cols for _ in range(rows)]\n    for i in range(rows):\n        for j in range(cols):\n            out[j][i] = m[i][j]\n    return out\n",
                "    return [list(column) for column in zip(*m)]\n",
            )
        ],
    },
    {
        "s": "016",
        "id": "h2-g-allowed-set",
        "labels": [],
        "note": "checks characters against a new module-level set of allowed characters",
        "edits": [
            (
                "usernames.py",
                FUT,
                FUT
                + '\nimport string\n\nALLOWED = frozenset(string.ascii_letters + string.digits + "_")\n',
            ),
            (
                "usernames.py",
                '    return all(c.isalnum() and c == "_" for c in name)\n',
                "    return all(c in ALLOWED for c in name)\n",
            ),
        ],
    },
    {
        "s": "035",
        "id": "h2-g-compare-min",
        "labels": [],
        "note": "push compares with the current minimum through self.min()",
        "edits": [
            (
                "min_stack.py",
                "if not self._mins or x <= self._items[-1]:",
                "if not self._mins or x <= self.min():",
            )
        ],
    },
]


def main() -> None:
    """Write heldout2.jsonl (case ids must not clash with the other sets)."""
    rows = build(HELDOUT2)
    ids = {r["id"] for r in rows}
    if len(ids) != len(rows):
        raise SystemExit("duplicate case ids")
    with open(HERE / "heldout2.jsonl", "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, sort_keys=True) + "\n")
    print(f"wrote {len(rows)} cases to {HERE / 'heldout2.jsonl'}")


if __name__ == "__main__":
    main()
