"""A repair sample as an agent works on it (``agent:MODEL``; docs/agents.md).

The workspace holds the buggy files and the visible tests, nothing else: the hidden tests (and the
hidden versions of test-support files, SWE-bench's ``issue-only`` setting), the
reference fix, ``known_overfit``, the fault lines and the sample's metadata stay with the judge.
``run_tests`` runs pytest on the visible test files (or the sample's own test command; Java:
javac, then JUnit 4's console runner on the visible test classes). The
final workspace is the answer as a unified diff against the starting files, judged like any
patch: pristine tests, fake-fix flags (an edit to a test file is ``touches-tests``), regressions.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from truepass.agentic.task import AgentTask
from truepass.families.repair import languages
from truepass.families.repair.javarun import JUNIT_JARS, junit_test_classes
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.testrun import is_pytest_command, pytest_args

PYTEST = ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
"""As the judge runs pytest: no plugin of the environment loads unless asked for."""


def test_command(sample: RepairSample) -> str:
    """The shell command that runs the visible tests in the agent's workspace (the sample's
    language's)."""
    return languages.get(sample.language).agent_test_command(sample)


def python_test_command(sample: RepairSample) -> str:
    """pytest on the visible tests, as the judge runs them (or the sample's own command)."""
    if sample.test_command is None:
        argv = [*PYTEST, *sorted(sample.tests.visible)]
    elif is_pytest_command(sample.test_command):
        argv = [*PYTEST, *pytest_args(sample, sample.tests.visible)]
    else:
        argv = list(sample.test_command)
    return shlex.join(argv)


_CLASSES = "/tmp/truepass-classes"


def java_test_command(sample: RepairSample) -> str:
    """javac of every ``.java`` file of the workspace, then JUnit 4's console runner on the
    visible test classes (files with ``@Test`` methods; helpers of the tests are compiled only)."""
    classes = junit_test_classes(sample.tests.visible)
    jars = ":".join(JUNIT_JARS)
    q = shlex.quote
    return (
        f"rm -rf {_CLASSES} && mkdir -p {_CLASSES} && "
        f"javac -nowarn -d {_CLASSES} -cp {jars} $(find . -name '*.java') && "
        f"java -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp {_CLASSES}:{jars} "
        f"org.junit.runner.JUnitCore {' '.join(map(q, classes))}"
    )


def instructions(sample: RepairSample) -> str:
    """The task text: the defect's description, the code, the tests, and what is judged."""
    code = ", ".join(sorted(sample.files))
    tests = ", ".join(sorted(sample.tests.visible))
    if sample.tests.visible_role == "regression":
        ask = (
            f"The tests you can run: {tests} (run_tests runs them; they pass now, and none of "
            "them shows the defect). Fix the defect in the code and keep them passing. Other "
            "tests, which you cannot see, judge your fix: fix the defect itself."
        )
    else:
        ask = (
            f"The tests you can run: {tests} (run_tests runs them; they fail now). Fix the "
            "defect in the code so that they pass. Other tests, which you cannot see, judge "
            "your fix too: fix the defect itself, not only the cases these tests check."
        )
    return (
        "The project in the current directory has a defect.\n\n"
        f"{sample.description.strip()}\n\n"
        f"The code: {code}. {ask} Do not change the tests: the original ones judge your fix, "
        "and changes to them are flagged."
    )


def repair_agent_task(sample: RepairSample) -> AgentTask:
    """The agent task of a repair sample. A sample with its repository's environment
    (docs/environments.md) is worked on in it: the environment bound read-only at its own path,
    its ``bin`` first on ``PATH`` (``python`` is its interpreter), its pytest plugins loaded as
    the judge loads them. Its compiled extensions are not laid into the workspace: the agent
    builds them if it needs them (``python setup.py build_ext --inplace``)."""
    env, binds = dict(ENV), {}
    if sample.environment is not None:
        from truepass.families.repair.environments.build import ready

        built = ready(sample.environment, sample.files)
        env = {"PATH": f"{Path(built.python).parent}:/usr/local/bin:/usr/bin:/bin"}
        binds = built.binds()
    return AgentTask(
        files={**sample.files, **sample.tests.visible},
        instructions=instructions(sample),
        test_command=test_command(sample),
        env=env,
        ro_binds=binds,
        address_space=languages.get(sample.language).agent_address_space,  # docs/sandbox.md
    )


__all__ = ["java_test_command", "python_test_command", "repair_agent_task", "test_command"]
