"""Confining one check's child inside the sandbox: rlimits, Landlock and a seccomp filter.

Standard library only (ctypes): this file is shipped into the sandbox next to ``worker.py``.
The worker prepares everything once, at start (:func:`prepare`): a Landlock ruleset fd and a
seccomp BPF program exported by libseccomp. Each forked child then only applies them
(:func:`apply`), which costs a handful of system calls.

Landlock (kernel ABI 1+), when the kernel has it:
  * files: read-only everywhere (no execute), read-write only beneath the scratch directory (the
    worker wipes it after every check) and on ``/dev/null``;
  * network (ABI 4+): no TCP bind or connect;
  * scopes (ABI 6+): no signals to processes outside the child (the worker), no abstract unix
    sockets; and, in any ABI, no ptrace or ``/proc/PID/mem|fd`` access to the worker.
seccomp (libseccomp2 through ctypes), when the library loads: these system calls fail with EPERM
(``clone3`` with ENOSYS, so that threads fall back to ``clone``): new processes (fork, vfork,
clone without CLONE_THREAD), execve, sockets, ptrace and cross-process memory access, signals
to other processes, System V / POSIX IPC and keyrings (they would outlive the check), mounts and
namespaces, io_uring, bpf, perf events, userfaultfd. Threads stay allowed; the worker's cgroup
caps their number. Without seccomp, RLIMIT_NPROC=0 forbids new processes and threads instead.

A :class:`Profile` says what a child may still do; the default is a function check's child
(above). A warm test run's child (``pytestworker.py``) gets a wider one, as much as a cold test
run may do: more writable directories, execute, TCP in the sandbox's own network namespace, new
processes and signals (Landlock's signal scope keeps them off the worker).

Between checks the worker kills every other process of its sandbox (:func:`kill_others`) and
empties the writable directories (:func:`empty_dirs`).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import resource
import select
import signal
import stat
import time
from dataclasses import dataclass

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4

PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 4, 38, 22, 2
_LANDLOCK_CREATE, _LANDLOCK_ADD, _LANDLOCK_RESTRICT = 444, 445, 446  # same on every arch
_FS_READ = (1 << 2) | (1 << 3)  # READ_FILE | READ_DIR
_FS_FILE = (1 << 1) | (1 << 2)  # WRITE_FILE | READ_FILE
_FS_BITS = {1: 13, 2: 14, 3: 15, 4: 15, 5: 16}  # number of fs access bits per ABI
_EXECUTE, _TRUNCATE, _IOCTL_DEV = 1 << 0, 1 << 14, 1 << 15
CLONE_THREAD = 0x10000
SECCOMP_SONAME = "libseccomp.so.2"

DENIED = (
    "fork", "vfork", "execve", "execveat", "socket", "socketpair", "ptrace",
    "process_vm_readv", "process_vm_writev", "kill", "tkill", "tgkill", "rt_sigqueueinfo",
    "rt_tgsigqueueinfo", "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "shmget", "shmat",
    "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semctl",
    "mq_open", "mq_unlink", "mq_timedsend", "add_key", "request_key", "keyctl", "mount",
    "umount2", "pivot_root", "chroot", "unshare", "setns", "bpf", "perf_event_open",
    "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register", "kcmp",
    "open_by_handle_at", "name_to_handle_at", "fanotify_init", "mount_setattr", "fsopen",
    "fsmount", "fspick", "open_tree", "move_mount", "personality", "acct", "swapon", "reboot",
)  # fmt: skip


@dataclass(frozen=True)
class Profile:
    """What a confined child may still do. The default is a function check's child: write only
    beneath its scratch directory, no execute, no TCP, no new processes, :data:`DENIED`."""

    writable: tuple[str, ...] = ()  # directories it may also write beneath (besides scratch)
    devices: tuple[str, ...] = ("/dev/null",)  # files (or trees) it may read, write, ioctl
    execute: bool = False  # may execute files (read-only everywhere but the writable trees)
    tcp: bool = False  # may bind and connect TCP sockets (in the sandbox's network namespace)
    processes: bool = False  # may start threads AND processes (no clone/clone3 rule)
    denied: tuple[str, ...] = DENIED  # system calls that fail with EPERM


def set_dumpable(flag: bool) -> None:
    """PR_SET_DUMPABLE: a non-dumpable process's /proc files belong to root and it cannot be
    ptraced by its own uid (a child cannot reopen the worker's pipes via /proc/PID/fd)."""
    if _libc.prctl(PR_SET_DUMPABLE, int(flag), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE)")


class Confinement:
    """What the worker prepared once: a Landlock ruleset fd and a seccomp program, or why not."""

    def __init__(self, scratch: str) -> None:
        self.scratch = scratch
        self.landlock_abi = 0
        self.ruleset_fd = -1
        self.seccomp: ctypes.Array[ctypes.c_char] | None = None
        self.notes: list[str] = []

    def summary(self) -> dict[str, object]:
        """What is active, for the pool's hello message."""
        return {"landlock": self.landlock_abi, "seccomp": self.seccomp is not None}


def prepare(
    scratch: str,
    *,
    use_landlock: bool = True,
    use_seccomp: bool = True,
    profile: Profile | None = None,
) -> Confinement:
    """Build the Landlock ruleset and the seccomp program of ``profile`` (default: a function
    check's child); never raises: notes say what failed."""
    made = Confinement(scratch)
    profile = profile or Profile()
    if use_landlock:
        try:
            _prepare_landlock(made, profile)
        except OSError as exc:
            made.notes.append(f"landlock unavailable: {exc}")
    if use_seccomp:
        try:
            made.seccomp = _export_seccomp(profile)
        except OSError as exc:
            made.notes.append(f"seccomp unavailable: {exc}")
    return made


def _landlock(nr: int, *args: object) -> int:
    result = _libc.syscall(nr, *args)
    if result < 0:
        raise OSError(ctypes.get_errno(), f"landlock syscall {nr}")
    return int(result)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _prepare_landlock(made: Confinement, profile: Profile) -> None:
    abi = _landlock(_LANDLOCK_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    fs_all = (1 << _FS_BITS.get(abi, 16)) - 1
    attr = (ctypes.c_uint64 * 3)(fs_all, 0, 0)
    size = 8
    if abi >= 4:
        # BIND_TCP | CONNECT_TCP handled and no rule allows either; or not handled at all
        attr[1], size = (0 if profile.tcp else 0b11), 16
    if abi >= 6:
        attr[2], size = 0b11, 24  # SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
    fd = _landlock(_LANDLOCK_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    try:
        file_rights = _FS_FILE | (_TRUNCATE if abi >= 3 else 0)
        read = _FS_READ
        if profile.execute:  # and ioctl on devices (ABI 5+), as an unconfined process may
            read |= _EXECUTE | (_IOCTL_DEV if abi >= 5 else 0)
            file_rights |= _IOCTL_DEV if abi >= 5 else 0
        rules = [("/", read), (made.scratch, fs_all)]
        rules += [(path, fs_all) for path in profile.writable]
        rules += [(path, file_rights) for path in profile.devices]
        for path, rights in rules:
            parent = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = _PathBeneath(rights, parent)
                _landlock(_LANDLOCK_ADD, fd, 1, ctypes.byref(rule), ctypes.c_uint32(0))
            finally:
                os.close(parent)
    except BaseException:
        os.close(fd)
        raise
    os.set_inheritable(fd, False)
    made.landlock_abi, made.ruleset_fd = abi, fd


class _ArgCmp(ctypes.Structure):
    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


def _export_seccomp(profile: Profile) -> ctypes.Array[ctypes.c_char]:
    lib = _load_libseccomp()
    try:
        return _compile_seccomp(lib, profile)
    finally:
        _unload(lib)


def _load_libseccomp() -> ctypes.CDLL:
    """libseccomp by its soname; ``ctypes.util.find_library`` only when that fails. Every
    library and module the worker loads is copied into each child it forks (about 7 µs of fork
    and exit per mapping), and ``ctypes.util`` alone brings subprocess, shutil and the
    compression libraries."""
    try:
        return ctypes.CDLL(SECCOMP_SONAME, use_errno=True)
    except OSError:
        from ctypes.util import find_library  # the slow path only

        name = find_library("seccomp") or SECCOMP_SONAME
    try:
        return ctypes.CDLL(name, use_errno=True)
    except OSError as exc:
        raise OSError(errno.ENOENT, f"cannot load libseccomp ({name}): {exc}") from exc


def _unload(lib: ctypes.CDLL) -> None:
    """Unmap ``lib`` again (the program is exported): forks do not copy its mappings."""
    import _ctypes  # ctypes' own module, loaded already

    with contextlib.suppress(OSError, AttributeError):
        _ctypes.dlclose(lib._handle)


def _compile_seccomp(lib: ctypes.CDLL, profile: Profile) -> ctypes.Array[ctypes.c_char]:
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
    ]  # fmt: skip
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
    ctx = lib.seccomp_init(allow)
    if not ctx:
        raise OSError(errno.EINVAL, "seccomp_init failed")
    try:

        def rule(action: int, syscall: str, cmp: _ArgCmp | None = None) -> None:
            nr = lib.seccomp_syscall_resolve_name(syscall.encode())
            if nr < 0:  # not a system call on this architecture
                return
            count, ref = (1, ctypes.byref(cmp)) if cmp is not None else (0, None)
            rc = lib.seccomp_rule_add_array(ctx, action, nr, count, ref)
            if rc < 0:
                raise OSError(-rc, f"seccomp_rule_add({syscall})")

        for syscall in profile.denied:
            rule(eperm, syscall)
        if not profile.processes:
            rule(eperm, "clone", _ArgCmp(0, 7, CLONE_THREAD, 0))  # SCMP_CMP_MASKED_EQ: no thread
            rule(enosys, "clone3")
        read_fd, write_fd = os.pipe()
        try:
            rc = lib.seccomp_export_bpf(ctx, write_fd)
            os.close(write_fd)
            write_fd = -1
            if rc < 0:
                raise OSError(-rc, "seccomp_export_bpf")
            chunks = []
            while chunk := os.read(read_fd, 1 << 16):
                chunks.append(chunk)
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
    finally:
        lib.seccomp_release(ctx)
    program = b"".join(chunks)
    if not program or len(program) % 8:
        raise OSError(errno.EINVAL, "seccomp_export_bpf wrote no program")
    return ctypes.create_string_buffer(program, len(program))


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def set_rlimits(*, memory_mb: int, file_size_mb: int, open_files: int, no_procs: bool) -> None:
    """Soft = hard limits (the child cannot raise them back). The CPU limit comes later, per
    check (:func:`set_cpu_limit`)."""
    mib = 1 << 20
    values = [
        (resource.RLIMIT_AS, memory_mb * mib),
        (resource.RLIMIT_FSIZE, file_size_mb * mib),
        (resource.RLIMIT_NOFILE, open_files),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_MEMLOCK, 0),
    ]
    if no_procs:
        values.append((resource.RLIMIT_NPROC, 0))
    for which, value in values:
        lower_limit(which, value)


def set_cpu_limit(seconds: int) -> None:
    """RLIMIT_CPU, soft = hard (lowering it needs no privilege, even under seccomp)."""
    lower_limit(resource.RLIMIT_CPU, seconds)


def lower_limit(which: int, value: int) -> None:
    """Set rlimit ``which`` to ``value``, soft = hard, never above the current hard limit."""
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def apply(made: Confinement) -> None:
    """In the child: no new privileges, then Landlock, then seccomp (irreversible)."""
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if made.ruleset_fd >= 0:
        _landlock(_LANDLOCK_RESTRICT, made.ruleset_fd, ctypes.c_uint32(0))
        with contextlib.suppress(OSError):
            os.close(made.ruleset_fd)
    if made.seccomp is not None:
        prog = _SockFprog(len(made.seccomp) // 8, ctypes.addressof(made.seccomp))
        if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog), 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def kill_others(keep: set[int]) -> None:
    """SIGKILL every process visible in ``/proc`` (our own pid namespace) but ``keep``."""
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in keep:
            with contextlib.suppress(OSError):
                os.kill(int(name), signal.SIGKILL)


def skeleton(directories: list[str]) -> frozenset[str]:
    """What the sandbox itself put under the scratch directories before any candidate ran: the
    mount points of read-only binds that live there (a venv under /tmp) and their parents.
    :func:`empty_dirs` keeps these and never descends into a mount point."""
    keep: set[str] = set()
    for directory in directories:
        try:
            device = os.lstat(directory).st_dev
        except OSError:
            continue
        stack = [directory]
        while stack:
            path = stack.pop()
            for name in os.listdir(path):
                child = os.path.join(path, name)
                info = os.lstat(child)
                keep.add(child)
                if stat.S_ISDIR(info.st_mode) and info.st_dev == device:
                    stack.append(child)
    return frozenset(keep)


def empty_dirs(directories: list[str], keep: frozenset[str] = frozenset()) -> bool:
    """Delete everything inside ``directories`` but the ``keep`` skeleton (see
    :func:`skeleton`); False if something could not be removed."""
    try:
        for directory in directories:
            device = os.lstat(directory).st_dev
            stack = [directory]
            while stack:
                path = stack.pop()
                for name in os.listdir(path):
                    child = os.path.join(path, name)
                    if child not in keep:
                        _remove(child)
                        continue
                    info = os.lstat(child)
                    if stat.S_ISDIR(info.st_mode) and info.st_dev == device:
                        stack.append(child)  # a skeleton directory: clean inside it
    except (OSError, MemoryError):
        return False
    return True


def _remove(top: str) -> None:
    """Delete ``top`` and everything under it, making directories writable first, without
    following symbolic links and without recursion (OSError if something stays)."""
    stack, seen = [top], set()
    while stack:
        path = stack[-1]
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            stack.pop()
            continue
        if not stat.S_ISDIR(info.st_mode):
            os.unlink(path)
            stack.pop()
            continue
        if path not in seen:
            seen.add(path)
            os.chmod(path, 0o700)
            children = os.listdir(path)
            if children:
                stack.extend(os.path.join(path, name) for name in children)
                continue
        os.rmdir(path)
        stack.pop()


class ExitWatch:
    """Tells whether a child has exited WITHOUT reaping it (a pidfd, else ``waitid(WNOWAIT)``);
    the host's runs (``execution.py``) and the warm test worker's children both use it."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        try:
            self.fd: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self.fd = None

    def exited(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the exit; True once the child has exited."""
        if self.fd is not None:
            return bool(select.select([self.fd], [], [], timeout)[0])
        end = time.monotonic() + timeout
        while os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            if time.monotonic() >= end:
                return False
            time.sleep(0.005)
        return True

    def close(self) -> None:
        """Release the pidfd."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
