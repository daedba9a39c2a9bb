"""Real repositories (git bundles in ../shared/benchmarks/real-repos, never copied): harvest a
click bug fix and a markupsafe C-extension fix into SWE-bench instances, build each repository's
own environment with uv, and judge in the real sandbox. Needs the package registry (uv)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_run import invoke, results
from fake_openai import FakeOpenAI, fake_model_options, ok

from truepass.agentic.trajectory import Trajectory
from truepass.answers import Answer
from truepass.families.repair.adapters.harvest import harvest
from truepass.families.repair.adapters.swebench import load_swebench
from truepass.families.repair.environments import build
from truepass.families.repair.environments.spec import EnvSource
from truepass.families.repair.judge import check_sample, judge
from truepass.judged import CheckStatus, JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solvers
from truepass.suites.loader import load_suite
from truepass.vocabulary import Verdict

REPOS = Path(__file__).resolve().parents[5] / "shared" / "benchmarks" / "real-repos"
CLICK_FIX = "762c97eef7c1b3779678992f26a553a2a8c80793"  # double-bracketing of choices
MARKUPSAFE_C_FIX = "8cb1691ca038ca39942e088b956f5b94d8f636bf"  # relax speedups str check
MODEL = "openai:fake"
CONFIG = JudgeConfig(limits=Limits(timeout_s=300, memory_mb=4096), reruns=0)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (REPOS / "click.bundle").is_file(), reason=f"real repositories not found at {REPOS}"
    ),
]


@pytest.fixture(scope="module")
def envs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache of environments of this module's own."""
    path = tmp_path_factory.mktemp("envs")
    before = os.environ.get("TRUEPASS_ENVS")
    os.environ["TRUEPASS_ENVS"] = str(path)
    yield path
    if before is None:
        os.environ.pop("TRUEPASS_ENVS", None)
    else:
        os.environ["TRUEPASS_ENVS"] = before


def _clone(name: str, where: Path) -> Path:
    dest = where / name
    subprocess.run(["git", "clone", "-q", str(REPOS / f"{name}.bundle"), str(dest)],
                   check=True, capture_output=True)  # fmt: skip
    return dest


@pytest.fixture(scope="module")
def click(tmp_path_factory: pytest.TempPathFactory, envs: Path) -> Path:
    """click's fix, harvested into an instances file."""
    root = tmp_path_factory.mktemp("click")
    found = harvest(_clone("click", root), [CLICK_FIX], root / "out", name="pallets/click", runs=2)
    assert [h.valid for h in found] == [True], found
    return root / "out"


def test_harvest_writes_a_valid_swebench_instance(click: Path) -> None:
    (line,) = (click / "instances.jsonl").read_text().splitlines()
    inst = json.loads(line)
    assert inst["instance_id"] == f"pallets__click-{CLICK_FIX[:12]}"
    assert inst["base_commit"] != CLICK_FIX and inst["created_at"].startswith("2026-06-10")
    assert inst["FAIL_TO_PASS"] and all(t.startswith("tests/") for t in inst["FAIL_TO_PASS"])
    assert "tests/" not in inst["patch"] and "src/click/" in inst["patch"]
    assert "src/click/" not in inst["test_patch"]
    log = [json.loads(x) for x in (click / "harvest.jsonl").read_text().splitlines()]
    assert log[0]["harvested"]["environment"] and log[0]["harvested"]["flaky"] == []


def test_harvested_click_fix_judged_in_its_own_environment(click: Path) -> None:
    (sample,) = load_swebench(click / "instances.jsonl")[0]
    env = sample.environment
    assert env is not None and env.source is EnvSource.LOCK and env.project is not None
    assert any(r.startswith("pytest==") for r in env.requirements)
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    assert judge(sample, Answer(diff=sample.fix), check, CONFIG).verdict == Verdict.CORRECT
    # issue-only (the default): the shown tests are the repository's own at base, which the
    # buggy code passes; doing nothing breaks none of them and fails the hidden ones
    assert sample.meta["setting"] == "issue-only" and sample.tests.visible_role == "regression"
    assert judge(sample, Answer(files={}), check, CONFIG).verdict == Verdict.OVERFIT
    # the environment is cached: one build, found again by its key
    build._READY.clear()
    again = build.ready(env, sample.files)
    assert again.built.key == env.key() and (again.root / "venv" / "bin" / "python").exists()
    assert again.built.editable and again.built.editable.startswith("click-")


def test_an_unbuildable_environment_makes_the_sample_invalid(click: Path, tmp_path: Path) -> None:
    for name in ("instances.jsonl", "repos.toml"):
        (tmp_path / name).write_text((click / name).read_text())
    (tmp_path / "environments.toml").write_text(
        '["pallets/click"]\npackages = ["pytest"]\npre_install = ["echo no compiler >&2; exit 3"]\n'
    )
    (sample,) = load_swebench(tmp_path / "instances.jsonl")[0]
    assert sample.environment is not None and sample.environment.pre_install
    check = check_sample(sample, CONFIG)
    assert not check.valid and check.status is CheckStatus.ENVIRONMENT
    assert "pre-install command" in check.reason and "no compiler" in check.reason
    assert not check.cacheable  # a resumed run builds it again
    assert judge(sample, Answer(diff=sample.fix), check, CONFIG).verdict == Verdict.INVALID_SAMPLE
    assert not (build.envs_dir() / sample.environment.key()).exists()
    (tmp_path / "environments.toml").write_text(
        '["pallets/click"]\npackages = ["truepass-no-such-package-anywhere==0.0.1"]\n'
    )
    (sample,) = load_swebench(tmp_path / "instances.jsonl")[0]
    check = check_sample(sample, CONFIG)
    assert not check.valid and "truepass-no-such-package-anywhere" in check.reason


