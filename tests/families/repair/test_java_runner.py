"""The Java test runner: javac and JUnit 4 in the sandbox, outcomes from the nonce-checked
result channel (families/repair/javarun.py)."""

from __future__ import annotations

import pytest

from tests.families.repair.java_helpers import CODE, SMALL, TEST, calc, ids, junit
from truepass.families.repair import javarun
from truepass.families.repair.javarun import run_java_tests
from truepass.sandbox.testrun import TestRun

pytestmark = pytest.mark.skipif(
    not all(map(javarun.os.path.exists, javarun.JUNIT_JARS)) or not javarun.shutil.which("javac"),
    reason="needs a JDK and JUnit 4 (make system-deps installs them)",
)

ADD = "static int add(int a, int b) { return a - b; }"
TESTS = junit(
    """\
    @Test public void adds() { assertEquals(5, Calc.add(2, 3)); }
    @Test public void zero() { assertEquals(0, Calc.add(0, 0)); }
    @Test(timeout = 50000) public void negative() { assertEquals(-1, Calc.add(1, -2)); }
    """
)


def test_outcomes_per_test_with_file_path_ids() -> None:
    run = run_java_tests(calc(ADD), TESTS, limits=SMALL)
    assert run.started and run.finished and run.trusted_channel
    assert set(run.collected) == ids("adds", "zero", "negative")
    assert run.passed == ids("zero")
    assert run.failed == ids("adds", "negative")
    assert run.returncode == 1
    assert "expected:<5> but was:<-1>" in run.messages[f"{TEST}::adds"]


def test_the_fix_passes_everything_with_exit_zero() -> None:
    run = run_java_tests(calc(ADD.replace("a - b", "a + b")), TESTS, limits=SMALL)
    assert run.passed == ids("adds", "zero", "negative") and run.returncode == 0


def test_a_compile_error_is_a_collection_error_naming_file_and_line() -> None:
    run = run_java_tests(calc("static int add(int a, int b) { return a +; }"), TESTS, limits=SMALL)
    assert run.started and run.finished and run.returncode == 2
    assert run.collect_errors == [CODE]
    assert f"{CODE}:" in run.messages[CODE] and run.outcomes == {}


def test_a_test_that_no_longer_compiles_against_the_code_is_a_collection_error() -> None:
    run = run_java_tests(
        calc("static int plus(int a, int b) { return a + b; }"), TESTS, limits=SMALL
    )
    assert run.collect_errors == [TEST]


def test_helper_classes_among_the_test_files_are_not_test_classes() -> None:
    helper = {"src/test/demo/Expect.java": "package demo;\npublic class Expect {\n"
              "    static int five() { return 5; }\n}\n"}  # fmt: skip
    tests = {**junit("@Test public void adds() { assertEquals(Expect.five(), Calc.add(2, 3)); }"),
             **helper}  # fmt: skip
    run = run_java_tests(calc(ADD.replace("a - b", "a + b")), tests, limits=SMALL)
    assert run.collected == [f"{TEST}::adds"] and run.passed == ids("adds")


def test_a_looping_test_times_out_alone_and_the_run_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(javarun, "TEST_TIMEOUT_S", 1.0)
    code = calc("static int add(int a, int b) { if (a == 2) { while (true) { } } return a + b; }")
    run = run_java_tests(code, TESTS, limits=SMALL)
    assert run.finished and not run.timed_out
    assert run.failed == ids("adds") and run.passed == ids("zero", "negative")
    assert "TestTimedOutException" in run.messages[f"{TEST}::adds"]


def test_lines_the_code_writes_to_the_channel_are_not_believed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forge = """\
    static int add(int a, int b) {
        try {
            java.lang.reflect.Field f = java.io.FileDescriptor.class.getDeclaredField("fd");
            f.setAccessible(true);
            // the descriptor's number is in the environment, as the harness received it
            java.io.FileDescriptor fd = new java.io.FileDescriptor();
            f.setInt(fd, Integer.parseInt(System.getenv("TRUEPASS_CHANNEL_FD")));
            java.io.FileOutputStream out = new java.io.FileOutputStream(fd);
            StringBuilder lines = new StringBuilder();
            for (String t : new String[] {"adds", "zero", "negative"}) {
                lines.append("{\\"event\\":\\"test\\",\\"nodeid\\":\\"src/test/demo/CalcTest.java::")
                     .append(t).append("\\",\\"outcome\\":\\"passed\\"}\\n");
            }
            lines.append("{\\"event\\":\\"finish\\",\\"exitstatus\\":0}\\n");
            out.write(lines.toString().getBytes());
            out.flush();
        } catch (ReflectiveOperationException | java.io.IOException e) {
            throw new RuntimeException(e);
        }
        Runtime.getRuntime().halt(0);  // no real outcome follows the forged ones
        return 0;
    }
    """
    channels: list[bytes] = []
    parse = javarun.parse_run

    def keep(result, **kw):  # type: ignore[no-untyped-def]
        channels.append(result.channel)
        return parse(result, **kw)

    monkeypatch.setattr(javarun, "parse_run", keep)
    run = run_java_tests(calc(forge), TESTS, limits=SMALL)
    forged = [line for line in channels[0].splitlines() if b"nonce" not in line]
    assert len(forged) == 4, "the forged lines did not reach the channel: the test shows nothing"
    assert run.started and not run.finished and run.passed == set(), run.output


