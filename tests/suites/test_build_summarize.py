"""``truepass build-suite summarize``: functions and docstrings from a source tree, a git
repository (with timestamps) or an installed distribution (docs/summarize-format.md)."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from truepass.cli import app
from truepass.errors import InputError
from truepass.families import registry
from truepass.families.summarize.builder import (
    FILTERS,
    build_from_package,
    build_from_path,
    extract_functions,
    is_test_path,
    summary_of,
)
from truepass.families.summarize.schema import SummarizeSample

runner = CliRunner()
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

LONG = " ".join(["word"] * 600)
CORE = f'''\
"""A module."""
import functools


def add(a, b):
    """Add two numbers.

    The longer description
    is not part of the summary.
    """
    return a + b


def test_helper():
    """Looks like a test."""
    return 1


def latest_value():
    """Contains 'test' too: the study's filter drops it."""
    return 2


def no_doc(x):
    return x


def long_doc():
    """{LONG}"""
    return None


class Outer:
    """A class."""

    def __init__(self):
        """Dunder."""
        self.x = 1

    @functools.cache
    def method(self, y):
        """Return y plus x,
        over two lines."""

        return y + self.x

    class Inner:
        def deep(self):
            """Go deep.
            :param: nothing
            """
            # a comment
            text = """
a string that starts at column 0
"""
            return text

    def stub(self):
        """Only a docstring."""


def outer_fn():
    """Has a nested function."""

    def nested():
        """Not a sample: part of outer_fn's code."""

    return nested


if True:
    def one_line(): "One line."; return 1
'''

HELPER = '''\
def helper():
    """In a test file."""
    return 1
'''


def write_tree(root: Path) -> Path:
    """A small project: a module with every case, a test file, a hidden and an unparsable one."""
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(CORE)
    (root / "tests").mkdir()
    (root / "tests" / "test_core.py").write_text(HELPER)
    (root / "pkg" / "conftest.py").write_text(HELPER)
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.py").write_text(HELPER.replace("In a test file", "Hidden"))
    (root / "py2.py").write_text('def old():\n    """Python 2."""\n    print "x"\n')
    return root


def test_a_source_tree_gives_exactly_the_expected_samples(tmp_path: Path) -> None:
    samples, report = build_from_path(write_tree(tmp_path / "proj"))
    got = {s.id: s for s in samples}
    assert list(got) == [
        "proj/pkg/core.py::add",
        "proj/pkg/core.py::Outer.method",
        "proj/pkg/core.py::Outer.Inner.deep",
        "proj/pkg/core.py::outer_fn",
        "proj/pkg/core.py::one_line",
    ]
    assert report.origin == "directory" and report.project == "proj"
    assert report.files == 4 and report.unparsable == ["py2.py"]  # .hidden/ is not read
    assert report.found == 13 and report.kept == 5
    assert report.dropped == {
        "test-file": 2, "test-name": 2, "dunder": 1, "no-docstring": 1, "long-docstring": 1,
        "no-summary": 0, "docstring-only": 1, "limit": 0,
    }  # fmt: skip
    assert report.found == report.kept + sum(report.dropped.values())

    add = got["proj/pkg/core.py::add"]
    assert add.code == "def add(a, b):\n    return a + b\n"
    assert add.docstring == "Add two numbers."
    assert add.meta["docstring"] == (
        "Add two numbers.\n\nThe longer description\nis not part of the summary."
    )
    assert add.meta["lines"] == [5, 11] and add.meta["docstring_words"] == 12
    assert (add.project, add.path, add.class_name, add.function) == ("proj", "pkg/core.py",
                                                                     None, "add")  # fmt: skip
    assert (add.timestamp, add.leakage, add.category, add.source) == (
        None, "private", "summarize", "directory:proj",
    )  # fmt: skip

    method = got["proj/pkg/core.py::Outer.method"]
    assert method.class_name == "Outer" and method.function == "method"
    assert method.code == "@functools.cache\ndef method(self, y):\n    return y + self.x\n"
    assert method.docstring == "Return y plus x, over two lines."

    deep = got["proj/pkg/core.py::Outer.Inner.deep"]
    assert deep.class_name == "Outer.Inner" and deep.docstring == "Go deep."
    assert deep.code == (
        'def deep(self):\n    # a comment\n    text = """\na string that starts at column 0\n'
        '"""\n    return text\n'
    )
    outer = got["proj/pkg/core.py::outer_fn"]
    assert "def nested():" in outer.code and "Not a sample" in outer.code
    assert outer.code.startswith("def outer_fn():\n    def nested():")
    assert got["proj/pkg/core.py::one_line"].code == "def one_line(): return 1\n"
    for s in samples:
        ast.parse(s.code)
        assert SummarizeSample.model_validate_json(s.model_dump_json()) == s


def test_the_limit_project_and_leakage_options(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "proj")
    samples, report = build_from_path(root, project="my-proj", limit=2, leakage="public-recent")
    assert [s.id for s in samples] == ["my-proj/pkg/core.py::add",
                                       "my-proj/pkg/core.py::Outer.method"]  # fmt: skip
    assert report.dropped["limit"] == 3 and report.kept == 2
    assert {s.project for s in samples} == {"my-proj"}
    assert {s.leakage for s in samples} == {"public-recent"}
    with pytest.raises(InputError, match="unknown leakage tier"):
        build_from_path(root, leakage="secret")


def test_redefinitions_get_distinct_ids_in_source_order(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "m.py").write_text(textwrap.dedent('''\
        class C:
            @property
            def size(self):
                """The size."""
                return self._size

            @size.setter
            def size(self, value):
                """Set the size."""
                self._size = value

        try:
            import fast
        except ImportError:
            def run():
                """Run slowly."""
                return 0
        else:
            def run():
                """Run fast."""
                return fast.run()
        '''))  # fmt: skip
    samples, _ = build_from_path(tmp_path / "p")
    assert [(s.id, s.docstring) for s in samples] == [
        ("p/m.py::C.size", "The size."), ("p/m.py::C.size@2", "Set the size."),
        ("p/m.py::run", "Run slowly."), ("p/m.py::run@2", "Run fast."),
    ]  # fmt: skip
    again, _ = build_from_path(tmp_path / "p")
    assert again == samples  # deterministic


def test_summary_is_the_first_paragraph() -> None:
    assert summary_of("Do it.\n\nMore.") == "Do it."
    assert summary_of("Do it\nover lines.\nStill.\n\nMore.") == "Do it over lines. Still."
    assert summary_of("Do it.\n:param x: a thing") == "Do it."
    assert summary_of("Do it.\nArgs:\n    x: a thing") == "Do it."
    assert summary_of("Do it.\n>>> f()\n1") == "Do it."
    assert summary_of(":returns: nothing") == ""
    assert summary_of("Do it; raise\n:class:`Error` if not.\n:raises Error: when") == (
        "Do it; raise :class:`Error` if not."
    )
    assert summary_of("统计字符。\n\n更多。") == "统计字符。"


def test_test_paths() -> None:
    for path in ("tests/a.py", "pkg/test/a.py", "pkg/testing/a.py", "unit_tests/a.py",
                 "test_a.py", "pkg/a_test.py", "conftest.py", "pkg/tests.py"):  # fmt: skip
        assert is_test_path(path), path
    for path in ("pkg/a.py", "contest/a.py", "pkg/latest.py", "attestation/x.py"):
        assert not is_test_path(path), path


def test_extract_handles_crlf_and_non_ascii() -> None:
    text = 'def f(ä="é"):\r\n    """Tüdelü."""\r\n    return ä\r\n'
    (f,) = extract_functions(text, "m.py")
    assert f.drop is None and f.code == 'def f(ä="é"):\n    return ä\n' and f.summary == "Tüdelü."


# --------------------------------------------------------------------------------------- git


def git(repo: Path, *args: str, date: str | None = None) -> str:
    env = {
        **os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.org",
        "GIT_COMMITTER_NAME": "C", "GIT_COMMITTER_EMAIL": "c@example.org",
    }  # fmt: skip
    if date:
        env |= {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True,
                          capture_output=True, text=True).stdout  # fmt: skip


V1 = '''\
def first():
    """The first function."""
    return 1


