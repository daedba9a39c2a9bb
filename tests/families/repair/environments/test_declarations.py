"""Reading a repository's declarations (no network, no sandbox): requirement files, the explicit
spec file, pip's configuration as uv's sources, and the harvest's split of a commit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from truepass.families.repair.adapters.harvest import classify, is_test_path, split_commit
from truepass.families.repair.environments import uvtool
from truepass.families.repair.environments.build import Environment, extensions_digest, ready
from truepass.families.repair.environments.declared import (
    SpecFile,
    _project_bits,
    _read_requirements,
    choose_python,
)
from truepass.families.repair.environments.spec import EnvSource, EnvSpec
from truepass.families.repair.environments.uvtool import EnvironmentUnbuilt
from truepass.sandbox.testrun import TestRun


def test_requirement_files_follow_includes_and_drop_hashes_and_options() -> None:
    files = {
        "requirements/tests.txt": (
            "# pinned\n-r base.txt\n-c constraints.txt\npytest==8.3.3 \\\n"
            "    --hash=sha256:abc\n    # via -r tests.in\n--index-url https://example.invalid\n"
            "-e .[http2,cli]\n"
        ),
        "requirements/base.txt": "anyio==4.6.0 ; python_version >= '3.9'\n",
        "requirements/constraints.txt": "idna==3.10\n",
    }
    reqs, cons, extras = _read_requirements(files, "requirements/tests.txt", set())
    assert reqs == ["anyio==4.6.0 ; python_version >= '3.9'", "pytest==8.3.3"]
    assert cons == ["idna==3.10"]
    assert extras == ["http2", "cli"]


def test_requirement_includes_that_loop_or_are_missing_say_so() -> None:
    files = {"a.txt": "-r b.txt\n", "b.txt": "-r a.txt\n"}
    with pytest.raises(EnvironmentUnbuilt, match="included twice"):
        _read_requirements(files, "a.txt", set())
    with pytest.raises(EnvironmentUnbuilt, match="not in the repository"):
        _read_requirements({"a.txt": "-r gone.txt\n"}, "a.txt", set())


def test_spec_file_entries_by_repository_and_version(tmp_path: Path) -> None:
    path = tmp_path / "environments.toml"
    path.write_text(
        '["acme/calc"]\npackages = ["pytest"]\npre_install = ["true"]\n'
        '["acme/calc"."2.0"]\npython = "3.12"\npackages = ["pytest==8.0.0"]\n'
    )
    specs = SpecFile(path)
    assert specs.find("acme/calc", None).packages == ["pytest"]  # type: ignore[union-attr]
    assert specs.find("acme/calc", "1.0").pre_install == ["true"]  # type: ignore[union-attr]
    assert specs.find("acme/calc", "2.0").python == "3.12"  # type: ignore[union-attr]
    assert specs.find("other/repo", None) is None
    assert SpecFile(tmp_path / "absent.toml").find("acme/calc", None) is None
    path.write_text('["acme/calc"]\npackages = "pytest"\n')
    with pytest.raises(EnvironmentUnbuilt, match=r"environments\.toml: \['acme/calc'\]"):
        SpecFile(path)
    path.write_text("[broken\n")
    with pytest.raises(EnvironmentUnbuilt, match="not valid TOML"):
        SpecFile(path)


def test_machine_sources_come_from_pips_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    listing = (
        "global.index-url='http://mirror.local/simple'\n"
        "global.extra-index-url='file:///opt/a/simple file:///opt/b/simple'\n"
        ":env:.find-links='/opt/wheels'\nglobal.cert='/etc/ssl/x.crt'\n"
    )

    def fake_run(*_a: object, **_k: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess([], 0, stdout=listing, stderr="")

    monkeypatch.setattr(uvtool.subprocess, "run", fake_run)
    uvtool.machine_sources.cache_clear()
    try:
        got = uvtool.machine_sources()
    finally:
        uvtool.machine_sources.cache_clear()
    assert got == {
        "UV_INDEX_URL": "http://mirror.local/simple",
        "UV_EXTRA_INDEX_URL": "file:///opt/a/simple file:///opt/b/simple",
        "UV_FIND_LINKS": "/opt/wheels",
        "UV_INDEX_STRATEGY": "unsafe-best-match",
    }


def test_python_choice_and_a_version_this_machine_lacks() -> None:
    import sys

    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert choose_python(None) == here
    assert choose_python(">=3.8") == here
    with pytest.raises(EnvironmentUnbuilt, match="which this machine does not have"):
        choose_python(">=3.99")
    with pytest.raises(EnvironmentUnbuilt, match="not a version range"):
        choose_python("three")


def test_compiled_sources_only_when_setup_py_declares_extensions() -> None:
    setup = "from setuptools import Extension\next_modules=[Extension('x', ['src/x.c'])]"
    files = {"setup.py": setup, "src/x.c": "int x;", "tests/helper.c": "", "pkg/__init__.py": ""}
    digest, compiled = _project_bits(files)
    assert digest and compiled == ("src/x.c",)
    assert _project_bits({"setup.py": "setup()", "src/x.c": ""})[1] == ()
    assert _project_bits({"pkg/__init__.py": ""}) == (None, ())


def test_spec_key_is_content_addressed() -> None:
    one = EnvSpec(python="3.11", source=EnvSource.LOCK, declared=["uv.lock"], requirements=["a==1"])
    same = EnvSpec(
        python="3.11", source=EnvSource.LOCK, declared=["uv.lock"], requirements=["a==1"]
    )
    other = one.model_copy(update={"requirements": ["a==2"]})
    assert one.key() == same.key() != other.key()


def test_an_unresolved_spec_is_refused_before_any_build(tmp_path: Path) -> None:
    spec = EnvSpec(python="3.11", source=EnvSource.PYPROJECT, declared=[], requirements=[],
                   problem="resolving x: no solution")  # fmt: skip
    with pytest.raises(EnvironmentUnbuilt, match="no solution"):
        ready(spec, {})


def test_overlay_is_laid_only_while_the_compiled_sources_are_unchanged(tmp_path: Path) -> None:
    from truepass.families.repair.environments.build import Built

    spec = EnvSpec(python="3.11", source=EnvSource.PYPROJECT, declared=[], requirements=[],
                   project="p", extensions=["src/x.c"])  # fmt: skip
    files = {"src/x.c": "int x;", "src/y.py": ""}
    built = Built(key="k", spec=spec, interpreter="/i", base_prefix="/b", created_at="",
                  build_s=0, size_bytes=0, overlay=["src/x.so"],
                  extensions_digest=extensions_digest(files, spec.extensions))  # fmt: skip
    env = Environment(root=tmp_path, built=built, overlay={"src/x.so": b"\x7fELF"})
    assert env.overlay_for(files) == {"src/x.so": b"\x7fELF"} and not env.rebuilds(files)
    changed = {**files, "src/x.c": "int x = 1;"}
    assert env.rebuilds(changed) and env.overlay_for(changed) == {}
    assert env.binds() == {str(tmp_path): str(tmp_path), "/b": "/b"}


DIFF = """diff --git a/src/m.py b/src/m.py
--- a/src/m.py
+++ b/src/m.py
@@ -1 +1 @@
-x = 1
+x = 2
diff --git a/tests/test_m.py b/tests/test_m.py
--- a/tests/test_m.py
+++ b/tests/test_m.py
@@ -1 +1,2 @@
 import m
