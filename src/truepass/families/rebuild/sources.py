"""Gold programs and their Debian source packages.

* :func:`resolve_gold`: which installed package an executable comes from (``dpkg -S``), its
  source package and versions (``dpkg-query``), its SHA-256 and shared libraries (``ldd``).
* :func:`fetch_source`: ``apt-get source`` of exactly the installed source version, unpacked
  with ``dpkg-source -x`` (Debian patches applied) into the cache.
* :func:`compile_script`: the oracle's ``compile.sh``, the package's own build system building
  the program offline in a sandbox (:mod:`truepass.families.rebuild.recipes`).
* :func:`instrumented_build`, :func:`reset_counters`, :func:`measure`: a copy of the source tree
  built with ``--coverage`` (C, C++) or ``-C instrument-coverage`` (Rust), and the line
  coverage of the program's own sources while tests run the instrumented binary: gcc's
  ``gcov``, or LLVM's ``llvm-profdata`` and ``llvm-cov`` of the version rustc was built with.

The cache (:func:`cache_root`) holds ``src/<source>_<source version>/`` (pristine unpacked
trees) and ``cov/<source>_<source version>/`` (configured coverage builds; one tree serves every
program of the package, e.g. all of coreutils). Every entry appears by a rename at the end, so
an interrupted run leaves nothing half-done; a second call finds it and returns at once.

The instrumented binary is trusted-only (used while generating tests, never shown to agents).
Its counters (``.gcda`` files; for Rust, one ``.profraw`` file per process in the tree's
``.truepass-profiles/``, named by ``LLVM_PROFILE_FILE``, which the runs must be given:
:attr:`InstrumentedGold.env`) are written by each process at exit: run it sequentially between
:func:`reset_counters` and :func:`measure` (concurrent runs may lose counts).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import platform
import re
import secrets
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from truepass.errors import InputError, TruepassError
from truepass.families.rebuild import recipes
from truepass.families.rebuild.recipes import Recipe
from truepass.paths import file_lock, user_cache_dir

log = logging.getLogger(__name__)

SOURCES_FILE = Path("/etc/apt/sources.list.d/truepass-src.sources")
"""Where :func:`ensure_deb_src` writes the deb-src entries it adds."""

TREE_MTIME = 946684800  # 2000-01-01 00:00:00 UTC
"""Every file of an unpacked tree gets this modification time, so that make sees generated
files (configure, Makefile.in, parsers) as up to date and never runs autotools, bison or flex,
which the sandbox does not have, whatever order the files were written in."""

COVERAGE_FLAGS = {"CFLAGS": "-O0 --coverage", "LDFLAGS": "--coverage"}
RUSTC = "/usr/bin/rustc"
PROFILES = ".truepass-profiles"
"""Where, in a Rust coverage tree, each run of the instrumented program leaves its profile."""
ORACLE_FLAGS = {"CFLAGS": "-O2 -w"}
"""Compiler flags of the oracle's build: optimised as Debian's, warnings off (short logs)."""

_SKIPPED_DIRS = frozenset({".git", ".pc", ".svn", ".hg"})
_LIBC = re.compile(r"^(linux-vdso|linux-gate|libc\.so|ld-linux|ld64)")
_LOG_TAIL = 40


class BuildError(TruepassError):
    """A source package could not be fetched, unpacked or built."""


def cache_root() -> Path:
    """Where gold sources and builds are kept: ``$TRUEPASS_REBUILD_CACHE`` or
    ``~/.cache/truepass/rebuild``."""
    env = os.environ.get("TRUEPASS_REBUILD_CACHE")
    return Path(env) if env else user_cache_dir() / "rebuild"


# -- the gold ---------------------------------------------------------------------------------


class Gold(BaseModel):
    """An installed program and the Debian packages it comes from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    program: str = Field(description="the executable's base name, e.g. 'rev'")
    path: str = Field(description="realpath of the installed executable")
    binary_package: str
    source_package: str
    version: str = Field(description="Debian version of the installed binary package")
    source_version: str = Field(
        description="Debian version of its source package (differs on binNMUs: 1.07.1-3+b1 is "
        "built from 1.07.1-3)"
    )
    sha256: str
    libraries: list[str] = Field(
        description="sonames the program links (ldd), besides libc, ld-linux and the vDSO"
    )
    static_libraries: list[str] = Field(
        default_factory=list,
        description="source packages linked into the program (Rust crates, Go modules), as "
        "its package's X-Cargo-Built-Using, Static-Built-Using and Built-Using fields name "
        "them, the toolchain aside",
    )

    @property
    def key(self) -> str:
        """``<source>_<source version>``: the cache entry of its source package."""
        return f"{self.source_package}_{self.source_version}"


