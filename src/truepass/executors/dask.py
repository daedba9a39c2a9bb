"""The distributed executor: sandboxed jobs on the workers of a Dask cluster.

Each worker process builds the family of a job from its class (once per process, so the codegen
family's warm pool is reused) and runs the same sandbox as a local run; results stream back to the
machine running ``truepass run``, which alone writes the store. Every job is submitted once,
non-pure, under a key unique to (run invocation, solver, sample, attempt). When a worker dies
mid-job the scheduler runs its jobs again elsewhere (up to the scheduler's
``distributed.scheduler.allowed-failures``, 3 by default); the client sees one result per key,
and the store keeps one row per (solver, sample, attempt), so nothing is lost or counted twice.
A job that keeps killing its workers is recorded ``infra-error`` (retried on resume).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import platform
import socket
import threading
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from truepass import plugins
from truepass.errors import InputError, SandboxError, TruepassError
from truepass.executors.base import ExecutorSpec, Job, OnDone
from truepass.families.base import Family

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 10
WAIT_FOR_WORKERS_S = 60
JOB_RETRIES = 1  # a job that raises runs once more (on any worker); worker deaths: see above
SCALE_OUT_DOC = "docs/scale-out.md"

_families: dict[type[Family], Family] = {}
_families_lock = threading.Lock()


class JobLost(SandboxError):
    """Dask gave up on a job (its workers kept dying): an infra error, never the solver's."""


def run_job(job: Job, registered: tuple[plugins.Registration, ...] = ()) -> Any:
    """Run one job in a worker process, with that process's family for it, after making the
    registrations the run's process made by call (a family, solver kind or language of a test
    or of a program that embeds truepass; installed plug-ins are found by each process)."""
    plugins.replay(registered)
    return job.run(_worker_family(job.family))


def _worker_family(kind: type[Family]) -> Family:
    with _families_lock:
        family = _families.get(kind)
        if family is None:
            family = kind(workers=_worker_threads())
            _families[kind] = family
            atexit.register(family.close)
        return family


def _worker_threads() -> int:
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        return 1


def worker_info() -> dict[str, object]:
    """What a worker brings to the run (recorded in the manifest, checked against ours)."""
    from truepass.sandbox import sandbox_tier

    try:
        tier = sandbox_tier()
    except SandboxError as exc:
        tier = f"unusable: {exc}"
    return {
        "host": platform.node(),
        "python": platform.python_version(),
        "truepass": _truepass_version(),
        "sandbox_tier": tier,
        "threads": _worker_threads(),
    }


def _truepass_version() -> str:
    try:
        return metadata.version("truepass")
    except metadata.PackageNotFoundError:  # run from a source tree without installing
        return "unknown"


class _DaskOutcome:
    def __init__(self, future: Any) -> None:
        self.future = future

    def result(self) -> Any:
        from distributed import KilledWorker

        try:
            return self.future.result()
        except KilledWorker as exc:
            raise JobLost(f"Dask gave up on this job: {exc}") from exc
        except Exception as exc:
            if self.future.status == "error":
                raise  # the job's own error, raised as a local run would raise it
            raise TruepassError(  # cancelled, or the scheduler is gone
                f"lost the Dask cluster ({type(exc).__name__}: {exc}); every attempt judged so "
                "far is stored: run the same command again (any --executor) to finish the rest"
            ) from exc
        finally:
            self.future.release()


