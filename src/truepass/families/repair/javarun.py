"""Java test runs: javac and JUnit 4 from the system (Debian: ``default-jdk-headless``,
``junit4``), in the sandbox, one JVM per run.

The harness (``harness/java/TruepassJUnit.java``, our own code) is compiled once per machine
into truepass's cache and bound read-only into the sandbox. In the run it compiles every
``.java`` file of the workspace with javac's API, runs the JUnit 4 classes of the phase's test
files and reports through the result channel, each event carrying a nonce the parent wrote to
the workspace and the harness deleted before loading any of the workspace's code: lines the
code under test writes to the channel are not believed. A compile error is a collection error
(the verdict ``broken``). Each test has a timeout (``TEST_TIMEOUT_S``, or the test's own if
shorter); the run as a whole has ``limits.timeout_s``.

Memory: a JVM reserves far more address space than it uses, so ``RLIMIT_AS`` is off for these
runs (``Limits.address_space``); the heap is capped at half of ``memory_mb`` (``-Xmx``), class
metadata and compiled code by their own flags, and the whole tree by the memory cgroup where
there is one (``memory_mb + disk_mb``, as for every run).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path, PurePosixPath

from truepass.errors import SandboxError
from truepass.families.repair.testrun import TestRun, parse_run
from truepass.paths import user_cache_dir
from truepass.sandbox import Limits, run_sandboxed

HARNESS_MOUNT = "/opt/truepass-java"
HARNESS_CLASS = "TruepassJUnit"
NONCE_FILE = ".truepass/nonce"
TEST_TIMEOUT_S = 10.0
JUNIT_JARS = ("/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar")
JACOCO_JARS = tuple(
    f"/usr/share/java/{name}.jar"
    for name in ("org.jacoco.core", "asm", "asm-commons", "asm-tree", "asm-analysis")
)  # per-test coverage (TruepassCoverage), put on the class path only for coverage runs
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


def _jars(coverage: bool = False) -> list[str]:
    jars = [*JUNIT_JARS, *(JACOCO_JARS if coverage else ())]
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
    key = hashlib.sha256(version.stdout.encode() + version.stderr.encode())
    for source in sources:
        key.update(source.read_bytes())
    target = user_cache_dir() / "java-harness" / key.hexdigest()[:16]
    if (target / f"{HARNESS_CLASS}.class").exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=target.parent))
    try:
        done = subprocess.run(
            [javac, "-d", str(work), "-cp", os.pathsep.join(_jars(coverage=True)), "-nowarn",
             *map(str, sources)],
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        if done.returncode != 0:
            raise SandboxError(f"could not compile the Java harness: {done.stderr[-1000:]}")
        for path in [work, *work.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        try:
            work.rename(target)
        except OSError:  # another process compiled it first
            if not (target / f"{HARNESS_CLASS}.class").exists():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def jvm_argv(limits: Limits, test_paths: list[str], *, coverage: bool = False) -> list[str]:
    """The run's command: the JVM with its memory capped, our harness, the test files."""
    heap = max(64, limits.memory_mb // 2)
    timeout_ms = int(min(TEST_TIMEOUT_S, limits.timeout_s) * 1000)
    classpath = os.pathsep.join([HARNESS_MOUNT, *_jars(coverage)])
    return [
        _tool("java"), f"-Xmx{heap}m", "-XX:MaxMetaspaceSize=256m",
        "-XX:ReservedCodeCacheSize=64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-XX:-UsePerfData", "-Xshare:auto", "-Djava.io.tmpdir=/tmp", "-Dfile.encoding=UTF-8",
        "--add-opens", "java.base/java.io=ALL-UNNAMED",  # the harness's channel descriptor
        "-cp", classpath, HARNESS_CLASS, str(timeout_ms), "1" if coverage else "0", *test_paths,
    ]  # fmt: skip


def run_java_tests(
    code: dict[str, str], tests: dict[str, str], *, limits: Limits, coverage: bool = False
) -> TestRun:
    """Compile ``code`` with the pristine ``tests`` and run the tests' JUnit classes, sandboxed;
    ``coverage``: also the lines of the code files each test runs (``TestRun.coverage``)."""
    nonce = secrets.token_hex(16)
    files = {**code, **tests, NONCE_FILE: nonce}
    argv = jvm_argv(limits, sorted(p for p in tests if p.endswith(".java")), coverage=coverage)
    result = run_sandboxed(
        argv,
        files,
        limits=limits.model_copy(update={"address_space": False}),
        ro_binds={str(harness_classes()): HARNESS_MOUNT},
    )
    return parse_run(result, channel=True, nonce=nonce)


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
    ) -> TestRun:
        """One test run; ``first`` is not supported (``per_test`` False)."""
        return run_java_tests(code, tests, limits=limits, coverage=coverage)

    def per_test(self, sample: object) -> bool:
        return False