def _run(
    argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(argv),
        cwd=cwd,
        env=dict(env) if env is not None else None,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )


def _tail(text: str, lines: int = _LOG_TAIL) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def sha256_of(path: str | Path) -> str:
    """The SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _dpkg_paths(path: str, given: str) -> list[str]:
    """The names dpkg may know ``path`` by: merged /usr installs files as /bin/x, /sbin/x,
    /lib/x while they live in /usr/bin, ... (and the reverse), and an alternative's symlink
    is not the package's file but its target is."""
    names = [path]
    for short, long in (("/bin/", "/usr/bin/"), ("/sbin/", "/usr/sbin/"), ("/lib/", "/usr/lib/")):
        if path.startswith(long):
            names.append(short + path[len(long) :])
        elif path.startswith(short):
            names.append(long + path[len(short) :])
    if given.startswith("/") and given not in names:
        names.append(given)
    return names


def _owner(names: list[str]) -> str | None:
    for name in names:
        found = _run(["dpkg-query", "-S", name])
        if found.returncode != 0:
            continue
        for line in found.stdout.splitlines():
            if line.startswith("diversion by") or ": " not in line:
                continue
            packages, _, file = line.partition(": ")
            if file.strip() == name:
                return packages.split(",")[0].strip()
    return None


def _libraries(path: str) -> list[str]:
    found = _run(["ldd", path])
    if found.returncode != 0:  # "not a dynamic executable": a static program or a script
        return []
    names: list[str] = []
    for line in found.stdout.splitlines():
        name = line.strip().split(" ", 1)[0]
        name = os.path.basename(name)
        if name and not _LIBC.match(name) and name not in names:
            names.append(name)
    return names


def resolve_gold(program: str) -> Gold:
    """The installed program ``program`` (a name looked up on ``PATH``, or a path) and its
    packages.

    Raises:
        InputError: no such executable, or no Debian package owns it (what to do is said).
    """
    location = f"gold '{program}'"
    found = program if "/" in program else shutil.which(program)
    if found is None or not os.path.isfile(found):
        raise InputError(
            f"no executable '{program}' on this machine's PATH; "
            "install the Debian package that provides it (apt-get install PACKAGE; "
            "`apt-file search` or packages.debian.org name it)",
            location=location,
        )
    real = os.path.realpath(found)
    if not os.access(real, os.X_OK):
        raise InputError(f"'{real}' is not executable", location=location)
    given = os.path.abspath(found)
    package = _owner(_dpkg_paths(real, given))
    if package is None:
        raise InputError(
            f"'{real}' belongs to no installed Debian package (dpkg -S finds nothing): a gold "
            "must come from a Debian package; install the program with apt-get install PACKAGE "
            "rather than from source",
            location=location,
        )
    query = _run(
        [
            "dpkg-query",
            "-W",
            "-f",
            "${Package}\t${Version}\t${source:Package}\t${source:Version}\t"
            "${X-Cargo-Built-Using}, ${Static-Built-Using}, ${Built-Using}\n",
            package,
        ]
    )
    fields = query.stdout.strip("\n").split("\t")
    if query.returncode != 0 or len(fields) != 5 or not all(fields[:4]):
        raise InputError(
            f"dpkg-query cannot describe package '{package}' (owner of '{real}'): "
            f"{_tail(query.stderr or query.stdout, 5)}",
            location=location,
        )
    binary, version, source, source_version, built_using = fields
    return Gold(
        program=os.path.basename(real if "/" in program else program),
        path=real,
        binary_package=binary,
        source_package=source,
        version=version,
        source_version=source_version,
        sha256=sha256_of(real),
        libraries=_libraries(real),
        static_libraries=static_libraries(built_using),
    )


_TOOLCHAIN = re.compile(r"^(rustc|golang-\d+\.\d+|gcc(-\d+)?|gccgo(-\d+)?|llvm-toolchain-\d+)$")


def static_libraries(built_using: str) -> list[str]:
    """The source packages a Built-Using style field (``rust-nix (= 0.26.1-3), rustc (= 1.63)``,
    several joined by commas) names, in order, once each, the toolchain (rustc, golang-1.NN,
    gcc) aside: what is linked into the program statically."""
    names: list[str] = []
    for item in built_using.split(","):
        name = item.strip().split(" ", 1)[0]
        if name and not _TOOLCHAIN.match(name) and name not in names:
            names.append(name)
    return names


