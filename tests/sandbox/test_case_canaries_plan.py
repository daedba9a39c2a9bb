"""The execution pool's canary cases on decoded responses made here (no sandbox): where they go,
how their outcomes are taken out, which outcomes are lies."""

from __future__ import annotations

from truepass.sandbox.casecanaries import CanaryPlan, CaseCanary, draw
from truepass.sandbox.verdict import Case, Decoded, Outcome


def plan(cases: int = 3) -> CanaryPlan:
    """A value canary before candidate case 1 and a raising one before case 2 (indices 1, 3)."""
    return CanaryPlan(cases, (CaseCanary(1, "value", 12345, "abc"), CaseCanary(3, "raise", 7, "q")))


def honest(p: CanaryPlan, values: list[object]) -> list[Outcome]:
    """What an honest child reports for ``values`` with ``p``'s canaries among them."""
    mine = iter(values)
    out: list[Outcome] = []
    for index in range(p.cases + len(p.canaries)):
        canary = next((c for c in p.canaries if c.index == index), None)
        if canary is None:
            out.append(Outcome(index, "value", value=next(mine), output=f"o{index}"))
            continue
        kind, want = canary.expected()
        if kind == "value":
            out.append(Outcome(index, "value", value=want))
        else:
            out.append(Outcome(index, "exc", error=str(want)))
    return out


def test_weave_puts_each_canary_at_its_index() -> None:
    p = plan()
    sent = p.weave([Case([i], i) for i in range(3)])
    assert [c.args for c in sent] == [[0], [12345, "abc"], [1], [7, "q"], [2]]
    assert p.payload() == [[1, "value"], [3, "raise"]]


def test_honest_outcomes_are_taken_out_and_the_rest_renumbered() -> None:
    p = plan()
    rest, lies = p.take(Decoded(outcomes=honest(p, ["a", "b", "c"])))
    assert lies == []
    assert [(o.index, o.value, o.output) for o in rest.outcomes] == [
        (0, "a", "o0"), (1, "b", "o2"), (2, "c", "o4"),
    ]  # fmt: skip


def test_output_written_during_a_canary_goes_to_the_next_case() -> None:
    p = plan()
    outcomes = honest(p, ["a", "b", "c"])
    outcomes[1] = Outcome(1, "value", value=outcomes[1].value, output="thread noise ")
    rest, lies = p.take(Decoded(outcomes=outcomes))
    assert lies == [] and rest.outcomes[1].output == "thread noise o2"


def test_every_case_reporting_the_same_value_is_caught_by_both_canaries() -> None:
    p = plan()
    forged = [Outcome(i, "value", value=True) for i in range(5)]
    rest, lies = p.take(Decoded(outcomes=forged))
    assert len(rest.outcomes) == 3 and all(o.value is True for o in rest.outcomes)
    assert len(lies) == 2
    assert lies[0].startswith("the canary case at position 1 must return [12345, -12345")
    assert lies[0].endswith("and reported the value True")
    assert lies[1] == (
        "the canary case at position 3 must raise LookupError: q:7 and reported the value True"
    )


def test_a_wrong_exception_or_message_is_a_lie_but_running_out_of_memory_is_not() -> None:
    p = plan()
    outcomes = honest(p, ["a", "b", "c"])
    outcomes[3] = Outcome(3, "exc", error="LookupError: q:8")
    assert len(p.take(Decoded(outcomes=outcomes))[1]) == 1
    outcomes[3] = Outcome(3, "exc", error="MemoryError: ")
    assert p.take(Decoded(outcomes=outcomes))[1] == []
    outcomes[1] = Outcome(1, "corrupt", error="result stream corrupted: x")
    assert "reported a corrupt result" in p.take(Decoded(outcomes=outcomes))[1][0]


def test_a_canary_missing_from_a_clean_run_is_a_lie_but_not_from_a_stopped_one() -> None:
    p = plan()
    outcomes = [o for o in honest(p, ["a", "b", "c"]) if o.index != 3]
    _, lies = p.take(Decoded(outcomes=outcomes))
    assert lies == ["the canary case at position 3 never reported, though every other case did"]
    stopped = [*honest(p, ["a", "b", "c"])[:2], Outcome(2, "exc", error="ValueError: x")]
    rest, lies = p.take(Decoded(outcomes=stopped))
    assert lies == [] and [o.kind for o in rest.outcomes] == ["value", "exc"]


def test_a_process_failing_in_a_canary_fails_the_next_case_and_is_no_lie() -> None:
    p = plan()
    outcomes = [
        *honest(p, ["a", "b", "c"])[:1],
        Outcome(1, "timeout", error="used more than 0.25 s"),
    ]
    rest, lies = p.take(Decoded(outcomes=outcomes))
    assert lies == []
    assert [(o.index, o.kind) for o in rest.outcomes] == [(0, "value"), (1, "timeout")]
    assert "in the harness's check: used more than 0.25 s" in (rest.outcomes[1].error or "")


def test_a_code_that_does_not_load_has_no_canaries_to_check() -> None:
    broken = Decoded(load="broken", load_error="SyntaxError")
    assert plan().take(broken) == (broken, [])


def test_a_final_canary_silenced_after_every_case_reported_is_a_lie_unless_it_timed_out() -> None:
    p = CanaryPlan(2, (CaseCanary(0, "raise", 3, "r"), CaseCanary(3, "value", 5, "v")))
    outcomes = honest(p, ["a", "b"])
    died = [*outcomes[:3], Outcome(3, "died", error="the process exited with status 0")]
    assert p.take(Decoded(outcomes=died))[1] == [
        "the canary case at position 3 ended with the process exited with status 0, though "
        "every other case did"
    ]
    timed_out = [*outcomes[:3], Outcome(3, "timeout", error="used more than 0.25 s")]
    rest, lies = p.take(Decoded(outcomes=timed_out))
    assert lies == [] and [o.kind for o in rest.outcomes] == ["value", "value"]


def test_draw_places_canaries_at_random_and_one_after_the_last_case() -> None:
    assert draw(0) is None
    plans = [draw(6) for _ in range(200)]
    layouts = set()
    for p in plans:
        assert p is not None and p.cases == 6
        assert sorted(c.kind for c in p.canaries) == ["raise", "value", "value"]
        assert (p.canaries[-1].index, p.canaries[-1].kind) == (8, "value")
        assert all(c.index < 8 for c in p.canaries[:-1])
        layouts.add(tuple((c.index, c.kind) for c in p.canaries))
    assert len(layouts) > 10
    assert len({c.x for p in plans if p for c in p.canaries}) > 590  # drawn per run


def test_a_moved_outcome_keeps_every_other_field() -> None:
    import dataclasses

    from truepass.sandbox.verdict import Outcome

    outcome = Outcome(3, "exc", value=[1], error="boom", output="x", duration_s=0.5, cpu_s=0.25)
    assert outcome.moved(1, "yx") == dataclasses.replace(outcome, index=1, output="yx")
    # every field is passed on: a new field left out of moved() makes this fail
    assert {f.name for f in dataclasses.fields(Outcome)} == {
        "index",
        "kind",
        "value",
        "error",
        "output",
        "duration_s",
        "cpu_s",
    }
