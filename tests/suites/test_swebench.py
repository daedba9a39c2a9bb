"""The SWE-bench adapter on a small real git repository built here, judged in the real sandbox."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from truepass.answers import Answer
from truepass.checking import check_suite
from truepass.cli import app
from truepass.errors import SuiteError
from truepass.families.repair.adapters.swebench import (
    configured_pythonpath,
    load_swebench,
    pytest_command,
)
from truepass.families.repair.adapters.swebench_settings import SweSetting
from truepass.families.repair.judge import check_sample, judge, phase_result
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.testids import non_pytest_reason, resolve_expected
from truepass.judged import JudgeConfig
from truepass.patches.apply import apply_diff
from truepass.sandbox import Limits
from truepass.sandbox.testrun import TestRun
from truepass.suites.loader import load_suite, parse_jsonl
from truepass.vocabulary import Verdict

CONFIG = JudgeConfig(limits=Limits(timeout_s=30), reruns=0)
OPS = """def add(a, b):
    return a + b


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return x
    return x
"""
TESTS = """from calc import add, clamp


def test_add():
    assert add(2, 3) == 5


def test_clamp_low():
    assert clamp(-1, 0, 10) == 0


def test_known_broken():
    assert False, "fails before and after the fix: in neither list"
"""
NEW_TESTS = """

@pytest.mark.parametrize("x, want", [(11, 10), (99, 10)])
def test_clamp_high(x, want, limits):
    assert clamp(x, *limits) == want


class TestClamp:
    def test_mid(self):
        assert clamp(5, 0, 10) == 5