def dependencies(gold: Gold) -> int:
    """The gold's runtime dependencies: the shared libraries it needs beyond the C library and
    the libraries linked into it statically (Rust crates, Go modules; Debian records them in
    the package: :attr:`Gold.static_libraries`)."""
    return len(gold.libraries) + len(gold.static_libraries)


# -- deb-src ----------------------------------------------------------------------------------


def _deb822_stanzas(text: str) -> list[dict[str, str]]:
    stanzas: list[dict[str, str]] = []
    current: dict[str, str] = {}
    for line in [*text.splitlines(), ""]:
        if not line.strip():
            if current:
                stanzas.append(current)
            current = {}
        elif not line.startswith("#") and ":" in line and not line[0].isspace():
            key, _, value = line.partition(":")
            current[key.strip().lower()] = value.strip()
    return stanzas


def _apt_entries() -> tuple[bool, list[dict[str, str]]]:
    """Whether some deb-src entry is enabled, and the enabled deb entries (deb822 fields)."""
    has_src = False
    debs: list[dict[str, str]] = []
    lists = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for path in lists:
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        if path.suffix == ".sources":
            for stanza in _deb822_stanzas(text):
                if stanza.get("enabled", "yes").lower() == "no":
                    continue
                types = stanza.get("types", "").split()
                has_src = has_src or "deb-src" in types
                if "deb" in types and "debian" in stanza.get("uris", ""):
                    debs.append(stanza)
        elif path.suffix == ".list" or path.name == "sources.list":
            for line in text.splitlines():
                words = line.split("#", 1)[0].split()
                if not words:
                    continue
                has_src = has_src or words[0] == "deb-src"
                if words[0] == "deb" and len(words) >= 4:
                    options = words[1][1:-1] if words[1].startswith("[") else ""
                    rest = words[2:] if options else words[1:]
                    signed = re.search(r"signed-by=(\S+)", options)
                    entry = {"uris": rest[0], "suites": rest[1], "components": " ".join(rest[2:])}
                    if signed:
                        entry["signed-by"] = signed.group(1)
                    if "debian" in entry["uris"]:
                        debs.append(entry)
    return has_src, debs


def deb_src_text(debs: list[dict[str, str]]) -> str:
    """The deb822 text of deb-src entries mirroring the deb entries ``debs``."""
    out = []
    for entry in debs:
        lines = [
            "Types: deb-src",
            f"URIs: {entry['uris']}",
            f"Suites: {entry['suites']}",
            f"Components: {entry['components']}",
        ]
        if entry.get("signed-by"):
            lines.append(f"Signed-By: {entry['signed-by']}")
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def ensure_deb_src() -> None:
    """Make ``apt-get source`` possible: when no deb-src entry is enabled, write
    :data:`SOURCES_FILE` mirroring the Debian deb entries and run ``apt-get update``.

    Raises:
        BuildError: not root (the message gives the file to add), no Debian deb entry to
            mirror, or ``apt-get update`` failed.
    """
    has_src, debs = _apt_entries()
    if has_src:
        return
    if not debs:
        raise BuildError(
            "apt has no deb-src entry and no Debian deb entry to mirror: add deb-src lines "
            f"for your Debian mirror (e.g. {SOURCES_FILE}) and run apt-get update"
        )
    text = deb_src_text(debs)
    if os.geteuid() != 0:
        raise BuildError(
            f"apt has no deb-src entry, and writing one needs root: as root, write {SOURCES_FILE} "
            f"with\n{text}\nand run `apt-get update`"
        )
    log.info("adding deb-src entries in %s and running apt-get update", SOURCES_FILE)
    SOURCES_FILE.write_text(text)
    update = _run(["apt-get", "update"])
    if update.returncode != 0:
        raise BuildError(f"apt-get update failed:\n{_tail(update.stdout + update.stderr)}")


# -- fetching the source ----------------------------------------------------------------------


def _temp_dir(parent: Path, name: str) -> Path:
    parent.mkdir(parents=True, exist_ok=True)
    temp = parent / f".tmp-{name}-{os.getpid()}-{secrets.token_hex(4)}"
    temp.mkdir()
    return temp


def normalize_mtimes(tree: Path, mtime: int = TREE_MTIME) -> None:
    """Give every file and directory of ``tree`` the same modification time (see
    :data:`TREE_MTIME`)."""
    for root, dirs, files in os.walk(tree):
        for name in [*files, *dirs]:
            with contextlib.suppress(OSError):
                os.utime(os.path.join(root, name), (mtime, mtime), follow_symlinks=False)
    os.utime(tree, (mtime, mtime))


