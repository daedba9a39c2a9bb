"""The report in a real headless browser: Debian's chromium, driven by Playwright (no browser is
downloaded: Playwright only talks to /usr/bin/chromium)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from report_runs import (
    LLM,
    XSS,
    many_samples_records,
    real_agent_run,
    review_sweep_runs,
    varied_records,
    varied_run,
    write_run,
)

from truepass.report import write_report

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOT = Path("/tmp/truepass-report.png")

pytestmark = pytest.mark.slow


def _visible_rows(page):  # type: ignore[no-untyped-def]
    return page.locator("#attempt-table tbody tr:visible")


def test_report_in_headless_chromium(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (make system-deps)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (dev extra) missing")
    report = write_report([varied_run(tmp_path / "run")], tmp_path / "report.html")
    records = varied_records()
    problems: list[str] = []
    requests: list[str] = []
    dialogs: list[str] = []

    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1360, "height": 900},
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: m.type == "error" and problems.append(m.text))
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("request", lambda r: requests.append(r.url))
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(report.as_uri(), wait_until="load")

            # the charts are drawn, with a size
            charts = page.locator("svg.chart")
            assert charts.count() == 4
            for i in range(4):
                box = charts.nth(i).bounding_box()
                assert box is not None and box["width"] > 100 and box["height"] > 50
            seg = page.locator("svg.chart rect.seg").first.bounding_box()
            assert seg is not None and seg["width"] > 0 and seg["height"] > 0
            page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
            shutil.copyfile(tmp_path / "report.png", SCREENSHOT)

            # filtering: free text, then a verdict, then reset
            rows = _visible_rows(page)
            assert rows.count() == len(records)
            page.fill("#f-text", "mini-003")
            expected = [r for r in records if "mini-003" in r["sample_id"]]
            assert rows.count() == len(expected) == 4
            assert all("mini-003" in t for t in rows.all_inner_texts())
            assert page.inner_text("#f-count") == f"4 of {len(records)} attempts"
            page.select_option("#f-verdict", "correct")
            assert rows.count() == sum(r["verdict"] == "correct" for r in expected) == 2
            page.click("#f-reset")
            assert rows.count() == len(records)
            page.select_option("#f-flag", "*")
            assert rows.count() == sum(bool(r["flags"]) for r in records)
            page.select_option("#f-flag", "")
            page.fill("#f-text", "no match at all")
            assert rows.count() == 0 and page.locator("#f-empty").is_visible()
            page.click("#f-reset")

            # sorting: by sample (text), then by # (numeric, both directions)
            page.click("#attempt-table th[data-key=sample]")
            samples = [
                t.split()[0]
                for t in page.locator("#attempt-table tbody tr td:nth-child(2)").all_inner_texts()
            ]
            assert samples == sorted(samples) and samples != [r["sample_id"] for r in records]
            header = page.locator("#attempt-table th[data-key=num]")
            header.click()
            numbers = [
                int(t)
                for t in page.locator("#attempt-table tbody td:first-child").all_inner_texts()
            ]
            assert numbers == list(range(1, len(records) + 1))
            header.click()
            numbers = [
                int(t)
                for t in page.locator("#attempt-table tbody td:first-child").all_inner_texts()
            ]
            assert numbers == list(range(len(records), 0, -1))
            assert header.get_attribute("aria-sort") == "descending"

            # opening an attempt (the one whose patch and response carry a script payload)
            hostile = next(
                i
                for i, r in enumerate(records, start=1)
                if r["sample_id"] == "mini-003-chunk" and r["solver"].startswith("openai")
            )
            page.click(f"#attempt-table tr[data-target=attempt-{hostile}] td:nth-child(3)")
            section = page.locator(f"#attempt-{hostile}")
            section.wait_for(state="visible")
            assert not page.locator("#overview").is_visible()
            diff = section.locator("pre.diff")
            assert diff.is_visible()
            assert XSS in diff.inner_text()
            assert section.locator("pre.diff span.add").count() == 1
            assert (
                section.locator("pre.diff span.add").evaluate(
                    "e => getComputedStyle(e).backgroundColor"
                )
                != "rgba(0, 0, 0, 0)"
            )
            assert page.locator("section.attempt:visible").count() == 1
            page.screenshot(path=str(tmp_path / "attempt.png"), full_page=True)
            shutil.copyfile(tmp_path / "attempt.png", SCREENSHOT.with_name("truepass-attempt.png"))
            section.locator("a.next").click()
            page.locator(f"#attempt-{hostile + 1}").wait_for(state="visible")
            assert not section.is_visible()
            page.click("text=← all attempts >> visible=true")
            page.locator("#attempt-table").wait_for(state="visible")
        finally:
            context.close()

    assert problems == []
    assert dialogs == []  # no payload ran
    assert all(u.startswith(("file://", "data:")) for u in requests), requests


def test_curves_and_demonstration_links_in_headless_chromium(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (make system-deps)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (dev extra) missing")
    report = write_report(review_sweep_runs(tmp_path), tmp_path / "report.html")
    problems: list[str] = []
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1360, "height": 900},
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: m.type == "error" and problems.append(m.text))
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.goto(report.as_uri(), wait_until="load")
            curves = page.locator("#curves svg.chart")
            assert curves.count() == 2  # accuracy and f1
            for i in range(2):
                box = curves.nth(i).bounding_box()
                assert box is not None and box["width"] > 300 and box["height"] > 200
            band = page.locator("#curves polygon.band").first.bounding_box()
            assert band is not None and band["height"] > 10
            page.locator("#curves").screenshot(path=str(tmp_path / "curves.png"))
            shutil.copyfile(tmp_path / "curves.png", SCREENSHOT.with_name("truepass-curves.png"))
            # an attempt page with demonstrations: a demonstration's link opens its sample's page
            page.fill("#f-text", "rv-03 code-only-k2")
            page.locator("#attempt-table tbody tr:visible").first.click()
            shown = page.locator("section.attempt:visible")
            assert shown.locator("table.demo-table tbody tr").count() == 2
            target = shown.locator("a.demo-link").first.get_attribute("href")
            shown.locator("a.demo-link").first.click()
            opened = page.locator(str(target))
            opened.wait_for(state="visible")
            assert "rv-02" in opened.locator("h2").inner_text()
        finally:
            context.close()
    assert problems == []


def test_an_agent_attempt_shows_its_timeline_in_headless_chromium(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real agent attempt (scripted, judged correct): its page shows the timeline, and the
    toggle of a step whose output the agent saw cut opens the whole of it."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (make system-deps)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (dev extra) missing")
    run_dir, rec = real_agent_run(tmp_path, monkeypatch)
    assert rec["verdict"] == "correct"
    report = write_report([run_dir], tmp_path / "report.html")
    problems: list[str] = []
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1360, "height": 900},
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: m.type == "error" and problems.append(m.text))
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.goto(report.as_uri(), wait_until="load")
            assert page.locator("table.process tbody tr").count() == 1
            page.locator("#attempt-table tbody tr").first.click()
            shown = page.locator("section.attempt:visible")
            assert shown.locator("span.badge.end").inner_text() == "submitted"
            steps = shown.locator("ol.timeline > li")
            assert steps.count() == 5
            assert steps.nth(1).locator("pre.action-code").inner_text() == "seq 1 3000"
            assert steps.nth(2).locator("p.changed").inner_text() == "changed: clamping.py"
            observation = steps.nth(1).locator("div.observation pre")
            assert observation.is_visible() and "\n1500\n" not in observation.inner_text()
            full = steps.nth(1).locator("details.full-output pre")
            assert not full.is_visible()
            steps.nth(1).locator("details.full-output summary").click()
            full.wait_for(state="visible")
            assert "\n1500\n" in full.inner_text()
            shown.screenshot(path=str(tmp_path / "agent.png"))
            shutil.copyfile(tmp_path / "agent.png", SCREENSHOT.with_name("truepass-agent.png"))
        finally:
            context.close()
    assert problems == []


def test_a_run_with_many_attempts_per_sample_in_headless_chromium(tmp_path: Path) -> None:
    """4,800 attempts (200 per sample): one row per sample and solver, filters that match any
    of a row's verdicts and flags, a sample's page listing its outcomes, and from there the
    page of the first attempt of an outcome."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (make system-deps)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (dev extra) missing")
    run = write_run(tmp_path / "large", many_samples_records(samples=12, n=200))
    report = write_report([run], tmp_path / "report.html")
    problems: list[str] = []
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1360, "height": 900},
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: m.type == "error" and problems.append(m.text))
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.goto(report.as_uri(), wait_until="load")
            rows = _visible_rows(page)
            assert rows.count() == 24
            assert page.inner_text("#f-count") == "24 samples"
            assert "4800 attempts" in page.inner_text("#grouped-note")
            page.select_option("#f-flag", "special-cases-input")
            assert rows.count() == 12
            assert all(LLM in t for t in rows.all_inner_texts())
            page.select_option("#f-verdict", "fails-visible")
            assert rows.count() == 12  # every sample row has some attempts failing
            assert page.inner_text("#f-count") == "12 of 24 samples"
            page.fill("#f-text", "mini-005")
            assert rows.count() == 1
            rows.first.click()
            sample = page.locator("section.sample-page:visible")
            sample.wait_for(state="visible")
            assert "mini-005" in sample.locator("h2").inner_text()
            outcomes = sample.locator("table.outcomes tbody tr")
            assert outcomes.count() == 3  # correct, fails-visible, correct and flagged
            counts = [int(t) for t in sample.locator("table.outcomes tbody td:nth-child(5)")
                      .all_inner_texts()]  # fmt: skip
            assert sum(counts) == 200
            sample.locator("table.outcomes a").first.click()
            attempt = page.locator("section.attempt:not(.sample-page):visible")
            attempt.wait_for(state="visible")
            assert "mini-005" in attempt.locator("h2").inner_text()
            page.go_back()
            sample.wait_for(state="visible")
        finally:
            context.close()
    assert problems == []
