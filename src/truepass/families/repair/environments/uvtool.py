"""The ``uv`` command line (the pinned ``uv`` package's binary), pointed at this machine's own
package sources: the index, extra indexes and find-links that pip is configured with
(``pip config list``: its files and ``PIP_*`` variables), so that a local mirror is used as pip
would use it. truepass names no registry of its own."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from truepass.errors import TruepassError

TIMEOUT_S = 900


class EnvironmentUnbuilt(TruepassError):
    """An environment cannot be resolved or built (an unresolvable lock, a Python version this
    machine lacks, the registry unreachable, a failing build): the sample is invalid for that
    reason, and a resumed run tries again."""


def uv_binary() -> str:
    """The ``uv`` executable of the installed ``uv`` package."""
    try:
        from uv import find_uv_bin
    except ImportError as exc:  # pragma: no cover - a dependency of truepass
        raise EnvironmentUnbuilt(
            "uv is not installed: `pip install uv` (a dependency of truepass)"
        ) from exc
    return str(find_uv_bin())


_PIP_KEYS = {
    "index-url": "UV_INDEX_URL",
    "extra-index-url": "UV_EXTRA_INDEX_URL",
    "find-links": "UV_FIND_LINKS",
}
_LINE = re.compile(r"^[^.]*\.([\w-]+)='(.*)'$")


@functools.cache
def machine_sources() -> dict[str, str]:
    """``UV_*`` variables that give uv the package sources pip is configured with here."""
    try:
        out = subprocess.run(
            [sys.executable, "-m", "pip", "config", "list"],
            capture_output=True, text=True, timeout=60, check=False,
        ).stdout  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return {}
    found: dict[str, list[str]] = {}
    for line in out.splitlines():
        m = _LINE.match(line.strip())
        if m and m.group(1) in _PIP_KEYS:
            found.setdefault(_PIP_KEYS[m.group(1)], []).extend(m.group(2).split())
    env = {k: " ".join(dict.fromkeys(v)) for k, v in found.items()}
    if "UV_EXTRA_INDEX_URL" in env or "UV_FIND_LINKS" in env:
        # pip takes the best version from every source; uv's default stops at the first index
        # that has the package, which may lack the pinned version
        env["UV_INDEX_STRATEGY"] = "unsafe-best-match"
    return env


def run_uv(
    args: Sequence[str],
    *,
    cwd: Path | None = None,
    extra_env: Mapping[str, str] | None = None,
    what: str,
) -> str:
    """Run ``uv ARGS`` (never a package's code: callers pass ``--no-build``) and return its
    stdout; raise :class:`EnvironmentUnbuilt` saying ``what`` failed, with uv's own words."""
    env = {**os.environ, **machine_sources(), "UV_PYTHON_DOWNLOADS": "never", **(extra_env or {})}
    env.pop("VIRTUAL_ENV", None)
    try:
        proc = subprocess.run(
            [uv_binary(), *args], cwd=cwd, env=env, capture_output=True, text=True,
            timeout=TIMEOUT_S, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        raise EnvironmentUnbuilt(f"{what}: uv did not finish in {TIMEOUT_S} s") from exc
    if proc.returncode != 0:
        words = "\n".join(proc.stderr.strip().splitlines()[-12:])
        raise EnvironmentUnbuilt(f"{what}: {words or f'uv exited {proc.returncode}'}")
    return proc.stdout