def fetch_source(gold: Gold) -> Path:
    """The unpacked source tree of exactly the installed source version of ``gold``'s package:
    ``cache_root()/src/<source>_<source version>/`` (Debian patches applied, timestamps made
    equal). Cached; built in a temporary directory and renamed into place at the end.

    Raises:
        BuildError: no deb-src entry could be set up, or apt-get source / dpkg-source failed.
    """
    dest = cache_root() / "src" / gold.key
    if dest.is_dir():
        return dest
    with file_lock(cache_root() / "src" / f".{gold.key}.lock"):
        if dest.is_dir():
            return dest
        ensure_deb_src()
        temp = _temp_dir(dest.parent, gold.key)
        try:
            log.info("fetching source package %s %s", gold.source_package, gold.source_version)
            spec = f"{gold.source_package}={gold.source_version}"
            got = _run(["apt-get", "source", "--download-only", "-q", spec], cwd=temp)
            dscs = list(temp.glob("*.dsc"))
            if got.returncode != 0 or len(dscs) != 1:
                raise BuildError(
                    f"apt-get source {spec} failed (exit {got.returncode}):\n"
                    f"{_tail(got.stdout + got.stderr)}\nIs a deb-src entry for the installed "
                    "release enabled (and `apt-get update` run)? A version no longer in the "
                    "archive needs snapshot.debian.org."
                )
            unpack = _run(["dpkg-source", "-x", dscs[0].name, "tree"], cwd=temp)
            if unpack.returncode != 0 or not (temp / "tree").is_dir():
                raise BuildError(
                    f"dpkg-source -x {dscs[0].name} failed (exit {unpack.returncode}):\n"
                    f"{_tail(unpack.stdout + unpack.stderr)}"
                )
            normalize_mtimes(temp / "tree")
            (temp / "tree").rename(dest)
            log.info("unpacked %s into %s", spec, dest)
        finally:
            shutil.rmtree(temp, ignore_errors=True)
    return dest


def source_files(tree: Path) -> dict[str, bytes]:
    """The files of ``tree`` (relative path -> bytes) for loading into a sandbox: version
    control and quilt directories skipped, symlinks to files inside the tree replaced by a copy
    of their target, other symlinks left out. File modes are not kept: :func:`compile_script`
    restores the executable bits the build needs."""
    tree = tree.resolve()
    files: dict[str, bytes] = {}
    for root, dirs, names in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        for name in sorted(names):
            path = Path(root, name)
            if path.is_symlink():
                target = path.resolve()
                if not target.is_file() or not target.is_relative_to(tree):
                    continue
            elif not path.is_file():
                continue
            files[path.relative_to(tree).as_posix()] = path.read_bytes()
    return files


# -- recipes and compile.sh -------------------------------------------------------------------


def recipe_for(gold: Gold) -> Recipe:
    """The recipe building ``gold`` from its source package.

    Raises:
        InputError: none is known (the message lists the supported packages and programs).
    """
    return recipes.recipe(gold.source_package, gold.program)


def _flag_args(recipe: Recipe, flags: Mapping[str, str]) -> list[str]:
    merged = dict(recipe.flags)
    for name, value in flags.items():
        merged[name] = f"{merged[name]} {value}" if name in merged else value
    return [f"{name}={value}" for name, value in merged.items()]


def configure_argv(recipe: Recipe, flags: Mapping[str, str]) -> list[str]:
    """The recipe's configure argv with its flags and ``flags`` appended (empty: none); for a
    C++ program ``CFLAGS`` is given as ``CXXFLAGS``."""
    if recipe.language == "c++":
        flags = {("CXXFLAGS" if k == "CFLAGS" else k): v for k, v in flags.items()}
    return [*recipe.configure, *_flag_args(recipe, flags)] if recipe.configure else []


CHECKPOINT = "# truepass: checkpoint"
"""A line of ``compile.sh`` (alone on it) where the build cache may split the build
(:mod:`truepass.families.rebuild.buildcache`)."""

_STEP_SH = """\
set -e
log="${{TMPDIR:-/tmp}}/truepass-compile.$$.log"
: >"$log"
step() {{
    "$@" >>"$log" 2>&1 || {{
        status=$?
        echo "compile.sh: failed (exit $status): $*" >&2
        tail -n {tail} "$log" >&2
        exit "$status"
    }}
}}
"""

