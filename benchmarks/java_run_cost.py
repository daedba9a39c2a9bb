"""The cost of one Java test run in truepass's sandbox against the same run outside it.

For each sample (QuixBugs-Java's programs with their fixed version, when the data is given;
else the bundled ``mini-java`` reference fixes), and interleaved:

* ``bare``: the same work with nothing of truepass: ``javac`` of the code and the phase's test
  files into a fresh directory, then ``java org.junit.runner.JUnitCore`` on the test classes,
  outside any sandbox (laying the files out is not timed);
* ``truepass``: :func:`truepass.families.repair.javarun.run_java_tests`: bubblewrap, one JVM
  that compiles with javac's API and runs JUnit through our harness, outcomes from the channel;
* the same without the class-data-sharing archive (``javarun.class_archive``), to show its gain.

Also the floor: ``java -version`` and one JVM that only starts our harness's class path.
Prints the median per run of each and the ratio truepass / bare, and whether both agree on
which tests pass (bare: JUnitCore's exit status).

    .venv/bin/python benchmarks/java_run_cost.py --suite mini-java --limit 10
    .venv/bin/python benchmarks/java_run_cost.py \
        --suite quixbugs-java:../shared/benchmarks/quixbugs-java

Timings on a shared 2-core machine are noisy: compare figures of the same run only.
Not a pytest module: run it as a script.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from truepass.answers import Answer
from truepass.families.repair import javarun
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.schema import RepairSample
from truepass.sandbox import Limits
from truepass.suites.loader import load_suite


def bare_run(code: dict[str, str], tests: dict[str, str]) -> tuple[float, bool]:
    """javac then JUnitCore outside the sandbox; (seconds, every test passed)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, text in {**code, **tests}.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        sources = [str(root / p) for p in {**code, **tests} if p.endswith(".java")]
        classes = javarun.junit_test_classes(tests)
        cp = os.pathsep.join(javarun.JUNIT_JARS)
        start = time.perf_counter()
        built = subprocess.run(
            ["javac", "-nowarn", "-d", str(root / "out"), "-cp", cp, *sources],
            capture_output=True, check=False,
        )  # fmt: skip
        ok = built.returncode == 0
        if ok:
            ran = subprocess.run(
                ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                 os.pathsep.join([str(root / "out"), cp]), "org.junit.runner.JUnitCore", *classes],
                capture_output=True, check=False,
            )  # fmt: skip
            ok = ran.returncode == 0
        return time.perf_counter() - start, ok


def truepass_run(
    code: dict[str, str], tests: dict[str, str], limits: Limits, archive: Path | None
) -> tuple[float, bool]:
    """One sandboxed run; ``archive`` None: without the class-data-sharing archive (the JVM's
    own JDK archive only), as runs were before it existed."""
    made = javarun.class_archive
    javarun.class_archive = lambda: archive  # for this script only
    try:
        start = time.perf_counter()
        run = javarun.run_java_tests(code, tests, limits=limits)
        elapsed = time.perf_counter() - start
    finally:
        javarun.class_archive = made
    return elapsed, run.finished and run.returncode == 0 and not run.collect_errors


def floor() -> dict[str, float]:
    times: dict[str, list[float]] = {"java -version": [], "JVM with the harness's class path": []}
    cp = os.pathsep.join(javarun.class_path())
    for _ in range(5):
        for name, argv in (
            ("java -version", ["java", "-version"]),
            ("JVM with the harness's class path",
             ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", cp,
              "org.junit.runner.JUnitCore"]),
        ):  # fmt: skip
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, check=False)
            times[name].append(time.perf_counter() - start)
    return {k: statistics.median(v) for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="mini-java")
    parser.add_argument("--limit", type=int, default=0, help="first N samples (0: all)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each per sample")
    args = parser.parse_args()
    suite = load_suite(args.suite)
    samples: list[RepairSample] = [s for s in suite.samples if isinstance(s, RepairSample)]
    samples = samples[: args.limit] if args.limit else samples
    limits = Limits()
    archive = javarun.class_archive()  # compiled and archived once, not timed
    if archive is None:
        raise SystemExit("no class archive could be made here (see the warning above)")
    print(f"{len(samples)} samples of {suite.name}, visible+hidden tests on the reference fix")
    for name, seconds in floor().items():
        print(f"  floor: {name}: {seconds:.3f} s")
    bare, ours, plain, disagree = [], [], [], []
    for sample in samples:
        fixed = apply_to_sample(sample, Answer(diff=sample.fix)).files
        for tests in (sample.tests.visible, sample.tests.hidden):
            if not tests:
                continue
            for _ in range(args.repeat):
                b, b_ok = bare_run(fixed, tests)
                t, t_ok = truepass_run(fixed, tests, limits, archive)
                p, p_ok = truepass_run(fixed, tests, limits, None)
                bare.append(b)
                ours.append(t)
                plain.append(p)
                if not b_ok == t_ok == p_ok:
                    disagree.append(
                        f"{sample.id}: bare {b_ok}, truepass {t_ok}, without the archive {p_ok}"
                    )
    mb, mt, mp = statistics.median(bare), statistics.median(ours), statistics.median(plain)
    print(f"  runs: {len(bare)} of each")
    print(f"  bare javac + JUnitCore, outside any sandbox: median {mb:.3f} s per run")
    print(f"  truepass (sandbox, one JVM: javac API + JUnit): median {mt:.3f} s per run")
    print(f"  truepass without its class archive: median {mp:.3f} s per run")
    print(f"  truepass / bare: {mt / mb:.2f}x; truepass / without the archive: {mt / mp:.2f}x")
    print(f"  outcome disagreements: {len(disagree)}")
    for line in disagree[:20]:
        print(f"    {line}")


if __name__ == "__main__":
    main()
