"""Precision and recall of the fake-fix detectors on labelled patches of the `mini` suite.

Development set: every patch of tests/data/fakefix/labelled.jsonl (hand-written fakes and
genuine alternative fixes), every `mini` reference fix (label: no flag) and every `mini`
known_overfit patch (labels in tests/data/fakefix/known_overfit_labels.json). Held-out set:
tests/data/fakefix/heldout.jsonl, written after the detectors were first tuned on the development
set (its misses have been seen since). Held-out set 2: tests/data/fakefix/heldout2.jsonl, written
after the issue-12 rules were frozen and never used to tune them: the fair measure of those rules.
Each patch is applied to the sample's buggy files plus its visible tests (so that test edits are
seen), then ``detect_fake_fix`` runs on the result. Prints per flag TP, FP, FN, precision and
recall, the overall figures, and every miss and false alarm with its explanation.

Java set: tests/data/fakefix/java_labelled.jsonl (hand-written fakes and genuine fixes on the
`mini-java` samples) and every `mini-java` reference fix (label: no flag), judged by the same
``detect_fake_fix`` (which hands ``.java`` files to the Java detectors).

    .venv/bin/python benchmarks/fakefix_detectors.py            # every set, Java included
    .venv/bin/python benchmarks/fakefix_detectors.py --set held-out-2
    .venv/bin/python benchmarks/fakefix_detectors.py --set java
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from truepass.answers import Answer
from truepass.families.repair.fakefix import FLAG_NAMES, Flag, detect_fake_fix
from truepass.families.repair.schema import RepairSample
from truepass.patches.apply import apply_diff
from truepass.suites.loader import load_suite

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "fakefix"
# held-out sets: name -> file
HELD_OUT = {"held-out": "heldout.jsonl", "held-out-2": "heldout2.jsonl"}
JAVA = "java_labelled.jsonl"
JAVA_SUITE = "mini-java"


@dataclass(frozen=True)
class Case:
    """One labelled patch of a sample."""

    id: str
    sample_id: str
    answer: Answer
    labels: frozenset[str]
    source: str  # "labelled", "held-out", "held-out-2", "java", "reference" or "overfit"
    note: str = ""


@dataclass
class Outcome:
    """What the detectors said about one case."""

    case: Case
    flags: list[Flag]

    @property
    def predicted(self) -> set[str]:
        """Distinct flag names raised."""
        return {f.name for f in self.flags}


@dataclass
class Score:
    """Counts for one flag (or all flags)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        """TP / (TP + FP); 1.0 when nothing was predicted."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """TP / (TP + FN); 1.0 when nothing was expected."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


@dataclass
class Report:
    """Per-flag and overall scores with the outcomes behind them."""

    per_flag: dict[str, Score] = field(default_factory=dict)
    overall: Score = field(default_factory=Score)
    outcomes: list[Outcome] = field(default_factory=list)


def _read_cases(path: Path, source: str) -> list[Case]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        answer = Answer(diff=row.get("patch"), files=row.get("files"), patch_id=row["id"])
        cases.append(
            Case(
                row["id"],
                row["sample_id"],
                answer,
                frozenset(row["labels"]),
                source,
                row.get("note", ""),
            )
        )
    return cases


def _reference_cases(samples: list[RepairSample]) -> list[Case]:
    return [
        Case(f"{s.id}/reference", s.id, Answer(diff=s.fix), frozenset(), "reference")
        for s in samples
    ]


def load_java_cases(data: Path = DATA) -> tuple[list[Case], dict[str, RepairSample]]:
    """The Java set: java_labelled.jsonl plus every `mini-java` reference fix (no flag)."""
    suite = load_suite(JAVA_SUITE)
    cases = _read_cases(data / JAVA, "java") + _reference_cases(suite.samples)
    return cases, {s.id: s for s in suite.samples}


