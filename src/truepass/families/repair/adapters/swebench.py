"""SWE-bench instances (pytest repositories checked out locally) -> repair samples.

PATH is a ``.json`` file holding a list of instances or a ``.jsonl`` file with one a line, in
SWE-bench's shape: ``instance_id``, ``repo``, ``base_commit``, ``patch``, ``test_patch``,
``problem_statement``, ``FAIL_TO_PASS``, ``PASS_TO_PASS`` (lists, or JSON-encoded lists as in the
Hugging Face dataset), optionally ``created_at``, ``version``, ``environment_setup_commit``.
Repositories are local clones: ``repos.toml`` beside PATH maps ``"owner/name" = "dir"`` (relative
to PATH's directory), else ``repos/owner__name`` beside PATH. Nothing is checked out: files are
read from git at ``base_commit``.

One instance becomes one sample (id = ``instance_id``); what its solver is shown depends on the
setting (:class:`~.swebench_settings.SweSetting`, recorded in ``meta.setting``; the formats
``swebench`` and ``swebench-tests-shown``):

* ``files``: the tracked text files at ``base_commit`` (binary files, symlinks, submodules and
  files over :data:`~truepass.suites.gitfiles.MAX_FILE_BYTES` are left out, listed in
  ``meta.skipped_files``), minus the test files below;
* test modules: the ``test_*.py``/``*_test.py`` files ``test_patch`` creates or changes, and the
  files the test ids name; other files ``test_patch`` touches (conftest, helpers, data) are its
  test support (``meta.test_support``);
* ``issue-only`` (the default): nothing of ``test_patch`` is shown. The visible tests are the
  base versions of the test modules and support files (regression tests,
  ``tests.visible_role``), the hidden ones their patched versions, expecting ``FAIL_TO_PASS`` +
  ``PASS_TO_PASS``; see :mod:`.swebench_settings`;
* ``tests-shown``: ``files`` have ``test_patch`` applied; the test modules are the visible *and*
  the hidden tests; ``tests.expected`` says which tests count: ``FAIL_TO_PASS`` in the visible
  phase, ``FAIL_TO_PASS`` + ``PASS_TO_PASS`` in the hidden one. Support files stay in
  ``files`` in their patched form;
* in both, ``correct`` = resolved; ``overfit`` = the visible tests pass but a hidden one fails
  (``tests-shown``: the failing tests pass but a test that passed before breaks; ``issue-only``:
  no shown test breaks, but the issue is not resolved or a test that passed before breaks);
* ``test_command``: pytest on the test modules (each phase runs those it holds) with
  ``--rootdir=.``, so node ids are relative to the repository root as in SWE-bench, and the root
  (and ``src/`` for a src layout) added to the ``pythonpath`` of the repository's own pytest
  configuration;
* ``fix``: the instance ``patch``; ``fault``: the lines it changes; ``leakage``: ``public-old``
  for instances created before 2023 (or without ``created_at``), ``public-recent`` after.
"""

from __future__ import annotations

import configparser
import re
import tomllib
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError
from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from truepass.errors import PatchError, SuiteError
from truepass.families.repair.adapters.swebench_input import (
    Instance,
    RecordError,
    RepoMap,
    instance_fields,
    read_records,
)
from truepass.families.repair.adapters.swebench_settings import (
    DEFAULT_SETTING,
    SweSetting,
    is_test_module,
    layout,
)
from truepass.families.repair.environments.declared import SpecFile, spec_for
from truepass.families.repair.environments.spec import EnvSpec
from truepass.families.repair.environments.uvtool import EnvironmentUnbuilt
from truepass.families.repair.schema import FaultLocation, RepairSample, RepoRef, Tests
from truepass.patches.apply import DEV_NULL, apply_diff, changed_lines, strip_prefix
from truepass.suites.gitfiles import MAX_FILE_BYTES, GitError, Snapshot, snapshot
from truepass.suites.validation import invalid_sample

SOURCE = "SWE-bench"
RECENT_FROM = datetime(2023, 1, 1, tzinfo=UTC)
DEFECT_TYPE = "issue"
ENVIRONMENTS_FILE = "environments.toml"


