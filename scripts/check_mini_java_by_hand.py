#!/usr/bin/env python3
"""Check the bundled ``mini-java`` suite by hand, with javac and JUnit 4 directly (no sandbox).

This runs OUR OWN suite's sources (trusted code written for truepass), never a candidate's: it is
a maintainer's tool, not part of the test suite. For every sample, in a temporary directory, it
compiles the code with both test classes and runs them with JUnitCore, three times:

- the buggy code must fail at least one visible test (the hidden verdict is shown too);
- the code with the reference ``fix`` applied must pass every visible and hidden test;
- the code with the ``known_overfit`` patch applied must pass every visible test and fail at
  least one hidden test.

The patches are applied with truepass's own :func:`truepass.patches.apply.apply_to_sample`, so
the diffs in ``suite.jsonl`` are what is checked. Prints a table; exits 1 if any sample is wrong.

Usage::

    .venv/bin/python scripts/check_mini_java_by_hand.py [--suite DIR] [ID ...]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from truepass.answers import Answer
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.schema import RepairSample
from truepass.suites.loader import load_suite

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "src" / "truepass" / "suites" / "bundled" / "mini-java"
CLASSPATH = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
JVM_FLAGS = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"]
TIMEOUT_S = 120
FAILURE = re.compile(r"^\d+\) (\S+)\((\S+)\)$", re.MULTILINE)


@dataclass(frozen=True)
class Outcome:
    """Per test class: ``None`` when it did not compile, else the failed test methods."""

    failed: dict[str, list[str]] | None
    detail: str = ""

    def passes(self, cls: str) -> bool:
        return self.failed is not None and not self.failed[cls]

    def fails(self, cls: str) -> bool:
        return self.failed is None or bool(self.failed[cls])

    def show(self, cls: str) -> str:
        if self.failed is None:
            return "no-compile"
        return "pass" if not self.failed[cls] else f"FAIL {len(self.failed[cls])}"


def class_name(path: str) -> str:
    """``src/test/java/mini/XTest.java`` -> ``mini.XTest``."""
    return path.removeprefix("src/test/java/").removesuffix(".java").replace("/", ".")


def run_junit(code: dict[str, str], tests: dict[str, str]) -> Outcome:
    """Compile ``code`` with ``tests`` and run every test class once with JUnitCore."""
    classes = [class_name(p) for p in sorted(tests)]
    with tempfile.TemporaryDirectory(prefix="minij-") as tmp:
        work = Path(tmp)
        for path, text in {**code, **tests}.items():
            (work / path).parent.mkdir(parents=True, exist_ok=True)
            (work / path).write_text(text, encoding="utf-8")
        sources = sorted(str(p.relative_to(work)) for p in work.rglob("*.java"))
        javac = subprocess.run(
            ["javac", *[f"-J{f}" for f in JVM_FLAGS], "-nowarn", "-d", "out", "-cp", CLASSPATH,
             *sources],
            cwd=work, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
        )  # fmt: skip
        if javac.returncode != 0:
            return Outcome(None, javac.stdout + javac.stderr)
        java = subprocess.run(
            ["java", *JVM_FLAGS, "-cp", f"out:{CLASSPATH}", "org.junit.runner.JUnitCore",
             *classes],
            cwd=work, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
        )  # fmt: skip
    output = java.stdout + java.stderr
    failed: dict[str, list[str]] = {c: [] for c in classes}
    for method, cls in FAILURE.findall(output):
        failed.setdefault(cls, []).append(method)
    if java.returncode != 0 and not any(failed.values()):
        failed = {c: ["<junit run failed>"] for c in classes}
    if not re.search(r"^(OK \(\d+ tests?\)|Tests run: \d+)", output, re.MULTILINE):
        failed = {c: ["<no junit summary>"] for c in classes}
    return Outcome(failed, output)


def check(sample: RepairSample) -> tuple[list[str], list[str]]:
    """The table row of one sample and its problems."""
    tests = sample.test_files
    (vis,) = [class_name(p) for p in sample.tests.visible]
    (hid,) = [class_name(p) for p in sample.tests.hidden]
    problems: list[str] = []

    buggy = run_junit(sample.files, tests)
    if not buggy.fails(vis):
        problems.append("buggy code passes the visible tests")

    fixed_files = apply_to_sample(sample, Answer(diff=sample.fix)).files
    fixed = run_junit(fixed_files, tests)
    if not (fixed.passes(vis) and fixed.passes(hid)):
        problems.append(f"fix does not pass: {fixed.failed}\n{fixed.detail[-2000:]}")

    row = [sample.id, sample.defect_type, buggy.show(vis), buggy.show(hid), fixed.show(vis),
           fixed.show(hid)]  # fmt: skip
    if sample.known_overfit:
        over_files = apply_to_sample(sample, Answer(diff=sample.known_overfit)).files
        over = run_junit(over_files, tests)
        if not over.passes(vis):
            problems.append(f"known_overfit fails the visible tests: {over.failed}")
        if not over.fails(hid):
            problems.append("known_overfit passes the hidden tests")
        row += [over.show(vis), over.show(hid)]
    else:
        row += ["-", "-"]
    row.append("ok" if not problems else "PROBLEM")
    return row, problems


def main(argv: list[str] | None = None) -> int:
    """Check every (or every named) sample; print the table; return the exit status."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=SUITE, help="suite directory or JSONL")
    parser.add_argument("ids", nargs="*", help="only these sample ids")
    args = parser.parse_args(argv)
    suite = load_suite(args.suite)
    samples = [s for s in suite.samples if not args.ids or s.id in args.ids]
    header = ["sample", "defect type", "buggy vis", "buggy hid", "fix vis", "fix hid",
              "overfit vis", "overfit hid", "verdict"]  # fmt: skip
    rows: list[list[str]] = []
    all_problems: list[str] = []
    for sample in samples:
        assert isinstance(sample, RepairSample)
        row, problems = check(sample)
        rows.append(row)
        all_problems += [f"{sample.id}: {p}" for p in problems]
        print(" | ".join(row), file=sys.stderr, flush=True)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, ["-" * w for w in widths], *rows]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")
    for p in all_problems:
        print(p)
    print(f"{len(rows) - len({p.split(':')[0] for p in all_problems})}/{len(rows)} samples ok")
    return 1 if all_problems else 0


if __name__ == "__main__":
    sys.exit(main())
