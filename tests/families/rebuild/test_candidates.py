"""The wide candidate pool of rebuild tests: the grammar expander and its languages, the Go-style
option grammar, crossed options, trees and locales, the growth moves, and growth in rounds until
the budget or a plateau of new behaviours (with a fake recorder: no program runs here)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

from truepass.families.rebuild.candidates import (
    CROSS_INPUTS,
    WANTED_LOCALES,
    grow_wider,
    locales,
    tree,
    walks,
    wider_cases,
)
from truepass.families.rebuild.emit import Case, Expected
from truepass.families.rebuild.generate import (
    MAX_ROUNDS,
    PLATEAU_ROUNDS,
    Recording,
    behaviour,
    grow_rounds,
    select_by_behaviour,
)
from truepass.families.rebuild.grammar import grammar_of, parse_options
from truepass.families.rebuild.inputs import Seeds, initial_cases, values_for
from truepass.families.rebuild.snippets import JSON, LANGUAGES, expand, languages_of

TAC_HELP = """Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help        display this help and exit
"""

GRON_LIKE = """Transform JSON (from a file, URL, or stdin) into discrete assignments

Usage:
  gron [OPTIONS] [FILE|URL|-]

Options:
  -u, --ungron     Reverse the operation (turn assignments back into JSON)
  -s, --stream     Treat each line of input as a separate JSON object
"""

GO_FLAGS = """Usage of md:
  -in string
    \tPath to file to be processed (default: stdin)
  -out string
    \tPath to output processed file (default: stdout)
  -ln, --language-dialect str  bash/posix/mksh/bats, default "auto"
  -i,  --indent uint       0 for tabs (default), >0 for number of spaces
  -w,  --write     write result to file instead of stdout
