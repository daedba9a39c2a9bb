"""The rebuild task: a gold program to rebuild from its executable and documentation, and the
behavioural tests that compare a rebuilt program with it (docs/rebuild-format.md).

The tests are plain pytest files; each test runs the program under test through one fixture,
``program`` (:mod:`truepass.families.rebuild.harness._truepass_rebuild`), and compares its
stdout, stderr, exit status and the files it wrote with what the gold did.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from truepass.families.rebuild.scoring import difficulty, difficulty_bucket
from truepass.paths import check_relative_path
from truepass.suites.fields import Leakage

PROGRAM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")
TEST_ID = re.compile(r"^[A-Za-z0-9_./-]+\.py::[A-Za-z_][A-Za-z0-9_]*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class IgnoreReason(StrEnum):
    """Why a generated or given test is not run (``ignore`` of a task). ``lint:RULE`` reasons
    name an assertion-linter rule (docs/rebuild-lint.md) and are written as such strings."""

    DUMMY_PASS = "dummy-pass"  # a program that does nothing useful passes it
    GOLD_FAIL = "gold-fail"  # the gold itself fails it
    GOLD_FLAKY = "gold-flaky"  # the gold gives different results on reruns
    SLOW_OR_HANG = "slow-or-hang"  # the gold takes too long or never ends


def check_ignore_reason(reason: str) -> str:
    """One of :class:`IgnoreReason`, or ``lint:RULE``."""
    if reason in {r.value for r in IgnoreReason}:
        return reason
    if re.fullmatch(r"lint:[a-z0-9-]+", reason):
        return reason
    known = ", ".join(r.value for r in IgnoreReason)
    raise ValueError(f"unknown ignore reason {reason!r} (known: {known}, or lint:RULE-NAME)")


class Package(_Strict):
    """Where the gold comes from: its Debian binary and source package and version."""

    binary: str = Field(min_length=1)
    source: str = Field(min_length=1)
    version: str = Field(min_length=1)


class Docs(_Strict):
    """How the task's documentation is read from the machine when the task runs (never bundled:
    it is the program's own text): the gold's output for ``help_args``, and its man page."""

    help_args: list[str] = Field(default_factory=lambda: ["--help"])
    man: str | None = Field(None, description="man page name, e.g. 'rev' or 'rev.1'")


class Structure(_Strict):
    """The shape of a source tree: how the rebuilt program compares with the original's."""

    files: int = Field(ge=0, description="source files")
    depth: int = Field(ge=0, description="deepest directory level of a source file (root: 0)")
    functions: int = Field(ge=0)
    mean_function_length: float = Field(ge=0.0, description="lines of code per function")


class FunctionGap(_Strict):
    """The lines of one function of the gold that no kept test runs."""

    file: str = Field(description="source file, relative to the source tree")
    function: str = Field(description="the function's name ('(top level)': outside any)")
    line: int = Field(ge=0, description="where the function starts")
    missed: int = Field(ge=1, description="executable lines of it no kept test runs")
    ran: bool = Field(description="whether any kept test runs any line of the function")
    error_handling: int = Field(
        0, ge=0, description="of the missed lines, those in runs that report an error or fail"
    )
    filtered: int = Field(
        0, ge=0, description="of the missed lines, those a test the filters dropped runs"
    )
    first_missed: str = Field("", description="the first missed line's text (to find it)")


class CoverageGaps(_Strict):
    """Why coverage stays where it is: the gold's executable lines no kept test runs, by kind
    (:mod:`truepass.families.rebuild.gaps`), and the functions that miss the most."""

    missed: int = Field(ge=0, description="executable lines no kept test runs")
    filtered: int = Field(
        0, ge=0, description="missed lines a test the filters dropped runs (dummy-pass, lint...)"
    )
    unrun_functions: int = Field(0, ge=0, description="missed lines in functions never run")
    error_handling: int = Field(
        0, ge=0, description="missed lines that handle an error, in functions that ran"
    )
    other: int = Field(0, ge=0, description="the other missed lines")
    functions: list[FunctionGap] = Field(
        default_factory=list, description="the functions with the most missed lines, first"
    )


