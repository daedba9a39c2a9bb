"""How a source package's own build system builds one of its programs.

A :class:`Recipe` says, for one program of one Debian source package, what to run in the root of
the unpacked source tree (Debian patches applied) to build that program and nothing much more:
``configure`` once, then the ``prebuild`` steps and ``build``. Two users:

* the oracle's ``compile.sh`` (:func:`truepass.families.rebuild.sources.compile_script`), which
  runs offline in a sandbox (read-only system, uid 65534, writable workspace and ``/tmp``);
* the instrumented build (:func:`truepass.families.rebuild.sources.instrumented_build`), the same
  steps with ``CFLAGS="-O0 --coverage"``.

Every recipe relies only on what this machine has: no autoconf, automake, bison, flex or
makeinfo (the tarballs ship what they generate; the source tree's timestamps are made equal
before building so that make never tries to regenerate anything).

Compiler and linker flags are not part of the argv: the caller appends ``CFLAGS=...``,
``LDFLAGS=...`` and :attr:`Recipe.flags` as ``VAR=VALUE`` arguments of ``configure`` (autoconf
scripts and hand-written ones such as ed's both take them so).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from truepass.errors import InputError

JOBS = 2
"""Parallel make jobs of every recipe."""


class Coverage(StrEnum):
    """How the gold's own line coverage is measured while tests are generated."""

    GCOV = "gcov"  # gcc --coverage, for C and C++
    LLVM = "llvm"  # rustc -C instrument-coverage, read with llvm-profdata and llvm-cov
    NONE = "none"  # the toolchain cannot measure it here: black-box generation, more tests


