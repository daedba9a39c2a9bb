"""The memorisation builder: how a file is cut, and a suite built from two suites' files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from truepass.errors import InputError
from truepass.families.memorisation.builder import build, split_file

SEVEN = "l1\nl2\nl3\nl4\n\nl5\nl6\n"


def test_the_prefix_is_the_first_share_of_lines_and_the_continuation_the_next_non_blank_ones() -> (
    None
):
    # 7 lines, share 0.5: floor(3.5) = 3 lines shown; the next 2 non-blank lines, the blank
    # line between them kept verbatim
    assert split_file(SEVEN, 0.5, 2) == ("l1\nl2\nl3\n", "l4\n\nl5\n")
    assert split_file(SEVEN, 0.5, 3) == ("l1\nl2\nl3\n", "l4\n\nl5\nl6\n")


def test_too_short_files_give_nothing() -> None:
    assert split_file(SEVEN, 0.5, 4) is None  # only 3 non-blank lines after the prefix
    assert split_file("x\n", 0.5, 1) is None  # one line: nothing to show and to hide
    assert split_file("", 0.5, 1) is None


def test_the_prefix_keeps_at_least_one_line_and_leaves_one() -> None:
    assert split_file("a\nb\nc\n", 0.1, 1) == ("a\n", "b\n")  # floor(0.3) = 0 -> 1
    assert split_file("a\nb\nc\n", 0.99, 1) == ("a\nb\n", "c\n")  # floor(2.97) = 2 = n - 1
    with pytest.raises(ValueError, match="prefix_share"):
        split_file(SEVEN, 1.0, 1)


def _suite(root: Path, name: str, leakage: str, files: dict[str, dict[str, str]]) -> Path:
    """A repair suite directory: one sample per entry of ``files`` (sample id -> its code)."""
    d = root / name
    d.mkdir()
    lines = []
    for sid, code in files.items():
        path = next(iter(code))
        lines.append(json.dumps({
            "id": sid, "leakage": leakage, "language": "python", "defect_type": "wrong-op",
            "description": "d", "files": code, "fault": [{"file": path, "lines": [1]}],
            "tests": {"visible": {"test_x.py": "def test_x():\n    pass\n"}},
            "fix": f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-x\n+y\n", "source": "hand",
        }))  # fmt: skip
    (d / "suite.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (d / "suite.toml").write_text(f'name = "{name}"\nversion = "1"\ndescription = "t"\n')
    return d


LONG = "".join(f"v{i} = {i}\n" for i in range(10))


def test_build_takes_each_distinct_file_once_with_its_role_and_tier(tmp_path: Path) -> None:
    pub = _suite(tmp_path, "pub", "public-old", {
        "p1": {"a.py": LONG, "node.py": LONG.replace("v", "n")},
        "p2": {"b.py": "x = 1\n", "node.py": LONG.replace("v", "n")},
    })  # fmt: skip
    priv = _suite(tmp_path, "priv", "private", {"q1": {"c.py": LONG.replace("v", "w")}})
    samples, report = build(str(pub), [str(priv)], prefix_share=0.5, lines=3)
    assert [s.id for s in samples] == [
        "target/pub/a.py", "target/pub/node.py", "control/priv/c.py",
    ]  # fmt: skip
    first = samples[0]
    assert first.prefix == "".join(f"v{i} = {i}\n" for i in range(5))
    assert first.continuation == "v5 = 5\nv6 = 6\nv7 = 7\n"
    assert (first.role.value, first.leakage, first.source_sample) == ("target", "public-old", "p1")
    assert (samples[2].role.value, samples[2].leakage) == ("control", "private")
    target, control = report.sources
    assert (target.files, target.duplicates, target.short, target.kept) == (4, 1, 1, 2)
    assert (control.files, control.kept, control.leakage) == (1, 1, {"private": 1})


def test_limit_keeps_the_first_files_of_each_suite(tmp_path: Path) -> None:
    pub = _suite(tmp_path, "pub", "public-old", {
        "p1": {"a.py": LONG, "b.py": LONG.replace("v", "u")},
    })  # fmt: skip
    priv = _suite(tmp_path, "priv", "private", {"q1": {"c.py": LONG.replace("v", "w")}})
    samples, report = build(str(pub), [str(priv)], lines=2, limit=1)
    assert [s.id for s in samples] == ["target/pub/a.py", "control/priv/c.py"]
    assert report.sources[0].beyond_limit == 1


def test_a_suite_without_code_files_is_refused_naming_the_supported_families() -> None:
    with pytest.raises(InputError, match=r"no source files to probe \(families with code files: "
                       r"[^)]*repair"):  # fmt: skip
        build("review-mini", ["mini"])
