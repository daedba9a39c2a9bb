"""The rebuild test generator (truepass.families.rebuild.generate) on real golds of this machine
(rev, tac, nl) and on a tiny C program built with --coverage for the coverage-guided part."""

from __future__ import annotations

import ast
import base64
import contextlib
import json
import random
import shutil
import subprocess
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from truepass.errors import InputError
from truepass.families.rebuild import recipes
from truepass.families.rebuild.emit import Case, Expected, bytes_literal, render_module
from truepass.families.rebuild.generate import (
    RECORD_LIMITS,
    CoverageProbe,
    Settings,
    build_rebuild,
    generate,
    natural_problem,
    run_pytest,
    side_by_side,
    trivial,
    verify,
    write_suite,
)
from truepass.families.rebuild.grammar import grammar_of, parse_options, read_help, read_man
from truepass.families.rebuild.inputs import Seeds, initial_cases, load_seeds, mutate
from truepass.families.rebuild.lint import lint_source
from truepass.families.rebuild.sandboxed import harness_binds
from truepass.families.rebuild.schema import RebuildSample
from truepass.sandbox.session import SandboxSession

needs = pytest.mark.skipif(
    not all(Path(f"/usr/bin/{p}").exists() for p in ("rev", "tac", "nl")),
    reason="needs rev, tac and nl",
)
FAST = Settings(max_tests=20, reruns=2, verify_runs=2)

TAC_HELP = """Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help        display this help and exit
"""

NL_HELP_PART = """  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --color[=WHEN]              colorize
  -h  --help         print this usage and exit

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros
"""

MAN_PART = """OPTIONS
       -b, --before
              attach the separator before instead of after

       --help display this help and exit

ENVIRONMENT
       BC_LINE_LENGTH
              This should be an integer.

       POSIXLY_CORRECT
              Same as -s.
"""


# --- the grammar --------------------------------------------------------------------------------


def test_help_text_grammar() -> None:
    options = {o.name: o for o in parse_options(TAC_HELP)}
    assert set(options) == {"--before", "--regex", "--separator", "--help"}
    sep = options["--separator"]
    assert (sep.short, sep.arg, sep.hint, sep.kind) == ("-s", "required", "STRING", "string")
    assert options["--before"].arg is None and options["--before"].short == "-b"
    assert options["--help"].is_help and options["--help"].short is None


def test_hints_values_optional_arguments_and_bc_style() -> None:
    g = grammar_of(NL_HELP_PART, "")
    fmt, width, color, help_ = (
        g.find(n) for n in ("--number-format", "--number-width", "--color", "--help")
    )
    assert fmt is not None and fmt.values == ("ln", "rn", "rz")
    assert width is not None and width.kind == "number"
    assert color is not None and (color.arg, color.kind) == ("optional", "when")
    assert help_ is not None and help_.names == ("-h", "--help")  # "-h  --help", no comma


def test_man_page_options_and_environment() -> None:
    g = grammar_of("", MAN_PART)
    before, help_ = g.find("-b"), g.find("--help")
    assert before is not None and before.description.startswith("attach the separator")
    assert help_ is not None and help_.description == "display this help and exit"
    assert g.env_vars == ("BC_LINE_LENGTH", "POSIXLY_CORRECT")


@needs
def test_real_help_and_man_of_nl() -> None:
    g = grammar_of(read_help("/usr/bin/nl", "nl"), read_man("nl"))
    body = g.find("-b")
    assert body is not None and body.long == "--body-numbering" and body.arg == "required"
    assert {"a", "t", "n"} <= set(body.values)
    assert g.find("--number-width").kind == "number"  # type: ignore[union-attr]
    assert g.takes_files


# --- inputs and candidates ----------------------------------------------------------------------


def test_mutations_are_deterministic() -> None:
    data = b"one\ntwo\nthree\n"
    first = [mutate(data, random.Random(7)) for _ in range(5)]
    again = [mutate(data, random.Random(7)) for _ in range(5)]
    assert first == again
    assert any(m != data for _, m in first)


