"""Metric-versus-k curves of k sweeps, the demonstrations on attempt pages, metrics.csv and
curves.csv."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, ok
from report_runs import (
    ARCHIVED,
    MODEL,
    REVIEW_SAMPLES,
    SWEEP_A,
    SWEEP_B,
    XSS,
    record,
    review_record,
    review_solver,
    review_sweep_records,
    review_sweep_runs,
    varied_run,
    write_run,
)
from test_report_html import Page, parse
from typer.testing import CliRunner

from truepass.cli import app
from truepass.metrics.bootstrap import bootstrap_ci
from truepass.metrics.labels import label_intervals
from truepass.report import render_report, write_exports
from truepass.report.curves import FamilyCurves, sweep_curves
from truepass.report.load import all_attempts, load_runs
from truepass.report.stats import solver_stats, wilson

DIALOGUE = f"{MODEL}#code-only · dialogue"
DECISION_ONLY = f"{MODEL}#code-only · decision-only"


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def accuracy_ci(right: int, n: int = len(REVIEW_SAMPLES)) -> tuple[float, float]:
    """The interval the review family gives an accuracy: the bootstrap of right/wrong answers."""
    ci = bootstrap_ci([1.0] * right + [0.0] * (n - right))
    assert ci is not None
    return round(ci[0], 4), round(ci[1], 4)


def f1(right: int) -> float:
    """F1 of ``accept`` (the review family's positive class, as in CL4SE) when the first
    ``right`` samples are answered right and the rest wrong (the odd samples ended in reject)."""
    gold = [g == "accept" for _, g in REVIEW_SAMPLES]
    said = [g if i < right else not g for i, g in enumerate(gold)]
    tp = sum(g and s for g, s in zip(gold, said, strict=True))
    fp = sum(s and not g for g, s in zip(gold, said, strict=True))
    fn = sum(g and not s for g, s in zip(gold, said, strict=True))
    return round(2 * tp / (2 * tp + fp + fn), 4)


def f1_ci(right: int) -> tuple[float, float]:
    """The interval the review family gives F1: the bootstrap of the answers (label_intervals)."""
    gold = ["reject" if g == "reject" else "accept" for _, g in REVIEW_SAMPLES]
    flip = {"reject": "accept", "accept": "reject"}
    said: list[str | None] = [g if i < right else flip[g] for i, g in enumerate(gold)]
    got = label_intervals(gold, said, "accept")
    return got["f1_ci_low"], got["f1_ci_high"]


@pytest.fixture
def sweep_runs(tmp_path: Path) -> list[Path]:
    return review_sweep_runs(tmp_path)


def curves_of(run_dirs: list[Path]) -> list[FamilyCurves]:
    return sweep_curves(solver_stats(all_attempts(load_runs(run_dirs))))


def test_a_sweep_becomes_one_line_per_context_with_intervals(sweep_runs: list[Path]) -> None:
    [fc] = curves_of(sweep_runs)
    assert fc.family == "review" and fc.metrics == ["accuracy", "f1"]
    assert [c.label for c in fc.curves] == [DIALOGUE, DECISION_ONLY]
    dialogue, decision_only = fc.curves
    assert [(p.k, p.solver, p.counted) for p in dialogue.points] == [
        (0, review_solver(0), 8),
        (1, review_solver(1), 8),
        (2, review_solver(2), 8),
    ]
    for p in dialogue.points:
        right = SWEEP_A[p.k]
        acc = p.metrics["accuracy"]
        assert acc.value == right / 8
        assert (acc.low, acc.high) == accuracy_ci(right)
        assert acc.low is not None and acc.high is not None and acc.low <= acc.value <= acc.high
        assert p.metrics["f1"].value == f1(right)
        assert (p.metrics["f1"].low, p.metrics["f1"].high) == f1_ci(right)
    assert [p.metrics["accuracy"].value for p in dialogue.points] == [0.5, 0.75, 0.875]
    # run b has no k = 0 solver: its line starts at the k = 0 solver of the same model
    assert [(p.k, p.solver) for p in decision_only.points] == [
        (0, review_solver(0)),
        (1, review_solver(1, "decision-only")),
        (2, review_solver(2, "decision-only")),
    ]
    assert [p.metrics["accuracy"].value for p in decision_only.points] == [0.5, 0.625, 0.75]
    assert not fc.without_interval("f1") and not fc.without_interval("accuracy")


def test_k_and_context_come_from_the_records_not_the_names(tmp_path: Path) -> None:
    # solver names that say nothing about k: the records' demonstrations decide
    recs = [
        review_record(i, f"model-{k}", k, "dialogue", i < n)
        for k, n in SWEEP_A.items()
        for i in range(len(REVIEW_SAMPLES))
    ]
    [fc] = curves_of([write_run(tmp_path / "r", recs, family="review")])
    [curve] = fc.curves
    assert [(p.k, p.solver) for p in curve.points] == [
        (0, "model-0"),
        (1, "model-1"),
        (2, "model-2"),
    ]
    # a k = 0 solver whose records carry no demonstrations (an older run) is still the k = 0
    # point; a solver with another temperature has another setting: no k = 0 of its own, no line
    old = [review_record(i, "old", 0, "", i < 2, with_demos=False) for i in range(8)]
    hot = [review_record(i, "hot-k1", 1, "dialogue", True) for i in range(8)]
    hot += [review_record(i, "hot-k2", 2, "dialogue", True) for i in range(8)]
    for r in hot:
        r["solver_meta"]["temperature"] = 0.7
    [fc] = curves_of([write_run(tmp_path / "o", old + recs[8:] + hot[:8], family="review")])
    [curve] = fc.curves
    assert curve.label == DIALOGUE
    assert [(p.k, p.solver) for p in curve.points] == [(0, "old"), (1, "model-1"), (2, "model-2")]
    assert curve.points[0].metrics["accuracy"].value == 0.25
    [fc] = curves_of([write_run(tmp_path / "h", old + hot, family="review")])
    assert [c.label for c in fc.curves] == [f"{MODEL}#code-only@t0.7 · dialogue"]
    assert [(p.k, p.solver) for p in fc.curves[0].points] == [(1, "hot-k1"), (2, "hot-k2")]


def test_retrieval_methods_are_lines_of_their_own(tmp_path: Path) -> None:
    """Two retrieval methods in one run: told apart by the records when they say the method,
    left out (and named) when they do not."""
    recs = review_sweep_records({0: 4}, "dialogue")
    for method, sweep in (("bm25", {1: 6, 2: 7}), ("random", {1: 5, 2: 5})):
        for r in review_sweep_records(sweep, "dialogue"):
            r["solver"] += f"-{method}"
            r["solver_meta"]["demonstrations"]["retrieval"] = method
            recs.append(r)
    [fc] = curves_of([write_run(tmp_path / "r", recs, family="review")])
    # the default method goes unnamed, like records that do not say theirs
    assert [c.label for c in fc.curves] == [DIALOGUE, f"{DIALOGUE} · random"]
    assert [[(p.k, p.metrics["accuracy"].value) for p in c.points] for c in fc.curves] == [
        [(0, 0.5), (1, 0.75), (2, 0.875)],
        [(0, 0.5), (1, 0.625), (2, 0.625)],
    ]
    assert fc.left_out == []
    page = parse(render_report([write_run(tmp_path / "r", recs, family="review")]))
    k1 = next(i for i, r in enumerate(recs, 1) if r["solver"].endswith("k1-random"))
    assert "k = 1, context dialogue, retrieved by random:" in words(page, f"attempt-{k1}")
    for r in recs:
        r["solver_meta"]["demonstrations"].pop("retrieval", None)
    html = render_report([write_run(tmp_path / "u", recs, family="review")])
    [fc] = curves_of([tmp_path / "u"])
    assert fc.curves == [] and fc.metrics == []
    assert fc.left_out == [f"{review_solver(k)}-{m}" for m in ("bm25", "random") for k in (1, 2)]
    text = " ".join(parse(html).section_text("curves").split())
    assert "Left out: " + ", ".join(fc.left_out) in text
    assert 'class="chart"' not in html.split('id="curves"')[1].split("</section>")[0]


def test_no_sweep_no_curves(tmp_path: Path) -> None:
    varied = varied_run(tmp_path / "v")
    assert curves_of([varied]) == []
    html = render_report([varied])
    assert 'id="curves"' not in html and 'href="#curves"' not in html
    # one k alone is no sweep either
    one = write_run(tmp_path / "one", review_sweep_records({1: 5}, "dialogue"), family="review")
    assert curves_of([one]) == []


def test_a_family_without_metrics_is_charted_by_its_correct_rate(tmp_path: Path) -> None:
    recs = []
    for k, n in {0: 1, 3: 4}.items():
        for i in range(5):
            meta = {"model": MODEL, "variant": "code-only", "demonstrations": {"k": k}}
            verdict = "correct" if i < n else "fails-visible"
            recs.append(record(f"s{i}", f"m-k{k}", verdict, solver_meta=meta))
    [fc] = curves_of([write_run(tmp_path / "r", recs)])
    assert fc.family == "repair" and fc.metrics == ["correct_rate"]
    [curve] = fc.curves
    assert curve.label == f"{MODEL}#code-only"  # no context recorded
    got = [(p.k, p.metrics["correct_rate"]) for p in curve.points]
    assert [(k, e.value) for k, e in got] == [(0, 0.2), (3, 0.8)]
    for (_, e), n in zip(got, (1, 4), strict=True):  # the summary's Wilson interval (rounded)
        assert (e.low, e.high) == pytest.approx(wilson(n, 5), abs=1e-4)


def test_the_same_sweep_in_two_runs_stays_two_lines(tmp_path: Path) -> None:
    recs = review_sweep_records(SWEEP_A, "dialogue")
    a = write_run(tmp_path / "a", recs, family="review")
    b = write_run(tmp_path / "b", recs[8:], family="review")  # k = 1, 2 only
    [fc] = curves_of([a, b])
    assert [c.label for c in fc.curves] == [f"{DIALOGUE} (a)", f"{DIALOGUE} (b)"]
    assert [p.solver for p in fc.curves[0].points] == [
        review_solver(0),  # in one run only: not prefixed
        f"a/{review_solver(1)}",
        f"a/{review_solver(2)}",
    ]
    # b's line starts at a's k = 0 solver, the only one of that model
    assert [p.solver for p in fc.curves[1].points] == [
        review_solver(0),
        f"b/{review_solver(1)}",
        f"b/{review_solver(2)}",
    ]


def words(page: Page, anchor: str) -> str:
    """A section's text with its white space collapsed."""
    return " ".join(page.section_text(anchor).split())


def _figure(html: str, metric: str) -> str:
    start = html.index(f'data-metric="{metric}"')
    return html[start : html.index("</figure>", start)]


def test_the_report_draws_the_curves_with_their_intervals(sweep_runs: list[Path]) -> None:
    html = render_report(sweep_runs)
    page = parse(html)
    assert 'href="#curves"' in html
    figures = [a["data-metric"] for t, a in page.elements if t == "figure" and "data-metric" in a]
    assert figures == ["accuracy", "f1"]
    accuracy = _figure(html, "accuracy")
    circles = re.findall(
        r'<circle cx="([\d.]+)" cy="([\d.]+)"[^>]*data-k="(\d+)" data-value="([\d.]+)"><title>'
        r"([^<]*)</title>",
        accuracy,
    )
    points = [(int(k), float(v)) for _, _, k, v, _ in circles]
    assert points == [(0, 0.5), (1, 0.75), (2, 0.875), (0, 0.5), (1, 0.625), (2, 0.75)]
    ys = [float(cy) for _, cy, _, _, _ in circles]
    assert ys[0] > ys[1] > ys[2] and ys[3] > ys[4] > ys[5]  # higher accuracy, higher point
    assert ys[1] == ys[5]  # the same value, the same height
    low, high = accuracy_ci(6)
    assert f"{DIALOGUE}, k=1: accuracy 0.750 [{low:.3f}–{high:.3f}]" in circles[1][4]
    assert accuracy.count('class="band"') == 2  # one interval band per line
    assert accuracy.count('class="ci-k"') == 3 * 6  # a whisker (three strokes) per point
    f1_figure = _figure(html, "f1")
    assert f1_figure.count('class="band"') == 2 and "no interval" not in f1_figure
    # the table under the charts
    curves_text = page.section_text("curves")
    assert f"0.875 [{accuracy_ci(7)[0]:.3f}–{accuracy_ci(7)[1]:.3f}]" in curves_text
    assert f"{f1(7):.3f}" in curves_text and DECISION_ONLY in curves_text
    rows = [(a["data-line"], a["data-k"]) for t, a in page.elements if t == "tr" and "data-k" in a]
    assert rows == [(DIALOGUE, str(k)) for k in (0, 1, 2)] + [
        (DECISION_ONLY, str(k)) for k in (0, 1, 2)
    ]


def test_metrics_and_curves_csv(sweep_runs: list[Path], tmp_path: Path) -> None:
    paths = write_exports(sweep_runs, tmp_path / "out")
    assert [p.name for p in paths][-3:-1] == ["metrics.csv", "curves.csv"]
    metrics = read_csv(tmp_path / "out" / "metrics.csv")
    assert [m["solver"] for m in metrics] == [
        "oracle",
        *(review_solver(k) for k in (0, 1, 2)),
        *(review_solver(k, "decision-only") for k in (1, 2)),
    ]
    assert list(metrics[0])[:11] == [
        "solver",
        "runs",
        "family",
        "model",
        "variant",
        "setting",
        "k",
        "context",
        "retrieval",
        "attempts",
        "counted",
    ]
    oracle = metrics[0]
    assert (oracle["model"], oracle["k"], oracle["context"], oracle["accuracy"]) == (
        "",
        "0",
        "",
        "1.0",
    )
    for m, (k, right, context, run) in zip(
        metrics[1:],
        [
            *((k, n, "dialogue", "a") for k, n in SWEEP_A.items()),
            *((k, n, "decision-only", "b") for k, n in SWEEP_B.items()),
        ],
        strict=True,
    ):
        assert (m["model"], m["variant"], m["setting"]) == (
            MODEL,
            "code-only",
            f"{MODEL}#code-only",
        )
        assert (m["k"], m["context"], m["runs"], m["counted"]) == (str(k), context, run, "8")
        assert float(m["accuracy"]) == right / 8
        ci = accuracy_ci(right)
        assert (float(m["accuracy_ci_low"]), float(m["accuracy_ci_high"])) == ci
        assert float(m["f1"]) == f1(right)
        assert (float(m["f1_ci_low"]), float(m["f1_ci_high"])) == f1_ci(right)
    curves = read_csv(tmp_path / "out" / "curves.csv")
    acc = [(c["line"], c["k"], c["solver"], c["value"], c["ci_low"], c["ci_high"])
           for c in curves if c["metric"] == "accuracy"]  # fmt: skip
    expected = [
        (DIALOGUE, 0, review_solver(0), 4),
        (DIALOGUE, 1, review_solver(1), 6),
        (DIALOGUE, 2, review_solver(2), 7),
        (DECISION_ONLY, 0, review_solver(0), 4),
        (DECISION_ONLY, 1, review_solver(1, "decision-only"), 5),
        (DECISION_ONLY, 2, review_solver(2, "decision-only"), 6),
    ]
    assert acc == [
        (line, str(k), solver, str(n / 8), *(str(x) for x in accuracy_ci(n)))
        for line, k, solver, n in expected
    ]
    charted = {c["metric"] for c in curves if c["charted"] == "True"}
    assert charted == {"accuracy", "f1"} and "precision" in {c["metric"] for c in curves}


def test_curves_csv_is_empty_without_a_sweep(tmp_path: Path) -> None:
    write_exports([varied_run(tmp_path / "v")], tmp_path / "out")
    assert read_csv(tmp_path / "out" / "curves.csv") == []
    header = (tmp_path / "out" / "curves.csv").read_text().splitlines()
    assert header == [
        "family,line,setting,context,retrieval,k,solver,counted,metric,charted,value,ci_low,ci_high"
    ]
    metrics = {m["solver"]: m for m in read_csv(tmp_path / "out" / "metrics.csv")}
    oracle = metrics["oracle"]  # repair: the correct rate, 5 of 5 counted
    assert float(oracle["correct_rate"]) == 1.0
    lo, hi = wilson(5, 5)  # type: ignore[misc]
    assert float(oracle["correct_rate_ci_low"]) == pytest.approx(lo, abs=1e-4)
    assert float(oracle["correct_rate_ci_high"]) == hi
    assert metrics["noop"]["k"] == "0" and metrics["noop"]["model"] == ""


def _anchor(records: list[dict[str, Any]], sample: str, solver: str) -> str:
    i = next(
        i for i, r in enumerate(records, 1) if (r["sample_id"], r["solver"]) == (sample, solver)
    )
    return f"attempt-{i}"


def test_the_attempt_page_shows_the_demonstrations(sweep_runs: list[Path]) -> None:
    records = [
        json.loads(line)
        for d in sweep_runs
        for line in (d / "results.jsonl").read_text().splitlines()
    ]
    html = render_report(sweep_runs)
    page = parse(html)
    k2 = review_solver(2)
    anchor = _anchor(records, "rv-03", k2)
    text = words(page, anchor)
    assert "k = 2, context dialogue: 2 shown, best first." in text
    assert "Leakage guard: 9 candidates considered, 6 removed, 3 passed." in text
    section = html[
        html.index(f'id="{anchor}"') : html.index("</section>", html.index(f'id="{anchor}"'))
    ]
    # best first, each linked to the same solver's page on that sample, with score and decision
    demo_rows = re.findall(
        r'<td class="num">(\d)</td>\s*<td><a class="demo-link" href="#(attempt-\d+)"><code>'
        r'([^<]+)</code></a></td>\s*<td class="num">([\d.]+)</td>\s*<td>(\w+)</td>',
        section,
    )
    assert demo_rows == [
        ("1", _anchor(records, "rv-02", k2), "rv-02", "3.250", "accept"),
        ("2", _anchor(records, "rv-01", k2), "rv-01", "2.750", "reject"),
    ]
    guard = re.findall(r"<tr><th>([\w-]+)</th><td class=\"num\">(\d+)</td></tr>", section)
    assert guard == [("target", "1"), ("near-duplicate", "0"), ("later", "5"),
                     ("other-project", "0"), ("same-dialogue", "0")]  # fmt: skip
    assert "demonstrations" not in re.sub(r"<h3>Demonstrations</h3>", "", section)  # not twice
    # run b's solver links to run b's own attempts; a demonstration the report has no attempt on
    b2 = review_solver(2, "decision-only")
    section_b = words(page, _anchor(records, "rv-02", b2))
    assert ARCHIVED in section_b and "(no attempt on it in this report)" in section_b
    assert f'href="#{_anchor(records, "rv-01", b2)}"' in html
    # the first sample has nothing earlier: the guard let none through
    first = words(page, _anchor(records, "rv-01", k2))
    assert "k = 2, context dialogue: none shown (none passed the leakage guard)." in first
    assert "9 candidates considered, 8 removed, 1 passed" in first
    zero = words(page, _anchor(records, "rv-04", review_solver(0)))
    assert "k = 0, context dialogue: none asked for." in zero and "Leakage guard" not in zero
    oracle = page.section_text(_anchor(records, "rv-04", "oracle"))
    assert "Demonstrations" not in oracle


SUMMARIZE_DEMOS = {
    "k": 2,
    "context": "project",
    "shown": ["sum-002", "sum-009"],
    "scores": [7.5, 1.25],
    "removed": {"target": 1, "near-duplicate": 2, "later": 0, "other-project": 4,
                "same-summary": 1},
    "considered": 12,
}  # fmt: skip
PATCH_DEMOS = {
    "k": 2,
    "context": "mixed",
    "shown": ["pc-007", "sum-002"],
    "labels": ["overfitting", "correct"],
    "scores": [4.0, 3.5],
    "removed": {"target": 1, "near-duplicate": 0, "later": 0, "other-project": 0,
                "same-bug": 3},
    "considered": 12,
}  # fmt: skip


@pytest.mark.parametrize(
    ("family", "demos", "column", "values", "removed"),
    [
        ("summarize", SUMMARIZE_DEMOS, None, [], "same-summary"),
        ("patch-correctness", PATCH_DEMOS, "labels", ["overfitting", "correct"], "same-bug"),
    ],
)
def test_demonstrations_of_every_family(
    tmp_path: Path,
    family: str,
    demos: dict[str, Any],
    column: str | None,
    values: list[str],
    removed: str,
) -> None:
    meta = {"model": MODEL, "variant": "code-only", "demonstrations": demos}
    recs = [
        record("sum-002", "oracle", "correct"),
        record("target", f"{MODEL}#code-only-k2", "scored", solver_meta=meta),
    ]
    page = parse(render_report([write_run(tmp_path / "r", recs, family=family)]))
    text = words(page, "attempt-2")
    context = demos["context"]
    assert f"k = 2, context {context}: 2 shown, best first." in text
    assert "sum-002" in text and f"{demos['scores'][0]:.3f}" in text
    assert f"{demos['shown'][0]}" in text
    assert f"12 candidates considered, {sum(demos['removed'].values())} removed" in text
    assert removed in text
    if column:
        assert column in text and all(v in text for v in values)
    links = [a["href"] for t, a in page.elements if t == "a" and a.get("class") == "demo-link"]
    assert links == ["#attempt-1"]  # sum-002 has an attempt (the oracle's); the other has none


def test_unreadable_demonstrations_stay_in_the_solver_table(tmp_path: Path) -> None:
    meta = {"model": MODEL, "demonstrations": {"k": "many", "shown": XSS}}
    recs = [record("s1", "m", "fails-visible", solver_meta=meta)]
    html = render_report([write_run(tmp_path / "r", recs)])
    text = parse(html).section_text("attempt-1")
    assert "Demonstrations" not in text and "demonstrations" in text and "many" in text
    assert "<script>alert" not in html


def test_demonstration_ids_are_escaped(tmp_path: Path) -> None:
    demos = {"k": 1, "context": XSS, "shown": [XSS], "scores": [1.0], "removed": {XSS: 1}}
    recs = [
        record("s1", "m", "fails-visible", solver_meta={"model": MODEL, "demonstrations": demos})
    ]
    html = render_report([write_run(tmp_path / "r", recs)])
    assert "<script>alert" not in html and "<img" not in html
    assert parse(html).section_text("attempt-1").count(XSS) >= 3


def test_a_real_review_sweep_has_its_curve_and_demonstrations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``truepass run --shots 0,1,2`` with a fake model: the report the run writes reads k and
    the demonstrations from the records the review family wrote."""
    out = tmp_path / "run"
    with FakeOpenAI([ok("Decision: reject\nRationale: risky")] * 60) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        got = CliRunner().invoke(app, [
            "run", "--suite", "review-mini", "--solver", "openai:m", "--shots", "0,1,2",
            "--out", str(out), "--check-cache", "off", "--cache", str(tmp_path / "c.sqlite"),
        ])  # fmt: skip
        assert got.exit_code == 0, got.output
    [fc] = curves_of([out])
    [curve] = fc.curves
    assert (fc.family, curve.label) == ("review", "openai:m#code-only · dialogue")
    assert [(p.k, p.solver) for p in curve.points] == [
        (0, "openai:m#code-only"),
        (1, "openai:m#code-only-k1"),
        (2, "openai:m#code-only-k2"),
    ]
    # the model always says reject and half the changes were rejected
    assert all(p.metrics["accuracy"].value == 0.5 for p in curve.points)
    html = (out / "report.html").read_text(encoding="utf-8")
    page = parse(html)
    assert [a["data-metric"] for t, a in page.elements if t == "figure" and "data-metric" in a] == [
        "accuracy",
        "f1",
    ]
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    k2 = "openai:m#code-only-k2"
    anchor = _anchor(records, "ledger-6", k2)
    demos = next(
        r["solver_meta"]["demonstrations"]
        for r in records
        if (r["sample_id"], r["solver"]) == ("ledger-6", k2)
    )
    text = words(page, anchor)
    assert "k = 2, context dialogue, retrieved by bm25: 2 shown, best first." in text
    for sid in demos["shown"]:
        assert f'href="#{_anchor(records, sid, k2)}"' in html
    considered, removed = demos["considered"], sum(demos["removed"].values())
    assert f"{considered} candidates considered, {removed} removed" in text


def test_hostile_model_names_in_curves_are_escaped(tmp_path: Path) -> None:
    recs = review_sweep_records({0: 4, 1: 6}, XSS)
    for r in recs:
        r["solver_meta"]["model"] = XSS
        r["solver"] = f"{XSS}-{r['solver']}"
    html = render_report([write_run(tmp_path / "r", recs, family="review")])
    assert 'id="curves"' in html
    assert "<script>alert" not in html and "<img" not in html
    page = parse(html)
    assert [t for t, _ in page.elements].count("script") == 1
    assert f"{XSS}#code-only · {XSS}" in page.section_text("curves")
