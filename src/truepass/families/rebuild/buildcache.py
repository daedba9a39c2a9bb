"""A content-addressed cache of rebuild builds: the same tree, built by the same ``compile.sh``
with the same toolchain in the same sandbox, is built once (docs/rebuild-format.md, "The build
cache").

An entry's key is the SHA-256 of everything the build could see that may differ between two
builds: every file of the workspace as the sandbox lays it out (path, mode and content, so
``compile.sh`` included), the sandbox's read-only binds (destination and content), its tier,
its limits and time limit, and a fingerprint of the machine's toolchain (:func:`toolchain`).
Two workspaces that differ by one byte, one mode or one path get different keys: one
submission's outputs never stand for another's.

An entry holds how ``compile.sh`` ended (exit status, the log's tail, duration) and, for a
build that succeeded, the whole workspace after it (a tar archive, made and unpacked inside
the sandbox, so that modes, symlinks and times come back as they were) with the SHA-256 of its
every file, which the restored workspace must match. Builds that ran out of time are not kept.

A ``compile.sh`` may hold checkpoint lines (:data:`CHECKPOINT`): the part before the last one
is then built first, as a ``compile.sh`` of its own in the same tree, and cached under its own
key; the rest runs on top of it. The oracle's scripts put ``configure`` before a checkpoint, so
the nine coreutils programs of a suite configure coreutils once.

Entries live in ``<rebuild cache>/build/<2 hex>/<key>/``, appear by a rename, are built under a
per-key file lock (one builder at a time; the others wait and reuse its entry), and are pruned
oldest-used first beyond ``$TRUEPASS_BUILD_CACHE_MB`` (default :data:`DEFAULT_CAP_MB`).
``TRUEPASS_BUILD_CACHE=off`` turns the cache off (checkpoints still split the build).
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import os
import secrets
import shutil
import stat
import time
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from truepass.errors import SandboxError
from truepass.families.rebuild.evidence import BuildUse
from truepass.families.rebuild.sources import CHECKPOINT, cache_root
from truepass.metrics.tree import Submission
from truepass.paths import file_lock
from truepass.sandbox import runner
from truepass.sandbox.bwrap import interpreter_paths, tool
from truepass.sandbox.models import Limits
from truepass.sandbox.session import SandboxSession, WorkspaceError

FORMAT = "truepass-rebuild-build-1"
"""Part of every key: bump it when what an entry holds, or how a build runs, changes."""


SWITCH_ENV = "TRUEPASS_BUILD_CACHE"
CAP_ENV = "TRUEPASS_BUILD_CACHE_MB"
DEFAULT_CAP_MB = 8192
ENTRY = "entry.json"
ARCHIVE = "tree.tar"
STALE_LOCK_S = 86400.0

_TOOLS = (
    "sh", "bash", "cc", "gcc", "c++", "g++", "cpp", "clang", "ld", "as", "ar", "make",
    "python3", "perl", "rustc", "cargo", "go", "javac", "node", "tar", "zstd", "gzip",
)  # fmt: skip
_TOOLCHAIN_DIRS = (
    "/bin", "/lib", "/etc", "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/libexec",
    "/usr/include", "/usr/share", "/usr/local", "/usr/local/bin", "/usr/local/lib",
    "/usr/local/include", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
    "/usr/lib/gcc", "/usr/lib/gcc/*/*", "/usr/include/x86_64-linux-gnu",
)  # fmt: skip
_SKIPPED_BIND_DIRS = frozenset({"__pycache__"})


class BuildEntry(BaseModel):
    """What a cached build left: how ``compile.sh`` ended and, when it succeeded, the
    workspace after it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    returncode: int = Field(description="compile.sh's exit status (never a timeout)")
    log: str = Field(description="the tail of its stdout then stderr, as the judge keeps it")
    duration_s: float = Field(ge=0.0, description="how long the build took when it ran")
    tier: str
    compressor: str | None = Field(None, description="the archive's compressor (None: none)")
    archive_sha256: str | None = Field(None, description="SHA-256 of the archive (succeeded)")
    digests: dict[str, str] = Field(
        default_factory=dict,
        description="SHA-256 of every regular file of the workspace after the build",
    )


