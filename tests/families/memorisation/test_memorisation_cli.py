"""The memorisation probe end to end through the real CLI: build-suite from two suite
directories, oracle and noop, a model (the fake OpenAI server), check-suite and compare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, ok
from typer.testing import CliRunner

from truepass.cli import app

runner = CliRunner()

CODE = "".join(f"value_{i} = compute({i}, step={i * 3})\n" for i in range(12))


def _suite(root: Path, name: str, leakage: str, files: dict[str, str]) -> Path:
    d = root / name
    d.mkdir()
    lines = []
    for i, (path, text) in enumerate(files.items()):
        lines.append(json.dumps({
            "id": f"{name}-{i}", "leakage": leakage, "language": "python",
            "defect_type": "wrong-op", "description": "d", "files": {path: text},
            "fault": [{"file": path, "lines": [1]}],
            "tests": {"visible": {"test_x.py": "def test_x():\n    pass\n"}},
            "fix": f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-x\n+y\n", "source": "hand",
        }))  # fmt: skip
    (d / "suite.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (d / "suite.toml").write_text(f'name = "{name}"\nversion = "1"\ndescription = "t"\n')
    return d


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    pub = _suite(tmp_path, "pub", "public-old", {
        "lib/a.py": CODE, "lib/b.py": CODE.replace("value", "item"), "short.py": "x = 1\n",
    })  # fmt: skip
    priv = _suite(tmp_path, "priv", "private", {
        "c.py": CODE.replace("value", "other"), "d.py": CODE.replace("value", "thing"),
    })  # fmt: skip
    out = tmp_path / "probe"
    got = runner.invoke(app, ["build-suite", "memorisation", "--from", str(pub), "--control",
                              str(priv), "--out", str(out), "--lines", "4"],
                        terminal_width=200)  # fmt: skip
    assert got.exit_code == 0, got.output
    assert "4 samples written" in got.output
    row = next(line for line in got.output.splitlines() if line.split()[:2] == ["target", "pub"])
    assert row.split()[2:8] == ["3", "3", "0", "1", "0", "2"]  # samples files dup short limit kept
    return out


def test_oracle_is_exact_noop_is_not_and_check_suite_passes(probe: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    got = runner.invoke(app, ["run", "--suite", str(probe), "--solver", "oracle", "--solver",
                              "noop", "--out", str(out), "--check-cache", "off"])  # fmt: skip
    assert got.exit_code == 0, got.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    m = {s["solver"]: s["metrics"] for s in summary["solvers"]}
    assert m["oracle"]["target_exact"] == 1.0 and m["oracle"]["control_exact"] == 1.0
    assert m["oracle"]["target_n"] == 2 and m["oracle"]["control_n"] == 2
    assert m["noop"]["target_exact"] == 0.0 and m["noop"]["control_similarity"] == 0.0
    assert m["oracle"]["exact_difference"] == 0.0
    health = runner.invoke(app, ["check-suite", "--suite", str(probe), "--check-cache", "off"])
    assert health.exit_code == 0, health.output
    compared = runner.invoke(app, ["compare", str(out), "--json", str(tmp_path / "c.json")],
                             terminal_width=200)  # fmt: skip
    assert compared.exit_code == 0, compared.output
    assert "leakage probe: public vs private samples within one arm" in compared.output
    contrasts = json.loads((tmp_path / "c.json").read_text())["tier_contrasts"]
    assert sorted(c["arm"] for c in contrasts) == ["noop", "oracle"]
    oracle = next(c for c in contrasts if c["arm"] == "oracle")
    assert "correct" not in oracle["measures"]  # scored answers: no correct rate to contrast
    assert oracle["measures"]["exact"]["difference"] == 0.0


def test_a_model_that_knows_the_public_files_shows_the_difference(
    probe: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    samples = [json.loads(line) for line in (probe / "suite.jsonl").read_text().splitlines()]
    by_prefix = {s["prefix"].rstrip("\n"): s for s in samples}

    def answer(sample: dict[str, object]) -> str:
        # the public files' continuation verbatim (after repeating the prefix's last line, in a
        # fence), the private ones' wrong
        if sample["role"] == "target":
            last = str(sample["prefix"]).rstrip("\n").splitlines()[-1]
            return f"```python\n{last}\n{sample['continuation']}```\n"
        return "```python\nprint('no idea')\n```"

    out = tmp_path / "run"
    with FakeOpenAI([]) as server:
        # the script answers in request order: the runner asks in suite order with --jobs 1
        server.script = [ok(answer(s)) for s in samples]
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        got = runner.invoke(app, ["run", "--suite", str(probe), "--solver", "openai:m",
                                  "--jobs", "1", "--out", str(out), "--check-cache", "off",
                                  "--cache", str(tmp_path / "c.sqlite")])  # fmt: skip
        assert got.exit_code == 0, got.output
        for seen in server.requests:
            prompt = seen.body["messages"][-1]["content"]
            assert "pub" not in prompt and "priv" not in prompt  # no suite named
            shown = next(p for p in by_prefix if p in prompt)
            assert by_prefix[shown]["continuation"] not in prompt
    assert len(server.requests) == 4
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    (solver,) = summary["solvers"]
    m = solver["metrics"]
    assert (m["target_exact"], m["control_exact"], m["exact_difference"]) == (1.0, 0.0, 1.0)
    assert (m["exact_difference_ci_low"], m["exact_difference_ci_high"]) == (1.0, 1.0)