_COMPILE_SH = """\
#!/bin/sh
# Build a program from the {source} {version} source tree in the current directory with the
# package's own build system. Offline; quiet unless a step fails. The part before the
# checkpoint (configure and what every program of the package needs) is the same for all of
# them: truepass's build cache builds it once (docs/rebuild-format.md, "The build cache").
{step}\
# The workspace's files come without their modes and with the times they were written at:
# make scripts executable again, and give every file one time so that make regenerates
# nothing (no autotools, bison or flex here).
find . -type f \\( -name configure -o -name config.status -o -name '*.sh' \\
    -o -path '*/build-aux/*' {extra} \\) -exec chmod +x {{}} +
find . -type f ! -name '*.[ch]' -exec grep -l -m1 '^#!' {{}} + 2>/dev/null \\
    | while IFS= read -r f; do chmod +x "$f"; done
find . -exec touch -h -t 200001010000 {{}} +
{env}{first}rm -f "$log"
{checkpoint}
# Build {program} and copy it to ./{program}.
{step}{env}{last}{copy}rm -f "$log"
"""


def compile_script(gold: Gold) -> str:
    """The oracle's ``compile.sh``: POSIX sh that builds ``gold``'s program with its package's
    own build system in the current directory (the unpacked source tree, see
    :func:`source_files`) and copies it to ``./<program>``.

    It runs offline as an unprivileged user on a read-only system: nothing is installed, only
    the program (and what it links) is built, output goes to a log shown only on failure.
    """
    recipe = recipe_for(gold)
    extra = " ".join(f"-o -path {shlex.quote('./' + path)}" for path in recipe.executables)
    env = "".join(f"export {k}={shlex.quote(v)}\n" for k, v in recipe.env.items())
    first = [configure_argv(recipe, ORACLE_FLAGS), *recipe.prebuild]
    steps = ["".join(f"step {shlex.join(argv)}\n" for argv in argvs if argv)
             for argvs in (first, [recipe.build])]  # fmt: skip
    output = os.path.normpath(recipe.output)
    copy = ""
    top, _, rest = output.partition("/")
    if top == gold.program and rest:
        # The program is built in a directory of its own name (bc/bc): move the directory
        # aside so that ./PROGRAM can be the program.
        aside = f"{gold.program}.build"
        copy = f"rm -rf {shlex.quote(aside)}\nmv {shlex.quote(top)} {shlex.quote(aside)}\n"
        output = f"{aside}/{rest}"
    if output != gold.program:
        copy += f"cp {shlex.quote(output)} {shlex.quote('./' + gold.program)}\n"
    return _COMPILE_SH.format(
        program=gold.program,
        source=gold.source_package,
        version=gold.source_version,
        step=_STEP_SH.format(tail=_LOG_TAIL),
        extra=extra,
        env=env,
        first=steps[0],
        checkpoint=CHECKPOINT,
        last=steps[1],
        copy=copy,
    )


# -- the instrumented build -------------------------------------------------------------------


class InstrumentedGold(BaseModel):
    """A coverage build of the gold's program (trusted use only)."""

    model_config = ConfigDict(frozen=True)

    gold: Gold
    tree: Path = Field(description="the configured coverage build tree")
    binary: Path = Field(description="the instrumented program")
    sources: list[Path] = Field(description="the program's own sources (absolute, in tree)")
    objects: list[Path] = Field(description="its own objects, without extension (.gcno/.gcda)")
    coverage: recipes.Coverage = Field(recipes.Coverage.GCOV, description="how it counts")

    @property
    def profiles(self) -> Path:
        """LLVM coverage: the directory of the runs' ``.profraw`` files."""
        return self.tree / PROFILES

    @property
    def tool(self) -> str:
        """What measures it (``Generation.coverage_tool``): gcov or llvm-cov."""
        return "llvm-cov" if self.coverage is recipes.Coverage.LLVM else "gcov"

    @property
    def env(self) -> dict[str, str]:
        """What every run of :attr:`binary` needs in its environment to be counted."""
        if self.coverage is recipes.Coverage.LLVM:
            return {"LLVM_PROFILE_FILE": str(self.profiles / "%p-%m.profraw")}
        return {}


def _step(argv: list[str], cwd: Path, env: Mapping[str, str], logfile: Path, what: str) -> float:
    start = time.monotonic()
    with logfile.open("a") as out:
        out.write(f"$ {shlex.join(argv)}\n")
        out.flush()
        done = subprocess.run(argv, cwd=cwd, env=dict(env), stdout=out, stderr=out, check=False)
    if done.returncode != 0:
        raise BuildError(
            f"{what}: `{shlex.join(argv)}` failed (exit {done.returncode}) in {cwd}; "
            f"log {logfile}, last lines:\n{_tail(logfile.read_text(errors='replace'))}"
        )
    return time.monotonic() - start