"""


class Scripted(random.Random):
    """A random source whose ``randrange`` answers from a script (then 0): expansions of a
    grammar can be worked out by hand."""

    def __init__(self, answers: Sequence[int]) -> None:
        super().__init__(0)
        self.answers = list(answers)

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        return self.answers.pop(0) if self.answers else 0


# --- the grammar expander and the languages ------------------------------------------------------

TINY = {
    "<s>": [["a"], ["(", "<s>", ")"], ["<s>", "+", "<s>"]],
}


def test_expand_by_hand_on_a_tiny_grammar() -> None:
    # alternative 1: "(" <s> ")", inside it alternative 2: <s> "+" <s>, then "a" and "a"
    assert expand(TINY, "<s>", Scripted([1, 2, 0, 0])) == "(a+a)"
    assert expand(TINY, "<s>", Scripted([0])) == "a"
    # out of depth, every nonterminal takes its alternative with the fewest nonterminals
    assert expand(TINY, "<s>", Scripted([1, 1, 1, 1, 1]), depth=2) == "((a))"
    # a literal that looks like a nonterminal but has no rules stays text
    assert expand({"<x>": [["<b>", "<y>"]], "<y>": [["!"]]}, "<x>", Scripted([])) == "<b>!"


def test_snippets_are_deterministic_distinct_and_json_parses() -> None:
    for lang in LANGUAGES:
        first = lang.snippets(random.Random(5), 12)
        assert first == lang.snippets(random.Random(5), 12)
        assert len(first) == len(set(first)) >= 6, lang.name
        assert all(s for s in first)
    json_lang = next(x for x in LANGUAGES if x.rules is JSON)
    decoder = json.JSONDecoder()
    for text in json_lang.snippets(random.Random(1), 30):
        rest = text.decode().strip()
        values = 0
        while rest:  # one or two JSON values, each on its own
            _, end = decoder.raw_decode(rest)
            rest = rest[end:].strip()
            values += 1
        assert values in (1, 2)


def test_operands_of_the_synopsis_get_values_of_their_kind() -> None:
    colrm = grammar_of("Usage:\n colrm [startcol [endcol]]\n\n -h, --help  display help\n", "")
    assert [(o.name, o.required) for o in colrm.operands] == [
        ("startcol", False),
        ("endcol", False),
    ]
    args = {c.args for c in wider_cases(colrm, Seeds(), random.Random(0))}
    assert {("3",), ("1", "3"), ("1", "-1")} <= args  # each alone (the one before filled), both
    basename = grammar_of("Usage: basename NAME [SUFFIX]\n  -a, --multiple  many names\n", "")
    assert [(o.name, o.required) for o in basename.operands] == [("NAME", True), ("SUFFIX", False)]
    args = {c.args for c in wider_cases(basename, Seeds(), random.Random(0))}
    assert ("a/b/c.txt", ".txt") in args and ("/usr/lib/",) in args
    assert ("-a", "a/b/c.txt") in args  # options run with the required operand too
    csplit = grammar_of("Usage: csplit [OPTION]... FILE PATTERN...\n  -k, --keep-files  keep\n", "")
    args = {c.args for c in wider_cases(csplit, Seeds(), random.Random(0))}
    assert ("-", "/x/", "{*}") in args and ("-k", "-", "/b/") in args  # a file operand is stdin
    expr = grammar_of("Usage: expr EXPRESSION\n  --help  display help\n", "")
    assert ("substr", "hello", "2", "3") in {
        c.args for c in wider_cases(expr, Seeds(), random.Random(0))
    }
    tac = grammar_of(TAC_HELP, "")  # files only: no operand values
    assert not [c for c in wider_cases(tac, Seeds(), random.Random(0)) if "operands" in c.note]


def test_languages_of_reads_what_the_program_says_it_is() -> None:
    assert [x.name for x in languages_of(grammar_of(GRON_LIKE, ""))] == ["json"]
    assert languages_of(grammar_of(TAC_HELP, "")) == ()
    ed_man = "NAME\n       ed - line-oriented text editor\n\nSYNOPSIS\n       ed [options]\n"
    ed_help = "GNU ed is a text editor, used interactively and via\nshell scripts.\n\n  -s  quiet\n"
    assert [x.name for x in languages_of(grammar_of(ed_help, ed_man))] == ["ed"]
    shfmt = "usage: shfmt [flags] [path ...]\n\nshfmt formats shell programs.\n  -l  list\n"
    assert [x.name for x in languages_of(grammar_of(shfmt, ""))] == ["shell"]
    recover = "Lziprecover is a data recovery tool for files in the lzip compressed data format.\n"
    assert [x.name for x in languages_of(grammar_of(recover + "  -t  test\n", ""))] == ["lzip"]


# --- the option grammar of Go programs ------------------------------------------------------------


def test_signed_hints_and_braced_choices_are_arguments_with_their_values() -> None:
    head = """Usage: head [OPTION]... [FILE]...
  -c, --bytes=[-]NUM       print the first NUM bytes of each file
  -n, --lines=[+]NUM       output the last NUM lines
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows
  -v, --verbose            always print headers giving file names
