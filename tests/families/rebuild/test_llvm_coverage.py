"""Rust golds' line coverage: rustc's ``-C instrument-coverage`` read with the llvm-profdata and
llvm-cov of rustc's own LLVM (sources.py). A tiny program compiled here stands for a gold."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from truepass.families.rebuild import recipes
from truepass.families.rebuild.sources import (
    RUSTC,
    BuildError,
    Gold,
    InstrumentedGold,
    llvm_tools,
    measure,
    parse_lcov,
    reset_counters,
    rust_coverage_flags,
)

MAIN_RS = """\
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() > 1 {
        println!("some");
    } else {
        println!("none");
    }
}
"""
SOME, NONE = 4, 6  # the lines of the two branches


def test_parse_lcov_reads_line_records_per_file() -> None:
    text = (
        "SF:/t/src/main.rs\nFN:1,main\nDA:1,3\nDA:2,0\nDA:2,1\nLF:2\nLH:2\nend_of_record\n"
        "SF:/t/src/lib.rs\nDA:7,0\nend_of_record\nDA:9,1\n"
    )
    assert parse_lcov(text) == {
        "/t/src/main.rs": {1: True, 2: True},  # a line is run when any record of it ran
        "/t/src/lib.rs": {7: False},  # a line record outside a file is ignored
    }


def test_cargo_recipes_measure_with_llvm() -> None:
    gold = Gold(program="fdfind", path="/usr/bin/fdfind", binary_package="fd-find",
                source_package="rust-fd-find", version="1", source_version="1", sha256="0",
                libraries=[])  # fmt: skip
    recipe = recipes.recipe(gold.source_package, gold.program)
    assert recipe.coverage is recipes.Coverage.LLVM and recipe.language == "rust"


def test_a_missing_rustc_is_a_build_error_saying_so(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="not found"):
        llvm_tools(str(tmp_path / "rustc"))


@pytest.fixture
def instrumented(tmp_path: Path) -> InstrumentedGold:
    try:
        llvm_tools()
        flags = rust_coverage_flags()
    except BuildError as exc:  # `make rebuild-deps` installs rustc and llvm
        pytest.skip(str(exc))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text(MAIN_RS)
    subprocess.run([RUSTC, *flags.split(), "-o", "prog", "src/main.rs"], cwd=tmp_path, check=True,
                   env={**os.environ, "RUSTC_BOOTSTRAP": "1"})  # fmt: skip
    gold = Gold(program="prog", path=str(tmp_path / "prog"), binary_package="-",
                source_package="-", version="1", source_version="1", sha256="0",
                libraries=[])  # fmt: skip
    inst = InstrumentedGold(gold=gold, tree=tmp_path, binary=tmp_path / "prog",
                            sources=[tmp_path / "src"], objects=[],
                            coverage=recipes.Coverage.LLVM)  # fmt: skip
    reset_counters(inst)
    return inst


def _run(inst: InstrumentedGold, *args: str) -> str:
    env = {"PATH": os.environ["PATH"], **inst.env}
    done = subprocess.run([str(inst.binary), *args], env=env, capture_output=True, text=True,
                          check=True, cwd=inst.tree)  # fmt: skip
    return done.stdout


def test_llvm_coverage_counts_the_runs_since_the_reset(instrumented: InstrumentedGold) -> None:
    inst = instrumented
    assert inst.tool == "llvm-cov" and "LLVM_PROFILE_FILE" in inst.env
    assert _run(inst) == "none\n"
    first = measure(inst)
    assert ("src/main.rs", NONE) in first.lines and ("src/main.rs", SOME) not in first.lines
    assert first.total >= 6 and set(first.per_file) == {"src/main.rs"}

    reset_counters(inst)
    assert _run(inst, "x") == "some\n"
    second = measure(inst)
    assert ("src/main.rs", SOME) in second.lines and ("src/main.rs", NONE) not in second.lines
    assert second.total == first.total

    _run(inst)  # no reset: both runs count
    both = measure(inst)
    assert {("src/main.rs", SOME), ("src/main.rs", NONE)} <= both.lines


def test_no_profile_means_no_line_ran(instrumented: InstrumentedGold) -> None:
    cov = measure(instrumented)  # nothing ran since the reset
    assert cov.lines == set() and cov.covered == 0
