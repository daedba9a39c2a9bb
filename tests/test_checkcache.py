"""The machine-wide sample-check cache: a new run directory starts from the checks an earlier run
made (same suite version, judge configuration and environment), and only then."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from truepass.checkcache import CheckCache, code_hash, default_path, environment_key
from truepass.checking import check_suite
from truepass.errors import SandboxError
from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solvers
from truepass.suites.loader import load_suite

PROMPT = 'def clamp(x: int, low: int, high: int) -> int:\n    """x limited to [low, high]."""\n'
SAMPLE = {
    "family": "codegen", "id": "clamp", "prompt": PROMPT, "entry_point": "clamp",
    "canonical_solution": "    return max(low, min(x, high))\n",
    "tests": {"visible": [{"args": "5, 0, 10"}, {"args": "-1, 0, 10"}],
              "hidden": [{"args": "11, 0, 10"}]},
    "source": "written for truepass tests", "leakage": "private",
}  # fmt: skip


def test_default_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUEPASS_CHECK_CACHE", "off")
    assert default_path() is None
    monkeypatch.setenv("TRUEPASS_CHECK_CACHE", "/x/checks.sqlite")
    assert default_path() == Path("/x/checks.sqlite")
    monkeypatch.delenv("TRUEPASS_CHECK_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", "/c")
    assert default_path() == Path("/c/truepass/checks.sqlite")


def test_entries_are_per_environment_suite_and_sample(tmp_path: Path) -> None:
    env_a = environment_key({"reruns": 1}, {"truepass": "1"}, "bwrap")
    env_b = environment_key({"reruns": 0}, {"truepass": "1"}, "bwrap")
    assert env_a != env_b != environment_key({"reruns": 1}, {"truepass": "2"}, "bwrap")
    assert env_a != environment_key({"reruns": 1}, {"truepass": "1"}, "bwrap", "0123abc")
    assert env_a == environment_key({"reruns": 1}, {"truepass": "1"}, "bwrap", code_hash())
    a = CheckCache(tmp_path / "c.sqlite", env_a)
    a.put("suite1", "s", {"valid": True})
    assert a.get("suite1", "s") == {"valid": True}
    assert a.get("suite2", "s") is None and a.get("suite1", "t") is None
    assert CheckCache(tmp_path / "c.sqlite", env_b).get("suite1", "s") is None
    assert a.describe() == {"path": str(tmp_path / "c.sqlite"), "hits": 1, "misses": 2}


def test_the_code_hash_covers_every_python_file_of_truepass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit to the judging code, committed or not, makes every sample be checked again."""
    import truepass.checkcache as module

    module.code_hash.cache_clear()
    installed = module.code_hash()
    copy = tmp_path / "truepass"
    shutil.copytree(Path(module.__file__).parent, copy, ignore=shutil.ignore_patterns("*.pyc"))
    hashes = []
    for edit in (None, "sandbox/guest/worker.py", "families/codegen/judge.py"):
        if edit:
            with (copy / edit).open("a") as f:
                f.write("\n# an uncommitted edit\n")
        monkeypatch.setattr(module, "__file__", str(copy / "checkcache.py"))
        module.code_hash.cache_clear()
        hashes.append(module.code_hash())
    module.code_hash.cache_clear()
    assert len(set(hashes)) == 3
    assert hashes[0] == installed  # the same files give the same hash, wherever they are


