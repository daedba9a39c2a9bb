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
Each phase of each sample (and each ``--repeat``) is a paired round (benchmarks/rounds.py): the
three run back to back, the order rotating from round to round. Prints the median per run of
each, the ratios truepass / bare and truepass / without the archive as medians of the per-round
ratios, whether all agree on which tests pass (bare: JUnitCore's exit status), the rounds with
their load average and the cores other work kept busy, and an UNRELIABLE line for every run
whose cores other work took.

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
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import (
    Timing,
    adopt_orphans,
    by_tool,
    median_ratio,
    reap_orphans,
    report,
    rotation,
    timed,
)

from truepass.answers import Answer
from truepass.families.repair import javarun
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.schema import RepairSample
from truepass.sandbox import Limits
from truepass.suites.loader import load_suite


def bare_run(code: dict[str, str], tests: dict[str, str]) -> tuple[float, bool]:
    """javac then JUnitCore outside the sandbox; (seconds, every test passed). Laying the files
    out is not in the seconds (a round's window includes it)."""
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
    idle_before = os.getloadavg()[0]
    adopt_orphans()  # the sandboxes' CPU time is this process's own
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
    disagree: list[str] = []
    timings: list[Timing] = []
    n = 0
    for sample in samples:
        fixed = apply_to_sample(sample, Answer(diff=sample.fix)).files
        for tests in (sample.tests.visible, sample.tests.hidden):
            if not tests:
                continue
            for _ in range(args.repeat):
                runs: dict[str, Callable[[], tuple[float, bool]]] = {
                    "bare": lambda f=fixed, t=tests: bare_run(f, t),
                    "truepass": lambda f=fixed, t=tests: truepass_run(f, t, limits, archive),
                    "no archive": lambda f=fixed, t=tests: truepass_run(f, t, limits, None),
                }
                ok = {}
                for name in rotation(list(runs), n):
                    (seconds, ok[name]), timing = timed(name, n, runs[name])
                    timings.append(replace(timing, seconds=seconds))  # the run's own seconds
                reap_orphans()
                n += 1
                if not ok["bare"] == ok["truepass"] == ok["no archive"]:
                    disagree.append(f"{sample.id}: bare {ok['bare']}, truepass {ok['truepass']}, "
                                    f"without the archive {ok['no archive']}")  # fmt: skip
    have = by_tool(timings)
    bare, ours, plain = (
        [t.seconds for t in have[name]] for name in ("bare", "truepass", "no archive")
    )
    mb, mt, mp = statistics.median(bare), statistics.median(ours), statistics.median(plain)
    print(f"  runs: {len(bare)} of each")
    print(f"  bare javac + JUnitCore, outside any sandbox: median {mb:.3f} s per run")
    print(f"  truepass (sandbox, one JVM: javac API + JUnit): median {mt:.3f} s per run")
    print(f"  truepass without its class archive: median {mp:.3f} s per run")
    vs_bare = median_ratio(have["truepass"], have["bare"]) or float("nan")
    vs_plain = median_ratio(have["truepass"], have["no archive"]) or float("nan")
    print(f"  truepass / bare: {vs_bare:.2f}x; truepass / without the archive: {vs_plain:.2f}x "
          "(medians of the per-round ratios)")  # fmt: skip
    print(f"  outcome disagreements: {len(disagree)}")
    for line in disagree[:20]:
        print(f"    {line}")
    pairs = [("truepass", "bare"), ("truepass", "no archive")]
    print("\n".join(report("java runs", timings, pairs, idle_before)))


if __name__ == "__main__":
    main()
