"""pytest inside the warm test worker's sandbox: its warm-up session, and each run's child from
its fork to its exit.

Shipped beside ``pytestworker.py`` (standard library and pytest only), which imports it only
after it has recorded what a cold ``python -P -m pytest`` has loaded when pytest starts
(:class:`Cold`): nothing imported here counts as loaded in a cold run.

A run's child (:func:`child_prepare`) confines itself (fds, dumpable again, Landlock,
seccomp), reads its payload, lays the files out in ``/workspace``, applies the cold run's
rlimits, sets the interpreter as a cold run has it (:func:`prepare_interpreter`: environment,
``sys.argv``, ``sys.path``, ``__main__``, the modules a workspace file could shadow dropped,
the plugins' per-run state, the parent's compiled code for pristine files) and says ``armed``;
the worker then calls pytest's entry point and :func:`interpreter_exit`.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import importlib
import importlib.machinery
import importlib.util
import json
import marshal
import os
import resource
import signal
import sys
import time
import traceback
import types
from dataclasses import dataclass

import _pytest.config
import pytest

try:  # inside the sandbox: shipped side by side (the worker imported confine already)
    import checkchild  # type: ignore[import-not-found]
    import confine  # type: ignore[import-not-found]
except ImportError:  # in truepass's own process (tests, tools)
    from truepass.sandbox.guest import checkchild, confine

WORKSPACE = "/workspace"
ARMED = b"A"  # on the control pipe: confined, files laid out, about to run pytest

COLD_ENTRY = getattr(_pytest.config, "_console_main", None)  # what `python -m pytest` calls
_MAIN_SPEC = importlib.util.find_spec("pytest.__main__")
_REWRITE = importlib.import_module("_pytest.assertion.rewrite")


@dataclass(frozen=True)
class Cold:
    """What a cold ``python -P -m pytest`` has when pytest starts, recorded by the worker."""

    path: tuple[str, ...]  # sys.path: PYTHONPATH (the harness), the stdlib, site-packages
    top: frozenset[str]  # top-level modules loaded before any workspace directory is on sys.path
    plugins: tuple[str, ...]  # the `-p` plugins of every run (the reporter)
    optional: tuple[str, ...]  # plugins some runs name with `-p` (warmed up too)


def entry() -> int:
    """pytest's entry point with ``sys.argv`` as it is (another pytest: its public one)."""
    if COLD_ENTRY is not None:
        return int(COLD_ENTRY())
    return run_pytest(sys.argv[1:])


WARMUP = {
    "conftest.py": ("import pytest\n\n@pytest.fixture\ndef numbers():\n    return [1, 2, 3]\n"),
    "test_truepass_warmup.py": (
        "import pytest\n\n\ndef test_passes(numbers, tmp_path, capsys, monkeypatch):\n"
        "    (tmp_path / 'x').write_text('x')\n    print('out')\n"
        "    monkeypatch.setenv('X', '1')\n    assert sum(numbers) == 6\n\n\n"
        "def test_fails():\n    assert {'a': [1, 2]} == {'a': [1, 3]}, 'differs'\n\n\n"
        "@pytest.mark.parametrize('n', [1, 2])\ndef test_param(n):\n"
        "    with pytest.raises(ZeroDivisionError):\n        n / 0\n\n\n"
        "@pytest.mark.skip(reason='warm-up')\ndef test_skipped():\n    pass\n\n\n"
        "@pytest.mark.xfail\ndef test_xfail():\n    assert 0\n\n\n"
        "class TestClass:\n    def test_method(self):\n        assert 'ab' in 'abc'\n"
    ),
}


# ---------------------------------------------------------------------------------------------
# The worker's own pytest session, once, before serving (trusted files, in its /tmp)


def warm_up(cold: Cold, notes: list[str]) -> float:
    """Run pytest once on :data:`WARMUP` (trusted) so that what it imports lazily is loaded,
    then undo what that session changed in the worker; the seconds it took."""
    began = time.monotonic()
    directory = os.path.join(os.environ.get("TMPDIR", "/tmp"), "truepass-warmup")
    os.makedirs(directory, exist_ok=True)
    for name, text in WARMUP.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    saved_path, saved_meta, saved_hooks = list(sys.path), list(sys.meta_path), list(sys.path_hooks)
    saved_env, saved_modules, saved_cwd = dict(os.environ), set(sys.modules), os.getcwd()
    saved_argv, handlers = list(sys.argv), _signal_handlers()
    out, err = os.dup(1), os.dup(2)
    null = os.open(os.devnull, os.O_RDWR)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.environ["TRUEPASS_CHANNEL_FD"] = str(os.dup(null))
        reload_plugins(cold)
        os.chdir(directory)
        plugins = [a for p in [*cold.plugins, *cold.optional] for a in ("-p", p)]
        args = ["-q", "-p", "no:cacheprovider", *plugins, "-o", "console_output_style=classic",
                "test_truepass_warmup.py"]  # fmt: skip
        code = run_pytest(args)
        if code != 1:
            notes.append(f"warm-up session exited {code}, not 1")
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os.dup2(out, 1)
        os.dup2(err, 2)
        for fd in (out, err, null):
            os.close(fd)
        os.chdir(saved_cwd)
        sys.path[:], sys.meta_path[:], sys.path_hooks[:] = saved_path, saved_meta, saved_hooks
        sys.argv[:] = saved_argv
        os.environ.clear()
        os.environ.update(saved_env)
        for name in set(sys.modules) - saved_modules:
            if (getattr(sys.modules[name], "__file__", None) or "").startswith(directory):
                del sys.modules[name]
        for key in [k for k in sys.path_importer_cache if str(k).startswith(directory)]:
            del sys.path_importer_cache[key]
        for signum, handler in handlers.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(signum, handler)
        reload_plugins(cold)  # forget the warm-up's channel
    return round(time.monotonic() - began, 3)