def test_a_package_installed_upgraded_or_removed_changes_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests of a repair suite may import any installed package: its version is in the key."""
    import truepass.checkcache as module

    site_dir = tmp_path / "site-packages"
    site_dir.mkdir()
    monkeypatch.setattr(module.site, "getsitepackages", lambda: [str(site_dir)])
    monkeypatch.setattr(module.site, "getusersitepackages", lambda: str(tmp_path / "none"))
    keys = []
    for layout in (["attrs-23.1.0.dist-info"], ["attrs-23.2.0.dist-info"],
                   ["attrs-23.2.0.dist-info", "six-1.16.0.dist-info"], []):  # fmt: skip
        for old in site_dir.iterdir():
            old.rmdir()
        for name in layout:
            (site_dir / name).mkdir()
        module.installed_hash.cache_clear()
        keys.append(environment_key({"reruns": 1}, {"truepass": "1"}, "bwrap", "code"))
    module.installed_hash.cache_clear()
    assert len(set(keys)) == 4


def test_a_cache_that_cannot_be_opened_is_skipped_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    cache = CheckCache(tmp_path / "file" / "c.sqlite", "e")
    cache.put("h", "s", {"valid": True})
    assert cache.get("h", "s") is None
    assert "not used" in str(cache.describe()["error"])
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database" * 100)
    assert CheckCache(garbage, "e").get("h", "s") is None


def _manifest(out: Path) -> dict[str, object]:
    return json.loads((out / "manifest.json").read_text())  # type: ignore[no-any-return]


def test_a_new_run_directory_reuses_the_checks_of_an_earlier_run(tmp_path: Path) -> None:
    (tmp_path / "suite.jsonl").write_text(json.dumps(SAMPLE) + "\n")
    suite = load_suite(tmp_path / "suite.jsonl")
    cache = tmp_path / "checks.sqlite"
    solvers = make_solvers(["oracle", "noop"], {"clamp"})
    first = run(suite, solvers, tmp_path / "one", check_cache=cache)
    assert _manifest(tmp_path / "one")["check_cache"] == {"path": str(cache), "hits": 0,
                                                           "misses": 1}  # fmt: skip
    second = run(suite, solvers, tmp_path / "two", check_cache=cache)
    assert _manifest(tmp_path / "two")["check_cache"] == {"path": str(cache), "hits": 1,
                                                           "misses": 0}  # fmt: skip
    verdicts = [{s.solver: s.overall.verdicts for s in r.summary.solvers} for r in (first, second)]
    assert verdicts[0] == verdicts[1] == {"oracle": {"correct": 1}, "noop": {"fails-visible": 1}}

    # The second run really took the check from the cache: a cached check saying the sample
    # is invalid makes a third run judge it so.
    db = sqlite3.connect(cache)
    (record,) = db.execute("SELECT record FROM checks").fetchone()
    forged = {**json.loads(record), "valid": False, "reason": "from the cache"}
    db.execute("UPDATE checks SET record = ?", (json.dumps(forged),))
    db.commit()
    db.close()
    third = run(suite, solvers[:1], tmp_path / "three", check_cache=cache)
    assert third.summary.solvers[0].overall.verdicts == {"invalid-sample": 1}

    # Other limits, or no cache at all: checked again. Other reruns: the same check (a check
    # runs each test once), so check-suite (2 reruns) and runs (1) share their checks.
    other = JudgeConfig(limits=Limits(timeout_s=31.0))
    run(suite, solvers[:1], tmp_path / "four", check_cache=cache, config=other)
    assert _manifest(tmp_path / "four")["check_cache"]["hits"] == 0  # type: ignore[index]
    health = check_suite(suite, check_cache=cache)  # reruns=2: the forged check is shared
    assert [(h.status, h.problems) for h in health.samples] == [
        ("invalid", ["invalid: from the cache"])
    ]
    fifth = run(suite, solvers[:1], tmp_path / "five", check_cache=False)
    assert _manifest(tmp_path / "five")["check_cache"] is None
    assert fifth.summary.solvers[0].overall.verdicts == {"correct": 1}


def test_a_sample_check_the_sandbox_failed_gives_infra_errors_retried_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "suite.jsonl").write_text(json.dumps(SAMPLE) + "\n")
    suite = load_suite(tmp_path / "suite.jsonl")
    cache = tmp_path / "checks.sqlite"

    def broken_sandbox(*_args: object, **_kwargs: object) -> None:
        raise SandboxError("bwrap: cannot create a namespace")

    with monkeypatch.context() as patched:
        patched.setattr("truepass.families.codegen.judge.calibrate", broken_sandbox)
        first = run(suite, make_solvers(["oracle"], {"clamp"}), tmp_path / "out", check_cache=cache)
    assert first.summary.solvers[0].overall.verdicts == {"infra-error": 1}  # not invalid-sample
    record = json.loads((tmp_path / "out" / "results.jsonl").read_text())
    assert "cannot create a namespace" in record["details"]
    assert _manifest(tmp_path / "out")["check_cache"]["misses"] == 1  # type: ignore[index]
    again = run(suite, make_solvers(["oracle"], {"clamp"}), tmp_path / "out", check_cache=cache)
    assert again.summary.solvers[0].overall.verdicts == {"correct": 1}  # checked and judged anew