def test_candidates_cover_every_dimension_with_seeds() -> None:
    g = grammar_of(TAC_HELP, MAN_PART)
    seeds = Seeds(scripts=(b"1p\nq\n",), args=(("-s", "x"),), files=(("f.txt", b"a\n"),))
    cases = initial_cases(g, seeds, random.Random(0))
    dims = {c.dimension for c in cases}
    assert dims == {"args", "env", "help", "stdin", "files", "subcommands"}
    keys = [c.key for c in cases]
    assert len(keys) == len(set(keys))
    args = [c.args for c in cases]
    assert ("--no-such-option",) in args and ("-s",) in args  # unknown; missing argument
    assert ("missing.txt",) in args
    envs = {k for c in cases for k, _ in c.env}
    assert {"POSIXLY_CORRECT", "BC_LINE_LENGTH", "LC_ALL", "TZ"} <= envs
    scripts = [c for c in cases if c.dimension == "subcommands"]
    assert all(c.stdin == b"1p\nq\n" and c.files == (("f.txt", b"a\n"),) for c in scripts)
    assert cases == initial_cases(g, seeds, random.Random(0))


def test_seeds_file(tmp_path: Path) -> None:
    path = tmp_path / "seeds.json"
    path.write_text(json.dumps({"stdin": ["x\n"], "args": [["-n"]], "scripts": ["p\n"]}))
    seeds = load_seeds(path)
    assert seeds == Seeds(stdin=(b"x\n",), args=(("-n",),), scripts=(b"p\n",))
    path.write_text(json.dumps({"stdin": "x"}))
    with pytest.raises(InputError, match="stdin"):
        load_seeds(path)
    path.write_text(json.dumps({"inputs": []}))
    with pytest.raises(InputError, match="keys"):
        load_seeds(path)
    with pytest.raises(InputError, match="cannot read"):
        load_seeds(tmp_path / "none.json")


def test_seeds_file_takes_bytes_in_base64(tmp_path: Path) -> None:
    path = tmp_path / "seeds.json"
    blob = {"base64": base64.b64encode(b"LZIP\x01\xff").decode()}
    path.write_text(json.dumps({"stdin": [blob, "t"], "files": {"a.lz": blob, "b.txt": "x"}}))
    seeds = load_seeds(path)
    assert seeds.stdin == (b"LZIP\x01\xff", b"t")
    assert seeds.files == (("a.lz", b"LZIP\x01\xff"), ("b.txt", b"x"))
    path.write_text(json.dumps({"files": {"a.lz": {"base64": "not base64!"}}}))
    with pytest.raises(InputError, match="bad base64") as err:
        load_seeds(path)
    assert "files.a.lz" in str(err.value)
    path.write_text(json.dumps({"stdin": [{"hex": "00"}]}))
    with pytest.raises(InputError, match="base64") as err:
        load_seeds(path)
    assert "stdin[0]" in str(err.value)


# --- emitting -----------------------------------------------------------------------------------


def test_emitted_module_is_readable_python() -> None:
    case = Case("files", ("-s", "it's"), b"a\nb\n", (("in.txt", b'q"\n'),), (("TZ", "UTC"),))
    exp = Expected(b"x" * 200 + b"\n", b"", 3, {"out.txt": b"\x00\xff"})
    source = render_module("Header.", [("test_files_001", case, exp)])
    tree = ast.parse(source)
    fn = tree.body[1]
    assert isinstance(fn, ast.FunctionDef) and fn.name == "test_files_001"
    namespace: dict[str, object] = {}
    exec(compile(source, "t.py", "exec"), namespace)  # the literals are the bytes themselves
    call = fn.body[0].value  # type: ignore[attr-defined]
    assert ast.literal_eval(call.args[0]) == ["-s", "it's"]
    assert "assert r.returncode == 3" in source
    assert "assert r.files == {" in source
    assert max(len(line) for line in source.splitlines()) < 110
    assert ast.literal_eval(bytes_literal(b"a\nb\n" * 30, 1)) == b"a\nb\n" * 30


