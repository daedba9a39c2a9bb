"""The missed lines of a gold, by kind and by function (truepass.families.rebuild.gaps)."""

from __future__ import annotations

from pathlib import Path

from truepass.families.rebuild.gaps import TOP_LEVEL, describe, explain

SOURCE = """\
#include <stdio.h>
#include <stdlib.h>
static int table[] = {1, 2, 3};

static void unused(void)
{
    puts("never");
    puts("run");
}

int copy(FILE *in, FILE *out)
{
    int c;
    while ((c = getc(in)) != EOF)
        putc(c, out);
    if (ferror(in)) {
        perror("read");
        return -1;
    }
    if (c == 'x')
        puts("an x");
    return 0;
}
"""


def _lines(*numbers: int) -> set[tuple[str, int]]:
    return {("src/a.c", n) for n in numbers}


def test_missed_lines_are_sorted_into_kinds_by_function(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.c").write_text(SOURCE)
    executable = _lines(3, 7, 8, 14, 15, 16, 17, 18, 20, 21, 22)
    covered = _lines(14, 15, 16, 20, 22)
    gaps = explain(tmp_path, executable, covered)
    assert gaps.missed == 6
    assert gaps.unrun_functions == 2  # unused(): lines 7 and 8
    # 17-18 are one run of missed lines and 17 reports the error: both are error handling
    assert gaps.error_handling == 2
    assert gaps.other == 2  # 21 (the x) and the table at the top level
    by_name = {g.function: g for g in gaps.functions}
    assert set(by_name) == {"unused", "copy", TOP_LEVEL}
    assert not by_name["unused"].ran and by_name["unused"].line == 5
    assert by_name["copy"].ran and by_name["copy"].missed == 3
    assert by_name["copy"].error_handling == 2
    assert by_name["copy"].first_missed == 'perror("read");'
    assert gaps.functions[0].function == "copy"  # most missed first
    text = describe(gaps)
    assert text.startswith(
        "6 lines missed: 0 run only by dropped tests, 2 in functions no test runs, 2 handling "
        "errors, 2 other"
    )
    assert "src/a.c:11 copy: 3 (2 error handling)" in text
    assert "src/a.c:5 unused: 2 (never run)" in text


def test_a_covered_line_between_two_missed_ones_splits_their_runs(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.c").write_text(SOURCE)
    # 17 missed and reports, 18 ran, 21 missed: 21 is not in 17's run, so it is "other"
    gaps = explain(tmp_path, _lines(16, 17, 18, 20, 21), _lines(16, 18, 20))
    assert (gaps.missed, gaps.error_handling, gaps.other) == (2, 1, 1)


def test_all_covered_and_the_limit(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.c").write_text(SOURCE)
    full = explain(tmp_path, _lines(7, 14), _lines(7, 14))
    assert full.missed == 0 and full.functions == []
    assert describe(full) == "every executable line is covered"
    top = explain(tmp_path, _lines(3, 7, 21), set(), limit=1)
    assert top.missed == 3 and len(top.functions) == 1


def test_a_missing_source_file_still_counts_its_lines(tmp_path: Path) -> None:
    gaps = explain(tmp_path, {("gone.c", 4), ("gone.c", 5)}, {("gone.c", 4)})
    assert gaps.missed == 1 and gaps.functions[0].function == TOP_LEVEL
    assert gaps.functions[0].first_missed == ""


def test_lines_only_dropped_tests_run_are_a_kind_of_their_own(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.c").write_text(SOURCE)
    executable = _lines(7, 8, 14, 17, 18, 21)
    # a dropped test (say one a dummy passes) ran unused() and line 17: they are "filtered"
    gaps = explain(tmp_path, executable, _lines(14), dropped=_lines(7, 8, 14, 17))
    assert (gaps.missed, gaps.filtered, gaps.unrun_functions) == (5, 3, 0)
    # 18 is still one of the error lines (its run, without the filtered 17, reports nothing)
    assert (gaps.error_handling, gaps.other) == (0, 2)
    unused = next(g for g in gaps.functions if g.function == "unused")
    assert unused.filtered == 2 and not unused.ran
    assert "src/a.c:5 unused: 2 (2 run by dropped tests, never run)" in describe(gaps)
