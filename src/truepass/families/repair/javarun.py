"""Java test runs: javac and JUnit 4 from the system (Debian: ``default-jdk-headless``,
``junit4``), in the sandbox, one JVM per run.

The harness (``harness/java/TruepassJUnit.java``, our own code) is compiled once per machine
into truepass's cache, as a jar, and bound read-only into the sandbox at the same path. Beside it
sits a class-data-sharing archive (``class_archive``): the JDK, javac, JUnit, JaCoCo and harness
classes a run loads, parsed and verified once, made from a run of our own tiny program and test;
a run maps it instead of loading those classes again (about a third of a run's time), and runs
without it where it cannot be made or no longer matches (``-Xshare:auto``).

In the run the harness compiles every ``.java`` file of the workspace with javac's API, runs
the JUnit 4 classes of the phase's test files and reports through the result channel, each event
carrying a nonce the parent wrote to the workspace and the harness deleted before loading any of
the workspace's code: lines the code under test writes to the channel are not believed. A
compile error is a collection error (the verdict ``broken``). Each test has a timeout
(``TEST_TIMEOUT_S``, or the test's own if shorter); the run as a whole has ``limits.timeout_s``.

Memory: a JVM reserves far more address space than it uses, so ``RLIMIT_AS`` is off for these
runs (``Limits.address_space``); the heap is capped at half of ``memory_mb`` (``-Xmx``), class
metadata and compiled code by their own flags, and the whole tree by the memory cgroup where
there is one (``memory_mb + disk_mb``, as for every run).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import shutil
import subprocess
import tempfile
import textwrap
import zipfile
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path, PurePosixPath

from truepass.errors import SandboxError
from truepass.paths import user_cache_dir
from truepass.sandbox import Limits, run_sandboxed
from truepass.sandbox.canaries import Canaries, Canary, process_names, values
from truepass.sandbox.testrun import TestRun, parse_run

log = logging.getLogger(__name__)

HARNESS_CLASS = "TruepassJUnit"
HARNESS_JAR = "truepass-harness.jar"
NONCE_FILE = ".truepass/nonce"
TEST_TIMEOUT_S = 10.0
JUNIT_JARS = ("/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar")
JACOCO_JARS = tuple(
    f"/usr/share/java/{name}.jar"
    for name in ("org.jacoco.core", "asm", "asm-commons", "asm-tree", "asm-analysis")
)  # per-test coverage (TruepassCoverage), loaded only by coverage runs
MISSING = (
    "Java samples need a JDK, JUnit 4 and JaCoCo on this machine (Debian packages "
    "default-jdk-headless, junit4 and libjacoco-java; `make system-deps` installs them): {what}"
)


_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
_JUNIT_TEST = re.compile(r"@(org\.junit\.)?Test\b")


def junit_test_classes(tests: Mapping[str, str]) -> list[str]:
    """Fully qualified names of the JUnit test classes among ``tests`` (path -> source), in
    path order: the ``.java`` files with ``@Test`` methods, named by their package and file
    name, as the harness names them in the sandbox; helpers of the tests are left out."""
    classes = []
    for path, text in sorted(tests.items()):
        if path.endswith(".java") and _JUNIT_TEST.search(text):
            package = _PACKAGE.search(text)
            stem = PurePosixPath(path).stem
            classes.append(f"{package.group(1)}.{stem}" if package else stem)
    return classes


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise SandboxError(MISSING.format(what=f"{name} not found"))
    return found


def _jars() -> list[str]:
    jars = [*JUNIT_JARS, *JACOCO_JARS]
    missing = [j for j in jars if not os.path.exists(j)]
    if missing:
        raise SandboxError(MISSING.format(what=f"{', '.join(missing)} missing"))
    return jars


def _source() -> Path:
    return Path(str(resources.files("truepass.families.repair") / "harness" / "java"))


@cache
def harness_classes() -> Path:
    """The compiled harness in the cache, compiled on first use (by source and javac version);
    world-readable, as the sandbox's uid must read it."""
    sources = sorted(_source().glob("*.java"))
    javac = _tool("javac")
    version = subprocess.run(
        [javac, "-version"], capture_output=True, text=True, check=False, timeout=60
    )
    key = hashlib.sha256(version.stdout.encode() + version.stderr.encode() + b"layout: jar")
    for source in sources:
        key.update(source.read_bytes())
    target = user_cache_dir() / "java-harness" / key.hexdigest()[:16]
    if (target / HARNESS_JAR).exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=target.parent))
    try:
        done = subprocess.run(
            [javac, "-d", str(work), "-cp", os.pathsep.join(_jars()), "-nowarn",
             *map(str, sources)],
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        if done.returncode != 0:
            raise SandboxError(f"could not compile the Java harness: {done.stderr[-1000:]}")
        with zipfile.ZipFile(work / HARNESS_JAR, "w") as jar:  # CDS archives classes of jars only
            for built in sorted(work.glob("*.class")):
                jar.write(built, built.name)
        for path in [work, *work.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        try:
            work.rename(target)
        except OSError:  # another process compiled it first
            if not (target / HARNESS_JAR).exists():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def class_path() -> list[str]:
    """The run's class path: our harness's jar, JUnit and JaCoCo (the same for every run, as
    the class-data-sharing archive requires)."""
    return [str(harness_classes() / HARNESS_JAR), *_jars()]


def _jvm_flags(heap_mb: int) -> list[str]:
    return [
        f"-Xmx{heap_mb}m", "-XX:MaxMetaspaceSize=256m", "-XX:ReservedCodeCacheSize=64m",
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
        "-Djava.io.tmpdir=/tmp", "-Dfile.encoding=UTF-8",
        "--add-opens", "java.base/java.io=ALL-UNNAMED",  # the harness's channel descriptor
    ]  # fmt: skip


def jvm_argv(
    limits: Limits, test_paths: list[str], *, coverage: bool = False, share: str = "auto"
) -> list[str]:
    """The run's command: the JVM with its memory capped, our harness, the test files;
    ``share`` "on" makes the JVM fail when it cannot use the class archive (a test's check)."""
    timeout_ms = int(min(TEST_TIMEOUT_S, limits.timeout_s) * 1000)
    archive = class_archive()
    sharing = [f"-Xshare:{share}"]
    if archive is not None:  # a mismatch (a JDK upgraded since) only costs time: keep it quiet
        sharing += [f"-XX:SharedArchiveFile={archive}", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"]
    return [
        _tool("java"), *_jvm_flags(max(64, limits.memory_mb // 2)), *sharing,
        "-cp", os.pathsep.join(class_path()), HARNESS_CLASS, str(timeout_ms),
        "1" if coverage else "0", *test_paths,
    ]  # fmt: skip


_TRAINING = {
    "src/demo/Calc.java": textwrap.dedent("""\
        package demo;

        public class Calc {
            public static int add(int a, int b) {
                return a + b;
            }
        }
        """),
    "src/test/demo/CalcTest.java": textwrap.dedent("""\
        package demo;

        import static org.junit.Assert.assertEquals;

        import org.junit.Test;

        public class CalcTest {
            @Test
            public void adds() {
                assertEquals(4, Calc.add(2, 2));
            }

            @Test(timeout = 5000)
            public void fails() {
                assertEquals(5, Calc.add(2, 2));
            }
        }
        """),
}  # our own program and test: the run that lists the classes a Java test run loads


@cache
def class_archive() -> Path | None:
    """The class-data-sharing archive of a run's classes, made once per harness, JDK and jar
    versions (beside the harness, atomically); None, with a warning, where it cannot be made.

    Made from a run of our own code (``_TRAINING``, outside the sandbox: nothing untrusted
    runs), with coverage so JaCoCo's classes are in it too: the run lists the classes it loads
    (``-XX:DumpLoadedClassList``), then ``java -Xshare:dump`` parses and verifies them into the
    archive. The archive records the class path by absolute path, which is why the harness is
    bound at its own path in the sandbox."""
    harness = harness_classes()
    java = _tool("java")
    key = hashlib.sha256(os.path.realpath(java).encode())
    for entry in class_path():
        info = os.stat(entry)
        key.update(f"{os.path.realpath(entry)}:{info.st_size}:{info.st_mtime_ns}".encode())
    archive = harness / f"classes-{key.hexdigest()[:12]}.jsa"
    if archive.exists():
        return archive
    try:
        with tempfile.TemporaryDirectory(prefix="cds-", dir=harness.parent) as tmp:
            _make_archive(java, Path(tmp), archive)
    except (OSError, subprocess.SubprocessError, SandboxError) as err:
        log.warning("Java runs go on without a class archive (slower): %s", err)
        return None
    return archive


def _make_archive(java: str, work: Path, archive: Path) -> None:
    for path, text in {**_TRAINING, NONCE_FILE: "training"}.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text)
    classes = work / "classes.lst"
    cp = os.pathsep.join(class_path())
    channel = os.open(work / "channel.jsonl", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        ran = subprocess.run(
            [java, *_jvm_flags(256), f"-XX:DumpLoadedClassList={classes}", "-cp", cp,
             HARNESS_CLASS, "5000", "1", *sorted(p for p in _TRAINING if "/test/" in p)],
            cwd=work, env={**os.environ, "TRUEPASS_CHANNEL_FD": str(channel)},
            pass_fds=(channel,), capture_output=True, text=True, check=False, timeout=120,
        )  # fmt: skip
    finally:
        os.close(channel)
    events = (work / "channel.jsonl").read_text()
    if '"outcome":"passed"' not in events or '"outcome":"failed"' not in events:
        raise SandboxError(f"the training run of the Java harness failed: {ran.stderr[-1000:]}")
    partial = work / archive.name
    dumped = subprocess.run(
        [java, "-Xshare:dump", "-XX:+UseSerialGC", f"-XX:SharedClassListFile={classes}",
         f"-XX:SharedArchiveFile={partial}", "-Xlog:cds=off", "-cp", cp],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    if dumped.returncode != 0 or not partial.exists():
        raise SandboxError(f"java -Xshare:dump failed: {(dumped.stdout + dumped.stderr)[-1000:]}")
    partial.chmod(0o644)
    partial.rename(archive)  # atomic: a concurrent maker's archive is as good


_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)


def junit_canaries(tests: dict[str, str]) -> Canaries:
    """This process's JUnit 4 canaries: one test class beside the first test class, in its
    package, with a method that must fail and one that must pass (random names and values)."""
    first = min(p for p in tests if p.endswith(".java"))
    folder = first.rsplit("/", 1)[0] + "/" if "/" in first else ""
    package = _PACKAGE.search(tests[first])
    names = process_names()
    cls, fail, ok = names[0].capitalize() + "Test", names[6], names[7]
    left, right = values()
    path = f"{folder}{cls}.java"
    source = (
        (f"package {package.group(1)};\n\n" if package else "")
        + "import static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\n"
        + f"public class {cls} {{\n"
        + f"    private static final int A = {left};\n    private static final int B = {right};\n\n"
        + f"    @Test\n    public void {fail}() {{\n        assertEquals(A * 2, A + B);\n    }}\n\n"
        + f"    @Test\n    public void {ok}() {{\n        assertEquals(A * 2, A + A);\n    }}\n}}\n"
    )
    canaries = (
        Canary(f"{path}::{fail}", "failed", "JUnit"),
        Canary(f"{path}::{ok}", "passed", "JUnit"),
    )
    return Canaries({path: source}, canaries)


def run_java_tests(
    code: dict[str, str],
    tests: dict[str, str],
    *,
    limits: Limits,
    coverage: bool = False,
    share: str = "auto",
    canaries: bool = False,
) -> TestRun:
    """Compile ``code`` with the pristine ``tests`` and run the tests' JUnit classes, sandboxed;
    ``coverage``: also the lines of the code files each test runs (``TestRun.coverage``);
    ``share``: see ``jvm_argv``; ``canaries``: add the harness's JUnit canaries, run last, and
    take their outcomes out of the run's own (:mod:`truepass.sandbox.canaries`)."""
    nonce = secrets.token_hex(16)
    cset = junit_canaries(tests) if canaries and any(p.endswith(".java") for p in tests) else None
    extra = cset.files if cset else {}
    files = {**code, **tests, **extra, NONCE_FILE: nonce}
    tested = [*sorted(p for p in tests if p.endswith(".java")), *extra]
    argv = jvm_argv(limits, tested, coverage=coverage, share=share)
    harness = str(harness_classes())
    result = run_sandboxed(
        argv,
        files,
        limits=limits.model_copy(update={"address_space": False}),
        ro_binds={harness: harness},  # at its own path: the class archive names it
    )
    run = parse_run(result, channel=True, nonce=nonce)
    if cset is not None:
        cset.take(run)
    return run


class JUnitRunner:
    """Java: javac and JUnit 4 in the sandbox (see the module docstring), with per-test coverage
    (JaCoCo) on request. No test selection yet: ``per_test`` is False, so every hidden test
    runs."""

    def run(
        self,
        sample: object,
        code: dict[str, str],
        tests: dict[str, str],
        *,
        limits: Limits,
        coverage: bool = False,
        first: list[str] | None = None,
        canaries: bool = False,
    ) -> TestRun:
        """One test run; ``first`` is not supported (``per_test`` False)."""
        return run_java_tests(code, tests, limits=limits, coverage=coverage, canaries=canaries)

    def per_test(self, sample: object) -> bool:
        return False
