"""The HTML report of a large run: its size, the time to write it and to open it in Chromium.

    .venv/bin/python benchmarks/report_scale.py RUN_DIR [RUN_DIR ...] [--peer-timeout 120]

Writes the report of the run directories twice, each in a fresh file: as truepass writes it
(grouped per sample above ``truepass.report.groups.PAGE_LIMIT`` attempts) and, as the peer, the
per-attempt report truepass wrote before (a row and a page per attempt: the limit raised above
the run's size). Each is opened in Debian's headless Chromium (``/usr/bin/chromium``, driven by
Playwright, as the report's browser test does) and timed from navigation to the ``load`` event
and to the attempts table answering a filter. Prints sizes, times and the peer / truepass
ratios. A peer that does not load within ``--peer-timeout`` seconds is reported as such.

Make a run of 100,000 codegen attempts with a replayed patches file, e.g.::

    truepass judge --suite SUITE --patches PATCHES_100K.jsonl --out /tmp/run-100k

Nothing here asserts a time; compare figures of one run only.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from truepass.report import groups, write_report

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=Path("/tmp/report-scale"))
    ap.add_argument("--peer-timeout", type=float, default=120.0)
    ap.add_argument("--no-peer", action="store_true", help="only truepass's own report")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = [measure("truepass (grouped)", args.runs, args.out / "grouped.html", None, 60.0)]
    if not args.no_peer:
        rows.append(
            measure(
                "per-attempt (peer)",
                args.runs,
                args.out / "per-attempt.html",
                10**9,
                args.peer_timeout,
            )
        )
    print(f"\n{'report':<22}{'attempts':>10}{'MB':>10}{'write s':>10}{'load s':>10}"
          f"{'filter s':>10}")  # fmt: skip
    for r in rows:
        print(f"{r['name']:<22}{r['attempts']:>10}{r['mb']:>10.1f}{r['write_s']:>10.1f}"
              f"{_fmt(r['load_s']):>10}{_fmt(r['filter_s']):>10}")  # fmt: skip
    if len(rows) == 2:
        mine, peer = rows
        print(f"\nsize: per-attempt / grouped = {peer['mb'] / mine['mb']:.0f}x")
        if isinstance(peer["load_s"], float) and isinstance(mine["load_s"], float):
            print(f"load: per-attempt / grouped = {peer['load_s'] / mine['load_s']:.1f}x")
        else:
            print(f"load: the per-attempt report did not load in {args.peer_timeout:.0f} s")
    return 0


def _fmt(x: object) -> str:
    return f"{x:.2f}" if isinstance(x, float) else str(x)


def measure(
    name: str, runs: list[Path], out: Path, limit: int | None, timeout_s: float
) -> dict[str, object]:
    saved = groups.PAGE_LIMIT
    if limit is not None:
        groups.PAGE_LIMIT = limit
    try:
        start = time.monotonic()
        write_report(runs, out)
        write_s = time.monotonic() - start
    finally:
        groups.PAGE_LIMIT = saved
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    attempts = sum(sum(1 for line in (r / "results.jsonl").open() if line.strip()) for r in runs)
    load_s, filter_s = open_in_chromium(out, timeout_s)
    print(f"{name}: {out} written in {write_s:.1f} s (peak memory of this process so far "
          f"{rss:.0f} MB)", file=sys.stderr)  # fmt: skip
    return {"name": name, "attempts": attempts, "mb": out.stat().st_size / 1e6,
            "write_s": write_s, "load_s": load_s, "filter_s": filter_s}  # fmt: skip


def open_in_chromium(report: Path, timeout_s: float) -> tuple[object, object]:
    """Seconds to the load event, and to the table's answer to a verdict filter; or why not."""
    from playwright.sync_api import Error, sync_playwright

    if not CHROMIUM.exists():
        return "no chromium", ""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1360, "height": 900})
            start = time.monotonic()
            try:
                page.goto(report.as_uri(), wait_until="load", timeout=timeout_s * 1000)
            except Error as exc:
                return f"failed: {str(exc).splitlines()[0][:40]}", ""
            load_s = time.monotonic() - start
            options = page.locator("#f-verdict option").all_inner_texts()
            start = time.monotonic()
            page.select_option("#f-verdict", options[-1])
            page.inner_text("#f-count")
            filter_s = time.monotonic() - start
            return load_s, filter_s
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