class Generation(_Strict):
    """How the tests were made (``truepass build-rebuild``): counts a reader checks."""

    candidates: int = Field(0, ge=0, description="tests tried")
    kept: int = Field(0, ge=0, description="tests kept (not ignored)")
    coverage: float | None = Field(None, ge=0.0, le=1.0, description="line coverage reached")
    coverage_lines: tuple[int, int] | None = Field(None, description="covered, total lines")
    coverage_tool: str | None = Field(
        None, description="how coverage was measured: gcov, llvm-cov or go-cover (None: not)"
    )
    coverage_note: str = Field(
        "", description="why coverage was not measured, when it was not (e.g. the toolchain)"
    )
    coverage_gaps: CoverageGaps | None = Field(
        None, description="the lines coverage misses, by kind and by function (None: unknown)"
    )
    dummy_pass_before: float | None = Field(
        None, ge=0.0, le=1.0, description="share of tests some dummy passes, before filtering"
    )
    dummy_pass_after: float | None = Field(None, ge=0.0, le=1.0)
    lint_findings: dict[str, int] = Field(default_factory=dict, description="rule -> count")
    seconds: float = Field(0.0, ge=0.0)


class RebuildSample(_Strict):
    """One rebuild task (one JSONL line with ``"family": "rebuild"``)."""

    family: Literal["rebuild"]
    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
    program: str = Field(description="the executable's name; the submission builds ./PROGRAM")
    gold: str = Field(description="absolute path of the installed gold program")
    gold_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    package: Package
    language: str = Field(
        "c", min_length=1, description="the gold's source language (c, c++, rust, go)"
    )
    required_language: str | None = Field(
        None,
        description="the language a submission must be written in (forced-language mode, "
        "``--transform language-NAME``); None: any",
    )
    loc: int = Field(ge=1, description="lines of code of the program's own sources")
    dependencies: int = Field(
        0,
        ge=0,
        description="runtime dependencies: shared libraries beyond the C library, and "
        "the libraries linked in statically (Rust crates, Go modules: Debian's Built-Using)",
    )
    docs: Docs = Field(default_factory=Docs)
    tests: dict[str, str] = Field(description="test file (relative path) -> pytest source")
    ignore: dict[str, str] = Field(
        default_factory=dict, description="test id (FILE::NAME) -> why it does not run"
    )
    original: Structure | None = None
    generation: Generation = Field(default_factory=Generation)
    test_timeout_s: float = Field(10.0, gt=0, description="per run of the program in a test")
    build_timeout_s: float = Field(600.0, gt=0, description="compile.sh's time limit")
    source: str = Field("truepass build-rebuild", min_length=1)
    leakage: Leakage = "public-old"

    @field_validator("program")
    @classmethod
    def _program(cls, v: str) -> str:
        if not PROGRAM_NAME.fullmatch(v):
            raise ValueError(f"'{v}' is not a program name (letters, digits, . _ + -)")
        return v

    @field_validator("gold")
    @classmethod
    def _gold(cls, v: str) -> str:
        if not v.startswith("/"):
            raise ValueError(f"'{v}' must be an absolute path, e.g. /usr/bin/rev")
        return v

    @field_validator("tests")
    @classmethod
    def _tests(cls, v: dict[str, str]) -> dict[str, str]:
        if not v:
            raise ValueError("at least one test file is required")
        for path in v:
            check_relative_path(path)
            name = path.rsplit("/", 1)[-1]
            if not (name.startswith("test_") and name.endswith(".py")):
                raise ValueError(f"'{path}': test files are named test_*.py")
        return v

    @field_validator("ignore")
    @classmethod
    def _ignore(cls, v: dict[str, str]) -> dict[str, str]:
        for test_id, reason in v.items():
            if not TEST_ID.fullmatch(test_id):
                raise ValueError(f"'{test_id}' is not a test id FILE.py::test_name")
            check_ignore_reason(reason)
        return v

    @model_validator(mode="after")
    def _ignored_files_exist(self) -> RebuildSample:
        for test_id in self.ignore:
            if test_id.split("::", 1)[0] not in self.tests:
                raise ValueError(f"ignore names '{test_id}', whose file is not in tests")
        return self

    @property
    def difficulty(self) -> float:
        """clamp(log10(lines of code) + log10(1 + dependencies) - 2, 0, 10)."""
        return difficulty(self.loc, self.dependencies)

    @property
    def bucket(self) -> str:
        """``easy`` (difficulty < 2), ``medium`` (2 to 4) or ``hard`` (4 and up)."""
        return difficulty_bucket(self.difficulty)

    @property
    def defect_type(self) -> str:
        """Breakdown key of summaries: the difficulty bucket."""
        return self.bucket
