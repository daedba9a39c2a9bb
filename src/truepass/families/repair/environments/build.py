"""Build, cache and find the environment of an :class:`~.spec.EnvSpec`.

An environment is a directory ``ENVS/KEY`` (``KEY``: the spec's content key, ``ENVS``:
``$TRUEPASS_ENVS`` or ``~/.cache/truepass/envs``) holding a virtual environment, the project's
compiled extensions (``overlay/``) and ``ready.json``, written last. It is built in three steps:

1. trusted, with the network: ``uv venv`` and ``uv pip install --no-build --no-deps`` of the
   pinned packages; only wheels are installed, unpacked by uv, so no package's code runs;
   bytecode is compiled by the base interpreter without ``site`` (parsing, not running);
2. untrusted, offline, in the sandbox (uid 65534, no network, the environment read-only): the
   explicit spec's pre-install commands, the project's own build backend building an editable
   wheel (its ``.pth`` names ``/workspace``, where every test run finds the repository), and
   ``setup.py build_ext --inplace`` for compiled extensions; the wheel and the built
   extensions are read back by the trusted process;
3. trusted: the editable wheel installed by uv for the base interpreter's tags (the
   environment's own interpreter, whose ``site`` would run ``.pth`` files, never runs outside
   the sandbox).

Tests then run in the sandbox with the environment bound read-only at its own path.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from pydantic import BaseModel

from truepass.errors import SandboxError
from truepass.families.repair.environments.backend import (
    BUILD_DIR,
    BUILD_LIMITS,
    REQUIRES_SCRIPT,
    run_backend,
    script,
    step,
)
from truepass.families.repair.environments.sdists import sdist_wheel, with_sdists
from truepass.families.repair.environments.spec import EnvSpec
from truepass.families.repair.environments.uvtool import (
    EnvironmentUnbuilt,
    base_prefix,
    compile_pinned,
    envs_dir,
    find_interpreter,
    install_for_base,
    install_pinned,
    locked,
    requirement_name,
    run_uv,
    site_packages,
)
from truepass.sandbox.session import SandboxSession

log = logging.getLogger(__name__)

COMPILED_OUTPUTS = (".so", ".pyd")
Progress = Callable[[str], None]


class Built(BaseModel):
    """``ready.json``: what was built, from which spec, and what it cost."""

    key: str
    spec: EnvSpec
    interpreter: str
    base_prefix: str
    created_at: str
    build_s: float
    size_bytes: int
    overlay: list[str]
    extensions_digest: str | None = None
    editable: str | None = None


@dataclass(frozen=True)
class Environment:
    """A built environment, ready for test runs."""

    root: Path
    built: Built
    overlay: dict[str, bytes] = field(default_factory=dict)

    @property
    def python(self) -> str:
        return str(self.root / "venv" / "bin" / "python")

    def binds(self) -> dict[str, str]:
        """Host paths a test run binds read-only, each at its own path."""
        return {str(self.root): str(self.root), self.built.base_prefix: self.built.base_prefix}

    def rebuilds(self, code: Mapping[str, str]) -> bool:
        """Does ``code`` change the compiled sources the overlay was built from?"""
        exts = self.built.spec.extensions
        return bool(exts) and extensions_digest(code, exts) != self.built.extensions_digest

    def overlay_for(self, code: Mapping[str, str]) -> dict[str, bytes]:
        """The compiled extensions to lay into a workspace of ``code`` (none when ``code``
        changes their sources: then they are rebuilt in the run)."""
        return {} if self.rebuilds(code) else dict(self.overlay)


def extensions_digest(files: Mapping[str, str], sources: list[str]) -> str:
    text = json.dumps([[p, files.get(p)] for p in sources])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


_READY: dict[str, Environment] = {}


def ready(
    spec: EnvSpec, files: Mapping[str, str], *, progress: Progress | None = None
) -> Environment:
    """The environment of ``spec``, built from ``files`` (the repository at a commit) if it is
    not in the cache yet. One process builds a key at a time (a file lock); the others wait.

    Raises:
        EnvironmentUnbuilt: it cannot be built; nothing is left in the cache.
    """
    if spec.problem is not None:
        raise EnvironmentUnbuilt(spec.problem)
    root = envs_dir() / spec.key()
    if str(root) in _READY and (root / "ready.json").is_file():
        return _READY[str(root)]
    with locked(root):
        env = _load(root)
        if env is None:
            env = _build(spec, files, root, progress or _log_progress)
    _READY[str(root)] = env
    return env


def _log_progress(message: str) -> None:
    log.warning("%s", message)


def _load(root: Path) -> Environment | None:
    try:
        built = Built.model_validate_json((root / "ready.json").read_text())
    except (OSError, ValueError):
        return None
    overlay = {p: (root / "overlay" / p).read_bytes() for p in built.overlay}
    os.utime(root / "ready.json")  # last used, for `truepass envs prune --unused-days`
    return Environment(root=root, built=built, overlay=overlay)


def _build(spec: EnvSpec, files: Mapping[str, str], root: Path, say: Progress) -> Environment:
    started = time.monotonic()
    key = root.name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    try:
        interpreter = find_interpreter(spec.python)
        prefix = base_prefix(interpreter)
        venv = root / "venv"
        n = len(spec.requirements) + len(spec.build_requires)
        say(f"environment {key}: installing {n} pinned packages (Python {spec.python}, "
            f"from {', '.join(spec.declared) or 'nothing declared'})")  # fmt: skip
        run_uv(["venv", "--quiet", "--no-project", "--python", interpreter, str(venv)],
               what="creating the virtual environment")  # fmt: skip
        for pin in spec.sdists:
            say(f"environment {key}: building {pin} from its sdist in the sandbox (offline)")
            sdist_wheel(pin, root.parent, spec.python)
        pinned = spec.requirements + spec.build_requires
        with_sdists(
            lambda links: install_pinned(venv, pinned, links, interpreter),
            root.parent, spec.python, list(spec.sdists),
        )  # fmt: skip
        site = site_packages(venv)
        overlay: dict[str, bytes] = {}
        editable = None
        if spec.project is not None or spec.pre_install:
            say(f"environment {key}: building the project in the sandbox (offline)")
            wheel, overlay = _sandboxed_build(spec, files, root, prefix)
            if wheel is not None:
                install_for_base(site, interpreter, [str(wheel)],
                                 what="installing the project's editable wheel")  # fmt: skip
                editable = wheel.name
        for rel, data in overlay.items():
            dest = root / "overlay" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        built = Built(
            key=key, spec=spec, interpreter=interpreter, base_prefix=prefix,
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
            build_s=round(time.monotonic() - started, 2), size_bytes=_size(root),
            overlay=sorted(overlay), editable=editable,
            extensions_digest=extensions_digest(files, spec.extensions),
        )  # fmt: skip
        (root / "ready.json").write_text(built.model_dump_json(indent=1))
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    say(f"environment {key}: ready in {built.build_s:.1f} s ({built.size_bytes >> 20} MiB)")
    return Environment(root=root, built=built, overlay=overlay)


def _sandboxed_build(
    spec: EnvSpec, files: Mapping[str, str], root: Path, prefix: str
) -> tuple[Path | None, dict[str, bytes]]:
    """The editable wheel and the compiled extensions, built by the project's own code in the
    sandbox, offline, with the environment read-only."""
    python = str(root / "venv" / "bin" / "python")
    binds = {str(root): str(root), prefix: prefix}
    try:
        with SandboxSession(
            files, limits=BUILD_LIMITS, ro_binds=binds, env={"HOME": "/tmp"}
        ) as box:
            for command in spec.pre_install:
                step(box, ["/bin/sh", "-c", command], f"pre-install command {command!r}")
            wheel = None
            if spec.project is not None:
                _editable_requires(box, spec, python, root)
                wheel = run_backend(box, python, "build_editable")
            overlay: dict[str, bytes] = {}
            if spec.extensions:
                before = set(files)  # the backend may have built them in place already
                step(box, [python, "setup.py", "build_ext", "--inplace"], "building extensions")
                for rel in sorted(set(box.list_files()) - before):
                    top = PurePosixPath(rel).parts[0]
                    if rel.endswith(COMPILED_OUTPUTS) and top not in ("build", BUILD_DIR):
                        overlay[rel] = box.read_binary(rel)
                if not overlay:
                    raise EnvironmentUnbuilt("setup.py build_ext --inplace built no extension")
    except SandboxError as exc:
        raise EnvironmentUnbuilt(f"the sandbox failed while building: {exc}") from exc
    if wheel is None:
        return None, overlay
    path = root / "wheels" / wheel[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(wheel[1])
    return path, overlay


def _editable_requires(box: SandboxSession, spec: EnvSpec, python: str, root: Path) -> None:
    """Install what the backend says an editable build needs beyond its ``requires`` (PEP 660's
    ``get_requires_for_build_editable``, asked in the sandbox; hatchling's ``editables``):
    resolved within the environment's pins and installed as wheels for the base interpreter's
    tags, so the environment's own interpreter never runs outside the sandbox."""
    program = script(REQUIRES_SCRIPT, hook="", unpack=None)
    out = step(box, [python, "-c", program], "asking the build backend's requirements")
    line = next((ln[9:] for ln in out.splitlines() if ln.startswith("REQUIRES=")), "[]")
    wanted = [str(r) for r in json.loads(line)]
    have = {requirement_name(r) for r in spec.requirements + spec.build_requires}
    missing = [r for r in wanted if requirement_name(r) not in have]
    if not missing:
        return
    pins = compile_pinned(missing, spec.python, constraints=spec.requirements + spec.build_requires)
    (root / "editable-requires.txt").write_text("\n".join(pins) + "\n")
    install_for_base(
        site_packages(root / "venv"), find_interpreter(spec.python),
        ["-r", str(root / "editable-requires.txt")],
        what="installing the build backend's editable requirements",
    )  # fmt: skip


def _size(root: Path) -> int:
    return sum(p.lstat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())