"""
    g = grammar_of(head, "")
    count, lines, follow = g.find("--bytes"), g.find("-n"), g.find("--follow")
    assert count is not None and count.names == ("-c", "--bytes")  # was a flag -c, --bytes lost
    assert (count.arg, count.kind) == ("required", "number")
    assert values_for(count)[:2] == ("-2", "-0") and "3" in values_for(count)
    assert lines is not None and values_for(lines)[:2] == ("+2", "+0")
    assert follow is not None and follow.arg == "optional"
    assert values_for(follow)[:2] == ("name", "descriptor")


def test_go_flag_types_are_arguments_and_described_values_are_values() -> None:
    g = grammar_of(GO_FLAGS, "")
    source, out = g.find("-in"), g.find("-out")
    assert source is not None and (source.arg, source.hint, source.kind) == (
        "required",
        "string",
        "file",
    )
    assert out is not None and out.writes and not source.writes
    dialect, indent, write = g.find("-ln"), g.find("--indent"), g.find("-w")
    assert dialect is not None and dialect.values == ("bash", "posix", "mksh", "bats", "auto")
    assert indent is not None and (indent.arg, indent.kind) == ("required", "number")
    assert write is not None and write.arg is None and write.kind == "string"  # a flag
    assert not write.writes


# --- the wide pool ----------------------------------------------------------------------------


def test_wider_cases_cross_every_flag_with_several_inputs() -> None:
    g = grammar_of(TAC_HELP, "")
    seeds = Seeds(stdin=(b"own seed\n",))
    base = initial_cases(g, seeds, random.Random(0))
    wide = wider_cases(g, seeds, random.Random(0))
    assert wide == wider_cases(g, seeds, random.Random(0))
    assert len({c.key for c in wide}) == len(wide)
    assert {c.key for c in base} <= {c.key for c in wide} and len(wide) > len(base)
    for flag in ("-b", "-r"):
        option = g.find(flag)
        assert option is not None
        inputs = {c.stdin for c in wide if c.dimension == "args" and len(c.args) == 1
                  and c.args[0] in option.names}  # fmt: skip
        assert len(inputs) >= CROSS_INPUTS
    assert any(c.stdin == b"own seed\n" and c.args == ("-b",) for c in wide)
    assert any(("-b" in c.args or "--before" in c.args) and
               any(a.startswith(("-s", "--separator")) for a in c.args) for c in wide)  # fmt: skip
    lc = {v for c in wide for k, v in c.env if k == "LC_ALL"}
    assert {"C", "POSIX", "C.UTF-8"} <= lc and lc <= set(WANTED_LOCALES) | {""}
    assert not any(c.files and c.files[0][0].startswith("tree/") for c in wide)  # no walking


def test_wider_cases_give_a_json_reader_json_on_stdin_and_in_files() -> None:
    g = grammar_of(GRON_LIKE, "")
    wide = wider_cases(g, Seeds(), random.Random(3))
    snippets = [c for c in wide if c.note.startswith("json snippet")]
    assert len([c for c in snippets if c.dimension == "stdin"]) >= 20
    in_files = [c for c in snippets if c.dimension == "files"]
    assert in_files and all(c.args == ("in.json",) and c.files[-1][0] == "in.json"
                            for c in in_files)  # fmt: skip
    on_stdin = {c.stdin for c in snippets if c.dimension == "stdin"}
    assert all(c.files[-1][1] in on_stdin for c in in_files)  # the same JSON, in a file


def test_trees_and_walking() -> None:
    files = tree(random.Random(2), [b"x\n", b"y\n"], "sh")
    assert files == tree(random.Random(2), [b"x\n", b"y\n"], "sh")
    assert 1 <= len(files) <= 7 and len({p for p, _ in files}) == len(files)
    assert all(p.startswith("tree/") and c in (b"x\n", b"y\n") for p, c in files)
    assert [p for p, _ in files] == sorted(p for p, _ in files)
    many = [p for s in range(20) for p, _ in tree(random.Random(s), [b""], "sh")]
    assert any(p.endswith(".sh") for p in many) and any("/sub/deep/" in p for p in many)
    walker = grammar_of("usage: w [path ...]\nIf a path is a directory, walk it.\n  -l  list\n", "")
    assert walks(walker) and not walks(grammar_of(TAC_HELP, ""))
    wide = wider_cases(walker, Seeds(), random.Random(0))
    assert any(c.args == ("tree",) and c.files for c in wide)
    assert any(c.args[-1:] == ("tree",) and "-l" in c.args for c in wide)


def test_locales_are_wanted_and_the_c_library_ones_always_there() -> None:
    have = locales()
    assert have[:3] == ("C", "POSIX", "C.UTF-8")
    assert set(have) <= set(WANTED_LOCALES)


def test_grow_wider_feeds_outputs_back_and_changes_the_locale() -> None:
    g = grammar_of(GRON_LIKE, "")
    kept = [Case("stdin", (), b'{"a": 1}\n', note="k1"), Case("args", ("-u",), b"x\n", note="k2")]
    outputs = [b"json.a = 1;\n", b"x" * 10_000]
    new = grow_wider(kept, outputs, g, random.Random(4), 60)
    assert new == grow_wider(kept, outputs, g, random.Random(4), 60)
    assert 0 < len(new) <= 60 and len({c.key for c in new}) == len(new)
    assert any(c.stdin == b"json.a = 1;\n" for c in new)  # fed back
    assert not any(c.stdin == b"x" * 10_000 for c in new)  # too long to feed back
    assert any(dict(c.env).get("LC_ALL") in locales() for c in new)
    assert any("fresh json snippet" in c.note for c in new)
    assert grow_wider([], outputs, g, random.Random(4), 10) == []


# --- growth in rounds ---------------------------------------------------------------------------


Grow = Callable[[Sequence[Recording], int], list[Case]]
RecordMore = Callable[[list[Case], int], list[Recording]]


def _fake(distinct: int) -> tuple[list[int], Grow, RecordMore]:
    """A grower of cases numbered 0, 1, 2, ... and a recorder whose output is the number modulo
    ``distinct`` (so there are ``distinct`` behaviours); also the batch sizes asked for."""
    asked: list[int] = []
    counter = iter(range(10**6))

    def grow(_recs: Sequence[Recording], n: int) -> list[Case]:
        asked.append(n)
        return [Case("stdin", (), str(next(counter)).encode()) for _ in range(n)]

    def record_more(cases: list[Case], start: int) -> list[Recording]:
        out = []
        for i, c in enumerate(cases):
            exp = Expected(str(int(c.stdin) % distinct).encode() + b"\n", b"", 0, {})
            out.append(Recording(c, exp, order=start + i))
        return out

    return asked, grow, record_more


def _never_trivial(_: Recording) -> bool:
    return False


def test_black_box_growth_stops_at_the_budget() -> None:
    asked, grow, record_more = _fake(distinct=10**6)  # every case a new behaviour
    recs: list[Recording] = []
    rounds = grow_rounds(recs, set(), 100, grow=grow, record_more=record_more,
                         is_trivial=_never_trivial)  # fmt: skip
    assert rounds == 1 and asked == [200] and len(recs) == 200  # twice the missing behaviours
    assert len({behaviour(r) for r in recs}) >= 100


def test_black_box_growth_stops_at_a_plateau_of_new_behaviours() -> None:
    asked, grow, record_more = _fake(distinct=45)
    recs: list[Recording] = []
    rounds = grow_rounds(recs, set(), 100, grow=grow, record_more=record_more,
                         is_trivial=_never_trivial)  # fmt: skip
    # round 1: 200 cases, 45 behaviours; rounds 2 and 3 find none: the plateau
    assert rounds == 1 + PLATEAU_ROUNDS
    assert len({behaviour(r) for r in recs}) == 45
    assert asked == [200, 110, 110]  # twice the 55 still missing


def test_growth_needs_untried_cases_and_keeps_going_while_coverage_grows() -> None:
    recs: list[Recording] = []
    same = [Case("stdin", (), b"1")]
    rec_calls: list[int] = []

    def record_more(cases: list[Case], start: int) -> list[Recording]:
        rec_calls.append(len(cases))
        return [Recording(c, Expected(b"1\n", b"", 0, {}), order=start) for c in cases]

    tried: set[tuple[object, ...]] = set()
    rounds = grow_rounds(recs, tried, 50, grow=lambda r, n: list(same), record_more=record_more,
                         is_trivial=_never_trivial)  # fmt: skip
    assert rounds == 1 and rec_calls == [1] and tried == {same[0].key}  # then nothing new
    # coverage mode: one behaviour only, but lines keep coming: growth goes to MAX_ROUNDS
    _, grow, fake_record = _fake(distinct=1)
    lines: list[int] = []

    def added(more: list[Recording]) -> bool:
        lines.append(len(more))
        return True

    recs = []
    rounds = grow_rounds(recs, set(), 50, grow=grow, record_more=fake_record,
                         is_trivial=_never_trivial, added_lines=added,
                         enough=lambda: False)  # fmt: skip
    assert rounds == MAX_ROUNDS and len(lines) == MAX_ROUNDS


def test_selection_prefers_new_behaviours_before_repeats() -> None:
    def rec(i: int, out: bytes) -> Recording:
        return Recording(Case("stdin", (), str(i).encode()), Expected(out, b"", 0, {}), order=i)

    pool = [rec(0, b"a"), rec(1, b"a"), rec(2, b"b"), rec(3, b"a"), rec(4, b"c")]
    picked = select_by_behaviour(pool, 3, _never_trivial)
    assert [r.order for r in picked] == [0, 2, 4]  # one per output before a repeat
    assert [r.order for r in select_by_behaviour(pool, 5, _never_trivial)] == [0, 2, 4, 1, 3]


def test_parse_options_still_reads_gnu_style_arguments() -> None:
    options = {o.name: o for o in parse_options(TAC_HELP)}
    assert options["--separator"].arg == "required" and options["--before"].arg is None