class DaskExecutor:
    """Jobs on a Dask cluster: a running scheduler, or a local cluster made for the run."""

    def __init__(self, spec: ExecutorSpec, run_id: str) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - a dependency of truepass
            raise InputError(
                f"--executor {spec.text} needs the 'distributed' package ({exc})",
                field="--executor",
            ) from exc
        self.spec = spec.text
        self.run_id = run_id
        self._cluster: Any = None
        security = None
        if spec.kind == "dask-local":
            self._cluster = LocalCluster(
                n_workers=spec.workers,
                processes=True,
                threads_per_worker=1,
                dashboard_address=None,
            )
            address: Any = self._cluster
        else:
            assert spec.address is not None
            address = spec.address
            if address.startswith("tls://"):
                security = _tls_security(spec.text)
            _reachable(address, spec.text)
        try:
            self.client = Client(
                address, timeout=CONNECT_TIMEOUT_S, set_as_default=False, security=security
            )
        except (OSError, TimeoutError) as exc:
            self._close_cluster()
            raise InputError(_unreachable(spec.text, exc), field="--executor") from exc
        try:
            self.workers = self._check_workers()
        except BaseException:
            self.close()
            raise

    def _check_workers(self) -> dict[str, dict[str, object]]:
        try:
            self.client.wait_for_workers(1, timeout=WAIT_FOR_WORKERS_S)
        except TimeoutError as exc:
            raise InputError(
                f"the Dask scheduler of {self.spec} has no worker after {WAIT_FOR_WORKERS_S} s; "
                "start some with `dask worker tcp://HOST:8786 --nworkers N --nthreads 1` "
                f"({SCALE_OUT_DOC})",
                field="--executor",
            ) from exc
        try:
            infos: dict[str, dict[str, object]] = self.client.run(worker_info)
        except Exception as exc:  # a worker that cannot even import truepass
            raise TruepassError(
                f"a Dask worker of {self.spec} cannot run truepass jobs ({type(exc).__name__}: "
                f"{exc}); install truepass on every worker machine the same way (`make setup`), "
                f"see {SCALE_OUT_DOC}"
            ) from exc
        ours = _truepass_version()
        for addr, info in infos.items():
            if info.get("truepass") != ours:
                raise TruepassError(
                    f"the Dask worker {addr} runs truepass {info.get('truepass')}, this machine "
                    f"{ours}: judging must be the same everywhere; install the same version"
                )
            if str(info.get("sandbox_tier", "")).startswith("unusable"):
                raise TruepassError(
                    f"the Dask worker {addr} has no sandbox: {info['sandbox_tier']}"
                )
        return infos

    def submit(self, job: Job, key: str, on_done: OnDone) -> None:
        future = self.client.submit(
            run_job,
            job,
            plugins.local(),
            key=f"truepass-{job.kind}-{self.run_id}-{key}",
            pure=False,
            retries=JOB_RETRIES,
        )
        future.add_done_callback(lambda f: on_done(_DaskOutcome(f)))

    def describe(self) -> dict[str, object]:
        return {"spec": self.spec, "workers": self.workers}

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        self._close_cluster()

    def _close_cluster(self) -> None:
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()
            self._cluster = None


TLS_SETTINGS = {
    "tls_ca_file": "DASK_DISTRIBUTED__COMM__TLS__CA_FILE",
    "tls_client_cert": "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT",
    "tls_client_key": "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY",
}


def _tls_security(spec: str) -> Any:
    """Dask's ``Security`` for ``dask+tls://``: mutual TLS with the CA, certificate and key of
    Dask's own configuration (``distributed.comm.tls.*``: the environment variables of
    :data:`TLS_SETTINGS` or a Dask config file), encryption required. The scheduler then accepts
    only clients holding a certificate its CA signed, and this client only a scheduler whose
    certificate that CA signed."""
    from distributed.security import Security

    security = Security(require_encryption=True)
    missing = [env for attr, env in TLS_SETTINGS.items() if not getattr(security, attr)]
    if missing:
        raise InputError(
            f"--executor {spec} needs this client's TLS certificate, its key and the cluster's "
            f"CA: set {', '.join(missing)} (or distributed.comm.tls in a Dask config file); "
            f"see {SCALE_OUT_DOC}",
            field="--executor",
        )
    for attr, env in TLS_SETTINGS.items():
        path = Path(getattr(security, attr))
        if not path.is_file():
            raise InputError(f"{env}: no such file: {path}", field="--executor")
    return security


def _reachable(address: str, spec: str) -> None:
    """Fail fast, with what to do, when nothing listens at the scheduler's address."""
    parts = urlsplit(address)
    try:
        with socket.create_connection((parts.hostname or "", parts.port or 0), timeout=5):
            pass
    except OSError as exc:
        raise InputError(_unreachable(spec, exc), field="--executor") from exc


def _unreachable(spec: str, exc: BaseException) -> str:
    tls = ""
    if spec.startswith("dask+tls://"):
        tls = (
            "; this client's certificate must be signed by the CA the scheduler trusts (and the "
            f"scheduler's by the one in {TLS_SETTINGS['tls_ca_file']})"
        )
    elif spec.startswith("dask://"):
        tls = "; a scheduler started with TLS (--protocol tls) needs --executor dask+tls://"
    return (
        f"cannot reach the Dask scheduler of {spec} ({exc}); start one with `dask scheduler` "
        f"on that machine and workers with `dask worker` ({SCALE_OUT_DOC}), check the address "
        f"and the firewall, or use --executor local{tls}"
    )