def enabled() -> bool:
    """Whether builds are cached (``$TRUEPASS_BUILD_CACHE`` is not ``off``/``0``/``no``)."""
    return os.environ.get(SWITCH_ENV, "on").strip().lower() not in {"off", "0", "no", "false"}


def cache_dir() -> Path:
    """Where entries are kept: ``build/`` in the rebuild cache."""
    return cache_root() / "build"


def cap_bytes() -> int:
    """The cache's size cap, from ``$TRUEPASS_BUILD_CACHE_MB``."""
    raw = os.environ.get(CAP_ENV, "")
    try:
        mb = int(raw) if raw.strip() else DEFAULT_CAP_MB
    except ValueError:
        mb = DEFAULT_CAP_MB
    return max(mb, 0) << 20


# -- keys -------------------------------------------------------------------------------------


def workspace_files(files: Mapping[str, str | bytes]) -> dict[str, bytes]:
    """The files as the sandbox's workspace holds them: paths normalised as the session
    normalises them (empty and ``.`` components dropped; a later duplicate wins), content as
    bytes.

    Raises:
        WorkspaceError: a path the session refuses (absolute, with ``..``, a NUL byte, empty).
    """
    laid: dict[str, bytes] = {}
    for name, content in files.items():
        parts = [p for p in name.split("/") if p not in ("", ".")]
        if name.startswith("/") or "\0" in name or ".." in parts or not parts:
            raise WorkspaceError(f"not a workspace path: {name!r}")
        laid["/".join(parts)] = content.encode() if isinstance(content, str) else content
    return laid


def file_mode(content: bytes) -> int:
    """The mode the session gives a new file (``0755`` for a ``#!`` script, else ``0644``)."""
    return 0o755 if content.startswith(b"#!") else 0o644


def tree_digest(files: Mapping[str, str | bytes]) -> str:
    """SHA-256 of the canonical listing of ``files``: one ``path\\0mode\\0sha256`` line per
    file, sorted by path."""
    h = hashlib.sha256()
    for path, content in sorted(workspace_files(files).items()):
        digest = hashlib.sha256(content).hexdigest()
        h.update(f"{path}\0{file_mode(content):o}\0{digest}\n".encode())
    return h.hexdigest()


def _path_digest(path: Path) -> str:
    """SHA-256 of a bound file, or of a bound directory's listing of files and contents."""
    if path.is_file():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    h = hashlib.sha256()
    for here, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_BIND_DIRS)
        for name in sorted(names):
            full = Path(here) / name
            rel = full.relative_to(path).as_posix()
            info = full.lstat()
            content = full.read_bytes() if stat.S_ISREG(info.st_mode) else b""
            mode = stat.S_IMODE(info.st_mode)
            h.update(f"{rel}\0{mode:o}\0{hashlib.sha256(content).hexdigest()}\n".encode())
    return h.hexdigest()


@functools.cache
def toolchain() -> str:
    """A fingerprint of what the sandbox shows of the machine (computed once per process): the
    dpkg database, the times and inodes of the system's program and library directories, the
    compilers and build tools on ``PATH`` (path, size, time), the kernel and the CPU count.
    Installing, removing or upgrading a package changes it."""
    h = hashlib.sha256()
    status = Path("/var/lib/dpkg/status")
    if status.is_file():
        h.update(b"dpkg " + hashlib.sha256(status.read_bytes()).hexdigest().encode() + b"\n")
    dirs = sorted({p for pattern in _TOOLCHAIN_DIRS for p in glob.glob(pattern)})
    for path in [*dirs, *interpreter_paths()]:
        with contextlib.suppress(OSError):
            info = os.stat(path)
            h.update(f"dir {path} {info.st_ino} {info.st_mtime_ns}\n".encode())
    for name in _TOOLS:
        found = tool(name)
        if found is None:
            continue
        real = os.path.realpath(found)
        with contextlib.suppress(OSError):
            info = os.stat(real)
            h.update(f"tool {name} {real} {info.st_size} {info.st_mtime_ns}\n".encode())
    uname = os.uname()
    h.update(f"uname {uname.release} {uname.version} {uname.machine} {os.cpu_count()}\n".encode())
    return h.hexdigest()


