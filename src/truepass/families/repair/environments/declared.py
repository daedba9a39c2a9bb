"""A repository's own declarations -> an :class:`~.spec.EnvSpec`.

Looked for in this order (docs/environments.md):

1. an explicit spec for the repository (and version) in ``environments.toml`` beside the
   instances file: ``python``, ``packages``, ``pins`` and ``pre_install``;
2. ``uv.lock``: the locked packages of the project and its test dependency group (``tests``,
   ``test``, ``testing`` or ``dev``) or extra, exported by ``uv export --frozen``;
3. pinned requirement files (``requirements/tests.txt``, ``requirements-test.txt``,
   ``requirements.txt``, ...), following ``-r`` includes; ``-e .[extras]`` stands for the
   project's own dependencies;
4. ``pyproject.toml``: ``[project].dependencies`` with the test group or extra.

Whatever is not pinned is resolved by ``uv pip compile --no-build`` (the trusted resolver: it
reads published metadata and never runs a package's build). pytest is added when the declared
packages lack it: it is the runner truepass drives.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from truepass.families.repair.environments.sdists import with_sdists
from truepass.families.repair.environments.spec import EnvSource, EnvSpec
from truepass.families.repair.environments.uvtool import (
    PINNED,
    EnvironmentUnbuilt,
    clean_lines,
    compile_pinned,
    envs_dir,
    requirement_name,
    run_uv,
)

TEST_GROUPS = ("tests", "test", "testing", "dev")
REQUIREMENT_FILES = (
    "requirements/tests.txt",
    "requirements/test.txt",
    "requirements-tests.txt",
    "requirements-test.txt",
    "test-requirements.txt",
    "requirements/dev.txt",
    "requirements-dev.txt",
    "dev-requirements.txt",
    "requirements.txt",
)
PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
COMPILED_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".pyx", ".h")
PYTHONS = tuple(f"3.{n}" for n in range(8, 15))
_PROJECT_REF = re.compile(r"^(?:-e\s+|--editable\s+)?\.(?:\[([^\]]*)\])?$")


class RepoSpec(BaseModel):
    """One entry of ``environments.toml``: what to install for a repository (and version)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    python: str | None = Field(default=None, pattern=r"^3\.\d+$")
    packages: list[str] = Field(default_factory=list)
    pins: list[str] = Field(default_factory=list)
    pre_install: list[str] = Field(default_factory=list)


