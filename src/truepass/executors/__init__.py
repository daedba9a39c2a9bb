"""Where the sandboxed work of a run happens: in this process (the default) or on a Dask cluster.

The runner solves in its own process (model calls, the response cache) and hands the sandboxed
work, sample checks and attempt judging, to an executor as :class:`Job` values: plain, picklable
data (the sample, the answer, the check, the judge configuration and the family's class, which
pickles by reference), so that another process or machine can build the family and run the same
sandbox. Every result comes
back to the runner, the only writer of the store.

Specs (``truepass run --executor``): ``local`` (a thread of this process judges right after it
solved, as it always did), ``dask://HOST[:PORT]`` (the workers of a running Dask scheduler,
port 8786 by default) and ``dask-local:N`` (a Dask cluster of N worker processes on this
machine, started for the run and closed after it). See docs/scale-out.md.
"""

from __future__ import annotations

import re

from truepass.errors import InputError
from truepass.executors.base import Executor, ExecutorSpec, Job, OnDone, Outcome
from truepass.executors.local import LocalExecutor
from truepass.families.base import Family
from truepass.judged import JudgeConfig

__all__ = [
    "Executor",
    "ExecutorSpec",
    "Job",
    "LocalExecutor",
    "OnDone",
    "Outcome",
    "open_executor",
    "parse_executor",
]

DASK_PORT = 8786
_DASK = re.compile(
    r"^dask(?P<tls>\+tls)?://(?P<host>\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+)(?::(?P<port>\d{1,5}))?/?$"
)
_DASK_LOCAL = re.compile(r"^dask-local:(?P<n>\d{1,4})$")


def parse_executor(spec: str) -> ExecutorSpec:
    """Parse ``local``, ``dask://HOST[:PORT]``, ``dask+tls://HOST[:PORT]`` or ``dask-local:N``;
    :class:`InputError` else."""
    text = spec.strip()
    if text == "local":
        return ExecutorSpec("local")
    if m := _DASK.match(text):
        port = int(m["port"] or DASK_PORT)
        if not 0 < port < 65536:
            raise InputError(f"port {port} is out of range in '{spec}'", field="--executor")
        scheme = "tls" if m["tls"] else "tcp"
        return ExecutorSpec("dask", address=f"{scheme}://{m['host']}:{port}")
    if m := _DASK_LOCAL.match(text):
        if int(m["n"]) < 1:
            raise InputError("dask-local needs at least 1 worker process", field="--executor")
        return ExecutorSpec("dask-local", workers=int(m["n"]))
    raise InputError(
        f"'{spec}' is not an executor: use local, dask://HOST:PORT (a running Dask scheduler, "
        "e.g. dask://10.0.0.5:8786; dask+tls://HOST:PORT with mutual TLS) or dask-local:N (N "
        "worker processes on this machine)",
        field="--executor",
    )


def open_executor(
    spec: str | ExecutorSpec, family: Family, run_id: str, config: JudgeConfig | None = None
) -> Executor:
    """The executor for ``spec``, ready to take jobs; close it after the run.

    ``family`` is the run's own (the local executor judges with it, and with ``config`` starts
    warming it at once, :meth:`~truepass.families.base.Family.warm`); ``run_id`` is unique per
    invocation and goes into the keys of distributed jobs.
    """
    parsed = spec if isinstance(spec, ExecutorSpec) else parse_executor(spec)
    if parsed.kind == "local":
        return LocalExecutor(family, config)
    from truepass.executors.dask import DaskExecutor

    return DaskExecutor(parsed, run_id)
