"""A run: suite x solvers, judged in the sandbox, stored attempt by attempt, resumable.

Output directory: ``store.sqlite`` (the truth), ``manifest.json``, ``results.jsonl`` and
``summary.json`` (both rewritten from the store at the end), see docs/results.md.
"""

from __future__ import annotations

import json
import platform
import queue
import secrets
import subprocess
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

from truepass import checkcache
from truepass.analysis.humanreview import run_agreement
from truepass.analysis.summary import Summary, summarize
from truepass.answers import Answer
from truepass.checkcache import CheckCache
from truepass.errors import InputError, SandboxError, SolverError
from truepass.executors import (
    Executor,
    ExecutorSpec,
    Job,
    OnDone,
    Outcome,
    open_executor,
    parse_executor,
)
from truepass.families.base import Family
from truepass.families.capabilities import Configured
from truepass.judged import JudgeConfig, Judged, SampleCheck
from truepass.models.base import ModelUnavailable
from truepass.records import AttemptRecord
from truepass.sandbox import sandbox_tier
from truepass.solvers.base import SolveContext, Solver, refusal
from truepass.store import Store
from truepass.suites.split import SplitSpec, select
from truepass.suites.suite import Sample, Suite
from truepass.vocabulary import CheckStatus, Verdict

Progress = Callable[[str, int, int], None]  # (stage, done, total)
LINGER_S = 0.1
"""how long the runner's thread gathers outcomes after the first before it stores them: a run
of thousands of quick attempts writes a few batches a second instead of one transaction and one
wake-up per attempt, off the cores that judge; a killed run redoes at most this much work"""
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
    store: Store | None,
    config: JudgeConfig,
    pool: ThreadPoolExecutor,
    family: Family,
    executor: Executor,
    cache: CheckCache | None = None,
    progress: Progress | None = None,
) -> dict[str, SampleCheck]:
    """Check each sample once per suite version (kept in the run's ``store``, if any, and in
    the machine-wide ``cache``, see :mod:`truepass.checkcache`), on ``executor``."""
    checks: dict[str, SampleCheck] = {}
    todo = []
    for s in samples:
        cached = store.get_check(suite.content_hash, s.id) if store else None
        if cached is None and cache is not None:
            cached = cache.get(suite.content_hash, s.id)
            if cached is not None and store:
                store.put_check(suite.content_hash, s.id, cached)
        if cached is None:
            todo.append(s)
        else:
            checks[s.id] = family.load_check(cached)
    results = Results()
    for s in todo:
        job = Job("check", type(family), s, config)
        results.hand_off(pool, s.id, partial(executor.submit, job, f"check/{s.id}"))
    for done, (sample_id, outcome) in enumerate(results.take([s.id for s in todo]), start=1):
        try:
            check = outcome.result()
        except SandboxError as exc:  # the executor lost the job: not cached, checked on resume
            check = family.check_type(
                sample_id=str(sample_id),
                valid=False,
                status=CheckStatus.INFRA_ERROR,
                reason=f"infra-error: {exc}",
            )
        if check.cacheable:
            record = check.model_dump(mode="json")
            if store:
                store.put_check(suite.content_hash, check.sample_id, record)
            if cache is not None:
                cache.put(suite.content_hash, check.sample_id, record)
        checks[check.sample_id] = check
        if progress:
            progress("checking samples", done, len(todo))
    return checks