+assert m.x == 2
diff --git a/tests/data.txt b/tests/data.txt
--- a/tests/data.txt
+++ b/tests/data.txt
@@ -1 +1 @@
-a
+b
"""


def test_a_commit_splits_into_fix_and_test_patch() -> None:
    fix, tests, modules = split_commit(DIFF)
    assert "src/m.py" in fix and "tests/" not in fix
    assert "tests/test_m.py" in tests and "tests/data.txt" in tests and "src/m.py" not in tests
    assert modules == ["tests/test_m.py"]
    assert is_test_path("pkg/conftest.py") and is_test_path("a/b_test.py")
    assert not is_test_path("src/testing_utils.py") and is_test_path("testing/x.py")


def _run(outcomes: dict[str, str]) -> TestRun:
    return TestRun(tier="bwrap", returncode=1, timed_out=False, started=True, finished=True,
                   outcomes=outcomes)  # fmt: skip


def test_classify_keeps_only_consistent_outcomes() -> None:
    befores = [_run({"t::a": "failed", "t::b": "passed", "t::c": "passed"}),
               _run({"t::a": "failed", "t::b": "passed", "t::c": "failed"})]  # fmt: skip
    passing = {"t::a": "passed", "t::b": "passed", "t::c": "passed", "t::new": "passed"}
    afters = [_run(passing), _run(passing)]
    f2p, p2p, flaky = classify(befores, afters)
    # t::new was not reported before (its module did not collect): it failed there
    assert f2p == ["t::a", "t::new"] and p2p == ["t::b"] and flaky == ["t::c"]


def test_runtests_repositories_are_refused_unless_pytest_is_configured() -> None:
    from truepass.families.repair.adapters.swebench import runs_with_runtests

    assert runs_with_runtests({"tests/runtests.py": "", "django/__init__.py": ""})
    assert not runs_with_runtests({"runtests.py": "", "pytest.ini": "[pytest]\n"})
    assert not runs_with_runtests({"setup.cfg": "[tool:pytest]\n", "runtests.py": ""})
    assert not runs_with_runtests({"tests/test_x.py": ""})
