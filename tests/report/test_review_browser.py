"""The human review round trip in a real headless Chromium (issue 28, item 5): a sheet exported
from a ``mini`` run, labelled by clicking, its labels downloaded and imported, and the
agreement in summary.json, ``truepass summary`` and the report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import invoke
from test_report_browser import CHROMIUM, FLAGS

from truepass.analysis.agreement import CLASSES, ReviewLabel, cohen_kappa, truepass_class
from truepass.analysis.humanreview import attempt_key
from truepass.records import read_results

pytestmark = pytest.mark.slow

SCREENSHOT = Path("/tmp/truepass-review-sheet.png")


def _other(label: ReviewLabel) -> ReviewLabel:
    return ReviewLabel.INCORRECT if label is not ReviewLabel.INCORRECT else ReviewLabel.CORRECT


def test_review_round_trip_in_headless_chromium(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (make system-deps)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (dev extra) missing")
    run = tmp_path / "mini"
    invoke("run", "--suite", "mini", "--solver", "oracle", "--solver", "noop",
           "--solver", "baseline:templates", "--limit", "6", "--out", str(run))  # fmt: skip
    sheet = tmp_path / "sheet.html"
    out = invoke("review-sheet", str(run), "--out", str(sheet), "--size", "8", "--seed", "1")
    assert "sheet " in out and sheet.is_file()
    (plan_file,) = (run / "review" / "sheets").glob("*.json")
    plan = json.loads(plan_file.read_text())
    records = {attempt_key(r): r for r in read_results(run)}
    entries = plan["entries"]
    assert len(entries) >= 8 and len(set(entries)) == len(entries)
    # truepass's class of each entry; the reviewer disagrees on the first, is unsure of the
    # second and agrees on the rest
    ours = [truepass_class(records[k].verdict, records[k].flags) for k in entries]
    given = [_other(ours[0]), ReviewLabel.UNSURE, *ours[2:]]
    problems: list[str] = []
    requests: list[str] = []
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            accept_downloads=True,
            viewport={"width": 1360, "height": 900},
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: m.type == "error" and problems.append(m.text))
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(sheet.as_uri(), wait_until="load")
            sections = page.locator("section.entry")
            assert sections.count() == len(entries)
            assert page.locator("[data-verdict]").count() == 0  # verdicts hidden by default
            assert sections.first.locator("pre.diff, p.muted").count() >= 1
            for i, label in enumerate(given):
                section = page.locator(f"section.entry[data-key='{entries[i]}']")
                section.locator(f"input[value='{label.value}']").click()
                if i == 0:
                    section.locator("textarea").fill("the guard is still missing")
            assert page.locator("#progress").inner_text() == (
                f"{len(entries)} of {len(entries)} labelled"
            )
            # the labels survive a reload (local storage)
            page.reload(wait_until="load")
            first = page.locator(f"section.entry[data-key='{entries[0]}']")
            assert first.locator(f"input[value='{given[0].value}']").is_checked()
            assert first.locator("textarea").input_value() == "the guard is still missing"
            page.locator("#reviewer").fill("tester")
            page.screenshot(path=str(tmp_path / "sheet.png"))
            shutil.copyfile(tmp_path / "sheet.png", SCREENSHOT)
            with page.expect_download() as info:
                page.locator("#download").click()
            labels = tmp_path / "labels.json"
            info.value.save_as(str(labels))
        finally:
            context.close()
    assert problems == []
    assert all(u.startswith(("file:", "blob:", "data:")) for u in requests), requests
    data = json.loads(labels.read_text())
    assert data["sheet_id"] == plan["sheet_id"] and data["run_hash"] == plan["run_hash"]
    assert data["reviewer"] == "tester"
    assert [x["label"] for x in data["labels"]] == [g.value for g in given]

    printed = invoke("review-import", str(run), str(labels))
    assert "Cohen's kappa" in printed
    summary = json.loads((run / "summary.json").read_text())
    review = summary["review"]
    sure = [(o.value, g.value) for o, g in zip(ours, given, strict=True)
            if g is not ReviewLabel.UNSURE]  # fmt: skip
    _, _, kappa = cohen_kappa(
        [a for a, _ in sure], [b for _, b in sure], [c.value for c in CLASSES]
    )
    assert (review["labelled"], review["unsure"], review["compared"]) == (
        len(entries),
        1,
        len(entries) - 1,
    )
    assert review["kappa"] == (None if kappa is None else round(kappa, 4))
    assert sum(map(sum, review["confusion"])) == len(entries) - 1
    assert [d["key"] for d in review["disagreements"]] == [entries[0]]
    assert "Cohen's kappa" in invoke("summary", str(run))

    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile2"), executable_path=str(CHROMIUM), headless=True, args=FLAGS,
            viewport={"width": 1360, "height": 900},
        )  # fmt: skip
        try:
            page = context.new_page()
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.goto((run / "report.html").as_uri(), wait_until="load")
            section = page.locator("div.human-review")
            assert section.count() == 1 and section.is_visible()
            cells = section.locator("table.confusion tbody td")
            assert sum(int(cells.nth(i).inner_text()) for i in range(cells.count())) == (
                len(entries) - 1
            )
            assert "Cohen's kappa" in section.locator("[data-kappa]").inner_text()
            row = section.locator("table.disagreements tbody tr")
            assert row.count() == 1
            assert row.locator("td").last.inner_text() == "the guard is still missing"
            section.screenshot(path=str(tmp_path / "review.png"))
            shutil.copyfile(tmp_path / "review.png", SCREENSHOT.with_name("truepass-review.png"))
            row.locator("a").click()
            shown = page.locator("section.attempt:visible")
            assert records[entries[0]].sample_id in shown.locator("h2").inner_text()
        finally:
            context.close()
    assert problems == []
