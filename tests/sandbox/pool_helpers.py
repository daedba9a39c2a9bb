"""Shared helpers of the execution pool tests (no tests here): real sandboxed pools."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Iterator

import pytest

from truepass.sandbox.pool import Case, CheckResult, ExecLimits, ExecPool

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap missing")


def start_pool(workers: int, limits: ExecLimits | None = None) -> Iterator[ExecPool]:
    """A pool in the bwrap tier (forced: a broken bwrap fails instead of falling back)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRUEPASS_SANDBOX", "bwrap")
        pool = ExecPool(workers=workers, limits=limits)
    try:
        yield pool
    finally:
        pool.close()


def run(
    pool: ExecPool, code: str, cases: list[Case], entry: str = "f", **kw: object
) -> CheckResult:
    """Check dedented ``code``'s ``entry`` on ``cases``."""
    return pool.check(textwrap.dedent(code), entry, cases, **kw)  # type: ignore[arg-type]