def test_a_long_input_several_tests_give_is_written_once() -> None:
    seed = bytes(range(256)) * 2  # a seed file, given to every seeded run
    ok = Expected(b"", b"", 0)
    tests = [
        ("test_args_001", Case("args", ("-t", "a.lz"), files=(("a.lz", seed),)), ok),
        ("test_args_002", Case("args", ("-l",), seed, (("a.lz", seed),)), Expected(b"x", b"", 0)),
        ("test_stdin_001", Case("stdin", (), b"short\n"), ok),
    ]  # fmt: skip
    source = render_module("Header.", tests)
    assert source.count("INPUT_1 = (") == 1 and "INPUT_2" not in source
    assert source.count("INPUT_1") == 4  # defined once, given three times
    assert '"a.lz": INPUT_1,' in source and "stdin=INPUT_1," in source
    namespace: dict[str, object] = {}
    exec(compile(source, "t.py", "exec"), namespace)
    assert namespace["INPUT_1"] == seed
    assert lint_source(source) == []  # the linter reads module constants
    assert "INPUT_" not in render_module("Header.", tests[2:])


# --- the dummy predictor and the pipeline on real golds -----------------------------------------


def test_trivial_is_what_a_dummy_passes() -> None:
    help_text = b"usage\n"
    assert trivial(Case("stdin", (), b"x\n"), Expected(b"x\n", b"", 0), help_text)
    assert trivial(Case("stdin"), Expected(b"", b"", 0), help_text)
    assert trivial(Case("help", ("--help",)), Expected(b"usage\n", b"", 0), help_text)
    assert not trivial(Case("stdin", (), b"ab\n"), Expected(b"ba\n", b"", 0), help_text)
    assert not trivial(Case("files"), Expected(b"", b"", 0, {"o": b""}), help_text)


@needs
def test_rev_without_coverage() -> None:
    gen = generate("rev", "/usr/bin/rev", settings=FAST, man="rev")
    assert len(gen.names) == 20 and gen.generation.kept <= 20
    assert gen.file == "test_rev.py"
    assert gen.generation.coverage is None
    assert gen.generation.dummy_pass_after == 0.0
    dims = {n.split("_")[1] for n in gen.names}
    assert {"help", "stdin", "files", "env"} <= dims
    assert 'program(["-V"])' in gen.source or "--version" in gen.source  # the version shown
    assert b"ahpla" in gen.source.encode()  # rev's own output is in the expectations
    # the same seed gives the same file
    assert generate("rev", "/usr/bin/rev", settings=FAST, man="rev").source == gen.source


@needs
def test_emitted_tests_pass_on_the_gold_and_fail_on_another_program(tmp_path: Path) -> None:
    gen = generate("tac", "/usr/bin/tac", settings=FAST, man="tac")
    with SandboxSession(limits=RECORD_LIMITS, ro_binds=harness_binds()) as session:
        on_gold = run_pytest(
            session, gen.file, gen.source, "/usr/bin/tac", "tac", 10, len(gen.names)
        )
        on_rev = run_pytest(
            session, gen.file, gen.source, "/usr/bin/rev", "tac", 10, len(gen.names)
        )
    assert set(on_gold) == set(gen.names)
    assert {o for o, _ in on_gold.values()} == {"passed"}
    kept = [n for n in gen.names if f"{gen.file}::{n}" not in gen.ignore]
    failed = [n for n in kept if on_rev[n][0] == "failed"]
    assert len(failed) >= 0.7 * len(kept)  # rev fails most; a few usage errors are the same
    assert all(on_rev[n][0] == "failed" for n in kept if "_stdin_" in n)


@needs
def test_verify_marks_dummy_passes_and_gold_failures() -> None:
    cases = [
        ("test_stdin_001", Case("stdin", (), b"ab\n"), Expected(b"ba\n", b"", 0)),
        ("test_stdin_002", Case("stdin", (), b""), Expected(b"", b"", 0)),  # silent dummy
        ("test_stdin_003", Case("stdin", (), b"a\n"), Expected(b"a\n", b"", 0)),  # cat dummy
        ("test_stdin_004", Case("stdin", (), b"ab\n"), Expected(b"wrong\n", b"", 0)),
    ]
    source = render_module("t", cases)
    help_text = read_help("/usr/bin/rev", "rev")
    names = [n for n, _, _ in cases]
    ignore, _, passes = verify("rev", "/usr/bin/rev", "test_rev.py", source, names, help_text,
                               FAST)  # fmt: skip
    assert ignore == {
        "test_stdin_002": "dummy-pass",
        "test_stdin_003": "dummy-pass",
        "test_stdin_004": "gold-fail",
    }
    assert "silent" in passes["test_stdin_002"] and "cat" in passes["test_stdin_003"]
    assert passes["test_stdin_001"] == []


