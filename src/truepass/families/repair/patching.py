"""A repair answer applied to its sample: the generic patcher with repair's test side."""

from __future__ import annotations

from truepass.answers import Answer
from truepass.families.repair.schema import RepairSample, is_test_or_runner_file
from truepass.patches.apply import AppliedPatch, apply_answer


def apply_to_sample(sample: RepairSample, answer: Answer) -> AppliedPatch:
    """:func:`apply_answer` for a sample: its code, its visible tests, all its test paths."""
    return apply_answer(
        sample.files,
        sample.tests.visible,
        answer,
        test_paths=set(sample.test_files),
        is_test_file=is_test_or_runner_file,
    )
