"""Gold resolution, Debian source fetch, the oracle's compile.sh and the coverage build
(truepass.families.rebuild.sources and .recipes). Tests that download or build a source
package are slow; they use a cache of their own."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from truepass.errors import InputError
from truepass.families.rebuild import recipes, sources
from truepass.families.rebuild.sources import (
    Coverage,
    compile_script,
    deb_src_text,
    dependencies,
    fetch_source,
    instrumented_build,
    lines_of_code,
    measure,
    recipe_for,
    reset_counters,
    resolve_gold,
    source_files,
    static_libraries,
)

needs_debian = pytest.mark.skipif(
    shutil.which("dpkg-query") is None or not os.path.exists("/usr/bin/rev"),
    reason="needs a Debian system with util-linux's rev",
)


@needs_debian
def test_resolve_gold_names_the_package_and_hashes_the_file() -> None:
    gold = resolve_gold("rev")
    assert gold.program == "rev"
    assert gold.path == os.path.realpath(shutil.which("rev") or "")
    assert gold.source_package == "util-linux"
    assert gold.sha256 == hashlib.sha256(Path(gold.path).read_bytes()).hexdigest()
    shown = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Version}", gold.binary_package],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert gold.version == shown.stdout
    assert gold.libraries == [] and dependencies(gold) == 0
    assert gold.key == f"util-linux_{gold.source_version}"


@needs_debian
def test_resolve_gold_through_merged_usr_path() -> None:
    # dpkg knows ed as /bin/ed; it lives in /usr/bin on a merged-/usr system
    if not os.path.exists("/bin/ed"):
        pytest.skip("ed is not installed")
    by_path = resolve_gold("/bin/ed")
    by_name = resolve_gold("ed")
    assert by_path.binary_package == by_name.binary_package == "ed"
    assert by_path.path == by_name.path == os.path.realpath("/bin/ed")


@needs_debian
def test_static_libraries_are_the_built_using_packages_without_the_toolchain() -> None:
    field = ("rust-nix (= 0.26.1-3), rustc (= 1.63.0+dfsg1-2), , golang-1.19 (= 1.19.8-2), "
             "golang-github-pkg-errors (= 0.9.1-2), rust-nix (= 0.26.1-3)")  # fmt: skip
    assert static_libraries(field) == ["rust-nix", "golang-github-pkg-errors"]
    assert static_libraries(", , ") == []


def test_libraries_leave_out_libc() -> None:
    if not os.path.exists("/usr/bin/bc"):
        pytest.skip("bc is not installed")
    gold = resolve_gold("bc")
    assert any(lib.startswith("libreadline") for lib in gold.libraries)
    assert not any(lib.startswith(("libc.so", "ld-linux", "linux-vdso")) for lib in gold.libraries)
    assert dependencies(gold) == len(gold.libraries)


def test_unknown_program_is_an_input_error_saying_what_to_do() -> None:
    with pytest.raises(InputError, match="apt-get install"):
        resolve_gold("no-such-program-truepass")


def test_a_file_from_no_package_is_an_input_error(tmp_path: Path) -> None:
    program = tmp_path / "mine"
    program.write_text("#!/bin/sh\necho hi\n")
    program.chmod(0o755)
    with pytest.raises(InputError, match="no installed Debian package"):
        resolve_gold(str(program))


@needs_debian
def test_recipe_for_unsupported_package_lists_the_supported_ones() -> None:
    gold = resolve_gold("rev").model_copy(update={"source_package": "nosuchpkg"})
    with pytest.raises(InputError, match=r"coreutils: .*tac") as info:
        recipe_for(gold)
    assert "nosuchpkg" in str(info.value)
    with pytest.raises(InputError, match=r"supported programs: .*rev"):
        recipes.recipe("util-linux", "mount")


def test_coreutils_recipe_builds_only_the_program() -> None:
    recipe = recipes.recipe("coreutils", "base32")
    assert recipe.build[-1] == "src/base32" and recipe.output == "src/base32"
    assert recipe.program_sources == ["src/basenc.c"]
    assert recipe.objects == ["src/base32-basenc"]
    assert "--quiet" in recipe.configure


@needs_debian
def test_compile_script_is_posix_sh_building_and_copying_the_program() -> None:
    script = compile_script(resolve_gold("rev"))
    assert script.startswith("#!/bin/sh\n") and "\nset -e\n" in script
    assert "step ./configure --quiet" in script and "'CFLAGS=-O2 -w'" in script
    assert "step make -s -j2 rev\n" in script
    assert "apt" not in script and "install" not in script.replace("install-sh", "")
    checked = subprocess.run(["sh", "-n"], input=script, text=True, capture_output=True)
    assert checked.returncode == 0, checked.stderr


@needs_debian
def test_compile_script_moves_a_directory_named_like_the_program() -> None:
    if not os.path.exists("/usr/bin/bc"):
        pytest.skip("bc is not installed")
    script = compile_script(resolve_gold("bc"))
    assert "mv bc bc.build\ncp bc.build/bc ./bc\n" in script
    assert "-DDOT_IS_LAST" in script  # Debian's own defines


def test_deb_src_text_mirrors_deb_entries() -> None:
    text = deb_src_text(
        [
            {
                "uris": "http://deb.debian.org/debian",
                "suites": "bookworm bookworm-updates",
                "components": "main",
                "signed-by": "/usr/share/keyrings/debian-archive-keyring.gpg",
            }
        ]
    )
    assert text.splitlines() == [
        "Types: deb-src",
        "URIs: http://deb.debian.org/debian",
        "Suites: bookworm bookworm-updates",
        "Components: main",
        "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg",
    ]


def test_source_files_skips_quilt_and_git_and_copies_symlinked_files(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.c").write_bytes(b"int main(void){return 0;}\n")
    (tmp_path / ".pc").mkdir()
    (tmp_path / ".pc" / "applied-patches").write_text("x\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref\n")
    (tmp_path / "link.c").symlink_to("src/a.c")
    (tmp_path / "outside").symlink_to("/etc/hostname")
    files = source_files(tmp_path)
    assert files == {"src/a.c": b"int main(void){return 0;}\n", "link.c": files["src/a.c"]}


def test_coverage_fraction() -> None:
    cov = Coverage(covered=3, total=4, per_file={"a.c": (3, 4)}, lines={("a.c", 1)})
    assert cov.fraction == 0.75
    assert Coverage(covered=0, total=0, per_file={}, lines=set()).fraction == 0.0


# -- slow: download, unpack, build ----------------------------------------------------------


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("rebuild-cache")
    old = os.environ.get("TRUEPASS_REBUILD_CACHE")
    os.environ["TRUEPASS_REBUILD_CACHE"] = str(root)
    yield root
    if old is None:
        del os.environ["TRUEPASS_REBUILD_CACHE"]
    else:
        os.environ["TRUEPASS_REBUILD_CACHE"] = old


@contextlib.contextmanager
def _no_commands() -> Iterator[None]:
    """Fail the test if the code inside runs any command through ``sources``."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"ran a command: {args[:1]}")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sources, "_run", refuse)
        mp.setattr(sources, "_step", refuse)
        mp.setattr(sources.subprocess, "run", refuse)
        yield


