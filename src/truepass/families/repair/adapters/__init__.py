"""Public repair benchmarks read as they are: QuixBugs (Python and Java), HumanEvalFix and
SWE-bench (docs/adapters.md). Each reader is imported when it is called."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from truepass.families.formats import SuiteFormat


def _quixbugs(path: Path) -> tuple[list[Any], bytes]:
    from truepass.families.repair.adapters.quixbugs import load_quixbugs

    return load_quixbugs(path)


def _quixbugs_java(path: Path) -> tuple[list[Any], bytes]:
    from truepass.families.repair.adapters.quixbugs_java import load_quixbugs_java

    return load_quixbugs_java(path)


def _humanevalfix(path: Path) -> tuple[list[Any], bytes]:
    from truepass.families.repair.adapters.humanevalfix import load_humanevalfix

    return load_humanevalfix(path)


def _swebench(path: Path) -> tuple[list[Any], bytes]:
    from truepass.families.repair.adapters.swebench import load_swebench
    from truepass.families.repair.adapters.swebench_settings import SweSetting

    return load_swebench(path, SweSetting.ISSUE_ONLY)


def _swebench_tests_shown(path: Path) -> tuple[list[Any], bytes]:
    from truepass.families.repair.adapters.swebench import load_swebench
    from truepass.families.repair.adapters.swebench_settings import SweSetting

    return load_swebench(path, SweSetting.TESTS_SHOWN)


FORMATS = (
    SuiteFormat(
        "quixbugs", _quixbugs, "a directory with quixbugs_python.jsonl and support_files.json"
    ),
    SuiteFormat(
        "quixbugs-java",
        _quixbugs_java,
        "a directory with quixbugs_java.jsonl and support_files.json",
    ),
    SuiteFormat(
        "humanevalfix",
        _humanevalfix,
        "HumanEvalPack Python records (a .jsonl file or the directory holding it)",
    ),
    SuiteFormat(
        "swebench",
        _swebench,
        "SWE-bench instances (.jsonl or .json) with local clones of their repositories; "
        "solvers see the issue and the repository at its base commit",
        setting="issue-only",
    ),
    SuiteFormat(
        "swebench-tests-shown",
        _swebench_tests_shown,
        "as swebench, but solvers also see the instance's test_patch (its FAIL_TO_PASS tests)",
        setting="tests-shown",
    ),
)
