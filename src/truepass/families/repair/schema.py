"""The repair sample: the public contract of a suite line (documented in docs/suite-format.md)."""

from __future__ import annotations

from collections import Counter
from pathlib import PurePosixPath
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from truepass.families.repair.environments.spec import EnvSpec
from truepass.paths import check_relative_path
from truepass.suites.fields import Leakage

# Files a patch must never add or change: they steer the test runner, not the code under test.
RUNNER_CONFIG_NAMES = frozenset(
    {
        "conftest.py",
        "pytest.ini",
        "tox.ini",
        "setup.cfg",
        "pyproject.toml",
        "sitecustomize.py",
        "usercustomize.py",
    }
)


# Java test classes by name (JUnit conventions; QuixBugs' ``GCD_TEST``) and build files.
JAVA_TEST_SUFFIXES = ("Test.java", "Tests.java", "TestCase.java", "_TEST.java")
JAVA_BUILD_NAMES = frozenset({"pom.xml", "build.gradle", "build.gradle.kts", "build.xml"})


def is_test_or_runner_file(path: str) -> bool:
    """True for files that belong to the test side: test modules and runner configuration
    (Python and Java conventions; a ``tests`` directory for both, ``test`` for Java's
    ``src/test/java``)."""
    name = PurePosixPath(path).name
    dirs = PurePosixPath(path).parts[:-1]
    if name.endswith(".java") or name in JAVA_BUILD_NAMES:
        return (
            name in JAVA_BUILD_NAMES
            or name.endswith(JAVA_TEST_SUFFIXES)
            or name.startswith("Test")
            or "test" in dirs
            or "tests" in dirs
        )
    return (
        name in RUNNER_CONFIG_NAMES
        or name.endswith(".pth")
        or (name.startswith("test_") and name.endswith(".py"))
        or name.endswith("_test.py")
        or "tests" in dirs
    )


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ExpectedTests(_Strict):
    """Test ids a phase must pass, when not every collected test counts (e.g. SWE-bench's
    ``FAIL_TO_PASS``): pytest node ids, matched with the reported ids in ``check_sample`` (see
    :mod:`truepass.families.repair.testids`); an id the reference fix run does not report makes
    the sample invalid. A phase without a list expects every test it collects."""

    visible: list[str] | None = None
    hidden: list[str] | None = None

    @field_validator("visible", "hidden")
    @classmethod
    def _ids(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        if not v:
            raise ValueError("must name at least one test id (omit it to expect every test)")
        if any(not t.strip() for t in v):
            raise ValueError("test ids must not be empty")
        dup = sorted(t for t, n in Counter(v).items() if n > 1)
        if dup:
            raise ValueError(f"duplicate test ids: {dup[:5]}")
        return v


VisibleRole = Literal["failing", "regression"]


class Tests(_Strict):
    """Test files by relative path; ``hidden`` may be empty (a passing patch is ``plausible``).

    ``expected`` optionally narrows, per phase, which tests must pass (see :class:`ExpectedTests`).
    ``visible_role`` says what the visible tests are: ``failing`` (the buggy code fails them),
    or ``regression`` (the project's own tests, which the buggy code passes: only the hidden
    tests show the defect, as in SWE-bench's ``issue-only`` setting; the check then counts the
    visible tests that pass on both the buggy code and the reference fix).
    """

    visible: dict[str, str]
    hidden: dict[str, str] = Field(default_factory=dict)
    expected: ExpectedTests | None = None
    visible_role: VisibleRole = "failing"

    @field_validator("visible", "hidden")
    @classmethod
    def _paths(cls, v: dict[str, str]) -> dict[str, str]:
        return {check_relative_path(k): c for k, c in v.items()}

    @field_validator("visible")
    @classmethod
    def _non_empty(cls, v: dict[str, str]) -> dict[str, str]:
        if not v:
            raise ValueError("at least one visible test file is required")
        return v

    @model_validator(mode="after")
    def _expected_phases(self) -> Tests:
        if self.expected is not None and self.expected.hidden is not None and not self.hidden:
            raise ValueError("'expected.hidden' names tests, but there are no hidden test files")
        if self.visible_role == "regression" and not self.hidden:
            raise ValueError(
                "'visible_role' regression needs hidden tests: they alone show the defect"
            )
        return self


class FaultLocation(_Strict):
    """Lines (1-based) of a buggy file where the defect lies."""

    file: str
    lines: list[int]

    @field_validator("file")
    @classmethod
    def _path(cls, v: str) -> str:
        return check_relative_path(v)

    @field_validator("lines")
    @classmethod
    def _positive(cls, v: list[int]) -> list[int]:
        if any(n < 1 for n in v):
            raise ValueError("line numbers start at 1")
        return v


class RepoRef(_Strict):
    """Where a repository-level sample's files come from: a local git clone at a commit."""

    path: str = Field(description="the clone (absolute path)")
    commit: str = Field(pattern=r"^[0-9a-f]{7,64}$")
    removed: list[str] = Field(
        default_factory=list, description="files of the commit the sample does not have"
    )
    files_omitted: bool = Field(
        default=False,
        description="set in a written line: its ``files`` hold only what differs from the "
        "commit (reading it takes the rest from git)",
    )


class RepairSample(_Strict):
    """One defect of a repair suite (one JSONL line).

    A sample with ``repository`` is held by reference where it is written: its ``files`` line
    carries only the files that differ from the repository at that commit, and reading the line
    takes the others from git (docs/suite-format.md). In memory it has every file; the strings
    of files that many samples share are shared (:func:`truepass.suites.gitfiles.files_at`).
    """

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
    language: str = Field(
        description="what the sample is written in: a known language "
        "(:mod:`truepass.families.repair.languages`: python, java, a plug-in's)"
    )
    defect_type: str = Field(min_length=1)
    description: str = Field(min_length=1)
    files: dict[str, str]
    tests: Tests
    fix: str = Field(min_length=1)
    fault: list[FaultLocation]
    source: str = Field(min_length=1)
    leakage: Leakage
    test_command: list[str] | None = None
    environment: EnvSpec | None = Field(
        default=None,
        description="the repository's own environment (docs/environments.md): tests run with "
        "its interpreter and packages; None: truepass's own interpreter",
    )
    known_overfit: str | None = None
    repository: RepoRef | None = None
    meta: dict[str, object] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_repository(cls, data: object) -> object:
        """A line written by reference: the repository's files at the commit, less the removed
        ones and the tests, under the files the line carries."""
        if not isinstance(data, dict) or not isinstance(data.get("repository"), dict):
            return data
        ref = data["repository"]
        if not ref.get("files_omitted"):
            return data
        from truepass.suites.gitfiles import GitError, files_at

        try:
            base = files_at(str(ref.get("path")), str(ref.get("commit")))
        except GitError as exc:
            raise ValueError(f"repository: {exc}") from exc
        tests = data.get("tests") or {}
        test_paths = set(tests.get("visible") or {}) | set(tests.get("hidden") or {})
        removed = set(ref.get("removed") or [])
        files = {p: c for p, c in base.items() if p not in removed and p not in test_paths}
        files.update(data.get("files") or {})
        return {**data, "files": files, "repository": {**ref, "files_omitted": False}}

    @model_serializer(mode="wrap")
    def _by_reference(self, handler: SerializerFunctionWrapHandler) -> object:
        data = handler(self)
        if self.repository is None or not isinstance(data, dict) or "files" not in data:
            return data
        from truepass.suites.gitfiles import files_at

        base = files_at(self.repository.path, self.repository.commit)
        data["files"] = {p: c for p, c in data["files"].items() if base.get(p) != c}
        if isinstance(data.get("repository"), dict):
            tests = set(self.test_files)
            data["repository"]["removed"] = sorted(
                p for p in base if p not in self.files and p not in tests
            )
            data["repository"]["files_omitted"] = True
        return data

    @field_validator("files")
    @classmethod
    def _files(cls, v: dict[str, str]) -> dict[str, str]:
        if not v:
            raise ValueError("at least one buggy file is required")
        return {check_relative_path(k): c for k, c in v.items()}

    @field_validator("test_command")
    @classmethod
    def _argv(cls, v: list[str] | None) -> list[str] | None:
        if v is not None and (not v or not all(isinstance(a, str) and a for a in v)):
            raise ValueError("must be a non-empty list of non-empty strings (an argv)")
        return v

    @field_validator("language")
    @classmethod
    def _known_language(cls, v: str) -> str:
        from truepass.families.repair import languages

        if v not in languages.names():
            raise ValueError(f"unknown language '{v}' (known: {', '.join(languages.names())})")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> RepairSample:
        from truepass.families.repair import languages

        languages.get(self.language).validate(self)
        tests = set(self.tests.visible) | set(self.tests.hidden)
        clash = tests & set(self.files)
        if clash:
            raise ValueError(f"paths are both code and test: {sorted(clash)}")
        for loc in self.fault:
            if loc.file not in self.files:
                raise ValueError(f"fault names '{loc.file}', which is not in 'files'")
            n_lines = len(self.files[loc.file].splitlines())
            bad = [n for n in loc.lines if n > n_lines]
            if bad:
                raise ValueError(f"fault lines {bad} are past the end of '{loc.file}' ({n_lines})")
        return self

    @property
    def test_files(self) -> dict[str, str]:
        """Visible and hidden test files together."""
        return {**self.tests.visible, **self.tests.hidden}
