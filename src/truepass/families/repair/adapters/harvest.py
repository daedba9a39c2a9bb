"""Fresh SWE-bench-shaped instances harvested from a local repository's history.

For each bug-fix commit (docs/environments.md, "Harvesting"):

* the base is the commit's first parent;
* the fix (``patch``) is the commit's change outside the tests, the ``test_patch`` its change to
  the tests (files under a ``tests``/``test``/``testing`` directory, ``test_*.py``,
  ``*_test.py``, ``conftest.py``);
* the repository's environment is built from what it declares at the base
  (:mod:`truepass.families.repair.environments`);
* the test modules the commit touches are run, in the sandbox, ``runs`` times on the base with
  the test patch (before) and ``runs`` times with the fix too (after);
* ``FAIL_TO_PASS``: tests that pass after the fix on every run and on no run before it;
  ``PASS_TO_PASS``: tests that pass on every run, before and after; a test whose outcome changes
  between runs of one side is flaky: dropped, and listed;
* ``created_at`` is the commit's date (it sets the sample's leakage tier);
* a commit without a ``FAIL_TO_PASS`` test is reported with the reason and skipped.

The instances file is SWE-bench's shape: other harnesses can read it, and
``--suite swebench:DIR/instances.jsonl`` judges it (``repos.toml`` beside it names the clone).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, Field
from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from truepass.errors import PatchError
from truepass.families.repair.adapters.swebench import (
    DEFECT_TYPE,
    pytest_command,
    runs_with_runtests,
)
from truepass.families.repair.adapters.swebench_settings import is_test_module
from truepass.families.repair.environments.declared import RepoSpec, spec_for
from truepass.families.repair.environments.uvtool import EnvironmentUnbuilt
from truepass.families.repair.runners import runner_for
from truepass.families.repair.schema import RepairSample, Tests
from truepass.patches.apply import apply_diff
from truepass.sandbox.models import Limits
from truepass.sandbox.testrun import TestRun
from truepass.suites.gitfiles import GitError, git_text, snapshot

HARVEST_LIMITS = Limits(timeout_s=600, memory_mb=4096, cpu_s=600, disk_mb=1024)
TEST_DIRS = frozenset({"tests", "test", "testing"})
ENVIRONMENT_REASON = "environment: "
Progress = Callable[[str], None]


class Harvested(BaseModel):
    """What harvesting one commit found (a line of ``harvest.jsonl``)."""

    commit: str
    valid: bool
    reason: str = ""
    instance_id: str | None = None
    created_at: str | None = None
    environment: str | None = Field(default=None, description="the environment's content key")
    fail_to_pass: list[str] = Field(default_factory=list)
    pass_to_pass: list[str] = Field(default_factory=list)
    flaky: list[str] = Field(default_factory=list)
    runs: int = 0


def is_test_path(path: str) -> bool:
    """Does ``path`` belong to the tests (the test patch) rather than to the fix?"""
    p = PurePosixPath(path)
    name = p.name
    return (
        bool(TEST_DIRS & set(p.parts[:-1]))
        or name == "conftest.py"
        or (name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py")))
    )


def commits_between(
    repo: Path, since: str | None, until: str | None, grep: str | None
) -> list[str]:
    """Non-merge commits of the first-parent history of HEAD (of the first remote branch in a
    clone without a checkout, as a clone of a bundle may be), oldest first."""
    args = ["log", "--first-parent", "--no-merges", "--format=%H", "--reverse", history(repo)]
    args += [f"--since={since}"] if since else []
    args += [f"--until={until}"] if until else []
    args += ["-E", "-i", f"--grep={grep}"] if grep else []
    return git_text(repo, *args).split()


def history(repo: Path) -> str:
    """HEAD, or the first remote branch when HEAD names no commit."""
    try:
        return git_text(repo, "rev-parse", "--verify", "HEAD^{commit}").strip()
    except GitError:
        refs = git_text(repo, "for-each-ref", "--format=%(refname)", "refs/remotes", "refs/heads")
        if not refs.split():
            raise
        return refs.split()[0]


def split_commit(diff: str) -> tuple[str, str, list[str]]:
    """(fix, test patch, test modules) of a commit's diff."""
    try:
        patch = PatchSet(diff.splitlines(keepends=True))
    except UnidiffParseError as exc:
        raise PatchError(f"the commit's diff does not parse: {exc}") from exc
    fix, tests, modules = [], [], []
    for pf in patch:
        if pf.is_binary_file:
            raise PatchError(f"it changes the binary file '{pf.path}'")
        (tests if is_test_path(pf.path) else fix).append(str(pf))
        if is_test_path(pf.path) and is_test_module(pf.path) and not pf.is_removed_file:
            modules.append(pf.path)
    return "".join(fix), "".join(tests), sorted(modules)