def _build_env(recipe: Recipe, coverage: bool = False) -> dict[str, str]:
    env = {**os.environ, **recipe.env, "LC_ALL": "C"}
    env.pop("MAKEFLAGS", None)
    if coverage and recipe.coverage is recipes.Coverage.LLVM:
        env["RUSTFLAGS"] = f"{env.get('RUSTFLAGS', '')} {rust_coverage_flags()}".strip()
        env["RUSTC_BOOTSTRAP"] = "1"  # for -Z no-profiler-runtime (this trusted build only)
    return env


def instrumented_build(gold: Gold) -> InstrumentedGold:
    """``gold``'s program built from its source with ``-O0 --coverage`` (a Rust program: with
    ``RUSTFLAGS=-C instrument-coverage``) in ``cache_root()/cov/<source>_<source version>/``
    (one configured tree per source package; each program is built into it on demand).

    Cached: the tree appears by a rename once configured, a program's stamp once it is built;
    a second call returns at once. Progress goes to the log (``logging``), each step's output
    to ``.truepass-logs/`` in the tree.

    Raises:
        InputError: no recipe for the program.
        BuildError: fetching, configuring or building failed (with the log's last lines).
    """
    recipe = recipe_for(gold)
    cov = cache_root() / "cov"
    tree = cov / gold.key
    stamp = tree / ".truepass-stamps" / gold.program
    result = InstrumentedGold(
        gold=gold,
        tree=tree,
        binary=tree / recipe.output,
        sources=[tree / s for s in recipe.program_sources],
        objects=[tree / o for o in recipe.objects],
        coverage=recipe.coverage,
    )
    if recipe.coverage is recipes.Coverage.NONE:
        raise BuildError(f"{gold.program}: {recipe.coverage_note or 'no coverage build'}")
    if result.coverage is recipes.Coverage.LLVM:
        llvm_tools()  # before a long build: what builds and reads its profiles must be there
        rust_coverage_flags()
    if stamp.is_file() and result.binary.is_file():
        return result
    source = fetch_source(gold)
    env = _build_env(recipe, coverage=True)
    with file_lock(cov / f".{gold.key}.lock"):
        if not tree.is_dir():
            temp = _temp_dir(cov, gold.key)
            try:
                work = temp / "tree"
                log.info("copying %s for a coverage build", source)
                shutil.copytree(source, work, symlinks=True)
                normalize_mtimes(work)
                logs = work / ".truepass-logs"
                logs.mkdir()
                argv = configure_argv(recipe, COVERAGE_FLAGS)
                if argv:
                    log.info("configuring %s (coverage build)", gold.key)
                    took = _step(argv, work, env, logs / "configure.log", f"configure {gold.key}")
                    log.info("configured %s in %.1fs", gold.key, took)
                (work / ".truepass-stamps").mkdir()
                work.rename(tree)
            finally:
                shutil.rmtree(temp, ignore_errors=True)
        if stamp.is_file() and result.binary.is_file():
            return result
        logfile = tree / ".truepass-logs" / f"{gold.program}.log"
        logfile.write_text("")
        log.info("building %s from %s (coverage build)", gold.program, gold.key)
        took = sum(
            _step(argv, tree, env, logfile, f"build {gold.program} from {gold.key}")
            for argv in [*recipe.prebuild, recipe.build]
        )
        if not result.binary.is_file():
            raise BuildError(
                f"build {gold.program} from {gold.key}: the recipe ran but made no "
                f"{recipe.output}; log {logfile}"
            )
        missing = [o for o in result.objects if not o.with_suffix(".gcno").is_file()]
        if missing:
            raise BuildError(
                f"build {gold.program} from {gold.key}: no coverage notes for "
                f"{', '.join(str(m.relative_to(tree)) for m in missing)} (recipe objects wrong?)"
            )
        result.profiles.mkdir(exist_ok=True)
        log.info("built %s in %.1fs: %s", gold.program, took, result.binary)
        stamp.write_text(f"{took:.1f}\n")
    return result


# -- coverage ---------------------------------------------------------------------------------


class Coverage(BaseModel):
    """Line coverage of a program's own sources."""

    covered: int
    total: int
    per_file: dict[str, tuple[int, int]] = Field(
        description="source (relative to the tree) -> (covered, total) executable lines"
    )
    lines: set[tuple[str, int]] = Field(description="covered (source, line number) pairs")
    executable: set[tuple[str, int]] = Field(
        default_factory=set, description="every executable (source, line number) pair"
    )

    @property
    def fraction(self) -> float:
        """Covered lines over executable lines (0 when there are none)."""
        return self.covered / self.total if self.total else 0.0


