"""Reports of runs with many attempts per sample: grouped per sample, small, still complete."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_runs import LLM, many_samples_records, varied_run, write_run

from truepass.metrics.passk import pass_at_k
from truepass.records import AttemptRecord
from truepass.report import groups, load_runs, render_report
from truepass.report.groups import group_attempts, number_ranges
from truepass.report.load import all_attempts


def test_number_ranges() -> None:
    assert number_ranges([]) == ""
    assert number_ranges([4, 0, 1, 2, 9, 10]) == "0-2, 4, 9-10"
    assert number_ranges([3]) == "3"


@pytest.fixture
def large(tmp_path: Path) -> Path:
    return write_run(tmp_path / "large", many_samples_records(samples=12, n=200))


def test_groups_count_every_attempt_and_page_the_first_of_each_outcome(large: Path) -> None:
    attempts = all_attempts(load_runs([large]))
    found, paged = group_attempts(attempts, page_limit=10_000)
    assert len(found) == 24  # 12 samples x 2 solvers
    assert sum(g.attempts for g in found) == len(attempts) == 4800
    for g in found:
        assert sum(len(o.attempts) for o in g.outcomes) == g.attempts
        numbers = sorted(n for o in g.outcomes for n in o.attempts)
        assert numbers == list(range(200))
        # the outcomes are distinct and the most common comes first
        keys = [(o.verdict, tuple(o.flags), o.visible, o.hidden) for o in g.outcomes]
        assert len(set(keys)) == len(keys)
        assert [len(o.attempts) for o in g.outcomes] == sorted(
            (len(o.attempts) for o in g.outcomes), reverse=True
        )
        assert all(o.page is not None for o in g.outcomes)
    # the flagged correct attempts of the model are not counted as correct in pass@k
    model = next(g for g in found if g.solver == LLM and g.sample_id == "mini-000")
    flagged = next(o for o in model.outcomes if o.flags)
    assert flagged.verdict == "correct" and len(flagged.attempts) == 4
    assert (
        model.correct == sum(len(o.attempts) for o in model.outcomes if o.verdict == "correct") - 4
    )
    assert model.pass_at(10) == pytest.approx(pass_at_k(200, model.correct, 10))
    assert model.pass_at(201) is None
    assert len(paged) == sum(len(g.outcomes) for g in found)


def test_pages_stop_at_the_limit_most_common_outcomes_first(large: Path) -> None:
    attempts = all_attempts(load_runs([large]))
    found, paged = group_attempts(attempts, page_limit=30)
    assert len(paged) == 30
    # every group's most common outcome has its page before any group's second outcome
    assert all(g.outcomes[0].page is not None for g in found)
    assert [a.index for a in paged] == sorted(a.index for a in paged)
    assert sum(o.page is not None for g in found for o in g.outcomes) == 30


def test_large_report_is_grouped_small_and_says_so(
    large: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(groups, "PAGE_LIMIT", 40)
    html = render_report([large])
    assert html.count('<section id="sample-') == 24
    assert html.count('<section id="attempt-') == 40
    assert "4800 attempts, more than 40: one row per sample and solver" in html
    assert 'data-noun="samples"' in html and ">24 samples<" in html
    assert "pass@100" in html  # the largest k the solvers report, as a column
    assert 'data-verdict="correct fails-visible"' in html  # a row names every verdict it has
    assert "0-2, 4-9" in html  # fails-visible at 3 and 10: attempt numbers as ranges
    # the same run below the limit: a row and a page per attempt, no sample pages
    monkeypatch.setattr(groups, "PAGE_LIMIT", 10_000)
    full = render_report([large])
    assert full.count('<section id="attempt-') == 4800 and '<section id="sample-' not in full
    assert len(html) < len(full) / 10


def test_small_report_is_unchanged(tmp_path: Path) -> None:
    html = render_report([varied_run(tmp_path / "run")])
    assert '<section id="sample-' not in html and 'data-noun="attempts"' in html


def test_records_already_read_are_used_as_given(large: Path) -> None:
    given = [AttemptRecord.model_validate(r) for r in many_samples_records(samples=1, n=3)]
    runs = load_runs([large], {large: given})
    assert [a.record for a in runs[0].attempts] == given