def second():
    """The second function."""
    return 2
'''
V2 = (
    V1.replace("return 2", "return 22")
    + '''

def third():
    """The third function."""
    return 3
'''
)
OLD, NEW = "2020-01-01T10:00:00+00:00", "2021-06-15T12:30:00+02:00"


@needs_git
def test_a_git_repository_dates_each_function_by_its_last_commit(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "src" / "mod.py").write_text(V1)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one", date=OLD)
    (repo / "src" / "mod.py").write_text(V2)
    git(repo, "commit", "-q", "-a", "-m", "two", date=NEW)
    head = git(repo, "rev-parse", "HEAD").strip()
    # neither uncommitted edits nor untracked files are read
    (repo / "src" / "mod.py").write_text(V2.replace("The first function.", "Edited."))
    (repo / "src" / "untracked.py").write_text(V1)

    samples, report = build_from_path(repo)
    assert report.origin == "git" and report.commit == head and report.project == "repo"
    got = {s.function: s for s in samples}
    assert [s.id for s in samples] == [f"repo/src/mod.py::{n}" for n in ("first", "second",
                                                                         "third")]  # fmt: skip
    assert got["first"].docstring == "The first function."
    assert {n: s.timestamp for n, s in got.items()} == {"first": OLD, "second": NEW, "third": NEW}
    assert got["second"].meta["commit"] == head and got["first"].source == f"git:repo@{head[:12]}"
    for s in samples:  # as `git log -L` says
        start, end = s.meta["lines"]
        log = git(repo, "log", f"-L{start},{end}:{s.path}", "--format=%aI", "-1", head)
        assert log.splitlines()[0] == s.timestamp

    sub, _ = build_from_path(repo / "src")  # a directory inside the work tree: git too
    assert [(s.id, s.path, s.timestamp) for s in sub][:2] == [
        ("src/mod.py::first", "mod.py", OLD), ("src/mod.py::second", "mod.py", NEW),
    ]  # fmt: skip


@needs_git
def test_a_git_work_tree_without_commits_is_read_as_a_directory(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "mod.py").write_text(V1)
    samples, report = build_from_path(tmp_path)
    assert report.origin == "directory" and len(samples) == 2
    assert all(s.timestamp is None for s in samples)


# ------------------------------------------------------------------------------------ package


def test_an_installed_distribution(tmp_path: Path) -> None:
    samples, report = build_from_package("rich")  # a dependency of truepass
    assert report.origin == "package" and report.project == "rich" and report.version
    assert 100 <= report.kept <= 5000 and report.files >= 20
    assert report.found == report.kept + sum(report.dropped.values())
    assert report.dropped["dunder"] > 0 and report.dropped["no-docstring"] > 0
    assert len({s.id for s in samples}) == len(samples)
    assert [s.path for s in samples] == sorted(s.path for s in samples)
    for s in samples:
        assert s.id.startswith("rich/rich/") and s.path.startswith("rich/")
        assert s.timestamp is None and s.source == f"package:rich=={report.version}"
        assert s.leakage == "public-old"
        assert "test" not in s.function and "Test" not in s.function
        assert not (s.function.startswith("__") and s.function.endswith("__"))
        assert s.docstring and len(str(s.meta["docstring"]).split()) <= 500
        body = ast.parse(s.code).body[0]
        assert isinstance(body, ast.FunctionDef | ast.AsyncFunctionDef)
        assert body.name == s.function and ast.get_docstring(body) is None


def test_the_distribution_name_is_matched_as_pip_does() -> None:
    _, report = build_from_package("Typer", limit=1)
    assert report.project == "typer" and report.kept == 1


# ---------------------------------------------------------------------------------------- CLI


def test_the_command_writes_a_suite_directory(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    got = runner.invoke(app, ["build-suite", "summarize", "--from-package", "rich", "--limit",
                              "20", "--out", str(out)])  # fmt: skip
    assert got.exit_code == 0, got.output
    assert "rich: installed distribution rich " in got.output
    for row in ("found", *(f"dropped: {why}" for why in FILTERS), "kept"):
        assert row in got.output
    assert "20 samples written to" in got.output
    lines = (out / "suite.jsonl").read_text().splitlines()
    assert len(lines) == 20
    samples = [SummarizeSample.model_validate_json(line) for line in lines]
    assert all(s.family == "summarize" for s in samples)
    toml = (out / "suite.toml").read_text()
    assert 'name = "summarize-rich"' in toml
    build = json.loads((out / "build.json").read_text())
    assert build["kept"] == 20 and build["dropped"]["limit"] > 0
    if "summarize" in registry.names():  # once the family exists, the suite loads
        from truepass.suites.loader import load_suite

        suite = load_suite(out)
        assert suite.family == "summarize" and len(suite.samples) == 20


@needs_git
def test_the_command_on_a_git_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "mod.py").write_text(V1)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one", date=OLD)
    out = tmp_path / "suite"
    got = runner.invoke(app, ["build-suite", "summarize", "--from", str(repo), "--project", "x",
                              "--leakage", "public-recent", "--out", str(out)],
                       terminal_width=400)  # fmt: skip
    assert got.exit_code == 0, got.output
    assert "x: git repository at commit " in got.output and "(git blame " in got.output
    lines = [json.loads(line) for line in (out / "suite.jsonl").read_text().splitlines()]
    assert [(x["id"], x["timestamp"], x["leakage"]) for x in lines] == [
        ("x/mod.py::first", OLD, "public-recent"), ("x/mod.py::second", OLD, "public-recent"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "{tmp}/nowhere"], "no such file or directory"),
        (["--from", "{tmp}/file.py"], "not a directory"),
        (["--from-package", "no-such-distribution-xyz"], "no installed distribution named"),
        (
            ["--from", "{tmp}/only-tests"],
            "no functions kept: 1 found in 1 Python files (dropped: 1 test-name)",
        ),
        (["--from", "{tmp}/empty"], "no functions kept: 0 found in 0 Python files"),
        ([], "give exactly one of --from PATH and --from-package NAME"),
        (["--from", "{tmp}/empty", "--from-package", "rich"], "give exactly one of"),
        (["--from-package", "rich", "--leakage", "secret"], "unknown leakage tier 'secret'"),
    ],
)
def test_command_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "file.py").write_text(V1)
    (tmp_path / "only-tests").mkdir()
    (tmp_path / "only-tests" / "m.py").write_text('def test_x():\n    """T."""\n    return 1\n')
    (tmp_path / "empty").mkdir()
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    got = runner.invoke(app, ["build-suite", "summarize", *argv, "--out", str(tmp_path / "o")])
    assert got.exit_code == 2, got.output
    assert message in " ".join(got.output.split())
    assert not (tmp_path / "o").exists()
