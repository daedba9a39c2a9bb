"""The project's own build backend, called in the sandbox: the environment of a backend, the
program that loads it (PEP 517's ``build-system``), and its hooks (``build_wheel``,
``build_editable``, ``get_requires_for_build_editable``), their wheels read back by the trusted
process."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from truepass.families.repair.environments.uvtool import (
    EnvironmentUnbuilt,
    base_prefix,
    compile_pinned,
    find_interpreter,
    install_pinned,
    locked,
    run_uv,
)
from truepass.sandbox.models import Limits
from truepass.sandbox.session import SandboxSession

BUILD_LIMITS = Limits(
    timeout_s=900, memory_mb=4096, cpu_s=900, max_processes=256, file_size_mb=512,
    disk_mb=2048, open_files=1024,
)  # fmt: skip
BUILD_DIR = ".truepass-build"


@dataclass(frozen=True)
class BuildVenv:
    """A build backend's environment, for building sdists in the sandbox."""

    python: str
    binds: dict[str, str]
    limits: Limits = BUILD_LIMITS


def build_venv(requires: list[str], python: str, envs: Path) -> BuildVenv:
    """A cached environment holding a build backend's ``requires`` (wheels only)."""
    lines = compile_pinned(requires, python)
    key = hashlib.sha256(json.dumps([python, lines]).encode()).hexdigest()[:20]
    root = envs / "buildenvs" / key
    with locked(root):
        interpreter = find_interpreter(python)
        prefix = base_prefix(interpreter)
        if not (root / "ready").is_file():
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            run_uv(["venv", "--quiet", "--no-project", "--python", interpreter,
                    str(root / "venv")], what="creating a build environment")  # fmt: skip
            install_pinned(root / "venv", lines, [], interpreter)
            (root / "ready").write_text(json.dumps(lines))
    return BuildVenv(
        python=str(root / "venv" / "bin" / "python"),
        binds={str(root): str(root), prefix: prefix},
    )


# The in-sandbox start of every backend call: the backend PEP 517 names (setuptools' legacy
# one by default), imported from the environment (and ``backend-path``) as ``hooks``.
LOAD_BACKEND = r"""
import glob, importlib, json, os, sys, tarfile, tomllib, zipfile
if UNPACK:
    if UNPACK.endswith(".zip"):
        zipfile.ZipFile(UNPACK).extractall("unpacked")
    else:
        tarfile.open(UNPACK).extractall("unpacked", filter="data")
    (top,) = glob.glob("unpacked/*/")
    os.chdir(top)
    OUT = os.path.abspath(os.path.join("..", "..", OUT))
data = {}
if os.path.exists("pyproject.toml"):
    with open("pyproject.toml", "rb") as fh:
        data = tomllib.load(fh)
system = data.get("build-system", {})
backend = system.get("build-backend", "setuptools.build_meta:__legacy__")
sys.path[:0] = [os.path.abspath(p) for p in system.get("backend-path", [])]
name, _, attrs = backend.partition(":")
hooks = importlib.import_module(name)
for attr in filter(None, attrs.split(".")):
    hooks = getattr(hooks, attr)
"""
BUILD_SCRIPT = r"""
os.makedirs(OUT, exist_ok=True)
if not hasattr(hooks, HOOK):
    sys.exit(f"the build backend {backend} has no {HOOK} (PEP 517, PEP 660)")
print("WHEEL=" + getattr(hooks, HOOK)(OUT))
"""


def script(body: str, *, hook: str, unpack: str | None) -> str:
    """A backend call's program: its settings, the backend loaded, then ``body``."""
    return f"OUT = {BUILD_DIR!r}\nHOOK = {hook!r}\nUNPACK = {unpack!r}\n{LOAD_BACKEND}{body}"


def run_backend(
    box: SandboxSession, python: str, hook: str, *, unpack: str | None = None
) -> tuple[str, bytes]:
    """Run the build backend's ``hook`` (``build_wheel`` or ``build_editable``) in ``box`` on
    the workspace (or on the sdist ``unpack``, unpacked there first); returns the wheel's name
    and bytes, read back by the trusted process."""
    program = script(BUILD_SCRIPT, hook=hook, unpack=unpack)
    out = step(box, [python, "-c", program], f"the build backend ({hook})")
    name = next((ln[6:] for ln in out.splitlines() if ln.startswith("WHEEL=")), "").strip()
    if not name or "/" in name:
        raise EnvironmentUnbuilt(f"the build backend named no wheel: {out[-300:]}")
    return name, box.read_binary(f"{BUILD_DIR}/{name}")


REQUIRES_SCRIPT = r"""
hook = getattr(hooks, "get_requires_for_build_editable", None)
print("REQUIRES=" + json.dumps(list(hook()) if hook else []))
"""


def step(box: SandboxSession, argv: list[str], what: str) -> str:
    result = box.execute(argv)
    if result.timed_out or result.returncode != 0:
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-12:])
        why = "timed out" if result.timed_out else f"exit {result.returncode}"
        raise EnvironmentUnbuilt(f"{what} failed in the sandbox ({why}): {tail}")
    return result.stdout