"""
CONFTEST = "import pytest\n"
F2P = ["tests/test_ops.py::test_clamp_high[11-10]", "tests/test_ops.py::test_clamp_high[99-10]"]
P2P = [
    "tests/test_ops.py::test_add",
    "tests/test_ops.py::test_clamp_low",
    "tests/test_ops.py::TestClamp::test_mid",
]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _diff(repo: Path, changes: dict[str, str]) -> str:
    """``git diff`` of ``changes`` against HEAD, leaving the working tree as it was."""
    before = {p: (repo / p).read_text() if (repo / p).exists() else None for p in changes}
    for p, text in changes.items():
        (repo / p).parent.mkdir(parents=True, exist_ok=True)
        (repo / p).write_text(text)
    _git(repo, "add", "-N", ".")
    out = _git(repo, "diff")
    for p, text in before.items():
        if text is None:
            (repo / p).unlink()
        else:
            (repo / p).write_text(text)
    _git(repo, "reset", "-q")
    return out


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A repository ``acme/calc`` under ``repos/acme__calc`` and one instance in SWE-bench shape."""
    root = tmp_path_factory.mktemp("swebench")
    repo = root / "repos" / "acme__calc"
    files = {
        "calc/__init__.py": "from calc.ops import add, clamp\n",
        "calc/ops.py": OPS,
        "tests/test_ops.py": TESTS,
        "tests/test_other.py": "from calc import add\n\n\ndef test_other():\n    add(1, 1)\n",
        "tests/conftest.py": CONFTEST,
        "README.md": "calc\n",
        "data/big.txt": "x" * 1_100_000,
    }
    for p, text in files.items():
        (repo / p).parent.mkdir(parents=True, exist_ok=True)
        (repo / p).write_text(text)
    (repo / "docs").mkdir()
    (repo / "docs" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    base = _git(repo, "rev-parse", "HEAD").strip()
    test_patch = _diff(
        repo,
        {
            "tests/test_ops.py": "import pytest\n\n" + TESTS + NEW_TESTS,
            "tests/conftest.py": CONFTEST
            + "\n\n@pytest.fixture\ndef limits():\n    return (0, 10)\n",
        },
    )
    patch = _diff(
        repo,
        {
            "calc/ops.py": OPS.replace(
                "        return x\n    return", "        return hi\n    return"
            )
        },
    )
    # a later commit, so that base_commit is not HEAD: files must come from git, not the worktree
    (repo / "calc" / "ops.py").write_text("raise SystemExit('not the base commit')\n")
    _git(repo, "commit", "-q", "-am", "later")
    instance = {
        "instance_id": "acme__calc-1",
        "repo": "acme/calc",
        "base_commit": base,
        "patch": patch,
        "test_patch": test_patch,
        "problem_statement": "clamp() returns x instead of hi when x is above the range.\n",
        "hints_text": "",
        "created_at": "2022-05-01T10:00:00Z",
        "version": "1.0",
        "FAIL_TO_PASS": json.dumps(F2P),  # as in the Hugging Face dataset
        "PASS_TO_PASS": P2P,
    }
    return {"root": root, "repo": repo, "instance": instance}


def _write(root: Path, name: str, *instances: dict[str, object] | str) -> Path:
    lines = [i if isinstance(i, str) else json.dumps(i) for i in instances]
    (root / name).write_text("\n".join(lines) + "\n")
    return root / name


def _load(
    bench: dict[str, object],
    name: str = "one.jsonl",
    setting: SweSetting = SweSetting.TESTS_SHOWN,
    **changes: object,
) -> RepairSample:
    inst = {**bench["instance"], **changes}  # type: ignore[dict-item]
    samples, _ = load_swebench(_write(bench["root"], name, inst), setting)  # type: ignore[arg-type]
    return samples[0]


def test_instance_becomes_the_documented_sample(bench: dict[str, object]) -> None:
    path = _write(bench["root"], "one.jsonl", bench["instance"])  # type: ignore[arg-type]
    samples, source = load_swebench(path, SweSetting.TESTS_SHOWN)
    (s,) = samples
    assert s.id == "acme__calc-1" and s.defect_type == "issue"
    assert s.description.startswith("clamp() returns x")
    assert s.files["calc/ops.py"] == OPS  # read at base_commit, not from the later worktree
    assert "tests/test_other.py" in s.files and "tests/test_ops.py" not in s.files
    assert "def limits" in s.files["tests/conftest.py"]  # test support, patched, stays code-side
    assert (
        s.tests.visible
        == s.tests.hidden
        == {"tests/test_ops.py": s.tests.visible["tests/test_ops.py"]}
    )
    assert "def test_clamp_high" in s.tests.visible["tests/test_ops.py"]
    assert s.tests.expected is not None
    assert s.tests.expected.visible == F2P and s.tests.expected.hidden == F2P + P2P
    assert s.fix == bench["instance"]["patch"]  # type: ignore[index]
    assert [(f.file, f.lines) for f in s.fault] == [("calc/ops.py", [9])]
    assert s.leakage == "public-old"
    assert "SWE-bench" in s.source and "acme/calc" in s.source
    assert s.test_command == ["pytest", "--rootdir=.", "-o", "pythonpath=.", "tests/test_ops.py"]
    skipped = s.meta["skipped_files"]
    assert skipped["binary"] == 1 and skipped["too-large"] == 1  # type: ignore[index]
    assert skipped["paths"] == ["data/big.txt", "docs/logo.png"]  # type: ignore[index]
    assert s.meta["test_support"] == ["tests/conftest.py"] and s.meta["version"] == "1.0"
    assert path.read_bytes() in source
    # the fix applies to what the sample holds, and the sample survives the suite format
    assert apply_diff(s.files, s.fix)["calc/ops.py"].count("return hi") == 1
    again = parse_jsonl(s.model_dump_json().encode(), Path("x.jsonl"))
    assert again == [s]
    # written by reference: the line holds what differs from the commit (the test patch's
    # conftest), the rest comes back from git when it is read
    line = json.loads(s.model_dump_json())
    assert (
        line["repository"]["files_omitted"]
        and line["repository"]["commit"] == s.meta["base_commit"]
    )
    assert set(line["files"]) == {"tests/conftest.py"} and "calc/ops.py" in s.files
    assert again[0].files["calc/ops.py"] is s.files["calc/ops.py"]  # one string, shared


def test_json_list_repos_toml_and_leakage(bench: dict[str, object]) -> None:
    root: Path = bench["root"]  # type: ignore[assignment]
    sub = root / "elsewhere"
    sub.mkdir(exist_ok=True)
    (sub / "repos.toml").write_text('"acme/calc" = "../repos/acme__calc"\n')
    recent = {**bench["instance"], "created_at": "2023-06-01 12:00:00", "FAIL_TO_PASS": F2P}  # type: ignore[dict-item]
    old = {**bench["instance"], "instance_id": "acme__calc-2"}  # type: ignore[dict-item]
    del old["created_at"]
    (sub / "set.json").write_text(json.dumps([recent, old], indent=2))
    samples, _ = load_swebench(sub / "set.json", SweSetting.TESTS_SHOWN)
    assert [s.leakage for s in samples] == ["public-recent", "public-old"]
    assert samples[0].files == _load(bench).files


@pytest.fixture(scope="module")
def sample(bench: dict[str, object]) -> RepairSample:
    return _load(bench)


def test_check_suite_in_the_sandbox(bench: dict[str, object]) -> None:
    suite = load_suite(f"swebench:{_write(bench['root'], 'one.jsonl', bench['instance'])}")  # type: ignore[arg-type]
    health = check_suite(suite, config=JudgeConfig(limits=Limits(timeout_s=30), reruns=2), jobs=1)
    (h,) = health.samples
    assert h.valid and h.reference == "correct" and not h.problems, h


def test_verdicts_resolved_noop_and_overfit(sample: RepairSample) -> None:
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    assert check.visible_ids == sorted(F2P) and check.hidden_ids == sorted(F2P + P2P)
    assert "tests/test_ops.py::test_known_broken" not in check.visible_ids
    assert judge(sample, Answer(diff=sample.fix), check, CONFIG).verdict == Verdict.CORRECT
    noop = judge(sample, Answer(files={}), check, CONFIG)
    assert noop.verdict == Verdict.FAILS_VISIBLE
    # fixes the FAIL_TO_PASS tests but breaks add(): a PASS_TO_PASS test fails
    broken_add = OPS.replace("return a + b", "return a - b").replace(
        "        return x\n    return", "        return hi\n    return"
    )
    over = judge(sample, Answer(files={"calc/ops.py": broken_add}), check, CONFIG)
    assert over.verdict == Verdict.OVERFIT, over.details
    assert over.visible and over.visible.ok
    assert over.hidden and "tests/test_ops.py::test_add" in over.hidden.failing
    assert "tests/test_ops.py::test_add" in over.regressions


def _with_expected(sample: RepairSample, visible: list[str]) -> RepairSample:
    data = sample.model_dump()
    data["tests"]["expected"]["visible"] = visible
    return RepairSample.model_validate(data)


@pytest.mark.parametrize(
    ("wrong", "says"),
    [
        ("tests/test_nope.py::test_clamp_high[11-10]", "not reported by the run"),
        ("tests/test_ops.py::test_clamp_high[12-10]", "not reported by the run"),
        ("test_clamp_high (tests.test_ops.TestClamp)", "not reported by the run"),
    ],
)
def test_a_mismatching_expected_id_makes_the_sample_invalid(
    sample: RepairSample, wrong: str, says: str
) -> None:
    bad = _with_expected(sample, [F2P[0], wrong])
    check = check_sample(bad, CONFIG)
    assert not check.valid
    assert check.reason.startswith("visible tests: 1 expected test id(s)")
    assert wrong in check.reason and says in check.reason
    assert "tests/test_ops.py::test_clamp_high[" in check.reason  # reported ids, for comparison
    assert judge(bad, Answer(diff=bad.fix), check, CONFIG).verdict == Verdict.INVALID_SAMPLE


def test_id_matching_rules() -> None:
    reported = [
        "tests/test_x.py::test_a",
        "tests/test_x.py::test_p[a b]",
        "tests/test_x.py::test_p[c]",
        "tests/test_x.py::TestK::test_m",
        "tests/sub/test_y.py::test_a",
    ]
    assert resolve_expected(["./tests/test_x.py::TestK::()::test_m"], reported) == (
        ["tests/test_x.py::TestK::test_m"],
        "",
    )
    assert resolve_expected(["tests/test_x.py::test_p[a"], reported)[0] == [reported[1]]
    assert resolve_expected(["test_p"], reported)[0] == [reported[1], reported[2]]
    assert resolve_expected(["test_x.py::test_a"], reported)[0] == [reported[0]]
    _, problem = resolve_expected(["test_y.py::TestK::test_z"], reported)
    assert "not reported" in problem
    assert non_pytest_reason("tests/test_x.py::test p")
    assert non_pytest_reason("tests/test_x.py::test_p[a b]") is None
    # unittest ids, both spellings, name the node id pytest reports for the test case
    assert non_pytest_reason("test_m (tests.test_x.TestK)") is None
    assert resolve_expected(["test_m (tests.test_x.TestK)"], reported) == ([reported[3]], "")
    assert resolve_expected(["tests.test_x.TestK.test_m"], reported)[0] == [reported[3]]
    assert resolve_expected(["test_x.TestK.test_m"], reported)[0] == [reported[3]]
    _, problem = resolve_expected(["test_n (tests.test_x.TestK)"], reported)
    assert "not reported" in problem


def test_tests_outside_the_expected_set_do_not_count() -> None:
    def run(outcomes: dict[str, str], rc: int) -> TestRun:
        return TestRun(tier="t", returncode=rc, timed_out=False, started=True, finished=True,
                       collected=list(outcomes), outcomes=outcomes)  # fmt: skip

    assert phase_result(run({"a": "passed", "b": "failed"}, 1), ["a"]).ok
    res = phase_result(run({"a": "passed", "b": "failed"}, 1), ["a", "b"])
    assert not res.ok and res.failing == ["b"]
    assert phase_result(run({"a": "passed", "b": "failed"}, 1), ["a"]).failing == []
    assert not phase_result(run({"a": "passed"}, 1), ["a"]).ok  # exit 1 with nothing failed
    assert not phase_result(run({"a": "passed", "b": "failed"}, 2), ["a"]).ok


def test_the_repositorys_own_pythonpath_is_kept() -> None:
    pyproject = '[tool.pytest.ini_options]\npythonpath = ["tests"]\n'
    files = {"pyproject.toml": pyproject, "src/pkg/__init__.py": ""}
    assert pytest_command(["tests/test_a.py"], files)[:4] == [
        "pytest", "--rootdir=.", "-o", "pythonpath=tests . src",
    ]  # fmt: skip
    # pytest.ini wins over setup.cfg; tox.ini without a [pytest] section is passed over
    assert configured_pythonpath({"pytest.ini": "[pytest]\n", "setup.cfg": CFG}) == []
    assert configured_pythonpath({"tox.ini": "[tox]\n", "setup.cfg": CFG}) == ["lib", "."]
    assert configured_pythonpath({"pyproject.toml": "[project]\nname = 'x'\n"}) == []


CFG = "[tool:pytest]\npythonpath = lib .\n"


# --- malformed input: clear errors, exit 2 -------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"patch": None}, "field 'patch': required field is missing"),
        ({"FAIL_TO_PASS": "[not json"}, "field 'FAIL_TO_PASS': a string, but not a JSON-encoded"),
        ({"FAIL_TO_PASS": []}, "field 'FAIL_TO_PASS': is empty"),
        ({"PASS_TO_PASS": ["tests/test_ops.py::test x"]}, "has a space outside its parameters"),
        ({"repo": "acme/nowhere"}, "repository 'acme/nowhere' not found locally"),
        ({"base_commit": "0" * 40}, "is not in"),
        ({"created_at": "yesterday"}, "field 'created_at': not a date"),
        (
            {"patch": "--- a/docs/logo.png\n+++ b/docs/logo.png\n@@ -1 +1 @@\n-x\n+y\n"},
            "field 'patch': changes 'docs/logo.png', which was left out of the sample (binary",
        ),
        (
            {"patch": "--- a/calc/ops.py\n+++ b/calc/ops.py\n@@ -1 +1 @@\n-nope\n+x\n"},
            "does not apply",
        ),
    ],
)
def test_malformed_instances_name_file_line_instance_and_field(
    bench: dict[str, object], change: dict[str, object], says: str
) -> None:
    inst = {k: v for k, v in {**bench["instance"], **change}.items() if v is not None}  # type: ignore[dict-item]
    path = _write(bench["root"], "bad.jsonl", "", inst)
    with pytest.raises(SuiteError) as err:
        load_swebench(path)
    assert f"{path}:2 (acme__calc-1)" in str(err.value) and says in str(err.value)