# --- coverage-guided selection with a tiny instrumented program ---------------------------------

TINY_C = r"""
#include <stdio.h>
#include <string.h>
#define HELP "Usage: tiny [OPTION]...\n  -u, --upper   upper case\n  -c, --count   count bytes"
int main(int argc, char **argv) {
    int upper = 0, count = 0, c;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-u") == 0 || strcmp(argv[i], "--upper") == 0)
            upper = 1;
        else if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "--count") == 0)
            count = 1;
        else if (strcmp(argv[i], "--help") == 0) { puts(HELP); return 0; }
        else { fprintf(stderr, "tiny: bad option %s\n", argv[i]); return 2; }
    }
    long n = 0;
    while ((c = getchar()) != EOF) {
        n++;
        if (upper && c >= 'a' && c <= 'z')
            c -= 32;
        if (!count)
            putchar(c);
    }
    if (count)
        printf("%ld\n", n);
    return 0;
}
"""


def _gcov_probe(work: Path) -> CoverageProbe:
    def reset() -> None:
        for gcda in work.glob("*.gcda"):
            gcda.unlink()

    def lines() -> tuple[frozenset[tuple[str, int]], frozenset[tuple[str, int]]]:
        done = subprocess.run(["gcov", "-t", "tiny.c"], cwd=work, capture_output=True,
                              text=True, check=False)  # fmt: skip
        covered, executable = set(), set()
        for line in done.stdout.splitlines():
            parts = line.split(":", 2)
            if len(parts) < 3 or parts[0].strip() in ("-", ""):
                continue
            executable.add(("tiny.c", int(parts[1])))
            if not parts[0].strip().startswith("#") and not parts[0].strip().startswith("="):
                covered.add(("tiny.c", int(parts[1])))
        return frozenset(covered), frozenset(executable)

    def measure() -> tuple[frozenset[tuple[str, int]], int]:
        covered, executable = lines()
        return covered, len(executable)

    return CoverageProbe(binary=work / "tiny", reset=reset, measure=measure, tree=work,
                         executable=lambda: lines()[1])  # fmt: skip


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    if shutil.which("gcc") is None or shutil.which("gcov") is None:
        pytest.skip("needs gcc and gcov")
    (tmp_path / "tiny.c").write_text(TINY_C)
    subprocess.run(["gcc", "--coverage", "-O0", "-o", "tiny", "tiny.c"], cwd=tmp_path,
                   check=True)  # fmt: skip
    return tmp_path


def test_coverage_guided_selection_on_an_instrumented_program(tiny: Path) -> None:
    probe = _gcov_probe(tiny)
    settings = Settings(max_tests=40, min_tests=0, reruns=2, verify_runs=2)
    gen = generate("tiny", str(tiny / "tiny"), settings=settings, probe=probe)
    g = gen.generation
    assert g.coverage_lines is not None and g.coverage is not None
    covered, total = g.coverage_lines
    assert 0 < covered <= total and g.coverage == round(covered / total, 4)
    assert g.coverage > 0.8  # -u, -c, --help and a bad option are all reached
    # coverage stops growth well before the limit: only tests adding lines (and baselines)
    assert len(gen.names) < 40
    assert '"--upper"' in gen.source or '"-u"' in gen.source
    assert '"--count"' in gen.source or '"-c"' in gen.source
    assert g.dummy_pass_after == 0.0
    # the lines the kept tests miss are listed, by function (tiny has only main)
    gaps = g.coverage_gaps
    assert gaps is not None and gaps.missed == total - covered
    assert gaps.missed == gaps.unrun_functions + gaps.error_handling + gaps.other
    assert all(f.function == "main" and f.ran for f in gaps.functions)
    assert sum(f.missed for f in gaps.functions) == gaps.missed
    again = generate("tiny", str(tiny / "tiny"), settings=settings, probe=probe)
    assert again.source == gen.source
    # a floor of tests: filled up with behaviours not seen yet
    floor = Settings(max_tests=40, min_tests=len(gen.names) + 5, reruns=2, verify_runs=2)
    more = generate("tiny", str(tiny / "tiny"), settings=floor, probe=probe)
    assert len(more.names) == len(gen.names) + 5


