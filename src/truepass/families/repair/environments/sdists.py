"""Packages published only as source distributions: downloaded by the trusted process, built
into wheels offline in the sandbox, kept in a wheelhouse.

The network-facing step is a plain download from the machine's own index (pip's configured
``index-url``, else pip's default), checked against the index's sha256; nothing of the sdist
runs outside the sandbox. Its build backend's requirements (read from the archive's
``pyproject.toml``, without unpacking it to disk) are resolved and installed as wheels into a
build environment, and the backend's ``build_wheel`` runs in the sandbox, offline, with that
environment read-only. The wheel lands in ``ENVS/wheelhouse/NAME-VERSION/``, which later
resolutions and installs read as ``--find-links``.
"""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import tarfile
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import httpx

from truepass.errors import SandboxError
from truepass.families.repair.environments.backend import build_venv, run_backend
from truepass.families.repair.environments.uvtool import (
    EnvironmentUnbuilt,
    machine_sources,
    normalize,
)
from truepass.sandbox.session import SandboxSession

NO_WHEEL = re.compile(r"Because ([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s,]+) has no usable wheels")
MAX_ROUNDS = 8
JSON_API = "application/vnd.pypi.simple.v1+json"


def wheelhouse(envs: Path) -> Path:
    return envs / "wheelhouse"


T = TypeVar("T")


def with_sdists(attempt: Callable[[list[str]], T], envs: Path, python: str, built: list[str]) -> T:
    """``attempt(find_links)`` until uv stops naming pinned packages that have no wheel; each
    named one is built from its sdist (:func:`sdist_wheel`) and added to ``built``
    (``name==version``) and to the find-links of the next attempt."""
    for _ in range(MAX_ROUNDS):
        links = [str(wheelhouse(envs) / pin.replace("==", "-")) for pin in built]
        try:
            return attempt(links)
        except EnvironmentUnbuilt as exc:
            missing = [f"{normalize(n)}=={v}" for n, v in NO_WHEEL.findall(str(exc))]
            new = [pin for pin in dict.fromkeys(missing) if pin not in built]
            if not new:
                raise
            for pin in new:
                sdist_wheel(pin, envs, python)
                built.append(pin)
    raise EnvironmentUnbuilt(f"more than {MAX_ROUNDS} rounds of source builds: {built}")


def sdist_wheel(pin: str, envs: Path, python: str) -> Path:
    """The wheel of ``pin`` (``name==version``) built from its sdist (cached)."""
    name, version = pin.split("==")
    dest = wheelhouse(envs) / f"{name}-{version}"
    found = sorted(dest.glob("*.whl"))
    if found:
        return found[0]
    filename, data = download_sdist(name, version)
    requires = build_requires(filename, data)
    venv = build_venv(requires, python, envs)
    try:
        with SandboxSession({filename: data}, limits=venv.limits, ro_binds=venv.binds,
                            env={"HOME": "/tmp"}) as box:  # fmt: skip
            wheel_name, wheel = run_backend(box, venv.python, "build_wheel", unpack=filename)
    except SandboxError as exc:
        raise EnvironmentUnbuilt(f"the sandbox failed while building {pin}: {exc}") from exc
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / wheel_name).write_bytes(wheel)
    tmp.rename(dest)
    return dest / wheel_name


def index_url() -> str:
    """The machine's index: pip's configured ``index-url``, else pip's own default."""
    configured = machine_sources().get("UV_INDEX_URL")
    if configured:
        return configured.split()[0]
    from pip._internal.models.index import PyPI

    return str(PyPI.simple_url)


def download_sdist(name: str, version: str) -> tuple[str, bytes]:
    """The sdist of ``name`` ``version`` from the index (PEP 691), checked against its hash."""
    url = f"{index_url().rstrip('/')}/{normalize(name)}/"
    try:
        with httpx.Client(timeout=120, follow_redirects=True) as client:
            page = client.get(url, headers={"Accept": JSON_API})
            page.raise_for_status()
            files = page.json().get("files", [])
            entry = next((f for f in files if _sdist_version(f["filename"], name) == version), None)
            if entry is None:
                raise EnvironmentUnbuilt(f"{name}=={version}: no wheel and no sdist on {url}")
            data = client.get(entry["url"]).content
    except (httpx.HTTPError, ValueError) as exc:
        raise EnvironmentUnbuilt(f"downloading the sdist of {name}=={version}: {exc}") from exc
    want = entry.get("hashes", {}).get("sha256")
    if want and hashlib.sha256(data).hexdigest() != want:
        raise EnvironmentUnbuilt(f"{entry['filename']}: sha256 differs from the index's")
    return str(entry["filename"]), data


def _sdist_version(filename: str, name: str) -> str | None:
    if not filename.endswith((".tar.gz", ".zip")):
        return None
    base = re.sub(r"\.(tar\.gz|zip)$", "", filename)
    head, _, version = base.rpartition("-")
    return version if normalize(head) == normalize(name) else None


def build_requires(filename: str, data: bytes) -> list[str]:
    """``[build-system].requires`` of the sdist's top-level ``pyproject.toml`` (read from the
    archive in memory); setuptools' legacy default when it has none."""
    text = None
    try:
        if filename.endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                names = [
                    n for n in zf.namelist() if n.count("/") == 1 and n.endswith("/pyproject.toml")
                ]
                text = zf.read(names[0]).decode() if names else None
        else:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tf:
                member = next((m for m in tf.getmembers() if m.isfile() and m.name.count("/") == 1
                               and m.name.endswith("/pyproject.toml")), None)  # fmt: skip
                fh = tf.extractfile(member) if member else None
                text = fh.read().decode() if fh else None
    except (tarfile.TarError, zipfile.BadZipFile, UnicodeDecodeError, OSError) as exc:
        raise EnvironmentUnbuilt(f"{filename}: not a readable sdist ({exc})") from exc
    system = tomllib.loads(text).get("build-system", {}) if text else {}
    requires = system.get("requires")
    return list(requires) if isinstance(requires, list) else ["setuptools>=40.8.0", "wheel"]
