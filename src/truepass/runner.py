"""A run: suite x solvers, judged in the sandbox, stored attempt by attempt, resumable.

Output directory: ``store.sqlite`` (the truth), ``manifest.json``, ``results.jsonl`` and
``summary.json`` (both rewritten from the store at the end), see docs/results.md.
"""

from __future__ import annotations

import json
import platform
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from truepass.analysis.summary import Summary, summarize
from truepass.errors import InputError, SolverError
from truepass.judges.families import Family, family_for
from truepass.judges.repair import JudgeConfig, Verdict
from truepass.records import AttemptRecord
from truepass.report import write_report
from truepass.sandbox import sandbox_tier
from truepass.solvers.base import SolveContext, Solver
from truepass.store import Store
from truepass.suites.loader import Sample, Suite

Progress = Callable[[str, int, int], None]  # (stage, done, total)
PACKAGES = ("truepass", "pydantic", "pytest", "unidiff", "coverage", "typer", "rich")


@dataclass
class RunResult:
    out: Path
    summary: Summary
    new_attempts: int
    resumed_attempts: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def git_revision() -> str | None:
    """The git revision of the truepass source tree, when it is a checkout."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def sample_checks(
    suite: Suite,
    samples: list[Sample],
    store: Store,
    config: JudgeConfig,
    pool: ThreadPoolExecutor,
    progress: Progress | None = None,
    family: Family | None = None,
) -> dict[str, Any]:
    """Check each sample once per suite version (cached in the store)."""
    family = family or family_for(suite.family)
    checks: dict[str, Any] = {}
    todo = []
    for s in samples:
        cached = store.get_check(suite.content_hash, s.id)
        if cached is None:
            todo.append(s)
        else:
            checks[s.id] = family.load_check(cached)
    futures = {pool.submit(family.check, s, config): s for s in todo}
    for done, fut in enumerate(_as_done(futures), start=1):
        check = fut.result()
        if not check.reason.startswith("infra-error"):
            store.put_check(suite.content_hash, check.sample_id, check.model_dump())
        checks[check.sample_id] = check
        if progress:
            progress("checking samples", done, len(todo))
    return checks


def _as_done(futures: dict[Future, object]):  # type: ignore[no-untyped-def,type-arg]
    pending = set(futures)
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        yield from finished


def run(
    suite: Suite,
    solvers: list[Solver],
    out: Path,
    *,
    config: JudgeConfig | None = None,
    jobs: int = 2,
    limit: int | None = None,
    progress: Progress | None = None,
) -> RunResult:
    """Run ``solvers`` on ``suite`` into ``out``; resumes whatever ``out`` already holds."""
    config = config or JudgeConfig()
    for solver in solvers:
        if suite.family not in getattr(solver, "families", (suite.family,)):
            raise InputError(
                f"solver '{solver.name}' cannot work on {suite.family} samples "
                f"(only {', '.join(solver.families)})",  # type: ignore[attr-defined]
                field="--solver",
            )
    store = Store(out / "store.sqlite")
    family = family_for(suite.family, workers=jobs)
    try:
        _claim(store, suite, config)
        samples = suite.samples[:limit] if limit else suite.samples
        manifest = _manifest(suite, solvers, config, jobs, limit)
        _write_json(out / "manifest.json", manifest)
        done = store.done_keys()
        tasks = [
            (solver, s, a)
            for solver in solvers
            for s in samples
            for a in range(solver.attempts(s))
            if (solver.name, s.id, a) not in done
        ]
        resumed = len(done & {(sv.name, s.id, a) for sv in solvers for s in samples
                              for a in range(sv.attempts(s))})  # fmt: skip
        new = 0
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            needed = list({s.id: s for _, s, _ in tasks}.values())
            checks = sample_checks(suite, needed, store, config, pool, progress, family)
            futures = {
                pool.submit(_attempt, family, suite, solver, s, a, checks[s.id], config): None
                for solver, s, a in tasks
            }
            try:
                for fut in _as_done(futures):
                    store.put(fut.result())
                    new += 1
                    if progress:
                        progress("judging attempts", new, len(tasks))
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
        summary = summarize(suite.name, store.records())
        _write_outputs(out, store, summary)
        manifest["finished"] = _now()
        _write_json(out / "manifest.json", manifest)
        return RunResult(out=out, summary=summary, new_attempts=new, resumed_attempts=resumed)
    finally:
        family.close()
        store.close()


def _claim(store: Store, suite: Suite, config: JudgeConfig) -> None:
    """An output directory belongs to one suite version and one judge configuration."""
    key = json.dumps({"suite": suite.content_hash, "judge": config.model_dump()}, sort_keys=True)
    held = store.get_meta("run_key")
    if held is None:
        store.set_meta("run_key", key)
    elif held != key:
        raise InputError(
            "this output directory holds a run of another suite version or judge setting; "
            "give a new --out (or remove the directory to start over)",
            location=str(store.path.parent),
        )


def _attempt(
    family: Family,
    suite: Suite,
    solver: Solver,
    sample: Sample,
    attempt: int,
    check: Any,
    config: JudgeConfig,
) -> AttemptRecord:
    t0 = time.monotonic()
    base = {
        "suite": suite.name,
        "sample_id": sample.id,
        "defect_type": sample.defect_type,
        "leakage": sample.leakage,
        "solver": solver.name,
        "attempt": attempt,
    }
    try:
        answer = solver.solve(sample, attempt, SolveContext(config=config, check=check))
    except SolverError as exc:  # the model or tool failed, not the candidate: retried on resume
        return AttemptRecord(
            **base,
            verdict=Verdict.INFRA_ERROR.value,
            details=f"solver failed: {exc}",
            solve_s=round(time.monotonic() - t0, 3),
        )
    solve_s = time.monotonic() - t0
    judged = family.judge(sample, answer, check, config)
    meta = dict(answer.meta) if answer else {}
    return AttemptRecord(
        **base,
        **judged,
        patch_id=answer.patch_id if answer else None,
        solve_s=round(solve_s, 3),
        usage=answer.usage if answer else None,
        parse=str(meta["parse_kind"]) if "parse_kind" in meta else None,
        solver_meta=meta,
    )


def _manifest(
    suite: Suite, solvers: list[Solver], config: JudgeConfig, jobs: int, limit: int | None
) -> dict[str, object]:
    return {
        "started": _now(),
        "suite": {
            "name": suite.name,
            "version": suite.version,
            "path": str(suite.path),
            "content_hash": suite.content_hash,
            "samples": len(suite.samples),
        },
        "solvers": [s.name for s in solvers],
        "judge": config.model_dump(),
        "jobs": jobs,
        "limit": limit,
        "sandbox_tier": sandbox_tier(),
        "packages": package_versions(),
        "git_revision": git_revision(),
        "platform": platform.platform(),
    }


def _write_json(path: Path, obj: object) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(obj, indent=2, default=str) + "\n", encoding="utf-8")
    tmp.replace(path)


def _write_outputs(out: Path, store: Store, summary: Summary) -> None:
    tmp = out / "results.jsonl.tmp"
    with tmp.open("w", encoding="utf-8") as fh:
        for rec in store.records():
            fh.write(rec.model_dump_json() + "\n")
    tmp.replace(out / "results.jsonl")
    _write_json(out / "summary.json", summary.model_dump())
    write_report([out], out / "report.html")
