"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat protocol and replays a script.

Each request to ``POST /v1/chat/completions`` takes the next :class:`Step` of the script (an
answer or a fault); when the script is spent it answers ``ok``. The server records every request
(headers and JSON body) and the largest number of requests in flight at once.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from truepass.families.repair.solvers import WORKFLOW
from truepass.solvers.kinds.agent import AGENT
from truepass.solvers.registry import SolverOptions
from truepass.solvers.settings import LLMOptions


@dataclass
class Step:
    """One scripted reply.

    kind: ``ok`` (a completion), ``status`` (``status`` code with ``body`` and ``headers``),
    ``malformed`` (200 with broken JSON), ``truncated``
    (Content-Length larger than the bytes sent, then close), ``drop`` (close without a reply),
    ``no_choices`` (200 with a JSON body without choices). ``delay`` also delays ``ok``.
    """

    kind: str = "ok"
    text: str = "hello"
    usage: bool = True
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def ok(text: str = "hello", *, usage: bool = True, delay: float = 0.0) -> Step:
    return Step("ok", text=text, usage=usage, delay=delay)


def status(code: int, message: str = "boom", headers: dict[str, str] | None = None) -> Step:
    body = {"error": {"message": message, "type": "test_error"}}
    return Step("status", status=code, body=body, headers=headers or {})


@dataclass
class Seen:
    """One request as received."""

    headers: dict[str, str]
    body: dict[str, Any]
    at: float


class FakeOpenAI:
    """The server; use as a context manager. ``base_url`` ends in ``/v1``."""

    def __init__(self, script: Iterable[Step] = ()):
        self.script: list[Step] = list(script)
        self.requests: list[Seen] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def next_step(self) -> Step:
        with self._lock:
            return self.script.pop(0) if self.script else ok()

    def enter(self, seen: Seen) -> None:
        with self._lock:
            self.requests.append(seen)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self) -> None:
        with self._lock:
            self.in_flight -= 1


def completion_body(step: Step, model: str) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": step.text},
                "finish_reason": "stop",
            }
        ],
    }
    if step.usage:
        body["usage"] = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    return body


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            fake.enter(Seen(dict(self.headers.items()), body, time.monotonic()))
            try:
                self._reply(fake.next_step(), body.get("model", "?"))
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout): expected in fault tests
            finally:
                fake.leave()

        def _send(self, code: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(payload)

        def _reply(self, step: Step, model: str) -> None:
            if step.delay:
                time.sleep(step.delay)
            if step.kind == "ok":
                self._send(200, json.dumps(completion_body(step, model)).encode())
            elif step.kind == "status":
                self._send(step.status, json.dumps(step.body).encode(), step.headers)
            elif step.kind == "malformed":
                self._send(200, b'{"choices": [{"message": {"content": "hel')
            elif step.kind == "no_choices":
                self._send(200, json.dumps({"id": "x", "object": "chat.completion"}).encode())
            elif step.kind == "truncated":
                payload = json.dumps(completion_body(step, model)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload) + 500))
                self.end_headers()
                self.wfile.write(payload[:20])
                self.wfile.flush()
                self._drop()
            elif step.kind == "drop":
                self._drop()
            else:  # pragma: no cover
                raise ValueError(step.kind)

        def _drop(self) -> None:
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)

    return Handler


def slow(delay: float) -> Step:
    """An answer that comes after ``delay`` seconds."""
    return ok(delay=delay)


def fault(kind: str) -> Step:
    return Step(kind)


def fake_model_options(
    tmp_path: Path, model: str, model_settings: dict[str, Any] | None = None, **kw: Any
) -> SolverOptions:
    """Solver options for ``model`` served here: a private response cache, fast retries
    (``model_settings``: more ``[models."MODEL"]`` keys), and ``kw`` for the rest (the agent's
    and the workflow's fields go to their kinds' options, see :func:`solver_options`)."""
    cfg = tmp_path / "models.toml"
    extra = "".join(f"{k} = {v}\n" for k, v in (model_settings or {}).items())
    cfg.write_text(f'[models."{model}"]\nmax_retries = 1\nbackoff_base_s = 0.01\n'
                   f"backoff_max_s = 0.02\ntimeout_s = 10\n{extra}")  # fmt: skip
    return solver_options(cache_path=tmp_path / "cache.sqlite", model_config=cfg, **kw)


def solver_options(**kw: Any) -> SolverOptions:
    """:class:`SolverOptions` from flat keywords: a field of the agent's or the workflow's
    options model goes to that kind, the rest to the shared :class:`LLMOptions`."""
    own: dict[str, dict[str, Any]] = {}
    for kind in (AGENT, WORKFLOW):
        assert kind.options is not None
        fields = {k: kw.pop(k) for k in list(kw) if k in kind.options.model_fields}
        if fields:
            own[kind.name] = fields
    kinds = {
        kind.name: kind.options(**own[kind.name])
        for kind in (AGENT, WORKFLOW)
        if kind.name in own and kind.options is not None
    }
    return SolverOptions(models=LLMOptions(**kw), kinds=kinds)