class SpecFile:
    """``environments.toml``: ``["owner/name"]`` tables, each optionally with sub-tables per
    ``version`` (``["owner/name"."1.2"]``) that replace the repository's own entry."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.raw = path.read_bytes() if path.is_file() else b""
        try:
            data = tomllib.loads(self.raw.decode()) if self.raw else {}
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise EnvironmentUnbuilt(f"{path}: not valid TOML: {exc}") from exc
        self.entries: dict[tuple[str, str | None], RepoSpec] = {}
        for repo, table in data.items():
            if not isinstance(table, dict):
                raise EnvironmentUnbuilt(f"{path}: [{repo}] must be a table")
            own = {k: v for k, v in table.items() if not isinstance(v, dict)}
            for key, value in [
                (None, own),
                *((k, v) for k, v in table.items() if isinstance(v, dict)),
            ]:
                try:
                    self.entries[(repo, key)] = RepoSpec.model_validate(value)
                except ValidationError as exc:
                    where = f"[{repo!r}{'' if key is None else f'.{key!r}'}]"
                    raise EnvironmentUnbuilt(
                        f"{path}: {where}: {exc.errors()[0]['msg']} "
                        f"(field {exc.errors()[0]['loc']})"
                    ) from exc

    def find(self, repo: str, version: str | None) -> RepoSpec | None:
        """The entry for ``repo`` at ``version`` (else the repository's own), or None."""
        return self.entries.get((repo, version)) or self.entries.get((repo, None))


def spec_for(files: Mapping[str, str], *, explicit: RepoSpec | None = None) -> EnvSpec | None:
    """The environment of a repository whose files at a commit are ``files``; None when it
    declares nothing to install (no lock, requirement file, pyproject or explicit spec).

    When the declarations cannot be resolved, the spec says why in ``problem`` (uv's words),
    and the sample is invalid for that reason.
    """
    declaring = {p: files[p] for p in ("uv.lock", *PROJECT_FILES, *REQUIREMENT_FILES) if p in files}
    if explicit is None and not declaring:
        return None
    digest = hashlib.sha256(repr((sorted(declaring.items()), explicit)).encode()).hexdigest()
    try:
        return _spec_for(
            digest,
            tuple(sorted(declaring.items())),
            explicit.model_dump_json() if explicit else None,
            _project_bits(files),
        )
    except EnvironmentUnbuilt as exc:
        here = f"{sys.version_info.major}.{sys.version_info.minor}"
        return EnvSpec(
            python=here, source=EnvSource.SPEC if explicit else EnvSource.PYPROJECT,
            declared=sorted(declaring), requirements=[], problem=str(exc),
        )  # fmt: skip


@functools.lru_cache(maxsize=256)
def _spec_for(
    _digest: str,
    declaring_items: tuple[tuple[str, str], ...],
    explicit_json: str | None,
    project_bits: tuple[str | None, tuple[str, ...]],
) -> EnvSpec:
    declaring = dict(declaring_items)
    explicit = RepoSpec.model_validate_json(explicit_json) if explicit_json else None
    pyproject = _toml(declaring.get("pyproject.toml"))
    python = (explicit.python if explicit else None) or choose_python(
        pyproject.get("project", {}).get("requires-python")
    )
    project, extensions = project_bits
    built: list[str] = []  # pinned packages built from sdists while resolving
    if explicit is not None:
        source, declared = EnvSource.SPEC, ["environments.toml"]
        lines = compile_lines([*explicit.packages], python, constraints=explicit.pins, sdists=built)
        pre = list(explicit.pre_install)
    elif "uv.lock" in declaring and "pyproject.toml" in declaring:
        source, declared, pre = EnvSource.LOCK, ["uv.lock", "pyproject.toml"], []
        lines = _export_lock(declaring, pyproject)
    elif found := next((p for p in REQUIREMENT_FILES if p in declaring), None):
        source, declared, pre = EnvSource.REQUIREMENTS, [found], []
        lines = _from_requirements(declaring, found, pyproject, python, built)
    elif "pyproject.toml" in declaring:
        source, declared, pre = EnvSource.PYPROJECT, ["pyproject.toml"], []
        wanted = _project_dependencies(pyproject, _test_extras(pyproject))
        wanted += _group(pyproject)
        lines = compile_lines(wanted, python, sdists=built) if wanted else []
    else:
        source, declared, pre, lines = EnvSource.PYPROJECT, [], [], []
    if not any(requirement_name(ln) == "pytest" for ln in lines):
        lines = lines + compile_lines(["pytest"], python, constraints=lines, sdists=built)
    build = _build_requires(pyproject, "setup.py" in declaring)
    build_pins = (
        compile_lines(build, python, constraints=lines, sdists=built) if project and build else []
    )
    return EnvSpec(
        python=python, source=source, declared=declared, requirements=lines,
        build_requires=build_pins, sdists=built, pre_install=pre, project=project,
        extensions=list(extensions),
    )  # fmt: skip


# --- the sources -----------------------------------------------------------------------------


def _export_lock(declaring: Mapping[str, str], pyproject: dict) -> list[str]:
    groups = pyproject.get("dependency-groups", {})
    group = next((g for g in TEST_GROUPS if g in groups), None)
    extras = _test_extras(pyproject)
    select = ["--no-default-groups", *(["--group", group] if group else [])]
    select += [a for e in extras for a in ("--extra", e)]
    with tempfile.TemporaryDirectory(prefix="truepass-lock-") as tmp:
        for name in ("uv.lock", "pyproject.toml"):
            Path(tmp, name).write_text(declaring[name])
        out = run_uv(
            ["export", "--frozen", "--offline", "--no-emit-project", "--no-hashes",
             "--no-header", "--no-annotate", "--format", "requirements-txt", *select],
            cwd=Path(tmp), what="reading uv.lock (uv export --frozen)",
        )  # fmt: skip
    return clean_lines(out.splitlines())


def _from_requirements(
    declaring: Mapping[str, str], path: str, pyproject: dict, python: str, built: list[str]
) -> list[str]:
    lines, constraints, extras = _read_requirements(declaring, path, set())
    if extras is not None:
        lines += _project_dependencies(pyproject, extras)
    if all(PINNED.match(ln) for ln in lines) and not constraints:
        return lines
    return compile_lines(lines, python, constraints=constraints, sdists=built)


def _read_requirements(
    files: Mapping[str, str], path: str, seen: set[str]
) -> tuple[list[str], list[str], list[str] | None]:
    """Requirement lines, constraint lines and the project's extras (None: the project is not
    named) of a requirement file and the files it includes."""
    if path in seen or path not in files:
        raise EnvironmentUnbuilt(f"{path}: included twice or not in the repository")
    seen.add(path)
    here = PurePosixPath(path).parent
    reqs: list[str] = []
    cons: list[str] = []
    extras: list[str] | None = None
    for line in _logical_lines(files[path]):
        if m := re.match(r"^(-r|--requirement|-c|--constraint)\s*=?\s*(\S+)$", line):
            inc = str(here / m.group(2))
            r, c, e = _read_requirements(files, inc, seen)
            (reqs if m.group(1) in ("-r", "--requirement") else cons).extend(r)
            cons.extend(c)
            if e is not None:
                extras = [*(extras or []), *e]
        elif m := _PROJECT_REF.match(line):
            extras = [*(extras or []), *(x.strip() for x in (m.group(1) or "").split(",") if x)]
        elif line.startswith("-"):
            continue  # pip options (--index-url, --hash, ...): the machine's sources are used
        else:
            reqs.append(line)
    return reqs, cons, extras


def _logical_lines(text: str) -> list[str]:
    out: list[str] = []
    for line in text.replace("\\\n", " ").splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line)
        line = re.sub(r"\s--hash[=\s]\S+", "", line).strip()
        if line:
            out.append(line)
    return out


