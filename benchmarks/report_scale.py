"""The HTML report of a large run: its size, the time to write it and to open it in Chromium.

    .venv/bin/python benchmarks/report_scale.py RUN_DIR [RUN_DIR ...] [--peer-timeout 120]
        [--rounds 3]

Writes the report of the run directories twice, each in a fresh file: as truepass writes it
(grouped per sample above ``truepass.report.groups.PAGE_LIMIT`` attempts) and, as the peer, the
per-attempt report truepass wrote before (a row and a page per attempt: the limit raised above
the run's size). Each is opened in Debian's headless Chromium (``/usr/bin/chromium``, driven by
Playwright, as the report's browser test does) and timed from navigation to the ``load`` event
and to the attempts table answering a filter. Each round (``--rounds``, benchmarks/rounds.py)
writes and opens both back to back, the order rotating. Prints sizes, median times and the peer /
truepass ratios (medians of the per-round ratios), then the rounds (writing and opening, with the
load average and the cores other work kept busy: Chromium's processes are this process's
descendants, so their CPU time is its own) and an UNRELIABLE line for every run whose cores other
work took (Chromium runs several processes: the spare cores are counted beside two). A peer that
does not load within ``--peer-timeout`` seconds is reported as such.

Make a run of 100,000 codegen attempts with a replayed patches file, e.g.::

    truepass judge --suite SUITE --patches PATCHES_100K.jsonl --out /tmp/run-100k

Nothing here asserts a time; compare figures of one run only.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import Timing, report, rotation, timed

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
    ap.add_argument("--rounds", type=int, default=3, help="paired rounds")
    args = ap.parse_args(argv)
    idle_before = os.getloadavg()[0]
    args.out.mkdir(parents=True, exist_ok=True)
    kinds = {"truepass (grouped)": (args.out / "grouped.html", None, 60.0)}
    if not args.no_peer:
        kinds["per-attempt (peer)"] = (args.out / "per-attempt.html", 10**9, args.peer_timeout)
    rows: dict[str, list[dict[str, object]]] = {name: [] for name in kinds}
    timings: list[Timing] = []
    for r in range(max(1, args.rounds)):
        for name in rotation(list(kinds), r):
            run = lambda n=name, k=kinds[name]: measure(n, args.runs, *k)  # noqa: E731
            row, timing = timed(name, r, run, workers=2)
            rows[name].append(row)
            timings.append(timing)
    print(f"\n{'report':<22}{'attempts':>10}{'MB':>10}{'write s':>10}{'load s':>10}"
          f"{'filter s':>10}")  # fmt: skip
    for name, runs in rows.items():
        r = runs[0]
        print(f"{name:<22}{r['attempts']:>10}{r['mb']:>10.1f}{_median(runs, 'write_s'):>10}"
              f"{_median(runs, 'load_s'):>10}{_median(runs, 'filter_s'):>10}")  # fmt: skip
    if len(rows) == 2:
        mine, peer = rows.values()
        print(f"\nsize: per-attempt / grouped = {peer[0]['mb'] / mine[0]['mb']:.0f}x")
        loads = [p["load_s"] / m["load_s"] for m, p in zip(mine, peer, strict=True)
                 if isinstance(p["load_s"], float) and isinstance(m["load_s"], float)]  # fmt: skip
        if loads:
            print(f"load: per-attempt / grouped = {statistics.median(loads):.1f}x (median of "
                  f"{len(loads)} per-round ratios)")  # fmt: skip
        else:
            print(f"load: the per-attempt report did not load in {args.peer_timeout:.0f} s")
    pairs = [("per-attempt (peer)", "truepass (grouped)")]
    print("\n".join(report("write + open", timings, pairs, idle_before)))
    return 0


def _median(runs: list[dict[str, object]], key: str) -> str:
    """The median of a timed figure over the rounds, or what stopped it (the first reason)."""
    got = [r[key] for r in runs]
    numbers = [x for x in got if isinstance(x, float)]
    return f"{statistics.median(numbers):.2f}" if len(numbers) == len(got) else _fmt(got[0])


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
