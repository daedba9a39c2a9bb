"""Prompted model solvers end to end: a real HTTP server speaking the OpenAI protocol, the real
sandbox and judge, the real response cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import FIXED, sample_dict, write_suite
from fake_openai import FakeOpenAI, ok, status

from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import LLMOptions, SolverOptions, make_solvers
from truepass.suites.loader import load_suite

CONFIG = JudgeConfig(limits=Limits(timeout_s=20), reruns=0)
GOOD = f"Here is the fix:\n\n```python\n{FIXED}```\n"
WRONG = "```python\n" + FIXED.replace("return hi", "return hi - 1") + "```\n"


def _setup(tmp_path: Path, server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, **kw: object):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    cfg = tmp_path / "models.toml"
    cfg.write_text('[models."openai:fake"]\nmax_retries = 1\nbackoff_base_s = 0.01\n'
                   "backoff_max_s = 0.02\ntimeout_s = 5\n")  # fmt: skip
    suite = load_suite(write_suite(tmp_path / "s.jsonl", [sample_dict()]))
    options = SolverOptions(
        models=LLMOptions(cache_path=tmp_path / "cache.sqlite", model_config=cfg, **kw)  # type: ignore[arg-type]
    )
    return suite, options


def _records(out: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


def test_model_fix_is_judged_and_a_rerun_makes_no_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI([ok(GOOD)]) as server:
        suite, options = _setup(tmp_path, server, monkeypatch)
        solvers = make_solvers(["openai:fake"], options=options)
        assert [s.name for s in solvers] == ["openai:fake#code-only"]
        first = run(suite, solvers, tmp_path / "a", config=CONFIG)
        rec = _records(tmp_path / "a")[0]
        assert rec["verdict"] == "correct" and rec["parse"] == "whole-file"
        assert rec["usage"]["calls"] == 1 and rec["usage"]["cached_calls"] == 0
        assert rec["usage"]["prompt_tokens"] > 0
        assert rec["solver_meta"]["rounds"][0]["response"] == GOOD
        prompt = json.dumps(server.requests[0].body["messages"])
        assert "def clamp" in prompt and "test_high" in prompt  # code and failing output
        assert "test_low" not in prompt  # hidden tests never reach the model
        assert first.summary.solvers[0].usage is not None

        again = run(suite, make_solvers(["openai:fake"], options=options), tmp_path / "b",
                    config=CONFIG)  # fmt: skip
        assert len(server.requests) == 1  # zero model calls the second time
        rec = _records(tmp_path / "b")[0]
        assert rec["verdict"] == "correct" and rec["usage"]["cached_calls"] == 1
        assert again.summary.solvers[0].usage.cached_calls == 1  # type: ignore[union-attr]


def test_endpoint_failure_is_infra_error_and_resume_retries_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI([status(500), status(503)]) as server:
        suite, options = _setup(tmp_path, server, monkeypatch)
        out = tmp_path / "run"
        run(suite, make_solvers(["openai:fake"], options=options), out, config=CONFIG)
        rec = _records(out)[0]
        assert rec["verdict"] == "infra-error" and "503" in rec["details"]
        assert len(server.requests) == 2  # first try and one retry
        server.script = [ok(GOOD)]
        resumed = run(suite, make_solvers(["openai:fake"], options=options), out, config=CONFIG)
        assert resumed.new_attempts == 1
        assert [r["verdict"] for r in _records(out)] == ["correct"]


def test_feedback_loop_sends_failures_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI([ok(WRONG), ok(GOOD)]) as server:
        suite, options = _setup(tmp_path, server, monkeypatch, variants=["feedback"], rounds=3)
        solvers = make_solvers(["openai:fake"], options=options)
        assert solvers[0].name == "openai:fake#feedback-r3"
        run(suite, solvers, tmp_path / "fb", config=CONFIG)
        rec = _records(tmp_path / "fb")[0]
        assert rec["verdict"] == "correct"
        rounds = rec["solver_meta"]["rounds"]
        assert len(rounds) == 2 and "still fail" in rounds[0]["feedback"]
        second = server.requests[1].body["messages"]
        assert any(m["role"] == "assistant" for m in second)
        assert "still fail" in json.dumps(second)


def test_feedback_rounds_may_replay_the_models_own_answer_holding_the_answer_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the model's first answer happens to quote a hidden test's line: the next round replays it
    # (as the model's own turn), which the leak guard lets through; the prompt proper it checks
    quoting = WRONG + "\nIt should also hold that assert clamp(50, 1, 7) == 7.\n"
    with FakeOpenAI([ok(quoting), ok(GOOD)]) as server:
        suite, options = _setup(tmp_path, server, monkeypatch, variants=["feedback"], rounds=3)
        run(suite, make_solvers(["openai:fake"], options=options), tmp_path / "fb", config=CONFIG)
        assert _records(tmp_path / "fb")[0]["verdict"] == "correct"
        assert len(server.requests) == 2
        assert "assert clamp(50, 1, 7) == 7" in json.dumps(server.requests[1].body["messages"])


def test_unparseable_answer_is_no_patch_with_raw_response(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI([ok("I am not sure what the bug is, sorry.")]) as server:
        suite, options = _setup(tmp_path, server, monkeypatch)
        result = run(suite, make_solvers(["openai:fake"], options=options), tmp_path / "np",
                     config=CONFIG)  # fmt: skip
        rec = _records(tmp_path / "np")[0]
        assert rec["verdict"] == "no-patch" and rec["parse"] == "none"
        assert "not sure" in rec["solver_meta"]["rounds"][0]["response"]
        assert result.summary.solvers[0].usage.parse_success_rate == 0.0  # type: ignore[union-attr]


def test_samples_give_pass_at_k_with_recorded_seeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI([ok(GOOD), ok(WRONG), ok(GOOD)]) as server:
        suite, options = _setup(tmp_path, server, monkeypatch, samples=3, temperature=0.8)
        solvers = make_solvers(["openai:fake"], options=options)
        assert solvers[0].name == "openai:fake#code-only@t0.8"
        result = run(suite, solvers, tmp_path / "k", config=CONFIG, jobs=1)
        recs = _records(tmp_path / "k")
        assert sorted(r["solver_meta"]["seed"] for r in recs) == [0, 1, 2]
        assert sorted(r["verdict"] for r in recs) == ["correct", "correct", "fails-visible"]
        sent = sorted(r.body["seed"] for r in server.requests)
        assert sent == [0, 1, 2] and all(r.body["temperature"] == 0.8 for r in server.requests)
        passk = result.summary.solvers[0].pass_at_k
        assert passk["pass@1"] == pytest.approx(2 / 3, abs=1e-4) and passk["pass@2"] == 1.0


@pytest.mark.slow
def test_embedded_smollm2_end_to_end_and_cached_rerun(tmp_path: Path) -> None:
    """The real embedded model on three samples of mini; the rerun is answered from the cache."""
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is installed by `make test`")
    suite = load_suite("mini")
    options = SolverOptions(models=LLMOptions(cache_path=tmp_path / "cache.sqlite", max_tokens=96))
    first = run(suite, make_solvers(["local:smollm2"], options=options), tmp_path / "a",
                config=CONFIG, limit=3)  # fmt: skip
    recs = _records(tmp_path / "a")
    assert len(recs) == 3 and all(r["verdict"] != "infra-error" for r in recs)
    assert all(r["usage"]["completion_tokens"] > 0 and r["usage"]["cached_calls"] == 0
               for r in recs)  # fmt: skip
    usage = first.summary.solvers[0].usage
    assert usage is not None and usage.completion_tokens_per_s
    run(suite, make_solvers(["local:smollm2"], options=options), tmp_path / "b", config=CONFIG,
        limit=3)  # fmt: skip
    again = _records(tmp_path / "b")
    assert [r["usage"]["cached_calls"] for r in again] == [1, 1, 1]
    assert [r["verdict"] for r in again] == [r["verdict"] for r in recs]


def test_root_cause_variant_scores_the_named_location(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = "Root cause: `clamp.py` | clamp | return lo\n\n" + GOOD
    with FakeOpenAI([ok(answer)]) as server:
        suite, options = _setup(tmp_path, server, monkeypatch, variants=["root-cause"])
        run(suite, make_solvers(["openai:fake"], options=options), tmp_path / "rc", config=CONFIG)
        rec = _records(tmp_path / "rc")[0]
        assert rec["verdict"] == "correct"
        named = rec["named_cause"]
        assert (named["file"], named["function"], named["code"]) == ("clamp.py", "clamp",
                                                                     "return lo")  # fmt: skip
        assert named["hit_file"] and named["hit_function"] and named["hit_line"]
        assert "Root cause: FILE | FUNCTION" in json.dumps(server.requests[0].body["messages"])