class Recipe(BaseModel):
    """How to build one program of one source package in its unpacked source tree."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source_package: str
    program: str
    language: str = Field("c", description="the gold's source language: c, c++, rust or go")
    coverage: Coverage = Coverage.GCOV
    coverage_note: str = Field("", description="why coverage is not measured (coverage none)")
    build_timeout_s: float = Field(
        600.0, gt=0, description="the task's compile.sh time limit (a Rust build takes longer)"
    )
    configure: list[str] = Field(
        description="argv run once in the tree root (may be empty); flags are appended to it"
    )
    prebuild: list[list[str]] = Field(
        default_factory=list, description="argvs run after configure, before build"
    )
    build: list[str] = Field(description="the make invocation building the program")
    output: str = Field(description="relative path of the built program")
    program_sources: list[str] = Field(
        description="relative paths of the program's own source files (LOC and coverage)"
    )
    objects: list[str] = Field(
        description="relative paths, without extension, of the program's own object files "
        "(where the coverage build leaves OBJ.gcno and OBJ.gcda)"
    )
    executables: list[str] = Field(
        default_factory=list,
        description="relative paths of scripts the build runs directly (besides configure, "
        "build-aux/* and files starting with '#!'): compile.sh restores their mode",
    )
    flags: dict[str, str] = Field(
        default_factory=dict,
        description="extra compiler variables of the package's own build (e.g. CPPFLAGS with "
        "Debian's defines), passed to configure as VAR=VALUE",
    )
    env: dict[str, str] = Field(default_factory=dict, description="environment of every step")


RecipeFactory = Callable[[str], Recipe]


def _make(*targets: str, directory: str | None = None) -> list[str]:
    argv = ["make", "-s", f"-j{JOBS}"]
    if directory:
        argv += ["-C", directory]
    return [*argv, *targets]


# -- coreutils -------------------------------------------------------------------------------

_COREUTILS_SOURCES: dict[str, tuple[list[str], list[str]]] = {
    # program: (own sources, own objects) where they are not simply src/PROG.c and src/PROG
    "cut": (["src/cut.c", "src/set-fields.c"], ["src/cut", "src/set-fields"]),
    "expand": (["src/expand.c", "src/expand-common.c"], ["src/expand", "src/expand-common"]),
    "unexpand": (
        ["src/unexpand.c", "src/expand-common.c"],
        ["src/unexpand", "src/expand-common"],
    ),
    "wc": (["src/wc.c", "src/wc_avx2.c"], ["src/wc", "src/libwc_avx2_a-wc_avx2"]),
    "base32": (["src/basenc.c"], ["src/base32-basenc"]),
    "base64": (["src/basenc.c"], ["src/base64-basenc"]),
    "basenc": (["src/basenc.c"], ["src/basenc-basenc"]),
    "numfmt": (["src/numfmt.c", "src/set-fields.c"], ["src/numfmt", "src/set-fields"]),
    "sum": (["src/sum.c", "src/digest.c"], ["src/sum-sum", "src/sum-digest"]),
}
COREUTILS_PROGRAMS = frozenset(
    {"tac", "nl", "fold", "cut", "expand", "unexpand", "wc", "seq", "tr", "base32", "base64",
     "factor", "paste", "cat", "head", "tail", "sort", "uniq", "comm", "join", "od", "fmt",
     "pr", "tsort", "numfmt", "shuf", "csplit", "split", "sum", "echo", "printf", "expr",
     "basename", "dirname", "yes", "ptx", "basenc"}
)  # fmt: skip
"""coreutils programs whose own sources and objects are known (checked against the Makefile's
``src_PROG_OBJECTS`` of coreutils 9.1)."""


_CONFIGURE = ("./configure", "--quiet", "--disable-dependency-tracking", "--disable-nls")
"""How every autotools recipe starts configure: quiet, no dependency tracking, no NLS."""


def _coreutils(program: str) -> Recipe:
    sources, objects = _COREUTILS_SOURCES.get(program, ([f"src/{program}.c"], [f"src/{program}"]))
    return Recipe(
        source_package="coreutils",
        program=program,
        configure=list(_CONFIGURE),
        # Only the default goal builds BUILT_SOURCES (gnulib's replacement headers); building
        # src/PROG alone needs them first. The recipe of this rule is expanded after the
        # Makefile is read, so $(BUILT_SOURCES) is the Makefile's.
        prebuild=[
            _make(
                "--eval=truepass-built-sources: ; @$(MAKE) -s $(BUILT_SOURCES)",
                "truepass-built-sources",
            ),
            # every program links it: built before the oracle's checkpoint, it is built once
            _make("lib/libcoreutils.a"),
        ],
        build=_make(f"src/{program}"),
        output=f"src/{program}",
        program_sources=sources,
        objects=objects,
        # coreutils' configure refuses to run as root (the host's instrumented build does)
        env={"FORCE_UNSAFE_CONFIGURE": "1"},
    )


# -- util-linux ------------------------------------------------------------------------------

_UTIL_LINUX_DIRS = {"rev": "text-utils", "colrm": "text-utils", "col": "text-utils"}


def _util_linux(program: str) -> Recipe:
    directory = _UTIL_LINUX_DIRS[program]
    return Recipe(
        source_package="util-linux",
        program=program,
        # Libraries and optional dependencies off: configure stays quick and the text
        # utilities need none of them (they link libcommon only).
        configure=[
            *_CONFIGURE,
            "--disable-libuuid",
            "--disable-libblkid",
            "--disable-libmount",
            "--disable-libsmartcols",
            "--disable-libfdisk",
            "--without-python",
            "--without-systemd",
            "--without-udev",
            "--without-readline",
            "--without-ncursesw",
            "--without-tinfo",
            "--disable-bash-completion",
            "--without-libz",
            "--without-libmagic",
            "--without-cap-ng",
            "--without-btrfs",
            "--without-econf",
            "--without-selinux",
            "--without-audit",
            "--without-utempter",
            "--without-user",
            "--disable-asciidoc",
            "--disable-poman",
        ],
        build=_make(program),
        output=program,
        program_sources=[f"{directory}/{program}.c"],
        objects=[f"{directory}/{program}"],
    )


# -- ed --------------------------------------------------------------------------------------

_ED_SOURCES = [
    "buffer.c", "carg_parser.c", "global.c", "io.c", "main.c", "main_loop.c", "regex.c",
    "signal.c", "ed.h", "carg_parser.h",
]  # fmt: skip


def _ed(program: str) -> Recipe:
    return Recipe(
        source_package="ed",
        program=program,
        configure=["./configure", "--quiet"],
        build=_make("ed"),
        output="ed",
        program_sources=_ED_SOURCES,
        objects=[s[:-2] for s in _ED_SOURCES if s.endswith(".c")],
    )


# -- bc ----------------------------------------------------------------------------------

_BC_SOURCES = {
    "bc": (
        "bc",
        ["bc.y", "scan.l", "execute.c", "global.c", "load.c", "main.c", "storage.c", "util.c",
         "warranty.c", "bc.h", "bcdefs.h", "const.h", "global.h", "proto.h"],
    ),
}  # fmt: skip
_BC_LIB = ["lib/number.c", "h/number.h"]


def _bc(program: str) -> Recipe:
    directory, files = _BC_SOURCES[program]
    own = [f"{directory}/{name}" for name in files]
    return Recipe(
        source_package="bc",
        program=program,
        # No flex here: the tarball's scan.c is used, so configure's probe of lex is answered
        # from its cache variables (Debian's bc is built with readline, which wants flex).
        configure=[
            "./configure",
            "--quiet",
            "--disable-dependency-tracking",
            "--with-readline",
            "LEX=flex",
            "ac_cv_prog_lex_root=lex.yy",
            "LEXLIB=",
            "ac_cv_prog_lex_yytext_pointer=yes",
        ],
        prebuild=[_make(directory="lib")],
        build=_make(program, directory=directory),
        output=f"{directory}/{program}",
        program_sources=[*own, *_BC_LIB],
        # bc.o and scan.o are compiled from the tarball's bc.c and scan.c, which bison and
        # flex made from bc.y and scan.l; their #line directives credit those.
        objects=["bc/bc", "bc/scan", *(p[:-2] for p in [*own, *_BC_LIB] if p.endswith(".c"))],
        executables=["bc/fix-libmath_h"],
        # debian/rules: CFLAGS += -D_POSIX_SOURCE -DDOT_IS_LAST -DDONTEXIT
        flags={"CPPFLAGS": "-D_POSIX_SOURCE -DDOT_IS_LAST -DDONTEXIT"},
    )


# -- Rust: cargo against Debian's crate registry ----------------------------------------------

CARGO_CONFIG = """[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
"""
"""What Debian's dh-cargo sets up: the crates its librust-*-dev packages install, offline."""

DEBIAN_CARGO_FEATURES = (
    "sed -n 's/.*--features[= ]\\([A-Za-z0-9_,-]*\\).*/\\1/p' debian/rules | paste -sd, -"
)
"""A shell command printing the cargo features ``debian/rules`` names (comma-separated)."""

_CARGO = {
    # program: (source package, binary target, own source directory)
    "fdfind": ("rust-fd-find", "fd", "src"),
    "rg": ("rust-ripgrep", "rg", "crates/core"),
    "batcat": ("rust-bat", "bat", "src"),
    "exa": ("rust-exa", "exa", "src"),
}


def _cargo(program: str) -> Recipe:
    package, binary, own = _CARGO[program]
    # Cargo.lock goes (the registry has Debian's versions, not upstream's); dev-dependencies are
    # not resolved (-Zavoid-dev-deps, as dh-cargo does; Debian ships only what builds need).
    setup = (
        f"mkdir -p .cargo && printf '%s' '{CARGO_CONFIG}' > .cargo/config.toml && rm -f Cargo.lock"
    )
    # the features Debian builds with: dh-cargo passes debian/rules' --features=... to cargo
    # (ripgrep's pcre2: without it, rg -P says PCRE2 is not available in this build)
    build = (
        f"features=$({DEBIAN_CARGO_FEATURES}); "
        'CARGO_HOME="$PWD/.cargo-home" __CARGO_TEST_CHANNEL_OVERRIDE_DO_NOT_USE_THIS=nightly '
        f"/usr/bin/cargo build --release --offline -Zavoid-dev-deps -j{JOBS} --bin {binary}"
        ' ${features:+--features "$features"}'
    )
    return Recipe(
        source_package=package,
        program=program,
        language="rust",
        coverage=Coverage.LLVM,
        build_timeout_s=3600.0,
        configure=[],
        prebuild=[["sh", "-c", setup]],
        build=["sh", "-c", build],
        output=f"target/release/{binary}",
        program_sources=[own],
        objects=[],
        env={"RUSTC": "/usr/bin/rustc"},
    )


# -- Go: the package's own build (dh-golang) ---------------------------------------------------

_NO_GO_COVERAGE = (
    "Debian bookworm's Go 1.19 cannot build a coverage-instrumented binary (go build -cover "
    "needs Go 1.20): tests chosen by behaviour, with a larger budget"
)

_GO: dict[str, tuple[str, list[str]]] = {
    # program: (source package, the program's own sources in the tree)
    "gron": ("gron", ["."]),
    "fzf": ("fzf", ["."]),
    "go-md2man": ("go-md2man-v2", ["."]),
    # the command, and the packages of the tree it imports (its parser and printer)
    "shfmt": ("golang-mvdan-sh", ["cmd/shfmt", "syntax", "fileutil"]),
    # big programs with many statically linked libraries: the suite's hard tasks (gh's
    # command directory holds only its main package: its own sources are the whole tree)
    "gh": ("gh", ["."]),
    "hugo": ("hugo", ["."]),
    "rclone": ("rclone", ["."]),
}

_GO_BUILD = (
    "SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -STimestamp) DEB_BUILD_OPTIONS=nocheck "
    'GOCACHE="${TMPDIR:-/tmp}/truepass-gocache" GOFLAGS= GOPROXY=off GOTOOLCHAIN=local '
    "debian/rules build-arch"
)
"""dh-golang's build as ``dpkg-buildpackage`` runs it, offline, tests skipped, its date from the
changelog; ``build-arch`` since a tree may hold a directory ``build``. Only it builds what the
gold is: the version ``--version`` prints (fzf patches it into main.go, shfmt and gh pass it as
``-ldflags``), Debian's forks of libraries linked under other import paths (gh: grpc and
x/crypto), build tags (hugo). Every dependency comes from ``/usr/share/gocode`` (Debian's
golang-*-dev packages, the source package's build dependencies), with no network. The binary
lands in the build directory's ``bin``: ``_build`` where the rules name it, dh-golang's
``obj-<host type>`` where they do not (gron, rclone); it is copied out as ``PROGRAM.bin``."""


_GO_COPY = (
    'for d in _build obj-*; do if [ -f "$d/bin/{program}" ]; then '
    'cp "$d/bin/{program}" {program}.bin; break; fi; done; test -f {program}.bin'
)


def _go(program: str) -> Recipe:
    package, own = _GO[program]
    return Recipe(
        source_package=package,
        program=program,
        language="go",
        coverage=Coverage.NONE,
        coverage_note=_NO_GO_COVERAGE,
        build_timeout_s=3600.0,
        configure=[],
        build=["sh", "-c", f"{_GO_BUILD} && {_GO_COPY.format(program=program)}"],
        output=f"{program}.bin",
        program_sources=own,
        objects=[],
    )


# -- C++ ---------------------------------------------------------------------------------------

_LZIP = {
    # program (as Debian installs it, beside the lzip alternative): (source package, make
    # target, language); the tarball's top-level sources are all the program's own
    "lzip.lzip": ("lzip", "lzip", "c++"),
    "lzip.lziprecover": ("lziprecover", "lziprecover", "c++"),
    "lzip.clzip": ("clzip", "clzip", "c"),
}
_LZIP_SOURCES = {
    # package: (objects, headers and included sources), from each Makefile.in's objs
    "lzip": (["arg_parser", "lzip_index", "list", "encoder_base", "encoder", "fast_encoder",
              "decoder", "main"],
             ["arg_parser.h", "decoder.h", "encoder.h", "encoder_base.h", "fast_encoder.h",
              "lzip.h", "lzip_index.h"]),
    "lziprecover": (["arg_parser", "alone_to_lz", "lzip_index", "list", "dump_remove",
                     "lunzcrash", "md5", "merge", "mtester", "nrep_stats", "range_dec", "repair",
                     "reproduce", "split", "decoder", "main"],
                    ["arg_parser.h", "common.h", "decoder.h", "lzip.h", "lzip_index.h", "md5.h",
                     "mtester.h", "main_common.cc"]),
    "clzip": (["carg_parser", "lzip_index", "list", "encoder_base", "encoder", "fast_encoder",
               "decoder", "main"],
              ["carg_parser.h", "decoder.h", "encoder.h", "encoder_base.h", "fast_encoder.h",
               "lzip.h", "lzip_index.h"]),
}  # fmt: skip


def _lzip(program: str) -> Recipe:
    package, target, language = _LZIP[program]
    ext = ".cc" if language == "c++" else ".c"
    stems, headers = _LZIP_SOURCES[package]
    return Recipe(
        source_package=package,
        program=program,
        language=language,
        configure=["./configure", "--quiet"],
        build=_make(target),
        output=target,
        program_sources=[f"{stem}{ext}" for stem in stems] + headers,
        objects=stems,
    )


def _only(names: frozenset[str] | set[str], factory: RecipeFactory, package: str) -> RecipeFactory:
    def make(program: str) -> Recipe:
        if program not in names:
            raise InputError(
                f"no recipe for program '{program}' of source package '{package}': "
                f"supported programs: {', '.join(sorted(names))}",
                field="gold",
            )
        return factory(program)

    make.programs = frozenset(names)  # type: ignore[attr-defined]
    return make


RECIPES: dict[str, RecipeFactory] = {
    "coreutils": _only(COREUTILS_PROGRAMS, _coreutils, "coreutils"),
    "util-linux": _only(set(_UTIL_LINUX_DIRS), _util_linux, "util-linux"),
    "ed": _only({"ed"}, _ed, "ed"),
    "bc": _only(set(_BC_SOURCES), _bc, "bc"),
    **{package: _only({p for p, v in _CARGO.items() if v[0] == package}, _cargo, package)
       for package, _, _ in _CARGO.values()},
    **{package: _only({p for p, v in _GO.items() if v[0] == package}, _go, package)
       for package, _ in _GO.values()},
    **{package: _only({p for p, v in _LZIP.items() if v[0] == package}, _lzip, package)
       for package, _, _ in _LZIP.values()},
}  # fmt: skip
"""Source package -> recipe factory (program name -> :class:`Recipe`)."""


def supported() -> dict[str, list[str]]:
    """Source package -> the programs it has a recipe for."""
    return {name: sorted(factory.programs) for name, factory in RECIPES.items()}  # type: ignore[attr-defined]


def recipe(source_package: str, program: str) -> Recipe:
    """The recipe building ``program`` of ``source_package``.

    Raises:
        InputError: no recipe for that package or that program (the message lists what is).
    """
    factory = RECIPES.get(source_package)
    if factory is None:
        listing = "; ".join(f"{pkg}: {', '.join(progs)}" for pkg, progs in supported().items())
        raise InputError(
            f"no build recipe for source package '{source_package}' (program '{program}'); "
            f"supported: {listing}. Add one to truepass/families/rebuild/recipes.py",
            field="gold",
        )
    return factory(program)