def harvest_commit(
    repo: Path,
    commit: str,
    *,
    name: str,
    runs: int = 3,
    limits: Limits = HARVEST_LIMITS,
    explicit: RepoSpec | None = None,
    progress: Progress | None = None,
) -> tuple[Harvested, dict[str, object] | None]:
    """Harvest one commit: what was found, and the instance (None when it is skipped)."""
    say = progress or (lambda _m: None)
    sha = git_text(repo, "rev-parse", f"{commit}^{{commit}}").strip()
    out = Harvested(commit=sha, valid=False, runs=runs)
    parents = git_text(repo, "rev-list", "--parents", "-n", "1", sha).split()[1:]
    if not parents:
        out.reason = "a root commit: no base to fix"
        return out, None
    base = parents[0]
    out.created_at = git_text(repo, "show", "-s", "--format=%cI", sha).strip()
    out.instance_id = f"{name.replace('/', '__')}-{sha[:12]}"
    try:
        fix, test_patch, modules = split_commit(git_text(repo, "diff", "--no-renames", base, sha))
    except PatchError as exc:
        out.reason = str(exc)
        return out, None
    if not fix.strip():
        out.reason = "it changes only tests: no fix"
        return out, None
    if not modules:
        out.reason = "it changes no test module (test_*.py, *_test.py): nothing shows the defect"
        return out, None
    snap = snapshot(repo, base)
    if runs_with_runtests(snap.files):
        out.reason = "the repository runs its tests with runtests.py, not pytest: not supported"
        return out, None
    environment = spec_for(snap.files, explicit=explicit)
    out.environment = environment.key() if environment else None
    try:
        before = apply_diff(snap.files, test_patch)
        after = apply_diff(before, fix)
    except PatchError as exc:
        out.reason = f"the commit's own change does not apply to its parent: {exc}"
        return out, None
    code = {p: c for p, c in before.items() if p not in modules}
    sample = RepairSample(
        id=out.instance_id, language="python", defect_type=DEFECT_TYPE,
        description=_message(repo, sha), files=code,
        tests=Tests(visible={m: before[m] for m in modules}), fix=fix, fault=[],
        source=f"harvested ({name} @ {sha[:12]})", leakage="public-recent",
        test_command=pytest_command(modules, code), environment=environment,
    )  # fmt: skip
    fixed = {p: c for p, c in after.items() if p not in modules}
    runner = runner_for(sample)
    try:
        say(f"{sha[:12]}: {runs} runs before the fix, {runs} after ({', '.join(modules)})")
        befores = [
            runner.run(sample, code, sample.tests.visible, limits=limits) for _ in range(runs)
        ]
        afters = [
            runner.run(sample, fixed, sample.tests.visible, limits=limits) for _ in range(runs)
        ]
    except EnvironmentUnbuilt as exc:
        out.reason = f"{ENVIRONMENT_REASON}{exc}"
        return out, None
    problem = _not_started(befores + afters)
    if problem:
        out.reason = problem
        return out, None
    f2p, p2p, flaky = classify(befores, afters)
    out.fail_to_pass, out.pass_to_pass, out.flaky = f2p, p2p, flaky
    if not f2p:
        out.reason = "no test fails before the fix and passes after it on every run"
        return out, None
    out.valid = True
    instance: dict[str, object] = {
        "instance_id": out.instance_id, "repo": name, "base_commit": base, "patch": fix,
        "test_patch": test_patch, "problem_statement": sample.description,
        "FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p, "created_at": out.created_at,
        "environment_setup_commit": base,
    }  # fmt: skip
    return out, instance


