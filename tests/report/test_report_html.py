"""The HTML report without a browser: content, escaping, self-containment, input errors."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from report_runs import LLM, XSS, record, varied_records, varied_run, write_run

from truepass.errors import InputError
from truepass.report import load_runs, render_report, write_report
from truepass.report.stats import rate_row, wilson


class Page(HTMLParser):
    """Every element with its attributes, the text of scripts and styles, all text by section."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self._in: str | None = None
        self._section: list[str] = []
        self.text: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag in {"script", "style"}:
            self._in = tag
            (self.scripts if tag == "script" else self.styles).append("")
        if tag == "section":
            self._section.append(dict(attrs).get("id") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"}:
            self._in = None
        if tag == "section" and self._section:
            self._section.pop()

    def handle_data(self, data: str) -> None:
        if self._in == "script":
            self.scripts[-1] += data
        elif self._in == "style":
            self.styles[-1] += data
        key = self._section[-1] if self._section else ""
        self.text.setdefault(key, []).append(data)

    def section_text(self, anchor: str) -> str:
        return "".join(self.text.get(anchor, []))


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    return page


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return varied_run(tmp_path / "run-a")


def test_every_attempt_has_a_row_and_a_page(run_dir: Path, tmp_path: Path) -> None:
    out = write_report([run_dir], tmp_path / "sub" / "report.html")
    html = out.read_text(encoding="utf-8")
    n = len(varied_records())
    page = parse(html)
    rows = [a for t, a in page.elements if t == "tr" and a.get("data-target")]
    pages = [a for t, a in page.elements if t == "section" and "attempt" in (a.get("class") or "")]
    assert [r["data-target"] for r in rows] == [f"attempt-{i}" for i in range(1, n + 1)]
    assert [p["id"] for p in pages] == [f"attempt-{i}" for i in range(1, n + 1)]
    for rec, row in zip(varied_records(), rows, strict=True):
        assert row["data-solver"] == rec["solver"] and row["data-verdict"] == rec["verdict"]
        assert rec["sample_id"] in page.section_text(row["data-target"])  # type: ignore[arg-type]
    assert len([t for t, _ in page.elements if t == "svg" and True]) >= 4
    charts = [a for t, a in page.elements if t == "svg" and a.get("class") == "chart"]
    assert len(charts) == 4


def test_hostile_text_is_escaped_everywhere(tmp_path: Path) -> None:
    hostile = record(
        f"id-{XSS}",
        f"solver-{XSS}",
        "overfit",
        defect_type=f"type-{XSS}",
        flags=[f"flag-{XSS}"],
        details=XSS,
        test_output=XSS,
        patch_id=XSS,
        flag_details=[{"name": f"flag-{XSS}", "file": XSS, "line": 3, "explanation": XSS}],
        solver_meta={
            XSS: XSS,
            "rounds": [
                {
                    "round": 0,
                    "prompt": [{"role": XSS, "content": XSS}],
                    "response": XSS,
                    "feedback": XSS,
                }
            ],
        },
        **{f"future-{XSS}": [XSS], "future": {XSS: XSS}},
    )
    hostile["patch"] = f"--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-{XSS}\n+{XSS}\n"
    html = render_report([write_run(tmp_path / "r", [varied_records()[0], hostile])])
    page = parse(html)
    # exactly one script (ours) and no element from the payload
    assert [t for t, _ in page.elements].count("script") == 1
    assert "img" not in [t for t, _ in page.elements]
    for _, attrs in page.elements:
        assert not any(k.startswith("on") for k in attrs), attrs
    assert "<script>alert" not in html and "<img" not in html
    text = page.section_text("attempt-2")
    assert text.count(XSS) >= 8  # shown as text: patch lines, output, details, prompt, response...


def test_self_contained_and_locked_down(run_dir: Path) -> None:
    html = render_report([run_dir])
    page = parse(html)
    for tag, attrs in page.elements:
        assert tag not in {"link", "iframe", "img", "object", "embed"}
        for key in ("src", "href", "xlink:href", "action"):
            value = attrs.get(key) or ""
            assert not re.match(r"\s*(https?:)?//", value), (tag, key, value)
            if key == "href" and tag == "a":
                assert value.startswith("#"), value
    assert len(page.styles) == 1 and "@import" not in page.styles[0]
    assert "url(" not in page.styles[0]
    script = page.scripts[0]
    csp = next(
        a["content"] for t, a in page.elements if a.get("http-equiv") == "Content-Security-Policy"
    )
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in (csp or "") and "default-src 'none'" in (csp or "")


def test_headline_rates_intervals_and_not_counted(run_dir: Path) -> None:
    html = render_report([run_dir])
    start = html.index('class="headline"')
    headline = html[start : html.index("</table>", start)]
    # oracle: 5 correct of 5 counted (one invalid sample), Wilson 95% CI 56.55-100
    assert "oracle" in headline and "100.0%" in headline
    assert re.search(r"95% CI 56\.[56]–100\.0%", headline)
    # the model: 3 correct of 6 -> 50.0%, CI 18.8-81.2; gap 16.7 points (4 plausible)
    assert "50.0%" in headline and "95% CI 18.8–81.2%" in headline and "16.7 pts" in headline
    assert "invalid samples (excluded from rates): mini-011-retry" in html
    assert "infra errors (excluded, retried on resume): mini-007-cart-total" in html


def test_wilson_matches_known_values() -> None:
    assert wilson(0, 0) is None
    lo, hi = wilson(7, 8)  # type: ignore[misc]
    assert (round(lo, 4), round(hi, 4)) == (0.5291, 0.9776)
    lo, hi = wilson(0, 4)  # type: ignore[misc]
    assert lo == 0.0 and round(hi, 4) == 0.4899
    lo, hi = wilson(5, 5)  # type: ignore[misc]
    assert round(lo, 4) == 0.5655 and hi == 1.0


def test_intervals_from_the_summary_are_used_when_present() -> None:
    r = SimpleNamespace(
        attempts=10,
        counted=10,
        verdicts={"correct": 4},
        correct=4,
        plausible=6,
        overfit_share=0.33,
        correct_ci={"low": 0.11, "high": 0.22},
        plausible_ci=[0.3, 0.9],
    )
    row = rate_row(r)  # type: ignore[arg-type]
    assert row.correct_ci == (0.11, 0.22) and row.plausible_ci == (0.3, 0.9)
    r.correct_ci = None  # type: ignore[assignment]
    assert rate_row(r).correct_ci == wilson(4, 10)  # type: ignore[arg-type]


def test_attempt_page_shows_flags_rounds_diff_and_new_fields(run_dir: Path) -> None:
    page = parse(render_report([run_dir]))
    overfit = page.section_text("attempt-8")  # the model's overfit attempt on mini-002
    assert "hardcodes-expected" in overfit and "clamp.py:6" in overfit
    assert "returns 5, the expected value of test_high" in overfit
    assert "test_hidden.py::test_b" in overfit  # regressions and failing hidden tests
    assert "lines_added" in overfit and "hit_function" in overfit  # quality, localisation
    assert "+        return 5" in overfit
    first = page.section_text("attempt-7")
    assert "round 0" in first and "round 1" in first and "test_high still fails" in first
    assert "Fix the bug in clamp.py (round 1)." in first and "Here is the fix:" in first
    # a flag without details is explained from the flag's definition
    tmpl = page.section_text("attempt-14")
    assert "swallows-exception" in tmpl and "exception handler that hides errors" in tmpl
    assert "reruns of the passing attempt disagreed" in tmpl


def test_unknown_record_fields_are_shown(tmp_path: Path) -> None:
    rec = record("s1", "oracle", "correct", future_metric={"score": 0.75, "notes": ["a", "b"]})
    page = parse(render_report([write_run(tmp_path / "r", [rec])]))
    text = page.section_text("attempt-1")
    assert "future_metric" in text and "0.75" in text and "a, b" in text


def test_same_solver_in_two_runs_is_kept_apart(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", [record("s1", "oracle", "correct")])
    b = write_run(
        tmp_path / "b", [record("s1", "oracle", "fails-visible"), record("s1", LLM, "correct")]
    )
    runs = load_runs([a, b])
    assert [x.label for r in runs for x in r.attempts] == ["a/oracle", "b/oracle", LLM]
    html = render_report([a, b])
    assert 'data-solver="a/oracle"' in html and 'data-solver="b/oracle"' in html


def test_bad_input_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such run directory"):
        render_report([tmp_path / "missing"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"no results\.jsonl"):
        render_report([tmp_path / "empty"])
    with pytest.raises(InputError, match="no run directory given"):
        render_report([])
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.jsonl").write_text(json.dumps(record("s", "oracle", "correct")) + "\n{oops\n")
    with pytest.raises(InputError) as err:
        render_report([bad])
    assert err.value.location == f"{bad / 'results.jsonl'}:2"
    (bad / "results.jsonl").write_text(json.dumps({**record("s", "o", "correct"), "attempt": -1}))
    with pytest.raises(InputError) as err:
        render_report([bad])
    assert err.value.field == "attempt" and err.value.location.endswith(":1")  # type: ignore[union-attr]


def test_empty_run_still_renders(tmp_path: Path) -> None:
    html = render_report([write_run(tmp_path / "r", [])])
    assert "0 attempts" in html and "<svg" in html


def test_a_report_from_the_runners_summary_is_the_same_page(tmp_path: Path) -> None:
    from truepass.analysis.summary import summarize
    from truepass.families import registry
    from truepass.records import read_results

    run_dir, other = varied_run(tmp_path / "r"), varied_run(tmp_path / "s")
    records = read_results(run_dir)
    summary = summarize("mini", records, registry.get("repair")())
    bogus = [s.model_copy(update={"invalid_samples": ["bogus"]}) for s in summary.solvers]
    wrong = summary.model_copy(update={"solvers": bogus})

    def page(*args: object) -> str:  # the minute it was made aside
        return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "", render_report(*args))  # type: ignore[arg-type]

    assert page([run_dir], {run_dir: records}, {run_dir: summary}) == page([run_dir])
    assert "bogus" in page([run_dir], None, {run_dir: wrong})  # the summary given is what shows
    # two runs of the same solvers: labels RUN/SOLVER, summarised afresh, not taken from one run
    assert page([run_dir, other], None, {run_dir: wrong}) == page([run_dir, other])