def test_a_c_extension_fix_is_compiled_in_the_sandbox(
    tmp_path_factory: pytest.TempPathFactory, envs: Path
) -> None:
    root = tmp_path_factory.mktemp("markupsafe")
    out = root / "out"
    found = harvest(_clone("markupsafe", root), [MARKUPSAFE_C_FIX], out,
                    name="pallets/markupsafe", runs=1)  # fmt: skip
    assert found[0].valid, found[0].reason
    # the failing test is the C implementation's (pure Python passes before the fix)
    assert found[0].fail_to_pass == ["tests/test_escape.py::test_subclass[markupsafe._speedups]"]
    (sample,) = load_swebench(out / "instances.jsonl")[0]
    assert sample.environment is not None
    assert sample.environment.extensions == ["src/markupsafe/_speedups.c"]
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    assert judge(sample, Answer(diff=sample.fix), check, CONFIG).verdict == Verdict.CORRECT
    broken = sample.fix.replace("PyUnicode_Check(s))", "PyUnicode_Check(s)) this is not C", 1)
    assert "this is not C" in broken
    got = judge(sample, Answer(diff=broken), check, CONFIG)
    assert got.verdict == Verdict.FAILS_VISIBLE, got.details


def test_a_scripted_agent_fixes_the_harvested_sample_in_its_environment(
    click: Path, tmp_path: Path, server: FakeOpenAI
) -> None:
    (sample,) = load_swebench(click / "instances.jsonl")[0]
    suite_file = tmp_path / "one.jsonl"
    suite_file.write_text(sample.model_dump_json() + "\n")
    where = "python -c 'import sys, click; print(sys.executable, click.__file__)'"
    server.script = [
        ok(f"Which interpreter?\n\n```bash\n{where}\n```"),
        ok(f"Apply the fix.\n\n```bash\npatch -p1 <<'EOF'\n{sample.fix}EOF\n```"),
        ok("Submit.\n\n```bash\nsubmit\n```"),
    ]
    solvers = make_solvers([f"agent:{MODEL}"], options=fake_model_options(tmp_path, MODEL))
    run(load_suite(str(suite_file)), solvers, tmp_path / "run", config=CONFIG)
    (line,) = (tmp_path / "run" / "results.jsonl").read_text().splitlines()
    rec = json.loads(line)
    assert rec["verdict"] == "correct", rec["details"]
    steps = Trajectory.model_validate(rec["solver_meta"]["agent"]).steps
    assert steps[0].exit_code == 0, steps[0].observation
    # the repository's own interpreter, importing the workspace through its editable install
    assert str(build.envs_dir()) in steps[0].observation
    assert "/workspace/src/click/__init__.py" in steps[0].observation


def test_the_sample_is_judged_on_dask_workers_from_its_spec(click: Path, tmp_path: Path) -> None:
    """A Dask worker (another process) builds or finds the environment from the spec the sample
    carries: the same key, the same verdicts."""
    common = ["--suite", f"swebench:{click / 'instances.jsonl'}", "--check-cache", "off",
              "--timeout", "300", "--solver", "oracle", "--solver", "noop"]  # fmt: skip
    before = os.environ.get("TRUEPASS_ENVS")
    os.environ["TRUEPASS_ENVS"] = str(tmp_path / "envs")  # empty: someone must build it
    try:
        invoke("run", *common, "--executor", "dask-local:1", "--out", str(tmp_path / "run"))
    finally:
        os.environ["TRUEPASS_ENVS"] = before or ""
    got = results(tmp_path / "run")
    (sample_id,) = {s for _, s in got}
    assert got["oracle", sample_id]["verdict"] == "correct"
    assert got["noop", sample_id]["verdict"] == "overfit"
    (sample,) = load_swebench(click / "instances.jsonl")[0]
    assert sample.environment is not None
    assert (tmp_path / "envs" / sample.environment.key() / "ready.json").is_file()


def test_a_package_without_a_wheel_is_built_from_its_sdist_in_the_sandbox(envs: Path) -> None:
    """mkautodoc 0.2.0 (httpx's docs requirement) is published as an sdist only."""
    from truepass.families.repair.environments.declared import RepoSpec, spec_for

    spec = spec_for({}, explicit=RepoSpec(packages=["mkautodoc==0.2.0"]))
    assert spec is not None and spec.problem is None, spec
    assert spec.sdists == ["mkautodoc==0.2.0"]
    assert any(r.startswith("mkautodoc==0.2.0") for r in spec.requirements)
    wheels = list((envs / "wheelhouse" / "mkautodoc-0.2.0").glob("mkautodoc-0.2.0-*.whl"))
    assert len(wheels) == 1
    env = build.ready(spec, {})
    site = next((env.root / "venv").glob("lib/python3*/site-packages"))
    assert (site / "mkautodoc").is_dir() and (site / "pytest").is_dir()