@contextlib.contextmanager
def measuring(inst: InstrumentedGold) -> Iterator[None]:
    """Hold the counters ``inst`` is measured by for one pass of runs and measurements: another
    process measuring a program with a counter in common waits (coreutils' ``expand`` and
    ``unexpand`` share ``expand-common``, ``cut`` and ``numfmt`` ``set-fields``; a Rust tree's
    programs share its profile directory). One lock file beside each, taken in sorted order."""
    held = [inst.profiles] if inst.coverage is recipes.Coverage.LLVM else inst.objects
    with contextlib.ExitStack() as stack:
        for counter in sorted({str(c) for c in held}):
            stack.enter_context(file_lock(Path(f"{counter}.truepass-lock")))
        yield


def reset_counters(inst: InstrumentedGold) -> None:
    """Forget every run of the instrumented program so far (delete its ``.gcda`` files, or its
    ``.profraw`` files)."""
    if inst.coverage is recipes.Coverage.LLVM:
        inst.profiles.mkdir(exist_ok=True)
        for raw in inst.profiles.glob("*.profraw"):
            raw.unlink(missing_ok=True)
        return
    for obj in inst.objects:
        obj.with_suffix(".gcda").unlink(missing_ok=True)


_LLVM_VERSION = re.compile(r"^LLVM version: (\d+)\.", re.MULTILINE)


@functools.cache
def _rustc_llvm(rustc: str) -> str:
    """The major version of the LLVM ``rustc`` was built with ("14" for Debian's rustc 1.63);
    asked once per process (coverage is read after every case)."""
    if not Path(rustc).is_file():
        raise BuildError(f"{rustc} not found: a Rust coverage build needs Debian's rustc")
    done = _run([rustc, "--version", "--verbose"], cwd=Path("/"))
    found = _LLVM_VERSION.search(done.stdout) if done.returncode == 0 else None
    if found is None:
        raise BuildError(f"cannot tell which LLVM {rustc} uses (`{rustc} --version --verbose`)")
    return found.group(1)


def llvm_tools(rustc: str = RUSTC) -> tuple[str, str]:
    """``llvm-profdata`` and ``llvm-cov`` of the LLVM ``rustc`` was built with (its profiles'
    format is that version's): ``llvm-profdata-14`` and ``llvm-cov-14`` for Debian's rustc 1.63.

    Raises:
        BuildError: rustc is missing, or the tools of its LLVM are not installed.
    """
    major = _rustc_llvm(rustc)
    tools = (f"llvm-profdata-{major}", f"llvm-cov-{major}")
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        raise BuildError(
            f"{' and '.join(missing)} not found: {rustc} uses LLVM {major}, whose tools read its "
            f"coverage profiles (install llvm-{major}; `make rebuild-deps` does)"
        )
    return tools


def rust_coverage_flags(rustc: str = RUSTC) -> str:
    """RUSTFLAGS of a Rust coverage build: ``-C instrument-coverage``, with LLVM's own profile
    runtime (``libclang_rt.profile`` of rustc's LLVM) linked in place of rustc's, which Debian's
    rustc is built without (``-Z no-profiler-runtime``: needs ``RUSTC_BOOTSTRAP=1``).

    Raises:
        BuildError: rustc is missing, or the profile runtime of its LLVM is not installed.
    """
    major = _rustc_llvm(rustc)
    name = f"libclang_rt.profile-{platform.machine()}.a"
    found = sorted(Path(f"/usr/lib/llvm-{major}/lib/clang").glob(f"*/lib/linux/{name}"))
    if not found:
        raise BuildError(
            f"{name} of LLVM {major} not found: install libclang-rt-{major}-dev (`make "
            "rebuild-deps` does); Rust coverage links it as its profile runtime"
        )
    return (f"-C instrument-coverage -Z no-profiler-runtime -C link-arg={found[-1]} "
            "-C link-arg=-lc")  # fmt: skip