def compile_lines(
    wanted: list[str],
    python: str,
    *,
    constraints: list[str] | None = None,
    sdists: list[str] | None = None,
) -> list[str]:
    """Pinned lines for ``wanted`` (:func:`~.uvtool.compile_pinned`). A pinned package without
    a wheel is built from its sdist in the sandbox (:mod:`.sdists`) and named in ``sdists``;
    without that list, it is an error."""
    if sdists is None or not wanted:
        return compile_pinned(wanted, python, constraints=constraints)
    return with_sdists(
        lambda links: compile_pinned(wanted, python, constraints=constraints, find_links=links),
        envs_dir(), python, sdists,
    )  # fmt: skip


# --- pyproject -------------------------------------------------------------------------------


def _toml(text: str | None) -> dict:
    if not text:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EnvironmentUnbuilt(f"pyproject.toml is not valid TOML: {exc}") from exc


def _test_extras(pyproject: dict) -> list[str]:
    extras = pyproject.get("project", {}).get("optional-dependencies", {})
    return (
        [next(g for g in TEST_GROUPS if g in extras)]
        if any(g in extras for g in TEST_GROUPS)
        else []
    )


def _group(pyproject: dict) -> list[str]:
    groups = pyproject.get("dependency-groups", {})
    name = next((g for g in TEST_GROUPS if g in groups), None)
    if name is None:
        return []
    out: list[str] = []
    for item in groups[name]:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict) and isinstance(item.get("include-group"), str):
            out += [x for x in groups.get(item["include-group"], []) if isinstance(x, str)]
    return out


def _project_dependencies(pyproject: dict, extras: list[str]) -> list[str]:
    project = pyproject.get("project", {})
    deps = [d for d in project.get("dependencies", []) if isinstance(d, str)]
    optional = project.get("optional-dependencies", {})
    name = requirement_name(project.get("name", ""))
    for extra in extras:
        for dep in optional.get(extra, []):
            if requirement_name(dep) == name:  # "pkg[other]" inside pkg's own extras
                inner = re.search(r"\[([^\]]*)\]", dep)
                deps += _project_dependencies(pyproject, inner.group(1).split(",")) if inner else []
            else:
                deps.append(dep)
    return deps


def _build_requires(pyproject: dict, has_setup_py: bool) -> list[str]:
    system = pyproject.get("build-system", {})
    if "requires" in system:
        return [r for r in system["requires"] if isinstance(r, str)]
    return ["setuptools>=40.8.0", "wheel"] if has_setup_py or pyproject else []


def choose_python(requires: str | None) -> str:
    """This interpreter's minor version when the project allows it, else the newest minor
    version it allows that this machine has (``uv python find``)."""
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    try:
        spec = SpecifierSet(requires or "")
    except InvalidSpecifier as exc:
        raise EnvironmentUnbuilt(f"requires-python '{requires}' is not a version range") from exc
    if spec.contains(f"{here}.0") or spec.contains(f"{here}.99"):
        return here
    for minor in reversed(PYTHONS):
        if spec.contains(f"{minor}.0") or spec.contains(f"{minor}.99"):
            try:
                run_uv(["python", "find", "--no-managed-python", minor], what="finding Python")
            except EnvironmentUnbuilt:
                continue
            return minor
    raise EnvironmentUnbuilt(
        f"the project needs Python {requires}, which this machine does not have"
    )


def _project_bits(files: Mapping[str, str]) -> tuple[str | None, tuple[str, ...]]:
    """The digest of the project's build inputs (None: nothing to build) and its compiled
    sources (only when ``setup.py`` declares extensions)."""
    present = [(p, files[p]) for p in PROJECT_FILES if p in files]
    if not present:
        return None, ()
    digest = hashlib.sha256(repr(present).encode()).hexdigest()[:20]
    setup = files.get("setup.py", "")
    if "Extension(" not in setup and "ext_modules" not in setup:
        return digest, ()
    compiled = tuple(
        sorted(
            p for p in files
            if p.endswith(COMPILED_SUFFIXES) and not p.startswith(("tests/", "test/", "docs/"))
        )
    )  # fmt: skip
    return digest, compiled
