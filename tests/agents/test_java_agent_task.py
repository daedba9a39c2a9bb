"""A Java repair sample as an agent sees it: run_tests compiles and runs the visible JUnit
classes in the agent's sandbox session, where the JVM starts (no address-space limit)."""

from __future__ import annotations

import pytest

from truepass.answers import Answer
from truepass.families.repair import javarun
from truepass.families.repair.agent import repair_agent_task
from truepass.families.repair.patching import apply_to_sample
from truepass.sandbox import Limits
from truepass.sandbox.session import SandboxSession
from truepass.suites.loader import load_suite

pytestmark = pytest.mark.skipif(
    not all(map(javarun.os.path.exists, javarun.JUNIT_JARS)) or not javarun.shutil.which("javac"),
    reason="needs a JDK and JUnit 4 (make system-deps installs them)",
)


def test_run_tests_fails_on_the_buggy_code_and_passes_on_the_fix() -> None:
    sample = load_suite("mini-java").samples[0]
    task = repair_agent_task(sample)
    assert not task.address_space and "JUnitCore" in (task.test_command or "")
    assert set(task.files) == set(sample.files) | set(sample.tests.visible)
    limits = Limits(timeout_s=60, memory_mb=1024, address_space=task.address_space)
    with SandboxSession(task.files, limits=limits) as session:
        buggy = session.run(task.test_command or "")
        assert buggy.exit_code == 1 and "Failures: " in buggy.stdout_full, buggy.stderr_full
    fixed = {**apply_to_sample(sample, Answer(diff=sample.fix)).files, **sample.tests.visible}
    with SandboxSession(fixed, limits=limits) as session:
        good = session.run(task.test_command or "")
        assert good.exit_code == 0 and "OK (" in good.stdout_full, good.stderr_full


def test_the_python_task_keeps_its_address_space_limit() -> None:
    assert repair_agent_task(load_suite("mini").samples[0]).address_space
