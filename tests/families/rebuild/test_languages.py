"""Golds in Go, Rust and C++ (families/rebuild/recipes.py): how each is built offline from its
Debian source package, and one Go and one C++ task made and judged end to end (slow)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from truepass.answers import Answer
from truepass.cli import app
from truepass.families.rebuild import recipes
from truepass.families.rebuild.family import RebuildFamily
from truepass.families.rebuild.recipes import Coverage
from truepass.families.rebuild.schema import RebuildSample
from truepass.families.rebuild.sources import compile_script, configure_argv, resolve_gold
from truepass.judged import JudgeConfig
from truepass.vocabulary import Verdict

runner = CliRunner()


def test_each_language_has_its_toolchain_and_coverage() -> None:
    go = recipes.recipe("gron", "gron")
    assert (go.language, go.coverage) == ("go", Coverage.NONE) and "Go 1.19" in go.coverage_note
    # the package's own build: the version it prints and Debian's patches are the gold's
    assert "debian/rules build-arch" in go.build[-1] and "GOPROXY=off" in go.build[-1]
    assert go.output == "gron.bin" and go.build_timeout_s > 600
    assert 'cp "$d/bin/gron" gron.bin' in go.build[-1]  # from _build or obj-<host type>
    shfmt = recipes.recipe("golang-mvdan-sh", "shfmt")
    assert shfmt.program_sources == ["cmd/shfmt", "syntax", "fileutil"]  # what it imports
    rust = recipes.recipe("rust-ripgrep", "rg")
    assert (rust.language, rust.coverage, rust.output) == ("rust", Coverage.LLVM,
                                                         "target/release/rg")  # fmt: skip
    assert "--offline" in rust.build[-1] and rust.build_timeout_s > 600
    assert "/usr/share/cargo/registry" in rust.prebuild[0][-1]
    cxx = recipes.recipe("lzip", "lzip.lzip")
    assert (cxx.language, cxx.coverage) == ("c++", Coverage.GCOV)
    assert "main.cc" in cxx.program_sources and "main" in cxx.objects
    # a C++ build takes the compiler flags as CXXFLAGS; a C build as CFLAGS
    assert "CXXFLAGS=-O0 --coverage" in configure_argv(cxx, {"CFLAGS": "-O0 --coverage"})
    c = recipes.recipe("clzip", "lzip.clzip")
    assert "CFLAGS=-O0 --coverage" in configure_argv(c, {"CFLAGS": "-O0 --coverage"})


@pytest.mark.parametrize(
    ("rules", "features"),
    [
        # rust-ripgrep's debian/rules: rg has PCRE2 (rg -P) because dh-cargo passes this
        (
            "override_dh_auto_install:\n"
            "\tdh_auto_install -O--buildsystem=cargo -- --features=pcre2\n",
            "pcre2",
        ),
        ("x:\n\tdh_auto_build -- --features a,b\ny:\n\tdh_auto_install -- --features=c\n", "a,b,c"),
        ("%:\n\tdh $@ --buildsystem cargo\n", ""),  # rust-fd-find: the default features
    ],
)
def test_the_rust_oracle_builds_with_the_features_debian_rules_names(
    tmp_path: Path, rules: str, features: str
) -> None:
    (tmp_path / "debian").mkdir()
    (tmp_path / "debian" / "rules").write_text(rules)
    build = recipes.recipe("rust-ripgrep", "rg").build[-1]
    assert build.startswith(f"features=$({recipes.DEBIAN_CARGO_FEATURES}); ")
    assert build.endswith(' ${features:+--features "$features"}')
    found = subprocess.run(["sh", "-c", recipes.DEBIAN_CARGO_FEATURES], cwd=tmp_path,
                           capture_output=True, text=True, check=True)  # fmt: skip
    assert found.stdout.strip() == features


def _installed(*programs: str) -> None:
    for program in programs:
        if shutil.which(program) is None:
            pytest.skip(f"{program} is not installed (make rebuild-deps)")


def test_the_go_oracle_script_is_posix_sh() -> None:
    _installed("gron", "dpkg-query")
    script = compile_script(resolve_gold("gron"))
    assert "cp gron.bin ./gron\n" in script
    checked = subprocess.run(["sh", "-n"], input=script, text=True, capture_output=True)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("gold", "language", "coverage"), [("gron", "go", False), ("lzip.lzip", "c++", True)]
)
def test_a_task_is_made_and_its_oracle_built_offline_in_the_sandbox(
    tmp_path: Path, gold: str, language: str, coverage: bool
) -> None:
    _installed(gold, "go")
    args = ["build-rebuild", "--gold", gold, "--out", str(tmp_path), "--max-tests", "12"]
    done = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    sample = RebuildSample.model_validate_json((tmp_path / "suite.jsonl").read_text())
    gen = sample.generation
    assert sample.language == language and sample.original is not None
    if coverage:
        assert gen.coverage is not None and gen.coverage > 0.2 and gen.coverage_tool == "gcov"
    else:  # black-box, with twice the budget, and the task says why
        assert gen.coverage is None and "cannot build a coverage-instrumented" in gen.coverage_note
        assert gen.candidates > 12
    family, config = RebuildFamily(), JudgeConfig()
    check = family.check(sample, config)
    assert check.valid, check.reason
    oracle = family.judge(sample, family.reference_answer(sample), check, config)
    assert oracle.verdict is Verdict.CORRECT and not oracle.flags, oracle.details
    assert oracle.scores["pass_rate"] == 1.0
    noop = family.judge(sample, family.null_answer(sample), check, config)
    assert noop.scores["pass_rate"] == 0.0
    shell = family.judge(sample, Answer(files={"compile.sh": "exit 0\n"}), check, config)
    assert shell.verdict is Verdict.BROKEN


def test_the_oracle_builds_the_task_program_when_the_gold_lies_under_another_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """/usr/bin/fdfind is /usr/lib/cargo/bin/fd: the task's program name picks the recipe."""
    from truepass.families.rebuild import sources
    from truepass.families.rebuild.sources import Gold

    real = Gold(program="fd", path="/usr/lib/cargo/bin/fd", binary_package="fd-find",
                source_package="rust-fd-find", version="8.6.0-3", source_version="8.6.0-3",
                sha256="0", libraries=[])  # fmt: skip
    monkeypatch.setattr(sources, "resolve_gold", lambda path: real)
    monkeypatch.setattr(sources, "fetch_source", lambda gold: tmp_path)
    sample = SimpleNamespace(gold=real.path, program="fdfind")
    answer = RebuildFamily().reference_answer(sample)
    assert "--bin fd" in answer.files["compile.sh"] and "./fdfind" in answer.files["compile.sh"]