def classify(
    befores: list[TestRun], afters: list[TestRun]
) -> tuple[list[str], list[str], list[str]]:
    """(FAIL_TO_PASS, PASS_TO_PASS, flaky) from repeated runs before and after the fix; a test
    a run did not report (its module failed to collect) counts as not passing there."""
    ids = sorted({t for tr in befores + afters for t in tr.outcomes})

    def passes(tr: TestRun, test: str) -> bool:
        return tr.outcomes.get(test) == "passed"

    f2p, p2p, flaky = [], [], []
    for test in ids:
        before = {passes(tr, test) for tr in befores}
        after = {passes(tr, test) for tr in afters}
        if len(before) > 1 or len(after) > 1:
            flaky.append(test)
        elif after == {True} and before == {False}:
            f2p.append(test)
        elif after == {True} and before == {True}:
            p2p.append(test)
    return f2p, p2p, flaky


def _not_started(trs: list[TestRun]) -> str:
    for tr in trs:
        if not tr.started and not tr.timed_out:
            return f"the tests did not start (exit {tr.returncode}): {tr.output.strip()[-400:]}"
        if tr.timed_out:
            return "the tests timed out"
    return ""


def _message(repo: Path, sha: str) -> str:
    text = git_text(repo, "show", "-s", "--format=%B", sha).strip()
    return re.sub(r"\n{3,}", "\n\n", text) or f"commit {sha}"


# --- a whole harvest, resumable ----------------------------------------------------------------

INSTANCES = "instances.jsonl"
LOG = "harvest.jsonl"
REPOS = "repos.toml"


class Logged(BaseModel):
    """One line of ``harvest.jsonl``: a commit's outcome and its instance (when valid)."""

    harvested: Harvested
    instance: dict[str, object] | None = None


def harvest(
    repo: Path,
    commits: list[str],
    out: Path,
    *,
    name: str,
    runs: int = 3,
    limits: Limits = HARVEST_LIMITS,
    progress: Progress | None = None,
) -> list[Harvested]:
    """Harvest ``commits`` of ``repo`` into ``out``: ``harvest.jsonl`` (every commit, appended
    as each is done: an interrupted harvest resumes where it stopped), ``instances.jsonl`` (the
    valid ones, in SWE-bench's shape) and ``repos.toml`` (``name`` -> the clone). An explicit
    ``environments.toml`` in ``out`` overrides what the repository declares."""
    from truepass.families.repair.adapters.swebench import ENVIRONMENTS_FILE
    from truepass.families.repair.environments.declared import SpecFile

    out.mkdir(parents=True, exist_ok=True)
    explicit = SpecFile(out / ENVIRONMENTS_FILE).find(name, None)
    done: dict[str, Logged] = {}
    log_path = out / LOG
    if log_path.is_file():
        for line in log_path.read_text().splitlines():
            if line.strip():
                entry = Logged.model_validate_json(line)
                if not entry.harvested.reason.startswith(ENVIRONMENT_REASON):
                    done[entry.harvested.commit] = entry  # an environment is tried again
    shas = [git_text(repo, "rev-parse", f"{c}^{{commit}}").strip() for c in commits]
    say = progress or (lambda _m: None)
    for i, sha in enumerate(shas, 1):
        if sha in done:
            continue
        say(f"[{i}/{len(shas)}] {sha[:12]}")
        found, instance = harvest_commit(
            repo, sha, name=name, runs=runs, limits=limits, explicit=explicit, progress=say
        )
        done[sha] = Logged(harvested=found, instance=instance)
        with log_path.open("a") as fh:
            fh.write(done[sha].model_dump_json() + "\n")
    rows = [done[s] for s in dict.fromkeys(shas)]
    (out / INSTANCES).write_text(
        "".join(json.dumps(r.instance) + "\n" for r in rows if r.instance is not None)
    )
    (out / REPOS).write_text(f"{json.dumps(name)} = {json.dumps(str(repo.resolve()))}\n")
    return [r.harvested for r in rows]
