"""The compare command through typer's CliRunner (app assembled here from compare_cmd)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from results_helpers import record, write_pair, write_run
from typer.testing import CliRunner

from truepass.analysis.compare import Comparison
from truepass.cli.compare import compare_cmd

app = typer.Typer()
app.command("compare")(compare_cmd)


@app.callback()
def _root() -> None:  # a group, so the command is invoked by name as in the real app
    pass


runner = CliRunner()


def test_compare_prints_tables_and_writes_json(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    out = tmp_path / "cmp.json"
    got = runner.invoke(app, ["compare", str(a), str(b), "--bootstrap", "500", "--seed", "4",
                              "--json", str(out)])  # fmt: skip
    assert got.exit_code == 0, got.output
    text = got.output
    assert "model-x vs model-y" in text
    assert "66.7% [35–88]" in text and "44.4% [19–73]" in text  # rates with Wilson intervals
    assert "4/2" in text and "0.688" in text  # discordant counts and McNemar p (correct)
    assert "by defect type" in text and "by leakage tier" in text
    assert "invalid-sample in model-x: s10" in text and "missing in model-y: s11" in text
    assert "infra-error in model-x: s12" in text
    c = Comparison.model_validate(json.loads(out.read_text()))
    assert c.seed == 4 and c.bootstrap == 500 and c.pairs[0].overall.n == 9


def test_compare_accepts_results_files_and_the_plausible_metric(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    got = runner.invoke(app, ["compare", str(a / "results.jsonl"), str(b / "results.jsonl"),
                              "--metric", "plausible", "--bootstrap", "200"])  # fmt: skip
    assert got.exit_code == 0, got.output
    assert "compare: plausible rate" in got.output and "77.8%" in got.output


def test_bad_input_exits_2_with_file_and_line(tmp_path: Path) -> None:
    a, b = write_pair(tmp_path)
    got = runner.invoke(app, ["compare", str(a), str(tmp_path / "missing")])
    assert got.exit_code == 2 and "no such run directory" in got.output
    with (b / "results.jsonl").open("a") as fh:
        fh.write("not json\n")
    got = runner.invoke(app, ["compare", str(a), str(b)])
    assert got.exit_code == 2
    assert "results.jsonl:13" in got.output.replace("\n", "")


def test_leakage_probe_table(tmp_path: Path) -> None:
    ids = [f"s{i:02d}" for i in range(1, 21)]
    orig = [record(s, "correct" if i < 14 else "fails-visible", solver="llm")
            for i, s in enumerate(ids)]  # fmt: skip
    obf = [record(s, "correct" if i < 6 else "fails-visible", solver="llm",
                  suite="mini+obfuscated") for i, s in enumerate(ids)]  # fmt: skip
    runs = [str(write_run(tmp_path, "plain", orig)), str(write_run(tmp_path, "obf", obf))]
    got = runner.invoke(app, ["compare", *runs, "--bootstrap", "500"])
    assert got.exit_code == 0, got.output
    assert "leakage probe" in got.output
    row = next(line for line in got.output.splitlines() if line.startswith(" llm"))
    assert "70.0% [48–85]" in row and "30.0% [15–52]" in row and "+40.0" in row and "8/0" in row