class Results:
    """Outcomes of work handed to threads and executors, taken by the run's own thread as they
    finish (it alone writes the store): one per tag, a duplicate is dropped."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[Hashable, Outcome]] = queue.SimpleQueue()

    def hand_off(
        self, pool: ThreadPoolExecutor, tag: Hashable, work: Callable[[OnDone], None]
    ) -> None:
        """Run ``work(on_done)`` in ``pool``; its outcome, or its error, comes back by ``tag``."""

        def guarded() -> None:
            try:
                work(lambda outcome: self._queue.put((tag, outcome)))
            except BaseException as exc:
                failed: Future[Any] = Future()
                failed.set_exception(exc)
                self._queue.put((tag, failed))

        pool.submit(guarded)

    def take(self, tags: list[Hashable]) -> Iterator[tuple[Hashable, Outcome]]:
        for batch in self.take_batches(tags):
            yield from batch

    def take_batches(
        self, tags: list[Hashable], most: int = 500, linger_s: float = LINGER_S
    ) -> Iterator[list[tuple[Hashable, Outcome]]]:
        """Outcomes in batches: waits for one, then adds whatever else comes back within
        ``linger_s`` of it (at most ``most``), so that a busy run wakes up and writes its store
        a few times a second rather than once per attempt, and a quiet one writes each outcome
        ``linger_s`` after it arrives. The last outcome is never waited on."""
        waiting = set(tags)
        while waiting:
            batch: list[tuple[Hashable, Outcome]] = []
            item: tuple[Hashable, Outcome] | None = self._queue.get()
            deadline = time.monotonic() + linger_s
            while item is not None:
                if item[0] in waiting:
                    waiting.discard(item[0])
                    batch.append(item)
                if not waiting or len(batch) >= most:
                    break
                try:
                    item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    item = None
            if batch:
                yield batch


def run(
    suite: Suite,
    solvers: list[Solver],
    out: Path,
    *,
    config: JudgeConfig | None = None,
    jobs: int = 2,
    limit: int | None = None,
    progress: Progress | None = None,
    executor: str | ExecutorSpec = "local",
    check_cache: Path | bool = True,
    family_options: Mapping[str, str] | None = None,
    split: SplitSpec | None = None,
) -> RunResult:
    """Run ``solvers`` on ``suite`` into ``out``; resumes whatever ``out`` already holds.

    ``jobs`` threads solve (model calls stay in this process); ``executor`` says where the
    sandboxed checks and judging run (``local``, ``dask://HOST:PORT``, ``dask-local:N``, see
    :mod:`truepass.executors`). It is not part of the run's identity: a run may be resumed with
    another executor, and the results are the same. ``check_cache`` is where sample checks are
    shared with other runs: True for the default (:func:`truepass.checkcache.default_path`),
    False for none, or a file. ``family_options`` (``--family-option``) go to the family
    (:class:`~truepass.families.capabilities.Configured`; an input error for a family without
    options), into the manifest and the summary. ``split`` (``--split``) runs only the samples
    of one split (:mod:`truepass.suites.split`), before ``limit``; it is recorded in the manifest
    and is part of the directory's identity.
    """
    config = config or JudgeConfig()
    spec = executor if isinstance(executor, ExecutorSpec) else parse_executor(executor)
    family = suite.family_type(workers=jobs)
    configure(family, family_options or {})
    for solver in solvers:
        if (why := refusal(solver, family)) is not None:
            raise InputError(why, field="--solver")
    store = Store(out / "store.sqlite")
    where: Executor | None = None
    cache: CheckCache | None = None
    try:
        _claim(store, suite, config, split)
        samples = select(suite.samples, split) if split else suite.samples
        samples = samples[:limit] if limit else samples
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
        manifest = _manifest(suite, solvers, config, jobs, limit)
        manifest["family_options"] = family.options() if isinstance(family, Configured) else {}
        manifest["split"] = (
            None if split is None else {**split.model_dump(mode="json"), "samples": len(samples)}
        )
        if tasks:
            for solver in {s.name: s for s, _, _ in tasks}.values():
                solver.prepare()
            where = open_executor(spec, family, secrets.token_hex(4), config)
            cache = open_check_cache(check_cache, config)
        manifest["executor"] = where.describe() if where else {"spec": spec.text}
        _write_json(out / "manifest.json", manifest)
        fresh: list[AttemptRecord] = []  # this run's records, as judged
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            try:
                if where is not None:
                    needed = list({s.id: s for _, s, _ in tasks}.values())
                    checks = sample_checks(
                        suite, needed, store, config, pool, family, where, cache, progress
                    )
                    _judge_all(
                        suite, family, tasks, checks, config, pool, where, store, progress, fresh
                    )
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
        # a run that started empty holds exactly what it judged: no need to read it back
        records = sorted(fresh, key=_store_order) if not done else list(store.records())
        summary = summarize(suite.name, records, family, setting=suite.setting)
        summary.review = run_agreement(out, records)  # labels imported before a resume
        _write_results(out, records, summary)
        manifest["finished"] = _now()
        manifest["check_cache"] = cache.describe() if cache else None
        _write_json(out / "manifest.json", manifest)
        from truepass.report import write_report  # jinja2: loaded only once results are written

        write_report([out], out / "report.html", records={out: records}, summaries={out: summary})
        return RunResult(
            out=out, summary=summary, new_attempts=len(fresh), resumed_attempts=resumed
        )
    finally:
        if where is not None:
            where.close()
        if cache is not None:
            cache.close()
        family.close()
        store.close()


def configure(family: Family, options: Mapping[str, str]) -> None:
    """Give ``family`` its options (``--family-option KEY=VALUE``); an input error when it takes
    none."""
    if not options:
        return
    if not isinstance(family, Configured):
        raise InputError(f"the {family.name} family takes no options", field="--family-option")
    family.configure(options)


def open_check_cache(setting: Path | bool, config: JudgeConfig) -> CheckCache | None:
    """The machine-wide check cache for checks made under ``config`` in this environment, or
    None (``False``, or ``$TRUEPASS_CHECK_CACHE=off`` with the default)."""
    path = checkcache.default_path() if setting is True else setting or None
    if path is None:
        return None
    # what a sample's check depends on: not reruns (a check runs each test once), and test
    # selection off whether it is unset or False; so check-suite and run share their checks
    judge = config.model_dump(include={"limits", "infra_retries"})
    judge["test_selection"] = bool(config.test_selection)
    env = checkcache.environment_key(judge, package_versions(), sandbox_tier())
    return CheckCache(Path(path), env)


def _judge_all(
    suite: Suite,
    family: Family,
    tasks: list[tuple[Solver, Sample, int]],
    checks: dict[str, SampleCheck],
    config: JudgeConfig,
    pool: ThreadPoolExecutor,
    executor: Executor,
    store: Store,
    progress: Progress | None,
    fresh: list[AttemptRecord],
) -> None:
    """Solve in ``pool``, judge on ``executor``, store each attempt as it comes back, once,
    and add its record to ``fresh`` once stored."""
    results = Results()
    for solver, s, a in tasks:
        work = partial(
            _solve_then_judge, executor, suite, family, solver, s, a, checks[s.id], config
        )
        results.hand_off(pool, (solver.name, s.id, a), work)
    for batch in results.take_batches([(solver.name, s.id, a) for solver, s, a in tasks]):
        records: list[AttemptRecord] = []
        try:
            for _, outcome in batch:
                records.append(outcome.result())
        finally:  # what came back before an error is kept
            store.put_many(records)
            fresh.extend(records)
        if progress:
            progress("judging attempts", len(fresh), len(tasks))


def _store_order(record: AttemptRecord) -> tuple[str, str, int]:
    """The order of :meth:`Store.records` (SQLite compares text as UTF-8 bytes, which sorts as
    Python's code points do)."""
    return (record.solver, record.sample_id, record.attempt)


def _claim(store: Store, suite: Suite, config: JudgeConfig, split: SplitSpec | None) -> None:
    """An output directory belongs to one suite version, one judge configuration and, when one
    was chosen, one split (no key for none: directories made before splits resume)."""
    held_key: dict[str, object] = {"suite": suite.content_hash, "judge": config.model_dump()}
    if split is not None:
        held_key["split"] = split.model_dump(mode="json")
    key = json.dumps(held_key, sort_keys=True)
    held = store.get_meta("run_key")
    if held is None:
        store.set_meta("run_key", key)
    elif held != key:
        raise InputError(
            "this output directory holds a run of another suite version, judge setting or split; "
            "give a new --out (or remove the directory to start over)",
            location=str(store.path.parent),
        )


@dataclass(frozen=True)
class _Ready:
    """An outcome known without judging (the solver failed)."""

    record: AttemptRecord

    def result(self) -> AttemptRecord:
        return self.record


@dataclass(frozen=True)
class _Judged:
    """A judged answer: the record, built in the run's thread from the executor's outcome."""

    base: dict[str, Any]
    answer: Answer | None
    solve_s: float
    outcome: Outcome

    def result(self) -> AttemptRecord:
        try:
            judged: Judged = self.outcome.result()
        except SandboxError as exc:  # the sandbox or the executor failed: retried on resume
            judged = Judged(verdict=Verdict.INFRA_ERROR, details=f"sandbox failed: {exc}")
        answer = self.answer
        meta = dict(answer.meta) if answer else {}
        return AttemptRecord.of(
            judged,
            **self.base,
            patch_id=answer.patch_id if answer else None,
            solve_s=round(self.solve_s, 3),
            usage=answer.usage if answer else None,
            parse=str(meta["parse_kind"]) if "parse_kind" in meta else None,
            solver_meta=meta,
        )


def _solve_then_judge(
    executor: Executor,
    suite: Suite,
    family: Family,
    solver: Solver,
    sample: Sample,
    attempt: int,
    check: SampleCheck,
    config: JudgeConfig,
    on_done: OnDone,
) -> None:
    """Solve here; hand the answer to ``executor`` for judging (the local one judges at once)."""
    t0 = time.monotonic()
    base = {
        "suite": suite.name,
        "sample_id": sample.id,  # type: ignore[attr-defined]
        "defect_type": family.category(sample),
        "leakage": sample.leakage,  # type: ignore[attr-defined]
        "solver": solver.name,
        "attempt": attempt,
    }
    if check.infra_error:  # the sandbox failed, not the sample: retried on resume
        why = check.reason.removeprefix("infra-error: ")
        on_done(_Ready(AttemptRecord(
            **base, verdict=Verdict.INFRA_ERROR, details=f"the sample could not be checked: {why}"
        )))  # fmt: skip
        return
    try:
        answer = solver.solve(sample, attempt, SolveContext(family, config, check, suite.samples))
    except ModelUnavailable:  # nothing can work: the run stops with this one message
        raise
    except SolverError as exc:  # the model or tool failed, not the candidate: retried on resume
        on_done(_Ready(AttemptRecord(
            **base,
            verdict=Verdict.INFRA_ERROR,
            details=f"solver failed: {exc}",
            solve_s=round(time.monotonic() - t0, 3),
        )))  # fmt: skip
        return
    solve_s = time.monotonic() - t0
    job = Job("judge", type(family), sample, config, answer, check)
    key = f"{solver.name}/{sample.id}/{attempt}"
    executor.submit(job, key, lambda outcome: on_done(_Judged(base, answer, solve_s, outcome)))


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
            "family": suite.family,
            "setting": suite.setting,
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


def _write_results(out: Path, records: list[AttemptRecord], summary: Summary) -> None:
    tmp = out / "results.jsonl.tmp"
    with tmp.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(rec.model_dump_json() + "\n")
    tmp.replace(out / "results.jsonl")
    _write_json(out / "summary.json", summary.model_dump())
