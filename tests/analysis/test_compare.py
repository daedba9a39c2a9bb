"""compare_runs on hand-written results.jsonl files, checked against statsmodels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from results_helpers import record, write_pair, write_run
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from truepass.analysis.compare import Comparison, Excluded, compare_runs
from truepass.analysis.stats import paired_bootstrap_ci
from truepass.errors import InputError


def _wilson(k: float, n: int) -> list[float]:
    return list(proportion_confint(k, n, method="wilson"))


def test_pair_numbers_match_statsmodels(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    c = compare_runs([a, b], bootstrap=2000, seed=3)
    assert [arm.name for arm in c.arms] == ["model-x", "model-y"]
    assert (c.bootstrap, c.seed, c.metric) == (2000, 3, "correct")
    (pair,) = c.pairs
    g = pair.overall
    assert (pair.a, pair.b, g.n) == ("model-x", "model-y", 9)
    assert g.rate_a == pytest.approx(6 / 9) and g.rate_b == pytest.approx(4 / 9)
    assert g.rate_a_ci == pytest.approx(_wilson(6, 9))
    assert g.rate_b_ci == pytest.approx(_wilson(4, 9))
    assert g.difference == pytest.approx(2 / 9)
    t = g.correct
    assert (t.both, t.a_only, t.b_only, t.neither) == (2, 4, 2, 1)
    assert t.p_value == pytest.approx(mcnemar([[2, 4], [2, 1]], exact=True).pvalue)
    assert t.p_holm == t.p_value  # one comparison
    assert t.cohens_g == pytest.approx(4 / 6 - 0.5) and t.odds_ratio == 2.0
    p = g.plausible
    assert (p.both, p.a_only, p.b_only, p.neither) == (5, 2, 1, 1)
    assert p.p_value == pytest.approx(mcnemar([[5, 2], [1, 1]], exact=True).pvalue)
    # the difference interval is the seeded paired bootstrap of the same 0/1 vectors
    ids = [f"s0{i}" for i in range(1, 10)]
    xa = [1.0 if i in {"s01", "s02", "s03", "s04", "s05", "s08"} else 0.0 for i in ids]
    xb = [1.0 if i in {"s01", "s05", "s06", "s09"} else 0.0 for i in ids]
    assert g.difference_ci == pytest.approx(
        list(paired_bootstrap_ci(xa, xb, resamples=2000, seed=3) or ())
    )
    lo, hi = g.difference_ci or (0, 0)
    assert lo < 2 / 9 < hi


def test_invalid_and_unpaired_samples_are_listed(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    (pair,) = compare_runs([a, b], bootstrap=200).pairs
    both_invalid = {"model-x": "invalid-sample", "model-y": "invalid-sample"}
    assert pair.excluded == [
        Excluded(sample_id="s10", reasons=both_invalid),
        Excluded(sample_id="s11", reasons={"model-y": "missing"}),
        Excluded(sample_id="s12", reasons={"model-x": "infra-error"}),
        Excluded(sample_id="s13", reasons={"model-x": "missing"}),
    ]  # fmt: skip
    arm_a = compare_runs([a, b], bootstrap=200).arms[0]
    assert arm_a.invalid_samples == ["s10"] and arm_a.infra_errors == ["s12"]
    assert arm_a.samples == 12 and arm_a.suites == ["mini"]


def test_breakdowns_per_defect_type_and_leakage_tier(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    (pair,) = compare_runs([a, b], bootstrap=200).pairs
    # odd ids off-by-one (s01 s03 s05 s07 s09), even wrong-op (s02 s04 s06 s08)
    assert set(pair.by_defect_type) == {"off-by-one", "wrong-op"}
    odd = pair.by_defect_type["off-by-one"]
    assert odd.n == 5 and odd.rate_a == pytest.approx(3 / 5) and odd.rate_b == pytest.approx(3 / 5)
    assert (odd.correct.a_only, odd.correct.b_only) == (1, 1)  # s03 / s09
    even = pair.by_defect_type["wrong-op"]
    assert even.n == 4 and (even.correct.a_only, even.correct.b_only) == (3, 1)
    assert even.rate_a_ci == pytest.approx(_wilson(3, 4))
    # multiples of 3 are private (s03 s06 s09)
    assert pair.by_leakage["private"].n == 3 and pair.by_leakage["public-old"].n == 6
    assert sum(g.n for g in pair.by_leakage.values()) == pair.overall.n


def test_plausible_metric(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    g = compare_runs([a, b], metric="plausible", bootstrap=200).pairs[0].overall
    assert g.rate_a == pytest.approx(7 / 9) and g.rate_b == pytest.approx(6 / 9)
    assert g.rate_a_ci == pytest.approx(_wilson(7, 9))


def test_three_arms_get_holm_adjusted_p_values(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    verdicts = ["fails-visible"] * 9
    c_run = write_run(tmp_path, "run-c", [record(f"s0{i + 1}", v, solver="noop")
                                          for i, v in enumerate(verdicts)])  # fmt: skip
    c = compare_runs([a, b, c_run], bootstrap=200)
    assert [(p.a, p.b) for p in c.pairs] == [
        ("model-x", "model-y"), ("model-x", "noop"), ("model-y", "noop")
    ]  # fmt: skip
    for metric in ("correct", "plausible"):
        raw = [getattr(p.overall, metric).p_value for p in c.pairs]
        adjusted = [getattr(p.overall, metric).p_holm for p in c.pairs]
        assert adjusted == pytest.approx(list(multipletests(raw, method="holm")[1]))
    assert c.pairs[1].overall.correct.p_value == pytest.approx(
        mcnemar([[0, 6], [0, 3]], exact=True).pvalue
    )


def test_same_solver_in_two_runs_is_named_by_directory(tmp_path: Path) -> None:
    a = write_run(tmp_path, "monday", [record("s01", "correct"), record("s02", "broken")])
    b = write_run(tmp_path, "tuesday", [record("s01", "correct"), record("s02", "correct")])
    c = compare_runs([a, b], bootstrap=200)
    assert [arm.name for arm in c.arms] == ["monday/model-x", "tuesday/model-x"]
    assert c.leakage == []  # same suite: no leakage probe


def test_several_attempts_use_the_mean_for_rates_and_attempt_0_for_mcnemar(
    tmp_path: Path,
) -> None:
    recs_a = [
        record("s01", "correct", attempt=0), record("s01", "fails-visible", attempt=1),
        record("s02", "broken", attempt=0), record("s02", "correct", attempt=1),
        record("s03", "correct", attempt=0), record("s03", "infra-error", attempt=1),
    ]  # fmt: skip
    recs_b = [record(s, "fails-visible", solver="model-y") for s in ("s01", "s02", "s03")]
    c = compare_runs([write_run(tmp_path, "a", recs_a), write_run(tmp_path, "b", recs_b)],
                     bootstrap=200)  # fmt: skip
    g = c.pairs[0].overall
    # per-sample means 0.5, 0.5, 1.0 (the infra error does not count)
    assert g.rate_a == pytest.approx(2 / 3) and g.rate_a_ci == pytest.approx(_wilson(2, 3))
    assert (g.correct.a_only, g.correct.b_only) == (2, 0)  # attempt 0: s01, s03


def test_leakage_probe_reports_the_drop_original_minus_obfuscated(tmp_path: Path) -> None:
    ids = [f"s{i:02d}" for i in range(1, 21)]
    orig = [record(s, "correct" if i < 14 else "fails-visible", solver="llm")
            for i, s in enumerate(ids)]  # fmt: skip
    obf = [record(s, "correct" if i < 6 else "fails-visible", solver="llm",
                  suite="mini+obfuscated") for i, s in enumerate(ids)]  # fmt: skip
    d_orig, d_obf = write_run(tmp_path, "plain", orig), write_run(tmp_path, "obf", obf)
    c = compare_runs([d_obf, d_orig], bootstrap=2000)  # obfuscated first: still oriented
    (probe,) = c.leakage
    assert (probe.solver, probe.suite) == ("llm", "mini")
    assert (probe.original, probe.obfuscated) == ("plain/llm", "obf/llm")
    assert probe.n == 20 and probe.drop == pytest.approx(14 / 20 - 6 / 20)
    assert probe.drop_ci is not None and 0 < probe.drop_ci[0] < 0.4 < probe.drop_ci[1]
    assert probe.overall.correct.a_only == 8 and probe.overall.correct.b_only == 0
    assert probe.overall.correct.p_value == pytest.approx(2 / 2**8)
    assert c.pairs[0].overall.difference == pytest.approx(-0.4)  # the pair keeps argument order
    assert set(probe.by_leakage) == {"private", "public-old"}


def test_comparison_round_trips_through_json(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    c = compare_runs([a, b], bootstrap=200)
    again = Comparison.model_validate(json.loads(c.model_dump_json()))
    assert again == c


def test_bad_input_names_the_problem(tmp_path: Path) -> None:
    a, _ = write_pair(tmp_path)
    with pytest.raises(InputError, match="no such run directory"):
        compare_runs([a, tmp_path / "nope"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"no results\.jsonl"):
        compare_runs([a, tmp_path / "empty"])
    bad = write_run(tmp_path, "bad", [record("s01", "correct")])
    with (bad / "results.jsonl").open("a") as fh:
        fh.write('{"sample_id": "s02"}\n')
    with pytest.raises(InputError) as info:
        compare_runs([a, bad])
    assert info.value.location == f"{bad / 'results.jsonl'}:2"
    (bad / "results.jsonl").write_text(record("s01", "correct").model_dump_json() + "\n{oops\n")
    with pytest.raises(InputError, match=r"results\.jsonl:2"):
        compare_runs([a, bad])
    dup = write_run(tmp_path, "dup", [record("s01", "correct"), record("s01", "broken")])
    with pytest.raises(InputError, match="appears twice") as info:
        compare_runs([a, dup])
    assert info.value.location == f"{dup / 'results.jsonl'}:2"
    private = write_run(tmp_path, "private", [record("s03", "correct"), record("s06", "broken")])
    with pytest.raises(InputError, match="at least two arms"):
        compare_runs([private])  # one arm, and no public samples to contrast its private ones with
    with pytest.raises(InputError, match="given twice"):
        compare_runs([a, a])
    (tmp_path / "blank").mkdir()
    (tmp_path / "blank" / "results.jsonl").write_text("\n")
    with pytest.raises(InputError, match="no attempts"):
        compare_runs([a, tmp_path / "blank"])