def test_system_exit_in_the_code_leaves_the_run_unfinished() -> None:
    code = calc("static int add(int a, int b) { System.exit(0); return 0; }")
    run = run_java_tests(code, TESTS, limits=SMALL)
    assert run.started and not run.finished and run.passed == set()


def test_the_heap_is_capped_without_an_address_space_limit() -> None:
    """memory_mb 512: the JVM starts (an RLIMIT_AS of 512 MB would stop it) and a test that
    allocates 1 GB gets OutOfMemoryError while the others pass."""
    code = calc(
        "static int add(int a, int b) { if (a == 2) { long[] big = new long[128 << 20]; "
        "return big.length; } return a + b; }"
    )
    run = run_java_tests(code, TESTS, limits=SMALL)
    assert run.finished and run.passed == ids("zero", "negative")
    assert "OutOfMemoryError" in run.messages[f"{TEST}::adds"]


def test_the_whole_run_has_the_sandbox_timeout() -> None:
    code = calc("static int add(int a, int b) { while (true) { } }")
    limits = SMALL.model_copy(update={"timeout_s": 3})
    run = run_java_tests(code, TESTS, limits=limits)
    assert run.timed_out and not run.finished


def test_per_test_coverage_of_the_code_files_only() -> None:
    body = """\
    static int add(int a, int b) {
        if (a > 100) {
            return 0;
        }
        return a - b;
    }
    """
    tests = junit(
        """\
        @Test public void adds() { assertEquals(5, Calc.add(2, 3)); }
        @Test public void big() { assertEquals(0, Calc.add(200, 3)); }
        """
    )
    code = calc(body)
    lines = code[CODE].splitlines()
    at = {text.strip(): n for n, text in enumerate(lines, start=1)}
    run = run_java_tests(code, tests, limits=SMALL, coverage=True)
    assert run.passed == ids("big") and run.failed == ids("adds")
    assert run.coverage == {
        f"{TEST}::adds": {CODE: [at["if (a > 100) {"], at["return a - b;"]]},
        f"{TEST}::big": {CODE: [at["if (a > 100) {"], at["return 0;"]]},
    }


def test_no_coverage_unless_asked() -> None:
    run = run_java_tests(calc(ADD), TESTS, limits=SMALL)
    assert run.coverage == {}


@pytest.mark.parametrize("coverage", [False, True])
def test_runs_in_the_sandbox_map_the_class_archive(coverage: bool) -> None:
    # -Xshare:on makes the JVM refuse to start when it cannot map the archive (a class path
    # that differs from the one it was made with, a harness bound elsewhere, a JDK upgraded).
    assert javarun.class_archive() is not None
    run = run_java_tests(calc(ADD), TESTS, limits=SMALL, coverage=coverage, share="on")
    assert run.finished, run.output
    assert run.passed == ids("zero")


def test_a_run_goes_on_without_a_usable_archive(
    monkeypatch: pytest.MonkeyPatch, tmp_path: javarun.Path
) -> None:
    bogus = tmp_path / "classes.jsa"
    bogus.write_bytes(b"not an archive")
    bogus.chmod(0o644)
    tmp_path.chmod(0o755)
    monkeypatch.setattr(javarun, "class_archive", lambda: bogus)
    run = run_java_tests(calc(ADD), TESTS, limits=SMALL)
    assert run.finished, run.output
    assert run.passed == ids("zero")
    assert "cds" not in run.output.lower()  # the JVM's complaint is kept out of the output


def test_junit_canaries_report_apart_and_as_they_must() -> None:
    """The JUnit canaries run beside the tests, in their package: the one that must fail
    fails, the one that must pass passes, and neither is among the run's own outcomes."""
    fixed = calc(ADD.replace("a - b", "a + b"))
    run = run_java_tests(fixed, TESTS, limits=SMALL, canaries=True)
    assert run.passed == ids("adds", "zero", "negative") and set(run.collected) == run.passed
    assert sorted(run.canaries.values()) == ["failed", "passed"] and not run.canary_lies
    assert all(n.startswith("src/test/demo/") for n in run.canaries)
    assert run.returncode == 1  # the canary that must fail; phase_result accepts it


def test_a_junit_framework_that_says_passed_for_everything_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No patch of ours got the JUnit harness to forge outcomes (a fake ``org.junit.Assert``
    among the code files loses to the real one, and events need the run's nonce), so the lying
    framework is simulated here: every reported outcome becomes ``passed``."""
    real = javarun.parse_run

    def lying(*args: object, **kwargs: object) -> TestRun:
        run = real(*args, **kwargs)  # type: ignore[arg-type]
        run.outcomes = dict.fromkeys(run.outcomes, "passed")
        return run

    monkeypatch.setattr(javarun, "parse_run", lying)
    run = run_java_tests(calc(ADD), TESTS, limits=SMALL, canaries=True)
    assert run.passed == ids("adds", "zero", "negative")
    assert len(run.canary_lies) == 1 and "must fail and reported passed" in run.canary_lies[0]
    assert "JUnit test" in run.canary_lies[0]
