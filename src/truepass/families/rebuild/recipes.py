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

from pydantic import BaseModel, ConfigDict, Field

from truepass.errors import InputError

JOBS = 2
"""Parallel make jobs of every recipe."""


class Recipe(BaseModel):
    """How to build one program of one source package in its unpacked source tree."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source_package: str
    program: str
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
}
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