@pytest.mark.slow
@needs_debian
def test_fetch_source_unpacks_the_installed_version_once(cache: Path) -> None:
    if not os.path.exists("/bin/ed"):
        pytest.skip("ed is not installed")
    gold = resolve_gold("ed")
    tree = fetch_source(gold)
    assert tree == cache / "src" / gold.key
    assert (tree / "main_loop.c").is_file() and (tree / "debian" / "changelog").is_file()
    changelog = (tree / "debian" / "changelog").read_text().splitlines()[0]
    assert f"({gold.source_version})" in changelog
    assert not [p for p in (cache / "src").iterdir() if p.name.startswith(".tmp-")]
    with _no_commands():
        assert fetch_source(gold) == tree  # unpacked once: the second call runs nothing


@pytest.mark.slow
@needs_debian
def test_instrumented_rev_measures_line_coverage(cache: Path) -> None:
    gold = resolve_gold("rev")
    inst = instrumented_build(gold)
    assert inst.binary.is_file() and inst.sources == [inst.tree / "text-utils/rev.c"]
    reset_counters(inst)
    nothing = measure(inst)
    assert nothing.covered == 0 and nothing.total > 30
    ran = subprocess.run([str(inst.binary)], input="hello\n", capture_output=True, text=True)
    assert ran.stdout == "olleh\n"
    once = measure(inst)
    assert 0 < once.covered < once.total == nothing.total
    assert once.lines < once.executable == nothing.executable  # run or not, every line listed
    assert len(once.executable) == once.total
    assert set(once.per_file) == {"text-utils/rev.c"}
    assert all(f == "text-utils/rev.c" for f, _ in once.lines)
    subprocess.run([str(inst.binary), "--help"], capture_output=True, check=True)
    more = measure(inst)
    assert more.lines > once.lines  # --help runs lines the plain run did not
    reset_counters(inst)
    assert measure(inst).covered == 0
    with _no_commands():
        assert instrumented_build(gold) == inst  # cached: nothing is configured or built again
    assert lines_of_code(inst.tree, inst.sources) > 50