def _llvm_lines(inst: InstrumentedGold, own: Sequence[Path]) -> dict[str, dict[int, bool]]:
    """Source path -> line -> run, from every run's profile since :func:`reset_counters` (LLVM's
    lcov export: a line is run when any region on it is). Empty when no run left a profile (a
    run killed by a signal writes none): no line ran, and their number is not known from it."""
    profdata, cov = llvm_tools()
    raws = sorted(inst.profiles.glob("*.profraw"))
    if not raws:
        return {}
    merged = inst.profiles / "merged.profdata"
    done = _run([profdata, "merge", "-sparse", *map(str, raws), "-o", str(merged)], cwd=inst.tree)
    if done.returncode != 0:
        raise BuildError(f"{profdata} merge failed:\n{_tail(done.stderr)}")
    # only the program's own files: the crates' would be most of the output (fd: 0.3 s, not 1.3)
    done = _run([cov, "export", "-format=lcov", "-instr-profile", str(merged), str(inst.binary),
                 *map(str, own)], cwd=inst.tree)  # fmt: skip
    if done.returncode != 0:
        raise BuildError(f"{cov} export failed on {inst.binary}:\n{_tail(done.stderr)}")
    return parse_lcov(done.stdout)


def parse_lcov(text: str) -> dict[str, dict[int, bool]]:
    """An lcov tracefile's line records: source file -> line number -> whether it ran (``SF:``
    starts a file, ``DA:LINE,COUNT[,CHECKSUM]`` gives a line, ``end_of_record`` ends it)."""
    files: dict[str, dict[int, bool]] = {}
    current: dict[int, bool] | None = None
    for line in text.splitlines():
        if line.startswith("SF:"):
            current = files.setdefault(line[3:], {})
        elif line.startswith("DA:") and current is not None:
            number, count = line[3:].split(",")[:2]
            current[int(number)] = current.get(int(number), False) or int(count) > 0
        elif line == "end_of_record":
            current = None
    return files


def _gcov_json(obj: Path) -> dict:
    # gcov finds OBJ.gcno next to OBJ.gcda; without a .gcda every line counts as not run.
    done = _run(["gcov", "--stdout", "--json-format", obj.name + ".gcda"], cwd=obj.parent)
    if done.returncode != 0 or not done.stdout.strip():
        raise BuildError(f"gcov failed on {obj}.gcno:\n{_tail(done.stderr)}")
    return json.loads(done.stdout)


def _gcov_lines(obj: Path) -> Iterator[tuple[str, dict[int, bool]]]:
    """Per source file gcov reports for object ``obj``: its path and line -> run."""
    data = _gcov_json(obj)
    cwd = data.get("current_working_directory", str(obj.parent))
    for entry in data.get("files", []):
        lines: dict[int, bool] = {}
        for line in entry.get("lines", []):
            number = int(line["line_number"])
            lines[number] = lines.get(number, False) or int(line["count"]) > 0
        yield os.path.join(cwd, entry["file"]), lines


def measure(inst: InstrumentedGold) -> Coverage:
    """Line coverage of the program's own sources by the runs since :func:`reset_counters`
    (gcc's ``gcov --json-format``, or LLVM's lcov export for Rust; lines of the program's
    sources only (a directory stands for the sources under it), merged over its objects; a line
    counts as covered when any object ran it)."""
    from truepass.families.rebuild.structure import source_paths

    own = source_paths(inst.tree, inst.sources)
    wanted = {str(path): path.relative_to(inst.tree).as_posix() for path in own}
    suffixes = {"/" + rel: rel for rel in wanted.values()}
    seen: dict[str, dict[int, bool]] = {rel: {} for rel in wanted.values()}
    if inst.coverage is recipes.Coverage.LLVM:
        reports: Iterable[tuple[str, dict[int, bool]]] = (
            (os.path.join(inst.tree, path), lines) for path, lines in _llvm_lines(inst, own).items()
        )
    else:
        reports = (report for obj in inst.objects for report in _gcov_lines(obj))
    for path, lines in reports:
        full = os.path.normpath(path)
        rel = wanted.get(full) or next((r for s, r in suffixes.items() if full.endswith(s)), None)
        if rel is None:
            continue
        merged = seen[rel]
        for number, ran in lines.items():
            merged[number] = merged.get(number, False) or ran
    per_file = {rel: (sum(v.values()), len(v)) for rel, v in seen.items() if v}
    covered = {(rel, n) for rel, v in seen.items() for n, hit in v.items() if hit}
    return Coverage(
        covered=sum(c for c, _ in per_file.values()),
        total=sum(t for _, t in per_file.values()),
        per_file=per_file,
        lines=covered,
        executable={(rel, n) for rel, v in seen.items() for n in v},
    )


def lines_of_code(tree: Path, sources: Sequence[str | Path]) -> int:
    """Non-blank, non-comment lines (lizard's NLOC) of the program's own sources
    (paths relative to ``tree``, or absolute)."""
    from truepass.families.rebuild.structure import lines_of_code as count

    return count(tree, sources)
