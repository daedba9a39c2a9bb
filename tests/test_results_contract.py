"""results.jsonl is a public contract (docs/results.md): fields may be added, never renamed or
removed. A family's evidence (``Judged.evidence``, its own type) is written at the top level of
the record, where the fields it replaced always stood, and read back from there."""

from __future__ import annotations

import json

from truepass.families.codegen.evidence import CodegenEvidence
from truepass.families.repair.evidence import RepairEvidence
from truepass.judged import Evidence, Judged
from truepass.metrics.quality import QualityDelta
from truepass.records import AttemptRecord
from truepass.vocabulary import Verdict

# the keys of a results.jsonl line, in order, as truepass wrote them before evidence was a
# family's own (a repair run of `mini`, session 10's main)
PUBLISHED = [
    "suite", "sample_id", "defect_type", "leakage", "solver", "attempt", "patch_id", "verdict",
    "flags", "flag_details", "flaky_tests", "regressions", "quality", "localisation",
    "named_cause", "visible", "hidden", "failed_case", "scores", "submission", "patch",
    "changed_files", "details", "test_output", "sandbox_tier", "infra_retries", "duration_s",
    "solve_s", "usage", "parse", "solver_meta",
]  # fmt: skip
WHERE = {"suite": "s", "sample_id": "a", "defect_type": "d", "leakage": "private",
         "solver": "oracle", "attempt": 0}  # fmt: skip
QUALITY = QualityDelta(
    lines_added=1, lines_removed=1, hunks=1, files_touched=1, complexity_before=2,
    complexity_after=2, new_lint={}, inside_fault_function=True,
)  # fmt: skip


def _line(judged: Judged) -> dict[str, object]:
    return json.loads(AttemptRecord.of(judged, **WHERE).model_dump_json())


def test_every_family_writes_the_published_keys_in_their_order() -> None:
    repair = _line(Judged(verdict=Verdict.CORRECT, evidence=RepairEvidence(quality=QUALITY)))
    assert list(repair) == [*PUBLISHED, "patch_type", "fix_strategy"]  # issue 28: further fields
    assert repair["quality"]["lines_added"] == 1 and repair["failed_case"] is None
    codegen = _line(Judged(verdict=Verdict.FAILS_VISIBLE,
                           evidence=CodegenEvidence(failed_case={"index": 3})))  # fmt: skip
    assert list(codegen) == PUBLISHED and codegen["failed_case"] == {"index": 3}
    plain = _line(Judged(verdict=Verdict.SCORED))
    assert list(plain) == PUBLISHED and plain["quality"] is None


def test_evidence_is_read_back_typed_and_rewritten_the_same() -> None:
    line = _line(Judged(verdict=Verdict.CORRECT, evidence=RepairEvidence(quality=QUALITY)))
    line["from_a_newer_truepass"] = {"x": 1}  # a field this truepass does not know
    record = AttemptRecord.model_validate_json(json.dumps(line))
    assert RepairEvidence.of(record).quality == QUALITY
    again = json.loads(record.model_dump_json())
    assert again == line and list(again)[: len(PUBLISHED)] == PUBLISHED


def test_a_judge_fills_its_own_evidence_in() -> None:
    judged = Judged(verdict=Verdict.CORRECT)
    assert type(judged.evidence) is Evidence
    RepairEvidence.on(judged).quality = QUALITY
    assert isinstance(judged.evidence, RepairEvidence) and judged.evidence.quality == QUALITY
