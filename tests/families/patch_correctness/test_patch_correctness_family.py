"""The patch-correctness family: the schema, the builder on real repair runs over ``mini``
(oracle, noop, known-overfit replays, baseline:templates), the label judge and its metrics, and
a model (a fake OpenAI-compatible server) swept over k = 0, 2 with mixed demonstrations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, ok
from pydantic import ValidationError
from typer.testing import CliRunner

from truepass.answers import Answer, Label
from truepass.cli import app
from truepass.families.patch_correctness.builder import build, patched_key, sample_key
from truepass.families.patch_correctness.family import PatchCorrectnessFamily
from truepass.families.patch_correctness.model import choose, read_label
from truepass.families.patch_correctness.schema import PatchCorrectnessSample
from truepass.judged import JudgeConfig, SampleCheck
from truepass.records import AttemptRecord, read_results
from truepass.suites.loader import load_suite
from truepass.vocabulary import FAKE_FIX_FLAGS, Verdict

runner = CliRunner()

BUGGY = "def inc(x):\n    return x\n"
FIXED = "def inc(x):\n    return x + 1\n"
DIFF = (
    "--- a/inc.py\n+++ b/inc.py\n@@ -1,2 +1,2 @@\n def inc(x):\n-    return x\n+    return x + 1\n"
)


def _line(**over: Any) -> dict[str, Any]:
    line: dict[str, Any] = {
        "family": "patch-correctness",
        "id": "toy/inc/reference",
        "buggy": {"inc.py": BUGGY},
        "patched": {"inc.py": FIXED},
        "diff": DIFF,
        "label": "correct",
        "provenance": "reference",
        "defect_type": "off-by-one",
        "project": "toy",
        "solver": "reference",
        "source": "written for truepass's tests",
        "leakage": "private",
    }
    return line | over


# -- schema -----------------------------------------------------------------------------------


def test_the_schema_takes_a_sample_and_refuses_what_is_inconsistent(tmp_path: Path) -> None:
    sample = PatchCorrectnessSample.model_validate(_line())
    assert sample.label == "correct" and sample.timestamp is None and sample.meta == {}
    for bad, why in [
        ({"extra": 1}, "Extra inputs"),
        ({"label": "maybe"}, "label"),
        ({"provenance": "human"}, "provenance"),
        ({"patched": {"other.py": FIXED}}, "same files"),
        ({"patched": {"inc.py": BUGGY}}, "changes nothing"),
        ({"label": "overfitting"}, "reference fix is labelled 'correct'"),
        ({"buggy": {"../x.py": BUGGY}, "patched": {"../x.py": FIXED}}, "buggy"),
        ({"timestamp": "yesterday"}, "ISO 8601"),
    ]:
        with pytest.raises(ValidationError, match=why):
            PatchCorrectnessSample.model_validate(_line(**bad))
    path = tmp_path / "pc.jsonl"
    path.write_text(json.dumps(_line()) + "\n", encoding="utf-8")
    suite = load_suite(path)
    assert suite.family == "patch-correctness" and suite.samples == [sample]


def test_the_dedup_key_ignores_whitespace_and_comments_not_code() -> None:
    a = {"m.py": "def f(x):\n    return x+1\n"}
    b = {"m.py": "def f( x ):  # add one\n\n        return x + 1   \n"}
    c = {"m.py": "def f(x):\n    return x+2\n"}
    assert patched_key(a) == patched_key(b) != patched_key(c)
    assert patched_key({"n.py": a["m.py"]}) != patched_key(a)
    # two bugs of one file whose fixes restore the same code stay two samples
    assert sample_key({"m.py": "x = 1\n"}, a) != sample_key({"m.py": "x = 2\n"}, a)
    assert sample_key({"m.py": "x = 1\n"}, a) == sample_key({"m.py": "x = 1  # one\n"}, b)


# -- judge and metrics ------------------------------------------------------------------------


def _judge(label: str, answer: Answer | None) -> Any:
    sample = PatchCorrectnessSample.model_validate(
        _line(label=label, provenance="tool", solver="t", id=f"toy/{label}")
    )
    check = SampleCheck(sample_id=sample.id, valid=True)
    return PatchCorrectnessFamily().judge(sample, answer, check, JudgeConfig())


def test_a_label_answer_is_right_or_wrong_and_an_unparsed_one_is_counted_wrong() -> None:
    right = _judge("overfitting", Answer(label=Label(decision="Overfitting", rationale="why")))
    assert right.verdict is Verdict.CORRECT and right.patch == "overfitting\n\nwhy"
    assert right.scores == {"right": 1.0, "gold_overfitting": 1.0, "predicted_overfitting": 1.0}
    wrong = _judge("correct", Answer(label=Label(decision="overfit")))
    assert wrong.verdict is Verdict.FAILS_VISIBLE and wrong.scores["right"] == 0.0
    for answer in (None, Answer(no_patch=True), Answer(label=Label(decision="unsure"))):
        missing = _judge("correct", answer)
        assert missing.verdict is Verdict.NO_PATCH
        assert missing.scores == {"right": 0.0, "gold_overfitting": 0.0,
                                  "predicted_overfitting": -1.0}  # fmt: skip
    invalid = PatchCorrectnessFamily().judge(
        PatchCorrectnessSample.model_validate(_line()), None,
        SampleCheck(sample_id="x", valid=False, reason="no"), JudgeConfig(),
    )  # fmt: skip
    assert invalid.verdict is Verdict.INVALID_SAMPLE


def test_metrics_are_recomputed_from_the_records_alone() -> None:
    family = PatchCorrectnessFamily()
    cases = [  # (gold, answer decision or None)
        ("overfitting", "overfitting"), ("overfitting", "correct"), ("overfitting", None),
        ("correct", "correct"), ("correct", "overfitting"),
    ]  # fmt: skip
    records = []
    for i, (gold, said) in enumerate(cases):
        answer = Answer(label=Label(decision=said)) if said else None
        judged = _judge(gold, answer)
        records.append(AttemptRecord.of(judged, suite="s", sample_id=f"s{i}", defect_type="d",
                                        leakage="private", solver="m", attempt=0))  # fmt: skip
    invalid = dict(suite="s", sample_id="bad", defect_type="d", leakage="private", solver="m")
    records.append(AttemptRecord(verdict=Verdict.INVALID_SAMPLE, attempt=0, **invalid))
    m = family.metrics(records)
    assert m["accuracy"] == 0.4 and m["unparsed_rate"] == 0.2
    assert m["precision"] == 0.5 and m["recall"] == round(1 / 3, 4)
    assert m["recall[correct]"] == 0.5 and m["majority_baseline"] == 0.6
    assert m["accuracy_ci_low"] <= 0.4 <= m["accuracy_ci_high"]
    assert family.metrics([]) == {}


def test_labels_are_read_robustly() -> None:
    def decision(text: str) -> str | None:
        label = read_label(text)[0]
        return label.decision if label else None

    assert decision("Label: overfitting\nIt special-cases page 1.") == "overfitting"
    assert read_label("Label: overfitting\nRationale: special-cases page 1.")[0] == Label(
        decision="overfitting", rationale="special-cases page 1."
    )
    assert decision("**Verdict**: Correct. Not overfitting at all.") == "correct"
    assert decision("The answer is overfitted; a correct fix would ...") == "overfitting"
    assert decision("This patch looks correct to me.") == "correct"
    assert decision("It could be correct, or overfitting.") is None  # both, no key
    assert decision("I cannot tell.") is None
    assert decision("It is incorrect.") is None  # 'incorrect' is not 'correct'


def test_mixed_context_alternates_labels_best_first() -> None:
    def s(i: int, label: str) -> PatchCorrectnessSample:
        return PatchCorrectnessSample.model_validate(
            _line(id=f"t/{i}", label=label, provenance="tool", solver="x")
        )

    ranked = [s(0, "overfitting"), s(1, "overfitting"), s(2, "correct"), s(3, "overfitting")]
    ids = lambda xs: [x.id for x in xs]  # noqa: E731
    assert ids(choose(ranked, 2, "mixed")) == ["t/0", "t/2"]
    assert ids(choose(ranked, 4, "mixed")) == ["t/0", "t/2", "t/1", "t/3"]
    assert ids(choose(ranked, 2, "correct-only")) == ["t/2"]
    assert ids(choose(ranked, 2, "overfitting-only")) == ["t/0", "t/1"]


# -- the builder on real runs over mini ---------------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two runs over mini: oracle, noop and the known-overfit patches replayed on 2 samples;
    baseline:templates on the first one."""
    from truepass.runner import run
    from truepass.solvers import make_solvers

    root = tmp_path_factory.mktemp("runs")
    mini = load_suite("mini")
    replay = root / "overfit.jsonl"
    replay.write_text("".join(
        json.dumps({"sample_id": s.id, "patch": s.known_overfit}) + "\n"
        for s in mini.samples[:2] if s.known_overfit
    ), encoding="utf-8")  # fmt: skip
    cache = root / "checks.sqlite"
    first = run(mini, make_solvers(["oracle", "noop", f"replay:{replay}"]), root / "a",
                limit=2, check_cache=cache).out  # fmt: skip
    second = run(mini, make_solvers(["baseline:templates"]), root / "b", limit=1,
                 check_cache=cache).out  # fmt: skip
    return [first, second]