def load_swebench(
    path: Path, setting: SweSetting = DEFAULT_SETTING, *, environments: bool = True
) -> tuple[list[RepairSample], bytes]:
    """Read SWE-bench instances and build their samples from the local repositories, in
    ``setting`` (:mod:`.swebench_settings`).

    Returns the samples and the bytes their content hash is taken over: the instance file,
    ``repos.toml`` if any, ``environments.toml`` if any, the git tree id of every instance's
    base commit (which fixes every file read) and the setting (but ``tests-shown``, whose hash
    stays what it was before there were settings). ``environments``: give each sample its
    repository's own environment (docs/environments.md; False: truepass's interpreter runs the
    tests). Raises :class:`SuiteError` naming the file, line, instance and field of the first
    problem, and what to do about it.
    """
    path = Path(path)
    if not path.is_file():
        raise SuiteError(
            "expected a .json (a list of instances) or .jsonl file (one instance a line)",
            location=str(path),
        )
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError(f"cannot read as UTF-8 text: {exc}", location=str(path)) from exc
    repos = RepoMap(path.parent)
    try:
        specs = SpecFile(path.parent / ENVIRONMENTS_FILE)
    except EnvironmentUnbuilt as exc:
        raise SuiteError(str(exc), location=str(path.parent / ENVIRONMENTS_FILE)) from exc
    samples: list[RepairSample] = []
    hashed = [raw, repos.raw, specs.raw]
    if setting is not SweSetting.TESTS_SHOWN:
        hashed.append(f"\nsetting {setting.value}".encode())
    seen: dict[str, str] = {}
    for where, record in read_records(path, text):
        iid = record.get("instance_id")
        label = f"{where} ({iid})" if isinstance(iid, str) else where
        try:
            fields = instance_fields(record)
            snap = snapshot(repos.find(fields.repo), fields.base_commit)
            if runs_with_runtests(snap.files):
                raise RecordError(
                    "repo",
                    "the repository runs its tests with runtests.py (Django's way), not with "
                    "pytest or unittest ids pytest can run: not supported; remove this instance",
                )
            explicit = specs.find(fields.repo, _version(fields))
            environment = spec_for(snap.files, explicit=explicit) if environments else None
            sample = instance_to_sample(
                fields, snap, setting, environment=environment, clone=repos.find(fields.repo)
            )
        except RecordError as exc:
            raise SuiteError(exc.message, location=label, field=exc.field) from exc
        except GitError as exc:
            raise SuiteError(str(exc), location=label, field=exc.field) from exc
        except ValidationError as exc:
            raise invalid_sample(exc, "instance", label) from exc
        if sample.id in seen:
            raise SuiteError(
                f"duplicate instance (first at {seen[sample.id]})",
                location=label,
                field="instance_id",
            )
        seen[sample.id] = where
        samples.append(sample)
        hashed.append(f"\n{sample.id} {snap.tree} {MAX_FILE_BYTES}".encode())
    if not samples:
        raise SuiteError("no instances", location=str(path))
    return samples, b"".join(hashed)


# --- building the sample -------------------------------------------------------------------------


def runs_with_runtests(files: dict[str, str]) -> bool:
    """A repository that runs its tests with its own ``runtests.py`` (Django's way) and has no
    pytest configuration: pytest cannot run them."""
    configured = "pytest.ini" in files or "[tool.pytest" in files.get("pyproject.toml", "")
    configured = configured or any(
        "[pytest]" in files.get(n, "") or "[tool:pytest]" in files.get(n, "")
        for n in ("tox.ini", "setup.cfg")
    )
    return not configured and ("runtests.py" in files or "tests/runtests.py" in files)


def _version(inst: Instance) -> str | None:
    version = inst.extra.get("version")
    return str(version) if version is not None else None


def instance_to_sample(
    inst: Instance,
    snap: Snapshot,
    setting: SweSetting = DEFAULT_SETTING,
    *,
    environment: EnvSpec | None = None,
    clone: Path | None = None,
) -> RepairSample:
    """One checked instance and its base commit's files -> one sample in ``setting``, with the
    repository's ``environment`` and, for writing it by reference, its ``clone``."""
    repo, commit, patch, test_patch = inst.repo, inst.base_commit, inst.patch, inst.test_patch
    f2p, p2p = inst.fail_to_pass, inst.pass_to_pass
    _check_patch_paths(snap, "test_patch", test_patch)
    _check_patch_paths(snap, "patch", patch)
    after = _apply(snap.files, test_patch, "test_patch", repo, commit)
    touched = sorted(p for p in set(after) | set(snap.files) if after.get(p) != snap.files.get(p))
    named = {t.split("::", 1)[0] for t in f2p + p2p if "::" in t}
    modules = sorted(
        {p for p in touched if p in after and is_test_module(p)} | (named & set(after))
    )
    if not modules:
        raise RecordError(
            "test_patch",
            "it changes no test module (test_*.py, *_test.py) and the test ids name no file of "
            "the repository: there is nothing to run",
        )
    lay = layout(setting, snap.files, after, modules, touched, f2p, p2p)
    files = lay.files
    fixed = _apply({**files, **lay.tests.visible}, patch, "patch", repo, commit)
    fault = [
        FaultLocation(file=p, lines=lines)
        for p in sorted(files)
        if fixed.get(p) != files[p] and (lines := changed_lines(files[p], fixed.get(p, "")))
    ]
    recent = inst.created_at is not None and inst.created_at >= RECENT_FROM
    meta: dict[str, object] = {
        "instance_id": inst.instance_id,
        "repo": repo,
        "base_commit": commit,
        **({"created_at": inst.created_at.isoformat()} if inst.created_at else {}),
        **inst.extra,
        "test_support": [p for p in touched if p not in modules],
        "setting": setting.value,
    }
    skipped = snap.skipped_summary()
    if skipped:
        meta["skipped_files"] = skipped
    return RepairSample(
        id=inst.instance_id,
        language="python",
        defect_type=DEFECT_TYPE,
        description=inst.problem_statement.strip(),
        files=files,
        tests=lay.tests,
        fix=patch,
        fault=fault,
        source=f"{SOURCE} ({repo} @ {commit[:12]})",
        leakage="public-recent" if recent else "public-old",
        test_command=pytest_command(lay.modules, {**files, **lay.tests.visible}),
        environment=environment,
        repository=_reference(clone, commit, snap, files, lay.tests),
        meta=meta,
    )