def test_a_mapped_directory_that_is_no_clone(bench: dict[str, object]) -> None:
    root: Path = bench["root"]  # type: ignore[assignment]
    (root / "nogit" / "plain").mkdir(parents=True, exist_ok=True)
    (root / "nogit" / "repos.toml").write_text('"acme/calc" = "plain"\n')
    path = _write(root / "nogit", "i.jsonl", bench["instance"])  # type: ignore[arg-type]
    with pytest.raises(SuiteError, match=r"field 'repo': .*plain is not a git repository"):
        load_swebench(path)


def test_bad_json_and_missing_file(bench: dict[str, object]) -> None:
    path = _write(bench["root"], "bad.jsonl", bench["instance"], "{broken")  # type: ignore[arg-type]
    with pytest.raises(SuiteError, match=r"bad\.jsonl:2: not valid JSON"):
        load_swebench(path)
    (bench["root"] / "bad.json").write_text('[\n{"instance_id": "x"},\n  7\n]')  # type: ignore[operator]
    with pytest.raises(SuiteError, match=r"bad\.json:3: an instance must be a JSON object"):
        load_swebench(bench["root"] / "bad.json")  # type: ignore[operator]
    with pytest.raises(SuiteError, match=r"expected a \.json"):
        load_swebench(bench["root"] / "absent.jsonl")  # type: ignore[operator]


def test_cli_import_and_errors(bench: dict[str, object], tmp_path: Path) -> None:
    runner = CliRunner()
    path = _write(bench["root"], "one.jsonl", bench["instance"])  # type: ignore[arg-type]
    got = runner.invoke(app, ["import", "swebench", str(path), "--out", str(tmp_path / "s")])
    assert got.exit_code == 0, got.output
    suite = load_suite(tmp_path / "s")
    assert [s.id for s in suite.samples] == ["acme__calc-1"]
    assert suite.samples[0].tests == _load(bench, setting=SweSetting.ISSUE_ONLY).tests
    bad = _write(bench["root"], "bad.jsonl", {**bench["instance"], "repo": "acme/nowhere"})  # type: ignore[dict-item]
    got = runner.invoke(app, ["import", "swebench", str(bad), "--out", str(tmp_path / "x")])
    assert got.exit_code == 2 and "not found locally" in got.output