# --- the task -----------------------------------------------------------------------------------


def _backend(tiny: Path, *, recipe: bool = True, fetch: bool = True) -> SimpleNamespace:
    gold = SimpleNamespace(program="tiny", path=str(tiny / "tiny"), binary_package="tiny-bin",
                           source_package="tiny-src", version="1.0-1", sha256="a" * 64)  # fmt: skip
    probe = _gcov_probe(tiny)

    def recipe_for(_: object) -> SimpleNamespace:
        if not recipe:
            raise InputError("no recipe for tiny")
        return recipes.Recipe(source_package="tiny", program="tiny", configure=[],
                              build=["make"], output="tiny", program_sources=["tiny.c"],
                              objects=["tiny"])  # fmt: skip

    def fetch_source(_: object) -> Path:
        if not fetch:
            from truepass.families.rebuild.sources import BuildError

            raise BuildError("apt-get source failed")
        return tiny

    return SimpleNamespace(
        resolve_gold=lambda _: gold, recipe_for=recipe_for, fetch_source=fetch_source,
        lines_of_code=lambda tree, own: sum(len((tree / s).read_text().splitlines())
                                            for s in own),
        dependencies=lambda _: 0,
        instrumented_build=lambda _: SimpleNamespace(binary=probe.binary),
        measuring=lambda _: contextlib.nullcontext(),
        reset_counters=lambda _: probe.reset(),
        measure=lambda _: (lambda lines, total: SimpleNamespace(lines=lines, total=total))(
            *probe.measure()),
    )  # fmt: skip