def sandbox_kind() -> str:
    """The sandbox the build runs in: tier, and bwrap's variant."""
    tier = runner.sandbox_tier()
    return f"{tier}:{runner.bwrap_mode()}" if tier == runner.BWRAP else tier


def build_key(
    files: Mapping[str, str | bytes],
    *,
    limits_json: str,
    timeout_s: float,
    binds: Mapping[str, str],
    log_chars: int,
    first_binds: Mapping[str, str] | None = None,
) -> str:
    """The key of building ``files`` (``sh compile.sh`` in a fresh sandbox): SHA-256 of
    :data:`FORMAT`, the tree's canonical listing (:func:`tree_digest`), the limits and time
    limit, how much of the log is kept, each read-only bind (destination and content) and
    those of the part before a checkpoint where they differ, the sandbox's kind and
    :func:`toolchain`."""
    parts = [
        FORMAT,
        f"tree {tree_digest(files)}",
        f"limits {limits_json}",
        f"timeout {timeout_s!r}",
        f"log {log_chars}",
        *sorted(f"bind {dest} {_path_digest(Path(src))}" for src, dest in binds.items()),
        *sorted(
            f"first-bind {dest} {_path_digest(Path(src))}"
            for src, dest in (first_binds or {}).items()
        ),
        f"first-binds {first_binds is not None}",
        f"sandbox {sandbox_kind()}",
        f"toolchain {toolchain()}",
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def split_checkpoint(script: str | bytes) -> tuple[str, str] | None:
    """``compile.sh`` cut at its last :data:`CHECKPOINT` line: (the lines before it, the lines
    after it); None without one."""
    text = script.decode("utf-8", "replace") if isinstance(script, bytes) else script
    lines = text.splitlines(keepends=True)
    marks = [i for i, line in enumerate(lines) if line.strip() == CHECKPOINT]
    if not marks:
        return None
    last = marks[-1]
    return "".join(lines[:last]), "".join(lines[last + 1 :])


# -- entries ----------------------------------------------------------------------------------


def _entry_dir(key: str) -> Path:
    return cache_dir() / key[:2] / key


def lookup(key: str) -> tuple[BuildEntry, bytes | None] | None:
    """The entry of ``key`` and its archive (None for a failed build), or None: absent,
    unreadable, or not what it says (its key or its archive's SHA-256 differs)."""
    where = _entry_dir(key)
    try:
        entry = BuildEntry.model_validate_json((where / ENTRY).read_bytes())
        archive = (where / ARCHIVE).read_bytes() if entry.archive_sha256 is not None else None
    except (OSError, ValidationError, ValueError):
        return None
    if entry.key != key:
        return None
    if archive is not None and hashlib.sha256(archive).hexdigest() != entry.archive_sha256:
        return None
    with contextlib.suppress(OSError):
        os.utime(where / ENTRY)  # last used: the pruning order
    return entry, archive


def locked(key: str) -> contextlib.AbstractContextManager[None]:
    """An exclusive lock on ``key``: one builder at a time; the others wait, then find its
    entry."""
    return file_lock(cache_dir() / "locks" / f"{key}.lock")


def store(entry: BuildEntry, archive: bytes | None) -> None:
    """Keep ``entry`` (and its archive): written in a temporary directory, renamed into place;
    an entry already there is kept. Then prune to the size cap."""
    dest = _entry_dir(entry.key)
    if dest.is_dir():
        return
    temp = cache_dir() / f".tmp-{os.getpid()}-{secrets.token_hex(6)}"
    temp.mkdir(parents=True)
    try:
        if archive is not None:
            (temp / ARCHIVE).write_bytes(archive)
        (temp / ENTRY).write_text(entry.model_dump_json())
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            temp.rename(dest)
        except OSError:
            if not dest.is_dir():
                raise
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    prune(cap_bytes(), keep=entry.key)


def _entries() -> list[tuple[float, int, Path]]:
    """(last used, bytes, directory) of every entry."""
    found: list[tuple[float, int, Path]] = []
    root = cache_dir()
    for where in root.glob("??/*"):
        try:
            used = (where / ENTRY).stat().st_mtime
            size = sum(p.stat().st_size for p in where.iterdir())
        except OSError:
            continue
        found.append((used, size, where))
    return found


def prune(max_bytes: int, *, keep: str | None = None) -> int:
    """Remove the least recently used entries until the cache holds at most ``max_bytes``
    (never the entry ``keep``); how many were removed. Each goes by a rename first, so that a
    reader finds it whole or not at all."""
    _drop_stale_locks()
    entries = sorted(_entries())
    total = sum(size for _, size, _ in entries)
    removed = 0
    for _, size, where in entries:
        if total <= max_bytes:
            break
        if where.name == keep:
            continue
        trash = cache_dir() / f".trash-{os.getpid()}-{secrets.token_hex(6)}"
        try:
            where.rename(trash)
        except OSError:
            continue
        shutil.rmtree(trash, ignore_errors=True)
        total -= size
        removed += 1
    return removed


def _drop_stale_locks() -> None:
    """Remove lock files unused for :data:`STALE_LOCK_S` (at worst, two workers then build the
    same entry at once, and the second keeps the first's)."""
    cutoff = time.time() - STALE_LOCK_S
    for lock in (cache_dir() / "locks").glob("*.lock"):
        with contextlib.suppress(OSError):
            if lock.stat().st_mtime < cutoff:
                lock.unlink()


def compressor() -> str | None:
    """The archives' compressor: ``zstd`` (fast) where the machine has it, else ``gzip``, else
    none."""
    for name in ("zstd", "gzip"):
        if tool(name) is not None:
            return name
    return None


# -- descriptions -----------------------------------------------------------------------------


def described(files: Mapping[str, str | bytes]) -> Submission:
    """:func:`~truepass.families.rebuild.submission.describe` of ``files``, kept in the cache by
    the tree's digest (the structure of a large tree takes seconds to measure)."""
    from truepass.families.rebuild.submission import describe

    if not enabled():
        return describe(files)
    where = cache_dir() / "describe" / f"{tree_digest(files)}.json"
    with contextlib.suppress(OSError, ValidationError, ValueError):
        return Submission.model_validate_json(where.read_bytes())
    shape = describe(files)
    with contextlib.suppress(OSError):
        where.parent.mkdir(parents=True, exist_ok=True)
        temp = where.with_name(f".{where.name}.{os.getpid()}.{secrets.token_hex(4)}")
        temp.write_text(shape.model_dump_json())
        os.replace(temp, where)
    return shape


# -- building ---------------------------------------------------------------------------------

COMPILE_SCRIPT = "compile.sh"
_ARCHIVE_TIMEOUT_S = 300.0


class Build(BaseModel):
    """How ``compile.sh`` went, built now or reused."""

    returncode: int | None = Field(description="exit status; None when it ran out of time")
    timed_out: bool
    log: str = Field(description="the tail of stdout then stderr (of each part in turn)")
    duration_s: float = Field(ge=0.0, description="how long the build took when it ran")
    tier: str
    use: BuildUse
    digests: dict[str, str] = Field(
        default_factory=dict,
        description="SHA-256 of every regular file of the workspace after a build that succeeded",
    )

    @property
    def succeeded(self) -> bool:
        """Whether ``compile.sh`` ended with status 0 in time."""
        return not self.timed_out and self.returncode == 0


class BuildRequest(BaseModel):
    """What to build, and in what sandbox."""

    model_config = ConfigDict(frozen=True)

    files: dict[str, str | bytes]
    limits: Limits
    binds: dict[str, str] = Field(default_factory=dict)
    first_binds: dict[str, str] | None = Field(
        None,
        description="the binds of the part before a checkpoint (None: binds); the reference "
        "answer's is trusted and built without the tripwires, the same for every task",
    )
    timeout_s: float
    log_chars: int = Field(gt=0, description="how much of the log's tail is kept")


def run_build(request: BuildRequest) -> tuple[SandboxSession | None, Build]:
    """Build ``request.files`` with ``sh compile.sh`` in a fresh sandbox, or restore the same
    build from the cache; and the session holding the built workspace (open, the caller closes
    it) when the build succeeded, else None.

    Raises:
        WorkspaceError: a path the session refuses.
        SandboxError: the sandbox itself failed.
    """
    runner.check_files(request.files, request.limits)
    workspace_files(request.files)  # refuses what the session refuses, before any lookup
    if not enabled():
        session, build = _fresh(request, "")
        return session, _with_digests(session, build)
    key = build_key(
        request.files, limits_json=request.limits.model_dump_json(),
        timeout_s=request.timeout_s, binds=request.binds, log_chars=request.log_chars,
        first_binds=request.first_binds,
    )  # fmt: skip
    found = _restore(request, key)
    if found is not None:
        return found
    with locked(key):
        found = _restore(request, key)
        if found is not None:
            return found
        session, build = _fresh(request, key)
        build = _with_digests(session, build)
        if not build.timed_out:
            _keep(session, build, key)
        return session, build


def _with_digests(session: SandboxSession | None, build: Build) -> Build:
    if session is None or not build.succeeded:
        return build
    return build.model_copy(update={"digests": session.digests()})


def _fresh(request: BuildRequest, key: str) -> tuple[SandboxSession | None, Build]:
    """Run the build (a checkpointed ``compile.sh``: its first part through :func:`run_build`,
    cached on its own, then the rest)."""
    script = workspace_files(request.files).get(COMPILE_SCRIPT, b"")
    split = split_checkpoint(script)
    if split is None:
        session = SandboxSession(request.files, limits=request.limits, ro_binds=request.binds)
        try:
            ran = session.execute(["/bin/sh", COMPILE_SCRIPT], timeout_s=request.timeout_s)
        except BaseException:
            session.close()
            raise
        build = Build(
            returncode=None if ran.timed_out else ran.returncode, timed_out=ran.timed_out,
            log=(ran.stdout + ran.stderr)[-request.log_chars :], duration_s=ran.duration_s,
            tier=ran.tier, use=BuildUse(key=key, cached=False),
        )  # fmt: skip
        if not build.succeeded:
            session.close()
            return None, build
        return session, build
    first_part, rest = split
    first_files = {**request.files, COMPILE_SCRIPT: first_part}
    binds = request.binds if request.first_binds is None else request.first_binds
    update = {"files": first_files, "binds": binds, "first_binds": None}
    session, first = run_build(request.model_copy(update=update))
    if session is not None and binds != request.binds:
        session = _moved(session, first, request)
    use = BuildUse(key=key, cached=False, checkpoint="cached" if first.use.cached else "built")
    first = first.model_copy(update={"use": use, "digests": {}})
    if session is None:
        return None, first
    left = request.timeout_s - first.duration_s
    if left <= 0:
        session.close()
        return None, first.model_copy(update={"returncode": None, "timed_out": True})
    try:
        session.write_bytes(COMPILE_SCRIPT, script)
        ran = session.execute(["/bin/sh", "-c", rest, COMPILE_SCRIPT], timeout_s=left)
    except (WorkspaceError, OSError) as exc:
        session.close()
        log = f"{first.log}truepass: {COMPILE_SCRIPT} could not be put back: {exc}\n"
        return None, first.model_copy(update={"returncode": 1, "log": log})
    except BaseException:
        session.close()
        raise
    build = Build(
        returncode=None if ran.timed_out else ran.returncode, timed_out=ran.timed_out,
        log=(first.log + ran.stdout + ran.stderr)[-request.log_chars :],
        duration_s=first.duration_s + ran.duration_s, tier=ran.tier, use=use,
    )  # fmt: skip
    if not build.succeeded:
        session.close()
        return None, build
    return session, build


def _keep(session: SandboxSession | None, build: Build, key: str) -> None:
    """Store ``build`` under ``key``, with the workspace's archive when it succeeded (not at
    all when the archive could not be made)."""
    entry = BuildEntry(
        key=key, returncode=build.returncode if build.returncode is not None else -1,
        log=build.log, duration_s=build.duration_s, tier=build.tier,
    )  # fmt: skip
    archive: bytes | None = None
    if session is not None and build.succeeded:
        packed = _archive(session)
        if packed is None:
            return
        archive, packer = packed
        entry = entry.model_copy(
            update={
                "compressor": packer,
                "archive_sha256": hashlib.sha256(archive).hexdigest(),
                "digests": build.digests,
            }
        )
    with contextlib.suppress(OSError):
        store(entry, archive)


def _tar(*args: str, packer: str | None) -> list[str]:
    argv = [tool("tar") or "/usr/bin/tar", *args]
    if packer == "zstd":
        argv.append("--use-compress-program=zstd -1 -q")
    elif packer == "gzip":
        argv.append("--use-compress-program=gzip -1")
    return argv


def _archive(session: SandboxSession) -> tuple[bytes, str | None] | None:
    """The whole workspace as a tar archive (made in the sandbox, then taken out and deleted
    there), and its compressor; None when it could not be made (e.g. the workspace is too
    full)."""
    packer = compressor()
    name = f".truepass-build-{secrets.token_hex(8)}.tar"
    argv = _tar("--create", f"--file={name}", f"--exclude=./{name}", ".", packer=packer)
    # made empty first: tar must not see the workspace's directory change while it reads it
    # ("file changed as we read it", exit 1)
    argv = ["/bin/sh", "-c", ': >"$0" && exec "$@"', name, *argv]
    try:
        made = session.execute(argv, timeout_s=_ARCHIVE_TIMEOUT_S)
        data = session.read_binary(name) if made.returncode == 0 else None
    except (WorkspaceError, OSError):
        data = None
    finally:
        session.execute([tool("rm") or "/bin/rm", "-f", "--", name], timeout_s=60.0)
    return None if data is None else (data, packer)


def _restore(request: BuildRequest, key: str) -> tuple[SandboxSession | None, Build] | None:
    """The cached build of ``key``: its outcome and, when it succeeded, a fresh session holding
    its workspace, unpacked in the sandbox and checked file by file against the entry; None
    when there is no usable entry."""
    found = lookup(key)
    if found is None:
        return None
    entry, archive = found
    build = Build(
        returncode=entry.returncode, timed_out=False, log=entry.log,
        duration_s=entry.duration_s, tier=entry.tier, use=BuildUse(key=key, cached=True),
    )  # fmt: skip
    if archive is None:
        return (None, build) if entry.returncode != 0 else None
    session = _unpack(archive, entry.compressor, entry.digests, request)
    if session is None:
        return None
    return session, build.model_copy(update={"digests": entry.digests})


def _unpack(
    archive: bytes, packer: str | None, digests: Mapping[str, str], request: BuildRequest
) -> SandboxSession | None:
    """A fresh session (``request``'s limits and binds) holding the workspace ``archive`` holds,
    unpacked in the sandbox; None when it could not be, or its files differ from ``digests``."""
    session = SandboxSession(limits=request.limits, ro_binds=request.binds)
    try:
        name = f".truepass-restore-{secrets.token_hex(8)}.tar"
        session.write_bytes(name, archive)
        argv = _tar("--extract", "--preserve-permissions", f"--file={name}", packer=packer)
        unpacked = session.execute(argv, timeout_s=_ARCHIVE_TIMEOUT_S)
        session.execute([tool("rm") or "/bin/rm", "-f", "--", name], timeout_s=60.0)
        if unpacked.returncode != 0 or session.digests() != digests:
            session.close()
            return None
    except (WorkspaceError, OSError):
        session.close()
        return None
    except BaseException:
        session.close()
        raise
    return session


def _moved(session: SandboxSession, first: Build, request: BuildRequest) -> SandboxSession:
    """The workspace of ``session`` (closed), built by ``first``, in a fresh session with
    ``request``'s binds: from ``first``'s cache entry, or archived now.

    Raises:
        SandboxError: it could not be moved (e.g. the workspace is too full to archive).
    """
    found = lookup(first.use.key) if first.use.key else None
    try:
        if found is not None and found[1] is not None:
            packed: tuple[bytes, str | None] | None = (found[1], found[0].compressor)
        else:
            packed = _archive(session)
    finally:
        session.close()
    moved = None if packed is None else _unpack(packed[0], packed[1], first.digests, request)
    if moved is None:
        raise SandboxError("the workspace built before the checkpoint could not be moved")
    return moved


__all__ = [
    "CHECKPOINT",
    "Build",
    "BuildEntry",
    "BuildRequest",
    "build_key",
    "cache_dir",
    "compressor",
    "described",
    "enabled",
    "locked",
    "lookup",
    "prune",
    "run_build",
    "split_checkpoint",
    "store",
    "toolchain",
    "tree_digest",
]
