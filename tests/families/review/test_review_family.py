"""The review family: schema, the bundled review-mini set, judge and label metrics on hand-made
records, the answer parser, a model (a fake OpenAI-compatible server) swept over k = 0, 2 with
demonstrations through the leakage guard, and the ``review:`` adapter with its mapping."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, ok
from pydantic import ValidationError
from typer.testing import CliRunner

from truepass.answers import Answer, Label
from truepass.cli import app
from truepass.errors import InputError, SuiteError
from truepass.families import registry
from truepass.families.review.family import ReviewFamily
from truepass.families.review.model import read_decision
from truepass.families.review.prompts import Shown, build_review_messages
from truepass.families.review.schema import ReviewSample
from truepass.judged import JudgeConfig, SampleCheck
from truepass.prompts.guard import PromptLeakError, check_no_leaks
from truepass.records import AttemptRecord
from truepass.suites.loader import bundled_suites, load_suite
from truepass.vocabulary import Verdict

runner = CliRunner()

LINE: dict[str, Any] = {
    "family": "review",
    "id": "p-1",
    "project": "p",
    "change": {
        "diff": "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n",
        "files": {"x.py": "a = 1\n"},
    },
    "description": "Set a to 2.",
    "decision": "reject",
    "dialogue": [
        {
            "role": "reviewer",
            "text": "Why two? Nothing in the issue asks for it.",
            "turning_point": True,
        },
        {"role": "author", "text": "Fair, closing this one."},
    ],
    "timestamp": "2024-01-01T00:00:00Z",
    "source": "written for truepass's tests",
    "leakage": "private",
}


def _sample(**change: Any) -> ReviewSample:
    return ReviewSample.model_validate({**LINE, **change})


# -- schema and the bundled set ---------------------------------------------------------------


def test_the_schema_takes_a_review_and_refuses_what_is_not_one() -> None:
    s = _sample()
    assert (
        s.decision == "reject" and s.dialogue[0].turning_point and not s.dialogue[1].turning_point
    )
    assert s.change.files == {"x.py": "a = 1\n"} and s.defect_type == "review"
    assert s.when is not None and s.when.year == 2024
    for bad in (
        {"decision": "maybe"},
        {"dialogue": [{"role": "bot", "text": "hi"}]},
        {"change": {"diff": "d", "files": {"../x.py": ""}}},
        {"timestamp": "yesterday"},
        {"colour": "red"},
    ):
        with pytest.raises(ValidationError):
            _sample(**bad)
    with pytest.raises(ValidationError):
        ReviewSample.model_validate({k: v for k, v in LINE.items() if k != "decision"})


def test_review_mini_is_bundled_balanced_and_dated() -> None:
    assert "review-mini" in bundled_suites()
    suite = load_suite("review-mini")
    assert suite.family == "review" and len(suite.samples) >= 16
    decisions = [s.decision for s in suite.samples]
    assert decisions.count("accept") == decisions.count("reject")
    assert len({s.project for s in suite.samples}) == 3
    for s in suite.samples:
        assert s.timestamp and s.dialogue and s.change.diff.startswith("--- a/")
        assert sum(t.turning_point for t in s.dialogue) == 1
        assert set(s.change.files) == {s.change.diff.splitlines()[0].removeprefix("--- a/")}
    listed = runner.invoke(app, ["suites"])
    assert listed.exit_code == 0 and "review-mini" in listed.output
    assert "review" in registry.names()


def test_the_bundled_files_are_what_the_script_builds() -> None:
    import subprocess
    import sys

    script = Path(__file__).parents[3] / "scripts" / "build_review_mini.py"
    got = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert got.returncode == 0, got.stdout + got.stderr


# -- judge and metrics ------------------------------------------------------------------------

CHECK = SampleCheck(sample_id="p-1", valid=True)


def test_the_judge_compares_the_decision_and_scores_for_recomputing() -> None:
    family, config, s = ReviewFamily(), JudgeConfig(), _sample()
    right = family.judge(s, Answer(label=Label(decision="Reject", rationale="why")), CHECK, config)
    assert right.verdict is Verdict.CORRECT and right.patch == "Decision: reject\nwhy"
    assert right.scores == {"gold_reject": 1, "predicted_reject": 1, "right": 1}
    wrong = family.judge(s, Answer(label=Label(decision="accept")), CHECK, config)
    assert wrong.verdict is Verdict.FAILS_VISIBLE
    assert wrong.scores == {"gold_reject": 1, "predicted_reject": 0, "right": 0}
    for answer in (None, Answer(no_patch=True), Answer(label=Label(decision="perhaps"))):
        none = family.judge(s, answer, CHECK, config)
        assert none.verdict is Verdict.NO_PATCH
        assert none.scores == {"gold_reject": 1, "predicted_reject": -1, "right": 0}
    ref = family.reference_answer(s)
    assert ref.label == Label(
        decision="reject", rationale="Why two? Nothing in the issue asks for it."
    )
    assert family.null_answer(s) is None
    health = family.health(s, CHECK, config)
    assert health.reference == "correct" and not health.problems


def _record(i: int, gold: str, said: str | None) -> AttemptRecord:
    verdict = (
        Verdict.NO_PATCH
        if said is None
        else (Verdict.CORRECT if said == gold else Verdict.FAILS_VISIBLE)
    )
    scores = {
        "gold_reject": float(gold == "reject"),
        "predicted_reject": -1.0 if said is None else float(said == "reject"),
        "right": float(said == gold),
    }
    return AttemptRecord(
        suite="s",
        sample_id=f"s{i}",
        solver="m",
        attempt=0,
        verdict=verdict,
        scores=scores,
        defect_type="review",
        leakage="private",
    )


def test_metrics_are_the_label_metrics_of_the_records_alone() -> None:
    pairs = [
        ("reject", "reject"),
        ("reject", "accept"),
        ("reject", None),
        ("accept", "accept"),
        ("accept", "reject"),
        ("accept", "accept"),
    ]
    records = [_record(i, g, p) for i, (g, p) in enumerate(pairs)]
    records.append(
        _record(9, "accept", "accept").model_copy(update={"verdict": Verdict.INFRA_ERROR})
    )  # not counted
    family = ReviewFamily()
    family.configure({"positive": "reject"})
    m = family.metrics(records)
    # by hand: 3 of 6 right; said reject twice, once rightly; 3 gold rejects, 1 found
    assert m["accuracy"] == 0.5
    assert m["precision"] == 0.5 and m["recall"] == round(1 / 3, 4)
    assert m["f1"] == round(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3), 4)
    assert m["recall[accept]"] == round(2 / 3, 4) and m["recall[reject]"] == round(1 / 3, 4)
    assert m["unparsed_rate"] == round(1 / 6, 4)
    assert m["majority_baseline"] == 0.5 and m["random_baseline"] == 0.5
    assert m["accuracy_ci_low"] <= 0.5 <= m["accuracy_ci_high"]
    assert ReviewFamily().metrics([]) == {}
    # the default positive class is accept, as in CL4SE (seed 000), from the same records:
    # said accept 3 times (twice rightly: 2 of the 3 gold accepts found)
    d = ReviewFamily().metrics(records)
    assert ReviewFamily().options() == {"positive": "accept"}
    assert d["precision"] == round(2 / 3, 4) and d["recall"] == round(2 / 3, 4)
    assert d["f1"] == round(2 / 3, 4)
    assert d["accuracy"] == m["accuracy"] and d["recall[accept]"] == m["recall[accept]"]


@pytest.mark.parametrize("options", [{"positive": "maybe"}, {"negative": "accept"}])
def test_a_bad_family_option_is_an_input_error(options: dict[str, str]) -> None:
    with pytest.raises(InputError, match="positive"):
        ReviewFamily().configure(options)


# -- parsing and the prompt leak guard --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "decision", "rationale"),
    [
        ("Decision: accept\nRationale: small and tested", "accept", "small and tested"),
        ("**Decision:** Reject\nIt drops the check.", "reject", "It drops the check."),
        ("I read the diff.\nDecision: rejected — unsafe", "reject", ""),
        ("Accept. Looks fine.", "accept", ""),
        ("decision: APPROVE", "accept", ""),
    ],
)
def test_the_decision_is_read_robustly(text: str, decision: str, rationale: str) -> None:
    label, _, _ = read_decision(text)
    assert label is not None and label.decision == decision and label.rationale == rationale


@pytest.mark.parametrize(
    "text", ["", "Decision: accept or reject, hard to say", "Decision: ?", "Hmm.\nI cannot tell."]
)
def test_a_decision_line_naming_neither_or_both_is_unparsed(text: str) -> None:
    label, kind, detail = read_decision(text)
    assert label is None and kind == "none" and detail


def test_the_prompt_never_holds_the_targets_dialogue() -> None:
    s = _sample()
    key = ReviewFamily().answer_key(s)
    assert key.passages == {
        "Why two? Nothing in the issue asks for it.": "its review dialogue (turn 1, reviewer)",
        "Fair, closing this one.": "its review dialogue (turn 2, author)",
    }
    short = _sample(dialogue=[{"role": "reviewer", "text": "LGTM,   thanks!"}])
    assert ReviewFamily().answer_key(short).passages == {}  # too short to tell
    messages = build_review_messages(s.change.diff, dict(s.change.files), s.description, [])
    assert [m["role"] for m in messages] == ["system", "user"]
    check_no_leaks(messages, key, s.id)
    leaky = Shown("d", "x", "reject", [("reviewer", s.dialogue[0].text, True)])
    with pytest.raises(PromptLeakError, match=r"its review dialogue \(turn 1, reviewer\)"):
        check_no_leaks(build_review_messages(s.change.diff, {}, s.description, [leaky]), key, s.id)


# -- a model end to end -----------------------------------------------------------------------


def _results(run: Path) -> dict[tuple[str, str], dict[str, Any]]:
    lines = (run / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {(r["solver"], r["sample_id"]): r for r in map(json.loads, lines)}


@pytest.mark.parametrize("context", [None, "decision-only"])
def test_a_model_sees_only_earlier_reviews_of_the_same_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, context: str | None
) -> None:
    out = tmp_path / "run"
    suite = load_suite("review-mini")
    samples = {s.id: s for s in suite.samples}
    with FakeOpenAI([ok("Decision: reject\nRationale: it removes a safety check")] * 40) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        args = [
            "run",
            "--suite",
            "review-mini",
            "--solver",
            "openai:m",
            "--shots",
            "0,2",
            "--out",
            str(out),
            "--check-cache",
            "off",
            "--cache",
            str(tmp_path / "c.sqlite"),
        ]
        got = runner.invoke(app, args + (["--context", context] if context else []))
        assert got.exit_code == 0, got.output
    results = _results(out)
    suffix = f"-{context}" if context else ""
    k0, k2 = "openai:m#code-only", f"openai:m#code-only-k2{suffix}"
    assert {s for s, _ in results} == {k0, k2}
    assert len(results) == 2 * len(samples)
    for (solver, sid), r in results.items():
        target = samples[sid]
        assert r["verdict"] == ("correct" if target.decision == "reject" else "fails-visible")
        assert r["patch"] == "Decision: reject\nit removes a safety check"
        prompt = json.dumps(r["solver_meta"]["rounds"][0]["prompt"])
        for turn in target.dialogue:  # the target's own review never reaches its prompt
            assert json.dumps(turn.text)[1:-1] not in prompt
        demos = r["solver_meta"]["demonstrations"]
        if solver != k2:
            assert demos["k"] == 0 and "shown" not in demos
            continue
        assert demos["context"] == (context or "dialogue")
        assert sid not in demos["shown"]
        for d in demos["shown"]:
            shown = samples[d]
            assert shown.project == target.project
            assert shown.timestamp is not None and target.timestamp is not None
            assert shown.when <= target.when  # type: ignore[operator]
            turn = json.dumps(shown.dialogue[0].text)[1:-1]
            assert (turn in prompt) == (context is None)  # the whole dialogue, or none of it
        assert demos["removed"]["target"] == 1
        assert demos["removed"]["other-project"] + demos["removed"]["later"] >= 12
    first = results[k2, "ledger-1"]["solver_meta"]["demonstrations"]
    assert first["shown"] == []  # the oldest of its project: nothing earlier to show
    last = results[k2, "ledger-6"]["solver_meta"]["demonstrations"]
    assert len(last["shown"]) == 2  # of the five earlier ledger reviews
    assert last["removed"]["later"] == 3 and last["removed"]["other-project"] == 9
    roles = [m["role"] for m in results[k2, "ledger-6"]["solver_meta"]["rounds"][0]["prompt"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]

    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["family"] == "review"
    for s in summary["solvers"]:
        m = s["metrics"]
        assert m["accuracy"] == 0.5 and m["recall[reject]"] == 1.0 and m["recall[accept]"] == 0.0
        assert m["unparsed_rate"] == 0.0 and m["majority_baseline"] == 0.5
    compared = runner.invoke(app, ["compare", str(out)])
    assert compared.exit_code == 0, compared.output


def test_oracle_is_always_right_and_check_suite_passes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    got = runner.invoke(
        app,
        [
            "run",
            "--suite",
            "review-mini",
            "--solver",
            "oracle",
            "--out",
            str(out),
            "--check-cache",
            "off",
        ],
    )
    assert got.exit_code == 0, got.output
    metrics = json.loads((out / "summary.json").read_text())["solvers"][0]["metrics"]
    assert metrics["accuracy"] == 1.0 and metrics["f1"] == 1.0
    health = runner.invoke(app, ["check-suite", "--suite", "review-mini", "--check-cache", "off"])
    assert health.exit_code == 0, health.output
    assert "18 samples, 18 valid, 0 with problems" in health.output


def test_the_positive_class_is_an_option_recorded_and_stated(tmp_path: Path) -> None:
    def run(out: Path, *more: str) -> Any:
        return runner.invoke(app, ["run", "--suite", "review-mini", "--solver", "oracle",
                                   "--out", str(out), "--check-cache", "off", "--limit", "4",
                                   *more])  # fmt: skip

    out = tmp_path / "run"
    got = run(out, "--family-option", "positive=reject")
    assert got.exit_code == 0, got.output
    assert "review options: positive=reject" in " ".join(got.output.split())
    summary = json.loads((out / "summary.json").read_text())
    assert summary["family_options"] == {"positive": "reject"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["family_options"] == {"positive": "reject"}
    assert "positive=reject" in (out / "report.html").read_text(encoding="utf-8")
    bad = run(tmp_path / "bad", "--family-option", "positive=maybe")
    assert bad.exit_code == 2 and "accept and reject" in bad.output
    default = tmp_path / "default"
    assert run(default).exit_code == 0
    summary = json.loads((default / "summary.json").read_text())
    assert summary["family_options"] == {"positive": "accept"}


# -- the adapter ------------------------------------------------------------------------------

THEIRS = [  # CodeReviewer-style records
    {"id": 7, "proj": "acme/x", "patch": "@@ -1 +1 @@\n-a\n+b", "msg": "why b?", "y": 1},
    {"id": 8, "proj": "acme/x", "patch": "@@ -1 +1 @@\n-c\n+d", "msg": "", "y": 0},
]


def _write(tmp_path: Path, records: list[dict[str, Any]], mapping: str) -> Path:
    data = tmp_path / "cls-test.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    path = tmp_path / "mapping.toml"
    path.write_text(mapping, encoding="utf-8")
    return path


def test_the_adapter_reads_codereviewer_style_records_through_a_mapping(tmp_path: Path) -> None:
    path = _write(tmp_path, THEIRS, 'data = "cls-test.jsonl"\npreset = "codereviewer"\n')
    suite = load_suite(f"review:{path}")
    assert suite.family == "review" and [s.id for s in suite.samples] == ["7", "8"]
    a, b = suite.samples
    assert (a.decision, a.project, a.change.diff) == ("reject", "acme/x", "@@ -1 +1 @@\n-a\n+b")
    assert [t.text for t in a.dialogue] == ["why b?"] and a.leakage == "public-old"
    assert b.decision == "accept" and b.dialogue == []
    explicit = _write(
        tmp_path,
        [
            {
                "d": {"text": "@@ x"},
                "verdict": "merged",
                "when": 0,
                "turns": [{"role": "owner", "text": "ok"}],
            }
        ],
        'data = "cls-test.jsonl"\n[fields]\ndiff = "d.text"\ndecision = "verdict"\n'
        'timestamp = "when"\ndialogue = "turns"\n[defaults]\nproject = "q"\n',
    )
    (one,) = load_suite(f"review:{explicit}").samples
    assert one.decision == "accept" and one.project == "q" and one.id == "cls-test-1"
    assert one.dialogue[0].role == "author" and one.timestamp == "1970-01-01T00:00:00+00:00"
    ours = tmp_path / "ours.jsonl"  # our own field names, family left out
    ours.write_text(json.dumps({k: v for k, v in LINE.items() if k != "family"}) + "\n")
    assert load_suite(f"review:{ours}").samples[0] == _sample()


@pytest.mark.parametrize(
    ("records", "mapping", "message"),
    [
        (THEIRS, 'data = "cls-test.jsonl"\n', "cls-test.jsonl:1: field 'diff': required field"),
        (
            [{**THEIRS[0], "y": 3}],
            'data = "cls-test.jsonl"\npreset = "codereviewer"\n',
            "cls-test.jsonl:1: field 'y (decision)': unknown decision 3",
        ),
        (
            [THEIRS[0], {**THEIRS[1], "msg": 5}],
            'data = "cls-test.jsonl"\npreset = "codereviewer"\n',
            "cls-test.jsonl:2: field 'msg (dialogue)': must be a string or a list",
        ),
        (
            [THEIRS[0], THEIRS[0]],
            'data = "cls-test.jsonl"\npreset = "codereviewer"\n',
            "cls-test.jsonl:2: field 'id': duplicate id '7'",
        ),
        (
            THEIRS,
            'data = "cls-test.jsonl"\n[fields]\npatch = "diff"\n',
            "mapping.toml: field 'fields.patch': not one of our fields",
        ),
        (
            THEIRS,
            'data = "cls-test.jsonl"\n[decisions]\n"1" = "maybe"\n',
            "mapping.toml: field 'decisions.1': must be accept or reject",
        ),
        (THEIRS, 'data = "nope.jsonl"\n', "mapping.toml: field 'data': no such data file"),
        (
            THEIRS,
            'preset = "gerrit"\ndata = "cls-test.jsonl"\n',
            "mapping.toml: field 'preset': unknown preset 'gerrit'",
        ),
        (THEIRS, 'data = "cls-test.jsonl"\nfield = 1\n', "mapping.toml: field 'field': unknown"),
    ],
)
def test_adapter_errors_name_the_file_line_and_field(
    tmp_path: Path, records: list[dict[str, Any]], mapping: str, message: str
) -> None:
    path = _write(tmp_path, records, mapping)
    with pytest.raises(SuiteError) as err:
        load_suite(f"review:{path}")
    assert message in str(err.value)
    got = runner.invoke(
        app,
        ["run", "--suite", f"review:{path}", "--solver", "oracle", "--out", str(tmp_path / "run")],
    )
    assert got.exit_code == 2 and "field" in got.output


def test_the_guard_drops_a_change_with_the_same_diff_and_other_projects() -> None:
    from truepass.families.review.model import candidate, retriever_for

    target = _sample(id="p-9", timestamp="2024-06-01T00:00:00Z")
    twin = _sample(id="p-2", description="Same diff, other words.")  # earlier, same diff
    earlier = _sample(id="p-3", change={"diff": "+b = 3\n"})
    elsewhere = _sample(id="q-1", project="q", change={"diff": "+c = 4\n"})
    pool = [target, twin, earlier, elsewhere]
    picked = retriever_for(pool).select(candidate(target), 5, same_project=True)
    assert picked.shown_ids == ["p-3"]
    assert picked.removed == {"target": 1, "near-duplicate": 1, "later": 0, "other-project": 1}
