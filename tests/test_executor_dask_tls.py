"""``--executor dask+tls://``: a real scheduler and worker (``dask scheduler``/``dask worker``
started as a user starts them, with certificates made by ``openssl``) judge a run over mutual
TLS; a client without a certificate, or with one the cluster's CA did not sign, is refused."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from truepass.executors.dask import TLS_SETTINGS

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command"),
]
BIN = Path(sys.executable).parent


def _openssl(cwd: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _authority(where: Path, names: list[str]) -> dict[str, dict[str, Path]]:
    """A CA in ``where`` and, for each name, a key and a certificate it signed."""
    where.mkdir(parents=True)
    _openssl(where, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key",
             "-out", "ca.pem", "-days", "2", "-subj", f"/CN={where.name}-ca")  # fmt: skip
    (where / "san.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    out = {}
    for name in names:
        _openssl(where, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key",
                 "-out", f"{name}.csr", "-subj", f"/CN={name}")  # fmt: skip
        _openssl(where, "x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey",
                 "ca.key", "-CAcreateserial", "-out", f"{name}.pem", "-days", "2",
                 "-extfile", "san.cnf")  # fmt: skip
        out[name] = {"ca": where / "ca.pem", "cert": where / f"{name}.pem",
                     "key": where / f"{name}.key"}  # fmt: skip
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tls_args(c: dict[str, Path]) -> list[str]:
    return ["--tls-ca-file", str(c["ca"]), "--tls-cert", str(c["cert"]), "--tls-key", str(c["key"])]


def _start(cmd: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("w") as err:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    tmp = tmp_path_factory.mktemp("tls")
    ours = _authority(tmp / "cluster", ["node", "client"])
    foreign = _authority(tmp / "stranger", ["client"])
    port = _free_port()
    address = f"tls://127.0.0.1:{port}"
    scheduler = [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port)]
    scheduler += ["--protocol", "tls", "--no-dashboard", *_tls_args(ours["node"])]
    worker = [str(BIN / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1"]
    worker += ["--no-dashboard", *_tls_args(ours["node"])]
    procs = [_start(scheduler, tmp / "scheduler.log")]
    try:
        deadline = time.monotonic() + 60
        while True:  # the scheduler listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or procs[0].poll() is not None:
                    raise RuntimeError((tmp / "scheduler.log").read_text()) from None
                time.sleep(0.2)
        procs.append(_start(worker, tmp / "worker.log"))
        yield {"port": port, "ours": ours["client"], "foreign": foreign["client"], "tmp": tmp}
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def _truepass(
    out: Path, executor: str, client: dict[str, Path] | None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
    if client is not None:
        env[TLS_SETTINGS["tls_ca_file"]] = str(client["ca"])
        env[TLS_SETTINGS["tls_client_cert"]] = str(client["cert"])
        env[TLS_SETTINGS["tls_client_key"]] = str(client["key"])
    return subprocess.run(
        [str(BIN / "truepass"), "run", "--suite", "mini", "--solver", "oracle", "--limit", "2",
         "--reruns", "0", "--check-cache", "off", "--out", str(out), "--executor", executor],
        env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def test_a_run_is_judged_over_mutual_tls(tls_cluster: dict[str, object], tmp_path: Path) -> None:
    port, client = tls_cluster["port"], tls_cluster["ours"]
    got = _truepass(tmp_path / "run", f"dask+tls://127.0.0.1:{port}", client)  # type: ignore[arg-type]
    assert got.returncode == 0, got.stdout + got.stderr
    rows = [json.loads(x) for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert [r["verdict"] for r in rows] == ["correct", "correct"]
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["executor"]["spec"] == f"dask+tls://127.0.0.1:{port}"
    assert [w.startswith("tls://") for w in manifest["executor"]["workers"]] == [True]


def test_clients_without_the_clusters_certificate_are_refused(
    tls_cluster: dict[str, object], tmp_path: Path
) -> None:
    port = tls_cluster["port"]
    tls = f"dask+tls://127.0.0.1:{port}"
    got = _truepass(tmp_path / "a", tls, None)  # no certificate configured
    assert got.returncode == 2 and TLS_SETTINGS["tls_client_cert"] in got.stdout + got.stderr
    got = _truepass(tmp_path / "b", tls, tls_cluster["foreign"])  # type: ignore[arg-type]
    assert got.returncode == 2, got.stdout + got.stderr  # signed by another CA
    assert "must be signed by the CA" in got.stdout + got.stderr
    assert not (tmp_path / "b" / "results.jsonl").exists()
    got = _truepass(tmp_path / "c", f"dask://127.0.0.1:{port}", None)  # plain TCP
    assert got.returncode == 2, got.stdout + got.stderr
    assert "needs --executor dask+tls://" in got.stdout + got.stderr
    assert not (tmp_path / "c" / "results.jsonl").exists()