@pytest.mark.slow
@needs_debian
def test_oracle_compile_script_builds_ed_in_the_sandbox(cache: Path) -> None:
    from truepass.sandbox.models import Limits
    from truepass.sandbox.session import SandboxSession

    if not os.path.exists("/bin/ed"):
        pytest.skip("ed is not installed")
    gold = resolve_gold("ed")
    files: dict[str, str | bytes] = dict(source_files(fetch_source(gold)))
    files["compile.sh"] = compile_script(gold)
    limits = Limits(timeout_s=300, disk_mb=512, cpu_s=300, file_size_mb=128)
    with SandboxSession(files=files, limits=limits) as session:
        built = session.run("sh compile.sh", timeout_s=300)
        assert built.exit_code == 0, built.stderr
        assert built.stdout == ""  # quiet
        ran = session.run("printf 'a\\nhello\\n.\\n,p\\nQ\\n' | ./ed -s")
        assert ran.exit_code == 0 and ran.stdout == "hello\n"
        version = session.run("./ed --version")
    gold_version = subprocess.run([gold.path, "--version"], capture_output=True, text=True)
    assert version.stdout.splitlines()[0] == gold_version.stdout.splitlines()[0]


def test_programs_sharing_a_counter_are_measured_one_at_a_time(tmp_path: Path) -> None:
    """expand and unexpand share coreutils' expand-common object: while one process measures
    expand, another measuring unexpand waits; cat, sharing nothing, does not."""
    import threading

    from truepass.families.rebuild.sources import Gold, InstrumentedGold, measuring

    gold = Gold(program="x", path="/usr/bin/x", binary_package="x", source_package="x",
                version="1", source_version="1", sha256="0", libraries=[])  # fmt: skip

    def inst(*objects: str) -> InstrumentedGold:
        return InstrumentedGold(gold=gold, tree=tmp_path, binary=tmp_path / "b", sources=[],
                                objects=[tmp_path / o for o in objects])  # fmt: skip

    expand, unexpand = (
        inst("src/expand", "src/expand-common"),
        inst("src/unexpand", "src/expand-common"),
    )
    entered: list[str] = []

    def measure(name: str, what: InstrumentedGold) -> None:
        with measuring(what):
            entered.append(name)

    with measuring(expand):
        waiting = threading.Thread(target=measure, args=("unexpand", unexpand))
        free = threading.Thread(target=measure, args=("cat", inst("src/cat")))
        waiting.start(), free.start()
        free.join(timeout=30)
        waiting.join(timeout=1.0)
        assert entered == ["cat"] and waiting.is_alive()  # unexpand waits for expand's pass
    waiting.join(timeout=30)
    assert entered == ["cat", "unexpand"]
