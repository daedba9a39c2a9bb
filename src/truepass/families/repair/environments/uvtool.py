"""The ``uv`` command line (the pinned ``uv`` package's binary), pointed at this machine's own
package sources: the index, extra indexes and find-links that pip is configured with
(``pip config list``: its files and ``PIP_*`` variables), so that a local mirror is used as pip
would use it. truepass names no registry of its own."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from truepass.errors import TruepassError
from truepass.paths import file_lock, user_cache_dir

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
    what: str,
) -> str:
    """Run ``uv ARGS`` (never a package's code: callers pass ``--no-build``) and return its
    stdout; raise :class:`EnvironmentUnbuilt` saying ``what`` failed, with uv's own words."""
    env = {**os.environ, **machine_sources(), "UV_PYTHON_DOWNLOADS": "never"}
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


def envs_dir() -> Path:
    """Where environments are kept: ``$TRUEPASS_ENVS``, else ``~/.cache/truepass/envs``."""
    return Path(os.environ.get("TRUEPASS_ENVS") or user_cache_dir() / "envs")


def locked(root: Path) -> contextlib.AbstractContextManager[None]:
    """One maker of the environment ``root`` at a time (a lock file beside it)."""
    return file_lock(root.parent / f"{root.name}.lock")


def find_interpreter(minor: str) -> str:
    """The interpreter of Python ``minor``: this one's base when it matches, else the one
    ``uv python find`` finds on this machine (never downloaded)."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == minor:
        return str(Path(getattr(sys, "_base_executable", sys.executable)).resolve())
    out = run_uv(["python", "find", "--no-managed-python", minor], what=f"finding Python {minor}")
    return str(Path(out.strip()).resolve())


def install_pinned(venv: Path, lines: list[str], links: list[str], interpreter: str) -> Path:
    """Install pinned ``lines`` into ``venv`` as wheels (``links``: wheelhouse directories of
    sdists built in the sandbox), compile their bytecode; returns site-packages."""
    (venv.parent / "requirements.txt").write_text("\n".join(lines) + "\n")
    run_uv(
        ["pip", "install", "--quiet", "--no-build", "--no-deps", "--python",
         str(venv / "bin" / "python"), *find_links_args(links),
         "-r", str(venv.parent / "requirements.txt")],
        what="installing the pinned packages (wheels only)",
    )  # fmt: skip
    site = site_packages(venv)
    subprocess.run(
        [interpreter, "-I", "-S", "-m", "compileall", "-q", "-j", "0", str(site)],
        capture_output=True, check=False,
    )  # fmt: skip
    return site


def find_links_args(links: list[str]) -> list[str]:
    """uv's options naming the wheelhouse directories ``links``."""
    return [a for link in links for a in ("--find-links", link)]


def install_for_base(site: Path, interpreter: str, sources: list[str], *, what: str) -> None:
    """Install wheels (``sources``: paths, or ``-r FILE``) into ``site`` for the tags of the base
    ``interpreter``: uv then never starts an environment's own interpreter, whose ``site``
    would run the ``.pth`` files of the packages installed there, outside the sandbox."""
    run_uv(
        ["pip", "install", "--quiet", "--no-build", "--no-deps", "--python", interpreter,
         "--target", str(site), *sources],
        what=what,
    )  # fmt: skip


def base_prefix(interpreter: str) -> str:
    return subprocess.run(
        [interpreter, "-I", "-S", "-c", "import sys; print(sys.base_prefix)"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip


def site_packages(venv: Path) -> Path:
    found = sorted(venv.glob("lib/python3*/site-packages"))
    if not found:
        raise EnvironmentUnbuilt(f"{venv}: no site-packages after creating it")
    return found[0]


def compile_pinned(
    wanted: list[str],
    python: str,
    *,
    constraints: list[str] | None = None,
    find_links: list[str] | None = None,
) -> list[str]:
    """Pinned lines for ``wanted``: ``uv pip compile --no-build`` for ``python`` (published
    metadata only; no package's build runs), with wheelhouses ``find_links``."""
    if not wanted:
        return []
    with tempfile.TemporaryDirectory(prefix="truepass-resolve-") as tmp:
        Path(tmp, "in.txt").write_text("\n".join(wanted) + "\n")
        args = ["pip", "compile", "--no-build", "--no-header", "--no-annotate", "--quiet",
                "--python-version", python, "in.txt"]  # fmt: skip
        if constraints:
            Path(tmp, "c.txt").write_text("\n".join(unmarked(constraints)) + "\n")
            args += ["-c", "c.txt"]
        args += find_links_args(find_links or [])
        out = run_uv(args, cwd=Path(tmp), what=f"resolving {', '.join(wanted[:6])}")
    return clean_lines(out.splitlines())


PINNED = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[^\]]*\])?\s*===?\s*[^\s;,]+\s*(;.*)?$")


def unmarked(lines: list[str]) -> list[str]:
    """The pinned ``name==version`` of each pinned line, without its marker."""
    return [ln.split(";")[0].strip() for ln in lines if PINNED.match(ln)]


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(line: str) -> str:
    """The normalized name a requirement line starts with ("" if none)."""
    m = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    return normalize(m.group(1)) if m else ""


def clean_lines(lines: list[str]) -> list[str]:
    """Requirement lines without comments and options."""
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith(("#", "-"))]