def _reference(
    clone: Path | None, commit: str, snap: Snapshot, files: dict[str, str], tests: Tests
) -> RepoRef | None:
    """The sample's repository, for writing it by reference (None: written whole)."""
    if clone is None:
        return None
    shown = set(tests.visible) | set(tests.hidden)
    removed = sorted(p for p in snap.files if p not in files and p not in shown)
    return RepoRef(path=str(clone.resolve()), commit=commit, removed=removed)


def pytest_command(modules: list[str], files: dict[str, str]) -> list[str]:
    """pytest on ``modules`` from the repository root, importing the repository's code as an
    editable install would: the root (and ``src/`` for a src layout) are added to the
    ``pythonpath`` the repository's own pytest configuration sets."""
    paths = configured_pythonpath(files)
    extra = ["."] + (
        ["src"] if any(re.match(r"^src/[^/]+/__init__\.py$", p) for p in files) else []
    )
    paths += [p for p in extra if p not in paths]
    return ["pytest", "--rootdir=.", "-o", f"pythonpath={' '.join(paths)}", *modules]


def configured_pythonpath(files: dict[str, str]) -> list[str]:
    """The ``pythonpath`` of the repository's root pytest configuration, found the way pytest
    finds it (``pytest.ini``, ``pyproject.toml``, ``tox.ini``, ``setup.cfg``); [] if none."""
    for name, section in _INI_FILES:
        text = files.get(name)
        if text is None:
            continue
        if name == "pyproject.toml":
            try:
                tool = tomllib.loads(text).get("tool", {}).get("pytest")
            except tomllib.TOMLDecodeError:
                continue
            if not isinstance(tool, dict):
                continue
            value = tool.get("ini_options", tool).get("pythonpath", [])
            return [str(v) for v in value] if isinstance(value, list) else str(value).split()
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
        except configparser.Error:
            continue
        if parser.has_section(section) or name in ("pytest.ini", ".pytest.ini"):
            got = parser.get(section, "pythonpath", fallback="")
            return got.split()
    return []


_INI_FILES = (
    ("pytest.ini", "pytest"),
    (".pytest.ini", "pytest"),
    ("pyproject.toml", ""),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)


def _check_patch_paths(snap: Snapshot, field: str, diff: str) -> None:
    """Fail clearly for a diff that touches binary files or files the snapshot left out."""
    try:
        patch = PatchSet(diff.splitlines(keepends=True))
    except UnidiffParseError as exc:
        raise RecordError(field, f"not a unified diff: {exc}") from exc
    for pf in patch:
        paths = {strip_prefix(p) for p in (pf.source_file, pf.target_file) if p != DEV_NULL}
        if pf.is_binary_file:
            raise RecordError(
                field, f"changes the binary file '{pf.path}'; a suite carries text files only"
            )
        for p in sorted(paths):
            why = snap.skip_reason(p)
            if why:
                raise RecordError(
                    field,
                    f"changes '{p}', which was left out of the sample ({why}; a suite carries "
                    f"text files of at most {MAX_FILE_BYTES} bytes)",
                )


def _apply(files: dict[str, str], diff: str, field: str, repo: str, commit: str) -> dict[str, str]:
    try:
        return apply_diff(files, diff)
    except PatchError as exc:
        raise RecordError(
            field,
            f"does not apply to {repo} at {commit[:12]}: {exc}. Is base_commit right, and is "
            "the clone the right repository?",
        ) from exc