@pytest.fixture(scope="module")
def built(runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("built") / "suite"
    args = ["build-suite", "patch-correctness", "--out", str(out)]
    got = runner.invoke(app, [*args, *(x for r in runs for x in ("--from", str(r)))])
    assert got.exit_code == 0, got.output
    return out, got.output


def test_the_builder_labels_passing_attempts_by_the_hidden_tests(
    runs: list[Path], built: tuple[Path, str]
) -> None:
    out, output = built
    suite = load_suite(out)
    assert suite.family == "patch-correctness" and (out / "build.json").is_file()
    samples = {s.id: s for s in suite.samples}
    mini = {s.id: s for s in load_suite("mini").samples}
    sources = {str(s.meta["source_sample"]) for s in samples.values()}
    assert len(sources) == 2
    for source in sources:  # one reference fix per source sample, merged with oracle's attempt
        ref = samples[f"mini/{source}/reference"]
        assert ref.label == "correct" and ref.provenance == "reference"
        assert ref.solver == "reference" and "oracle" in ref.meta["solvers"]
        assert ref.defect_type == mini[source].defect_type and ref.project == "mini"
    overfit = [s for s in samples.values() if s.meta["solvers"] == [s.solver] and
               s.solver.startswith("replay:")]  # fmt: skip
    assert len(overfit) == 2 and {s.label for s in overfit} == {"overfitting"}
    assert all(s.provenance == "tool" for s in overfit)
    # what the runs recorded, per label: correct and no fake-fix flag / overfit
    records = [r for run_dir in runs for r in read_results(run_dir)]
    passing = [r for r in records if r.verdict in (Verdict.CORRECT, Verdict.OVERFIT)]
    in_samples = {(str(e["solver"]), str(e["run"])) for s in samples.values()
                  for e in s.meta["evidence"]}  # type: ignore[attr-defined]  # fmt: skip
    assert {(r.solver, str(run_dir)) for run_dir in runs for r in read_results(run_dir)
            if r.verdict in (Verdict.CORRECT, Verdict.OVERFIT)} <= in_samples  # fmt: skip
    report = json.loads((out / "build.json").read_text(encoding="utf-8"))
    assert report["passing"] == len(passing)
    assert report["skipped"]["not-passing"] == sum(r.solver == "noop" for r in records) == 2
    assert report["samples"] == len(samples) == sum(report["labels"].values())
    assert report["reference"] == {"correct": 2}
    assert report["tool"]["overfitting"] >= 2
    assert "tool-only" in output and "reference fixes" in output
    for sample in samples.values():  # the diff turns buggy into patched
        from truepass.patches.apply import apply_diff

        assert apply_diff(sample.buggy, sample.diff) == sample.patched


def test_the_same_run_twice_only_adds_duplicates(runs: list[Path]) -> None:
    once, r1 = build(runs[:1])
    twice, r2 = build([runs[0], runs[0]])
    assert [s.id for s in once] == [s.id for s in twice]
    assert r2.duplicates == r1.duplicates + r1.passing


def test_a_run_whose_suite_is_gone_is_an_input_error(runs: list[Path], tmp_path: Path) -> None:
    moved = tmp_path / "moved-run"
    shutil.copytree(runs[0], moved)
    manifest = json.loads((moved / "manifest.json").read_text(encoding="utf-8"))
    manifest["suite"] |= {"path": str(tmp_path / "gone"), "name": "gone-suite"}
    (moved / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    got = runner.invoke(app, ["build-suite", "patch-correctness", "--from", str(moved),
                              "--out", str(tmp_path / "o")])  # fmt: skip
    assert got.exit_code == 2
    assert str(moved) in got.output and str(tmp_path / "gone") in got.output
    (moved / "manifest.json").unlink()
    got = runner.invoke(app, ["build-suite", "patch-correctness", "--from", str(moved),
                              "--out", str(tmp_path / "o")])  # fmt: skip
    assert got.exit_code == 2 and "manifest.json" in got.output


def test_oracle_passes_and_check_suite_is_clean(built: tuple[Path, str], tmp_path: Path) -> None:
    out = tmp_path / "run"
    got = runner.invoke(app, ["run", "--suite", str(built[0]), "--solver", "oracle",
                              "--solver", "noop", "--out", str(out)])  # fmt: skip
    assert got.exit_code == 0, got.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    by_solver = {s["solver"]: s["metrics"] for s in summary["solvers"]}
    assert by_solver["oracle"]["accuracy"] == 1.0 and by_solver["noop"]["unparsed_rate"] == 1.0
    health = runner.invoke(app, ["check-suite", "--suite", str(built[0])])
    assert health.exit_code == 0, health.output
    assert "0 with problems" in health.output


# -- a model, end to end ------------------------------------------------------------------------


def test_a_model_sees_mixed_demonstrations_never_of_the_target_or_its_bug(
    built: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = load_suite(built[0])
    by_id = {s.id: s for s in suite.samples}
    out = tmp_path / "run"
    with FakeOpenAI([ok("Label: overfitting\nIt only handles the tested input.")] * 60) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        got = runner.invoke(app, [
            "run", "--suite", str(built[0]), "--solver", "openai:m", "--shots", "0,2",
            "--context", "mixed", "--out", str(out), "--cache", str(tmp_path / "c.sqlite"),
        ])  # fmt: skip
        assert got.exit_code == 0, got.output
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    results = {(r["solver"], r["sample_id"]): r for r in map(json.loads, lines)}
    solvers = {s for s, _ in results}
    assert len(solvers) == 2
    k2 = next(s for s in solvers if "-k2" in s)
    assert k2.endswith("-mixed")
    for sample in suite.samples:
        zero = results[next(iter(solvers - {k2})), sample.id]
        assert zero["solver_meta"]["demonstrations"]["k"] == 0
        right = sample.label == "overfitting"
        assert zero["verdict"] == ("correct" if right else "fails-visible")
        demo = results[k2, sample.id]["solver_meta"]["demonstrations"]
        assert demo["context"] == "mixed" and demo["removed"]["target"] == 1
        assert len(demo["shown"]) == 2 and sample.id not in demo["shown"]
        assert {by_id[d].label for d in demo["shown"]} == {"correct", "overfitting"}
        assert demo["labels"] == [by_id[d].label for d in demo["shown"]]
        bug = sample.meta["source_sample"]
        assert all(by_id[d].meta["source_sample"] != bug for d in demo["shown"])
        prompt = json.dumps(results[k2, sample.id]["solver_meta"]["rounds"][0]["prompt"])
        assert sample.provenance not in prompt or sample.provenance == "tool"
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    for s in summary["solvers"]:
        m = s["metrics"]
        assert m["recall[overfitting]"] == 1.0 and m["recall[correct]"] == 0.0
        assert m["unparsed_rate"] == 0.0


def _edited_copy(run_dir: Path, into: Path, **fields: Any) -> Path:
    """A copy of a run whose replayed attempts carry ``fields`` (verdict, flags)."""
    shutil.copytree(run_dir, into)
    lines = [json.loads(x) for x in (into / "results.jsonl").read_text("utf-8").splitlines()]
    edited = [r | fields if r["solver"].startswith("replay:") else r for r in lines]
    (into / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in edited), "utf-8")
    return into


def test_flagged_correct_is_overfitting_and_disagreeing_attempts_are_dropped(
    runs: list[Path], tmp_path: Path
) -> None:
    flag = FAKE_FIX_FLAGS[0]
    flagged = _edited_copy(runs[0], tmp_path / "flagged", verdict="correct", flags=[flag])
    samples, report = build([flagged])
    assert report.flagged_correct == 2 and report.conflicting == 0
    replayed = [s for s in samples if s.solver.startswith("replay:")]
    assert {s.label for s in replayed} == {"overfitting"}
    assert all(s.meta["flags"] == [flag] for s in replayed)
    clean = _edited_copy(runs[0], tmp_path / "clean", verdict="correct")
    samples, report = build([runs[0], clean])  # overfit in one run, correct in the other
    assert report.conflicting == 2
    assert not [s for s in samples if s.solver.startswith("replay:")]


def test_runs_where_nothing_passed_build_nothing(runs: list[Path], tmp_path: Path) -> None:
    failed = _edited_copy(runs[0], tmp_path / "failed", verdict="fails-visible")
    lines = (failed / "results.jsonl").read_text("utf-8").splitlines()
    kept = [x for x in lines if json.loads(x)["solver"].startswith("replay:")]
    (failed / "results.jsonl").write_text("\n".join(kept) + "\n", "utf-8")
    got = runner.invoke(app, ["build-suite", "patch-correctness", "--from", str(failed),
                              "--out", str(tmp_path / "o")])  # fmt: skip
    assert got.exit_code == 2 and "no attempt of 2 passed the visible tests" in got.output


QUIXBUGS = Path(__file__).parents[4] / "shared" / "benchmarks" / "quixbugs-python"


@pytest.mark.skipif(not QUIXBUGS.is_dir(), reason="QuixBugs is not in the shared benchmarks")
def test_a_run_on_a_public_benchmark_finds_its_suite_through_the_adapter(tmp_path: Path) -> None:
    from truepass.families.patch_correctness.builder import _suite_of

    suite = load_suite(f"quixbugs:{QUIXBUGS}")
    (tmp_path / "manifest.json").write_text(json.dumps({"suite": {
        "name": suite.name, "path": str(suite.path), "content_hash": suite.content_hash,
    }}), encoding="utf-8")  # fmt: skip
    assert _suite_of(tmp_path, {}).content_hash == suite.content_hash
