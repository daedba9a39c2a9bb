"""Reports of finished runs: one self-contained HTML file, and CSV/JSON exports for pandas.

``write_report(run_dirs, out)`` and ``write_exports(run_dirs, out_dir)``; see docs/report.md.
"""

from __future__ import annotations

from truepass.report.exports import write_exports
from truepass.report.html import render_report, write_report
from truepass.report.load import load_runs

__all__ = ["load_runs", "render_report", "write_exports", "write_report"]