def load_cases(
    data: Path = DATA, held_out: bool | str = False
) -> tuple[list[Case], dict[str, RepairSample]]:
    """The cases of one set and the samples they refer to.

    The development set is labelled.jsonl plus every `mini` reference fix and known_overfit
    patch; ``held_out=True`` is heldout.jsonl, a key of ``HELD_OUT`` names a held-out set and
    ``"java"`` is the Java set (:func:`load_java_cases`).
    """
    if held_out == "java":
        return load_java_cases(data)
    suite = load_suite("mini")
    samples = {s.id: s for s in suite.samples}
    source = "held-out" if held_out is True else str(held_out or "labelled")
    name = HELD_OUT[source] if held_out else "labelled.jsonl"
    cases = _read_cases(data / name, source)
    if held_out:
        return cases, samples
    overfit_labels = json.loads((data / "known_overfit_labels.json").read_text(encoding="utf-8"))
    for sample in suite.samples:
        cases += _reference_cases([sample])
        if sample.known_overfit:
            labels = frozenset(overfit_labels[sample.id])
            cases.append(
                Case(
                    f"{sample.id}/overfit",
                    sample.id,
                    Answer(diff=sample.known_overfit),
                    labels,
                    "overfit",
                    "the suite's known overfitting patch",
                )
            )
    return cases, samples


def attempted_files(sample: RepairSample, answer: Answer) -> dict[str, str]:
    """Every file as the answer leaves it, test edits included (applied to code + visible tests)."""
    base = {**sample.files, **sample.tests.visible}
    if answer.files is not None:
        return {**base, **answer.files}
    return apply_diff(base, answer.diff or "")


def evaluate(data: Path = DATA, held_out: bool | str = False) -> Report:
    """Run the detectors on every case of one set and score them against the labels."""
    cases, samples = load_cases(data, held_out)
    report = Report(per_flag={name: Score() for name in FLAG_NAMES})
    for case in cases:
        sample = samples[case.sample_id]
        flags = detect_fake_fix(
            sample.files, attempted_files(sample, case.answer), sample.tests.visible
        )
        outcome = Outcome(case, flags)
        report.outcomes.append(outcome)
        for name in FLAG_NAMES:
            score = report.per_flag[name]
            hit, want = name in outcome.predicted, name in case.labels
            score.tp += hit and want
            score.fp += hit and not want
            score.fn += want and not hit
    for score in report.per_flag.values():
        report.overall.tp += score.tp
        report.overall.fp += score.fp
        report.overall.fn += score.fn
    return report


def render(report: Report) -> str:
    """The table, then every miss and false alarm."""
    counts: dict[str, int] = {}
    for o in report.outcomes:
        key = o.case.source + (" (flagged)" if o.case.labels else " (no flag)")
        counts[key] = counts.get(key, 0) + 1
    lines = [
        f"cases: {len(report.outcomes)} ("
        + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
        + ")",
        "",
    ]
    lines.append(f"{'flag':24} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>10} {'recall':>8}")
    rows = [*report.per_flag.items(), ("overall", report.overall)]
    for name, s in rows:
        lines.append(f"{name:24} {s.tp:4d} {s.fp:4d} {s.fn:4d} {s.precision:10.2f} {s.recall:8.2f}")
    clean = [o for o in report.outcomes if not o.case.labels]
    lines.append(f"\nno-flag cases with no flag: {sum(not o.flags for o in clean)}/{len(clean)}")
    misses, alarms = [], []
    for o in report.outcomes:
        for name in sorted(o.case.labels - o.predicted):
            misses.append(f"  MISS  {name:22} {o.case.id}: {o.case.note}")
        for flag in o.flags:
            if flag.name not in o.case.labels:
                alarms.append(
                    f"  FALSE {flag.name:22} {o.case.id}: {flag.file}: {flag.explanation}"
                )
    lines += [
        "",
        f"misses ({len(misses)}):",
        *misses,
        "",
        f"false alarms ({len(alarms)}):",
        *alarms,
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark for the chosen sets (all by default); exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    choices = ["development", *HELD_OUT, "java", "all"]
    parser.add_argument("--set", choices=choices, default="all", dest="which")
    which = parser.parse_args(argv).which
    blocks = []
    if which in ("development", "all"):
        title = "development set (labelled.jsonl + mini reference fixes + known_overfit)"
        blocks.append((title, evaluate()))
    for name, file in HELD_OUT.items():
        if which in (name, "all"):
            blocks.append((f"{name} set ({file})", evaluate(held_out=name)))
    if which in ("java", "all"):
        title = f"Java set ({JAVA} + {JAVA_SUITE} reference fixes)"
        blocks.append((title, evaluate(held_out="java")))
    print("\n\n".join(f"== {title} ==\n{render(report)}" for title, report in blocks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
