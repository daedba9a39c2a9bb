"""compare across languages: a run on a Python suite and one on a Java suite, paired by program.

The suites are written here (small, valid samples from tests/factories.py, with QuixBugs-style ids
and ``meta.program``); each run directory gets the manifest.json a run writes, naming its suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from factories import sample_dict, write_suite
from results_helpers import record, write_run
from scipy.stats import binomtest
from typer.testing import CliRunner

from truepass.analysis.compare import Comparison, Excluded, compare_runs
from truepass.analysis.crosslang import program_key
from truepass.cli.compare import compare_cmd
from truepass.records import AttemptRecord
from truepass.suites.loader import load_suite
from truepass.vocabulary import FAKE_FIX_FLAGS

JAVA_CODE = "package java_programs;\n\npublic class {name} {{\n    int x = 1;\n}}\n"
JAVA_TEST = "package java_testcases.junit;\n\npublic class {name}_TEST {{\n}}\n"
JAVA_FIX = """--- a/java_programs/{name}.java
+++ b/java_programs/{name}.java
@@ -3,3 +3,3 @@
 public class {name} {{
-    int x = 1;
+    int x = 2;
 }}
"""

# program -> (Python verdict, Java verdict) of solver model-x, attempt 0
OUTCOMES = {
    "gcd": ("correct", "correct"),  # both
    "lis": ("correct", "correct"),
    "sqrt": ("correct", "correct"),
    "bitcount": ("correct", "broken"),  # Python only
    "hanoi": ("correct", "fails-visible"),
    "kth": ("correct", "overfit"),
    "pascal": ("correct", "plausible"),
    "quicksort": ("correct", "broken"),
    "flatten": ("broken", "correct"),  # Java only
    "knapsack": ("broken", "broken"),  # neither
    "wrap": ("broken", "correct+flag"),  # Java's "correct" carries a fake-fix flag: not fixed
    "shunting_yard": ("correct", "invalid-sample"),  # excluded, not unpaired
}
PY_ONLY = ["py_only"]  # programs the Java suite lacks
JAVA_ONLY = ["JAVA_ONLY"]  # and the Python suite
ORPHAN = "quixbugs-java-ORPHAN"  # a Java sample without meta.program: paired by id only


def _py_sample(program: str) -> dict[str, Any]:
    return sample_dict(id=f"quixbugs-{program}", meta={"program": program})


def _java_sample(name: str, *, program: bool = True) -> dict[str, Any]:
    return sample_dict(
        id=f"quixbugs-java-{name}",
        language="java",
        files={f"java_programs/{name}.java": JAVA_CODE.format(name=name)},
        tests={"visible": {f"java_testcases/junit/{name}_TEST.java": JAVA_TEST.format(name=name)}},
        fix=JAVA_FIX.format(name=name),
        fault=[{"file": f"java_programs/{name}.java", "lines": [4]}],
        known_overfit=None,
        meta={"program": name} if program else {},
    )


def _suite(root: Path, name: str, samples: list[dict[str, Any]]) -> tuple[Path, str]:
    d = root / "suites" / name
    d.mkdir(parents=True)
    write_suite(d / "suite.jsonl", samples)
    (d / "suite.toml").write_text(f'name = "{name}"\nversion = "1"\n', encoding="utf-8")
    return d, load_suite(d).content_hash


def _run(root: Path, name: str, suite: tuple[Path, str], records: list[AttemptRecord]) -> Path:
    run = write_run(root, name, records)
    path, content_hash = suite
    manifest = {"suite": {"name": path.name, "path": str(path), "content_hash": content_hash,
                          "family": "repair", "samples": 0}}  # fmt: skip
    (run / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return run


def _verdict(sample_id: str, verdict: str, solver: str, suite: str) -> AttemptRecord:
    flags = [FAKE_FIX_FLAGS[0]] if verdict.endswith("+flag") else []
    return record(sample_id, verdict.removesuffix("+flag"), solver=solver, suite=suite,
                  flags=flags)  # fmt: skip


def write_language_pair(root: Path, *, second_solver: bool = False) -> tuple[Path, Path]:
    """run-py (model-x, and model-y with ``second_solver``) on quixbugs, run-java (model-x) on
    quixbugs-java."""
    py_suite = _suite(root, "quixbugs", [_py_sample(p) for p in [*OUTCOMES, *PY_ONLY]])
    java_names = [p.upper() for p in OUTCOMES] + JAVA_ONLY
    java_suite = _suite(
        root,
        "quixbugs-java",
        [_java_sample(n) for n in java_names] + [_java_sample("ORPHAN", program=False)],
    )
    py = [_verdict(f"quixbugs-{p}", v, "model-x", "quixbugs") for p, (v, _) in OUTCOMES.items()]
    py += [_verdict(f"quixbugs-{p}", "correct", "model-x", "quixbugs") for p in PY_ONLY]
    if second_solver:
        py += [_verdict(f"quixbugs-{p}", "broken", "model-y", "quixbugs") for p in OUTCOMES]
    java = [
        _verdict(f"quixbugs-java-{p.upper()}", v, "model-x", "quixbugs-java")
        for p, (_, v) in OUTCOMES.items()
    ]
    java += [_verdict(f"quixbugs-java-{n}", "correct", "model-x", "quixbugs-java")
             for n in [*JAVA_ONLY, "ORPHAN"]]  # fmt: skip
    return _run(root, "run-py", py_suite, py), _run(root, "run-java", java_suite, java)


def test_program_key_is_meta_program_casefolded_or_the_id() -> None:
    assert program_key("quixbugs-gcd", {"program": "gcd"}) == "gcd"
    assert program_key("quixbugs-java-GCD", {"program": "GCD"}) == "gcd"
    assert program_key("quixbugs-java-GCD", {"upstream_name": "GCD"}) == "quixbugs-java-GCD"
    assert program_key("s1", None) == program_key("s1", {"program": "  "}) == "s1"


def test_runs_in_two_languages_pair_by_program(tmp_path: Path) -> None:
    py, java = write_language_pair(tmp_path)
    c = compare_runs([py, java], bootstrap=200)
    assert [(a.name, a.languages) for a in c.arms] == [
        ("run-py/model-x", ["python"]),
        ("run-java/model-x", ["java"]),
    ]
    assert c.notes == []
    (pair,) = c.pairs
    assert pair.overall.n == 11  # the 12 shared programs, less shunting_yard (invalid in Java)
    (lang,) = c.across_languages
    assert (lang.solver, lang.a, lang.b) == ("model-x", "run-py/model-x", "run-java/model-x")
    assert (lang.language_a, lang.language_b, lang.n) == ("python", "java", 11)
    assert lang.both == ["gcd", "lis", "sqrt"]
    assert lang.a_only == ["bitcount", "hanoi", "kth", "pascal", "quicksort"]
    assert lang.b_only == ["flatten"]
    assert lang.neither == ["knapsack", "wrap"]  # wrap: a flagged "correct" is not fixed
    # the paired test over programs is the pair's exact McNemar test
    t = lang.test
    assert (t.both, t.a_only, t.b_only, t.neither) == (3, 5, 1, 2)
    assert t == pair.overall.correct
    assert t.p_value == pytest.approx(binomtest(5, 6, 0.5).pvalue)
    assert t.p_value == pytest.approx(14 / 64)
    # present in one language only: listed, not dropped
    assert lang.unpaired_a == ["quixbugs-py_only"]
    assert lang.unpaired_b == ["quixbugs-java-JAVA_ONLY", ORPHAN]
    assert pair.excluded == [
        Excluded(sample_id="quixbugs-java-JAVA_ONLY", program="java_only",
                 reasons={"run-py/model-x": "missing"}),
        Excluded(sample_id="quixbugs-py_only", program="py_only",
                 reasons={"run-java/model-x": "missing"}),
        Excluded(sample_id=ORPHAN, program=ORPHAN, reasons={"run-py/model-x": "missing"}),
        Excluded(sample_id="quixbugs-shunting_yard", program="shunting_yard",
                 reasons={"run-java/model-x": "invalid-sample"}),
    ]  # fmt: skip


def test_only_solvers_run_in_both_languages_are_listed(tmp_path: Path) -> None:
    py, java = write_language_pair(tmp_path, second_solver=True)
    c = compare_runs([py, java], bootstrap=200)
    assert len(c.pairs) == 3  # model-x/model-y in Python, each against model-x in Java
    (lang,) = c.across_languages
    assert lang.solver == "model-x" and lang.a == "run-py/model-x"
    # model-y (Python) against model-x (Java) is also paired by program, in the general table
    cross = next(p for p in c.pairs if p.a == "run-py/model-y")
    assert cross.overall.n == 11 and cross.overall.correct.b_only == 4
    # the Holm adjustment runs over the three pairs, as for any pairs of arms
    assert lang.test.p_holm >= lang.test.p_value


def test_order_of_runs_orients_the_languages(tmp_path: Path) -> None:
    py, java = write_language_pair(tmp_path)
    (lang,) = compare_runs([java, py], bootstrap=200).across_languages
    assert (lang.language_a, lang.language_b) == ("java", "python")
    assert lang.a_only == ["flatten"] and len(lang.b_only) == 5
    assert lang.unpaired_a == ["quixbugs-java-JAVA_ONLY", ORPHAN]


def test_unreadable_suite_is_noted_and_pairs_by_id(tmp_path: Path) -> None:
    py, java = write_language_pair(tmp_path)
    manifest = json.loads((java / "manifest.json").read_text())
    manifest["suite"]["path"] = str(tmp_path / "gone")
    manifest["suite"]["name"] = "gone"
    (java / "manifest.json").write_text(json.dumps(manifest))
    c = compare_runs([py, java], bootstrap=200)
    assert c.across_languages == [] and c.arms[1].languages == []
    assert c.pairs == []  # ids differ: the arms share no sample, so they are not paired
    note, unpaired = c.notes
    assert str(java) in note and "cannot be read" in note and "paired by sample id" in note
    assert unpaired == f"{c.arms[0].name} and {c.arms[1].name} share no sample: not paired"


def test_runs_on_one_suite_do_not_read_it(tmp_path: Path) -> None:
    py, _ = write_language_pair(tmp_path)
    other = write_run(tmp_path, "run-py2", [record("quixbugs-gcd", "broken", solver="model-z",
                                                   suite="quixbugs")])  # fmt: skip
    c = compare_runs([py, other], bootstrap=200)
    assert all(a.languages == [] for a in c.arms) and c.across_languages == []
    assert c.pairs[0].excluded[0].program is None


app = typer.Typer()
app.command("compare")(compare_cmd)


@app.callback()
def _root() -> None:  # a group, so the command is invoked by name as in the real app
    pass


def test_cli_prints_programs_fixed_in_one_language_and_writes_json(tmp_path: Path) -> None:
    py, java = write_language_pair(tmp_path)
    out = tmp_path / "cmp.json"
    got = CliRunner().invoke(app, ["compare", str(py), str(java), "--bootstrap", "200",
                                   "--json", str(out)])  # fmt: skip
    assert got.exit_code == 0, got.output
    text = got.output
    assert "across languages" in text
    assert "0.219" in text  # McNemar p over the programs
    flat = " ".join(text.split())
    assert (
        "model-x: correct in python only (run-py/model-x): 5: bitcount, hanoi, kth, pascal, "
        "quicksort" in flat
    )
    assert "model-x: correct in java only (run-java/model-x): 1: flatten" in flat
    assert "model-x: not paired, only in python: 1: quixbugs-py_only" in flat
    assert f"not paired, only in java: 2: quixbugs-java-JAVA_ONLY, {ORPHAN}" in flat
    assert "paired by program" in flat
    c = Comparison.model_validate(json.loads(out.read_text()))
    (lang,) = c.across_languages
    assert lang.b_only == ["flatten"] and lang.test.a_only == 5


def test_a_program_shared_by_two_samples_of_one_arm_is_left_out(tmp_path: Path) -> None:
    twice = sample_dict(id="quixbugs-gcd-2", meta={"program": "gcd"})
    py = _suite(tmp_path, "py", [_py_sample("gcd"), _py_sample("lis"), twice])
    java = _suite(tmp_path, "java", [_java_sample("GCD"), _java_sample("LIS")])
    py_ids = ("quixbugs-gcd", "quixbugs-gcd-2", "quixbugs-lis")
    a = _run(tmp_path, "a", py, [_verdict(s, "correct", "m", "py") for s in py_ids])
    java_ids = ("quixbugs-java-GCD", "quixbugs-java-LIS")
    b = _run(tmp_path, "b", java, [_verdict(s, "broken", "m", "java") for s in java_ids])
    c = compare_runs([a, b], bootstrap=200)
    (lang,) = c.across_languages
    assert lang.n == 1 and lang.a_only == ["lis"]
    assert c.pairs[0].excluded == [
        Excluded(sample_id="quixbugs-gcd", program="gcd", reasons={"a/m": "duplicate-program"}),
        Excluded(sample_id="quixbugs-gcd-2", program="gcd", reasons={"a/m": "duplicate-program"}),
    ]
