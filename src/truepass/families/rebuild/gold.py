"""The gold program as a sandbox sees it: an execute-only copy at :data:`GOLD_DIR` for the
agent, masks over its installed paths (so it can be neither read nor called there), and its
documentation read from this machine (docs/rebuild-format.md, "The agent's sandbox").
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from truepass.errors import InputError
from truepass.families.rebuild.schema import RebuildSample
from truepass.families.rebuild.sources import cache_root, sha256_of

GOLD_DIR = "/opt/gold"
"""Where the agent finds the gold, execute-only: ``/opt/gold/PROGRAM``."""

TRIPWIRE_MARK = "truepass-tripwire: the gold program was called"
"""What the stand-in at the gold's paths prints (on stderr) when something calls it."""

_TRIPWIRE = f"#!/bin/sh\necho '{TRIPWIRE_MARK}' >&2\nexit 127\n"
_DOC_TIMEOUT_S = 10.0


def gold_problem(sample: RebuildSample) -> str | None:
    """Why the installed gold cannot serve ``sample`` (None: it can): missing, or another
    build than the one the tests were recorded from."""
    path = Path(sample.gold)
    if not path.is_file():
        return (
            f"{sample.gold} is not installed: install Debian package "
            f"'{sample.package.binary}' (apt-get install {sample.package.binary})"
        )
    if sha256_of(path) != sample.gold_sha256:
        return (
            f"{sample.gold} is not the build the tests were recorded from (package "
            f"{sample.package.binary} {sample.package.version}): install that version, or "
            "regenerate the task with truepass build-rebuild"
        )
    return None


def exec_only_copy(sample: RebuildSample) -> Path:
    """An execute-only copy of the gold (mode 0111), made once per build of it.

    Raises:
        InputError: the installed gold is missing or not the task's build.
    """
    if (problem := gold_problem(sample)) is not None:
        raise InputError(problem, location=sample.id, field="gold")
    target = cache_root() / "exec" / sample.gold_sha256 / sample.program
    if target.is_file() and (target.stat().st_mode & 0o777) == 0o111:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(target.parent, 0o755)
    temp = target.with_name(f".{sample.program}.{os.getpid()}")
    shutil.copyfile(sample.gold, temp)
    os.chmod(temp, 0o111)
    os.replace(temp, target)
    return target


def installed_paths(sample: RebuildSample) -> list[str]:
    """Every path the gold is installed at (``/usr/bin/rev`` and, on a merged ``/usr``,
    ``/bin/rev``), as a sandbox would reach it."""
    real = os.path.realpath(sample.gold)
    paths = {sample.gold, real}
    for prefix in ("/bin/", "/sbin/"):
        for path in list(paths):
            if path.startswith("/usr" + prefix):
                alias = path.removeprefix("/usr")
                if os.path.realpath(alias) == real:
                    paths.add(alias)
    return sorted(p for p in paths if not os.path.islink(p))


def tripwire_file(index: int = 0) -> Path:
    """A stand-in bound over one of the gold's installed paths (one file per path, since a bind
    source serves one destination): it says it was called and exits 127."""
    path = cache_root() / "tripwire" / f"{index}.sh"
    if not path.is_file() or path.read_text() != _TRIPWIRE:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{index}.{os.getpid()}")
        temp.write_text(_TRIPWIRE)
        os.chmod(temp, 0o755)
        os.replace(temp, path)
    return path


def masks(sample: RebuildSample) -> dict[str, str]:
    """Read-only binds that put a tripwire over every installed path of the gold. (The bundled
    tasks' tests are hidden by the sandbox itself, for every family: it covers truepass's own
    package wherever a bind would show it, :func:`truepass.sandbox.bwrap.hidden_in`.)"""
    return {str(tripwire_file(i)): path for i, path in enumerate(installed_paths(sample))}


def documentation(sample: RebuildSample) -> str:
    """The task's documentation, read from this machine: the gold's output for the help
    arguments, then its man page as text (what the agent is given)."""
    parts: list[str] = []
    args = sample.docs.help_args
    if args:
        done = subprocess.run(
            [sample.program, *args], executable=sample.gold, capture_output=True,
            timeout=_DOC_TIMEOUT_S, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}, check=False,
        )  # fmt: skip
        text = (done.stdout or done.stderr).decode("utf-8", "replace").strip()
        parts.append(f"$ {sample.program} {' '.join(args)}\n{text}")
    if sample.docs.man:
        man = shutil.which("man")
        if man is not None:
            env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "MANWIDTH": "80"}
            done = subprocess.run(
                [man, "-P", "cat", sample.docs.man], capture_output=True, timeout=30, env=env,
                check=False,
            )  # fmt: skip
            page = done.stdout.decode("utf-8", "replace").strip()
            if done.returncode == 0 and page:
                parts.append(f"$ man {sample.docs.man}\n{page}")
    return "\n\n".join(parts)