def _signal_handlers() -> dict[int, object]:
    found = {}
    for signum in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError):
            handler = signal.getsignal(signum)
            if handler is not None:
                found[signum] = handler
    return found


def reload_plugins(cold: Cold) -> None:
    """Let each plugin take its per-run state out of the environment again (the reporter's
    ``load_environment``)."""
    for name in cold.plugins:
        load = getattr(sys.modules.get(name), "load_environment", None)
        if callable(load):
            load()


def run_pytest(args: list[str]) -> int:
    """pytest's own command-line entry point on ``args`` (``sys.argv`` as ``-m pytest`` has it)."""
    sys.argv[:] = [_MAIN_SPEC.origin if _MAIN_SPEC else "pytest", *args]
    if COLD_ENTRY is not None:
        return int(COLD_ENTRY())
    import warnings  # an older or newer pytest: its public entry point

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return int(pytest.console_main())


# ---------------------------------------------------------------------------------------------
# The child: everything below runs in a fork of the worker


def child_prepare(
    made: confine.Confinement,
    limits: dict[str, int],
    cold: Cold,
    request_r: int,
    control_w: int,
    writes: dict[str, int],
) -> int | None:
    """A child's life up to pytest: confine, read the payload, lay out the workspace, set up
    the interpreter, say ARMED. None: ready to run pytest; else the status to exit with."""
    try:
        confine_self(made, request_r, control_w, writes)
        request = json.loads(checkchild.read_frame(request_r))
        os.close(request_r)
        lay_out(request["files"])  # as a cold run's prelude copies them: before the rlimits
        set_limits(limits, int(request["cpu_s"]))
        prepare_interpreter(request, writes["channel"], cold)
    except EOFError:  # a spare child the worker no longer needs
        return 0
    except BaseException:  # the harness failed before pytest ran: no ARMED
        traceback.print_exc()
        return 70
    os.write(control_w, ARMED)
    os.close(control_w)
    return None


def confine_self(
    made: confine.Confinement, request_r: int, control_w: int, writes: dict[str, int]
) -> None:
    """Keep only the child's own pipes (stdin ``/dev/null``; stdout and stderr their pipes),
    become dumpable, then no new privileges, Landlock and seccomp (before reading anything)."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(writes["stdout"], 1)
    os.dup2(writes["stderr"], 2)
    keep = sorted({0, 1, 2, request_r, control_w, writes["channel"], made.ruleset_fd} - {-1})
    for low, high in zip(keep, [*keep[1:], 1 << 16], strict=True):
        os.closerange(low + 1, high)
    # The worker is not dumpable (its /proc files are root's); the run is, as a cold one: its
    # own /proc/self/{mem,environ,...} readable to itself. Only its own processes share its uid
    # now (one run at a time; the previous run's processes are dead).
    confine.set_dumpable(True)
    confine.apply(made)


def set_limits(limits: dict[str, int], cpu_s: int) -> None:
    """The cold run's rlimits, same values (``prlimit`` there): address space, CPU (this
    run's), file size, open files, no core, processes (see ``testpool``)."""
    mib = 1 << 20
    for which, value in (
        (resource.RLIMIT_AS, limits["memory_mb"] * mib),
        (resource.RLIMIT_CPU, cpu_s),
        (resource.RLIMIT_FSIZE, limits["file_size_mb"] * mib),
        (resource.RLIMIT_NOFILE, limits["open_files"]),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, limits["nproc"]),
    ):
        confine.lower_limit(which, value)


def lay_out(files: dict[str, str]) -> None:
    """Write the run's files under the (empty) workspace as a cold run's inbox has them:
    directories 0755, files 0644 (0755 with a ``#!`` line)."""
    for name, text in files.items():
        parts = name.split("/")
        if not name or name.startswith("/") or ".." in parts or "\0" in name:
            raise ValueError(f"bad workspace path {name!r}")
        path = os.path.join(WORKSPACE, name)
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        data = text.encode()
        mode = 0o755 if data.startswith(b"#!") else 0o644
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fchmod(fd, mode)
        finally:
            os.close(fd)