def test_build_writes_a_valid_task_and_replaces_its_line(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "suite"
    out.mkdir()
    (out / "suite.jsonl").write_text('{"id": "other", "family": "rebuild"}\n')
    settings = Settings(max_tests=15, reruns=2, verify_runs=2)
    built = build_rebuild("tiny", out, settings=settings, backend=_backend(tiny))  # type: ignore[arg-type]
    lines = (out / "suite.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["id"] == "other" and len(lines) == 2
    sample = RebuildSample.model_validate_json(lines[1])
    assert sample == built.sample
    assert sample.loc == len(TINY_C.strip().splitlines()) + 1
    assert sample.package.source == "tiny-src" and sample.gold_sha256 == "a" * 64
    assert sample.generation.coverage is not None
    assert list(sample.tests) == ["test_tiny.py"]
    assert all(k.startswith("test_tiny.py::test_") for k in sample.ignore)
    assert (out / "suite.toml").read_text().startswith('name = "suite"')
    built2 = build_rebuild("tiny", out, settings=settings, backend=_backend(tiny))  # type: ignore[arg-type]
    rows = (out / "suite.jsonl").read_text().splitlines()
    assert len(rows) == 2 and json.loads(rows[1])["id"] == "tiny"
    assert built2.sample.tests == sample.tests and built2.sample.ignore == sample.ignore


def test_build_needs_loc_without_sources(tiny: Path, tmp_path: Path) -> None:
    settings = Settings(max_tests=5, reruns=1, verify_runs=1)
    with pytest.raises(InputError, match="--loc"):
        build_rebuild("tiny", tmp_path, settings=settings,
                      backend=_backend(tiny, fetch=False))  # type: ignore[arg-type]  # fmt: skip
    with pytest.raises(InputError, match="--loc"):
        build_rebuild("tiny", tmp_path, settings=settings,
                      backend=_backend(tiny, recipe=False))  # type: ignore[arg-type]  # fmt: skip
    built = build_rebuild("tiny", tmp_path, settings=settings, loc=123,
                          backend=_backend(tiny, fetch=False))  # type: ignore[arg-type]  # fmt: skip
    assert built.sample.loc == 123 and built.sample.generation.coverage is None
    assert built.sample.original is None and built.notes
    with pytest.raises(InputError, match="source package 'tiny-src'"):
        build_rebuild("tiny", tmp_path, source_package="other", settings=settings,
                      backend=_backend(tiny))  # type: ignore[arg-type]  # fmt: skip


def test_write_suite_keeps_other_lines(tmp_path: Path) -> None:
    sample = RebuildSample(
        family="rebuild", id="x", program="x", gold="/usr/bin/x", gold_sha256="b" * 64,
        package={"binary": "x", "source": "x", "version": "1"}, loc=10,
        tests={"test_x.py": "def test_a(program):\n    pass\n"},
    )  # type: ignore[arg-type]  # fmt: skip
    (tmp_path / "suite.toml").write_text('name = "mine"\n')
    write_suite(tmp_path, sample)
    write_suite(tmp_path, sample.model_copy(update={"id": "y"}))
    write_suite(tmp_path, sample.model_copy(update={"loc": 11}))
    rows = [json.loads(x) for x in (tmp_path / "suite.jsonl").read_text().splitlines()]
    assert [(r["id"], r["loc"]) for r in rows] == [("x", 11), ("y", 10)]
    assert (tmp_path / "suite.toml").read_text() == 'name = "mine"\n'


def _write_many(out: str, prefix: str) -> None:
    sample = RebuildSample(
        family="rebuild", id="x", program="x", gold="/usr/bin/x", gold_sha256="b" * 64,
        package={"binary": "x", "source": "x", "version": "1"}, loc=10,
        tests={"test_x.py": "def test_a(program):\n    pass\n"},
    )  # type: ignore[arg-type]  # fmt: skip
    for i in range(15):
        write_suite(Path(out), sample.model_copy(update={"id": f"{prefix}{i}"}))


def test_processes_writing_one_suite_side_by_side_lose_no_line(tmp_path: Path) -> None:
    with ProcessPoolExecutor(4) as pool:
        list(pool.map(_write_many, [str(tmp_path)] * 4, "abcd"))
    ids = [json.loads(x)["id"] for x in (tmp_path / "suite.jsonl").read_text().splitlines()]
    assert sorted(ids) == sorted(f"{p}{i}" for p in "abcd" for i in range(15))


def test_side_by_side_deals_every_item_once_to_sandboxes_each_prepared_once() -> None:
    seen: list[tuple[int, int]] = []
    prepared: list[int] = []

    def prepare(session: SandboxSession) -> int:
        prepared.append(id(session))
        return id(session)

    def work(session: SandboxSession, ready: int, item: int) -> None:
        assert ready == id(session)  # the session's own preparation
        assert session.run("true").exit_code == 0  # a real sandbox
        seen.append((item, ready))

    side_by_side(harness_binds(), 2, list(range(5)), work, prepare)
    assert sorted(item for item, _ in seen) == [0, 1, 2, 3, 4]
    assert len(prepared) == 2 and len(set(prepared)) == 2  # two sandboxes, each prepared once
    by_session = {ready: sorted(i for i, r in seen if r == ready) for ready in prepared}
    assert sorted(by_session.values()) == [[0, 2, 4], [1, 3]]

    def failing(session: SandboxSession, ready: None, item: int) -> None:
        if item == 3:
            raise ValueError("item 3")

    with pytest.raises(ValueError, match="item 3"):
        side_by_side(harness_binds(), 2, [1, 2, 3], failing)


@pytest.mark.parametrize(
    ("stdout", "given", "problem"),
    [
        (b"Total in 0 ms\n", b"", "gold-flaky"),  # hugo: how long the build took
        (b"done, took 0.01s\n", b"", "gold-flaky"),
        (b"real 0.00 seconds\n", b"", "gold-flaky"),
        (b"15 \xc2\xb5s per call\n", b"", "gold-flaky"),
        (b"at 12:34:56\n", b"", "gold-flaky"),  # the time of day
        (b"wait 5 ms\n", b"wait 5 ms\n", None),  # echoed from its input: not the run's
        (b"12 lines, 5 MB, 3 files in 2 dirs\n", b"", None),
        (b"items 10\n", b"", None),
    ],
)
def test_outputs_that_carry_the_time_or_a_duration_make_no_test(
    stdout: bytes, given: bytes, problem: str | None
) -> None:
    case = Case("stdin", stdin=given)
    assert natural_problem(case, Expected(stdout, b"", 0, {})) == problem