def prepare_interpreter(request: dict, channel_fd: int, cold: Cold) -> None:  # type: ignore[type-arg]
    """The interpreter as a cold ``python -P -m pytest ARGS`` has it when pytest starts."""
    args = [str(a) for a in request["args"]]
    os.chdir(WORKSPACE)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in request["env"].items()})
    os.environ["TRUEPASS_CHANNEL_FD"] = str(channel_fd)
    sys.path[:] = cold.path
    sys.orig_argv[:] = [sys.executable, "-P", "-m", "pytest", *args]
    sys.argv[:] = [_MAIN_SPEC.origin if _MAIN_SPEC else "pytest", *args]
    sys.modules["__main__"] = _cold_main()
    trim_modules(request["files"], args, cold)
    for key in [k for k in sys.path_importer_cache if k not in cold.path]:
        del sys.path_importer_cache[key]
    reload_plugins(cold)
    install_precompiled(request["files"], request.get("rewrites") or {}, request.get("compiled"))


def trim_modules(files: dict[str, str], args: list[str], cold: Cold) -> None:
    """Forget every pre-imported top-level module a workspace file or directory could shadow,
    unless a cold run has it loaded before the workspace is on ``sys.path`` (then the workspace
    cannot shadow it there either); a test then imports it as a cold run would."""
    loaded = set(cold.top)
    for index, arg in enumerate(args):  # `-p NAME` and `-pNAME` load NAME before the workspace
        name = args[index + 1] if arg == "-p" and index + 1 < len(args) else arg[2:]
        if arg.startswith("-p") and not name.startswith("no:"):
            loaded.add(name.partition(".")[0])
    shadowing = {part.partition(".")[0] for name in files for part in name.split("/")}
    for top in shadowing - loaded:
        for key in [k for k in sys.modules if k == top or k.startswith(top + ".")]:
            del sys.modules[key]


def install_precompiled(
    files: dict[str, str], rewrites: dict[str, str], compiled: dict[str, str] | None
) -> None:
    """Use the code the parent compiled for pristine files (path -> base64 of marshalled code):
    ``rewrites`` where pytest is about to rewrite a test file, ``compiled`` where Python is
    about to compile a module, each only for the same path whose bytes (on disk, at that moment)
    are still exactly the ones compiled, and for the rewrites only without
    ``enable_assertion_pass_hook``; anything else is compiled here, as in a cold run."""

    def table(codes: dict[str, str]) -> dict[str, tuple[bytes, str]]:
        return {os.path.join(WORKSPACE, p): (files[p].encode(), c) for p, c in codes.items()}

    if rewrites and hasattr(_REWRITE, "_rewrite_test"):
        tests, rewrite = table(rewrites), _REWRITE._rewrite_test

        def rewritten(fn, config):  # type: ignore[no-untyped-def]
            entry = tests.get(str(fn))
            if entry is not None and not config.getini("enable_assertion_pass_hook"):
                source = fn.read_bytes()
                if source == entry[0]:
                    code = marshal.loads(base64.b64decode(entry[1]))
                    return importlib.util.source_hash(source), code
            return rewrite(fn, config)

        _REWRITE._rewrite_test = rewritten
    if compiled:
        modules, loader = table(compiled), importlib.machinery.SourceFileLoader
        compile_source = loader.source_to_code

        def source_to_code(self, data, path, *, _optimize=-1):  # type: ignore[no-untyped-def]
            entry = modules.get(path)
            if entry is not None and _optimize == -1 and bytes(data) == entry[0]:
                return marshal.loads(base64.b64decode(entry[1]))
            return compile_source(self, data, path, _optimize=_optimize)

        loader.source_to_code = source_to_code  # type: ignore[method-assign]


def _cold_main() -> types.ModuleType:
    """A stand-in for a cold run's ``__main__`` (pytest's ``__main__.py`` run by runpy)."""
    main = types.ModuleType("__main__")
    if _MAIN_SPEC is not None:
        main.__file__ = _MAIN_SPEC.origin
        main.__spec__ = _MAIN_SPEC
        main.__loader__ = _MAIN_SPEC.loader
        main.__cached__ = _MAIN_SPEC.cached  # type: ignore[attr-defined]
    main.__package__ = "pytest"
    main.__builtins__ = __builtins__  # type: ignore[attr-defined]
    if COLD_ENTRY is not None:
        main._console_main = COLD_ENTRY  # type: ignore[attr-defined]
    return main


def uncaught(exc: BaseException) -> int:
    """The status of an exception leaving ``raise SystemExit(main())`` (printed as Python
    does, except for SystemExit)."""
    if isinstance(exc, SystemExit):
        return _system_exit_status(exc)
    with contextlib.suppress(BaseException):
        traceback.print_exception(exc)
    return 1


def interpreter_exit(code: object) -> int:
    """End as the interpreter does after ``raise SystemExit(code)``: wait for non-daemon
    threads, run ``atexit`` handlers, flush stdout and stderr (status 120 if that fails)."""
    if not isinstance(code, int):
        code = _system_exit_status(SystemExit(code))
    threading = sys.modules.get("threading")
    if threading is not None:
        with contextlib.suppress(BaseException):
            threading._shutdown()  # type: ignore[attr-defined]
    with contextlib.suppress(BaseException):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            code = 120
    return int(code) & 0xFF


def _system_exit_status(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    with contextlib.suppress(BaseException):
        print(exc.code, file=sys.stderr)
    return 1
