"""make_model: specs, errors, cache wrapping."""

from __future__ import annotations

from pathlib import Path

import pytest

from truepass.errors import InputError
from truepass.models import CachedModel, Model, ModelSettings, ResponseCache, make_model
from truepass.models.openai_compat import OpenAICompatModel


@pytest.mark.parametrize("spec", ["gpt-4o", "openai:", "local:", "local:model.bin", "hf:x", ""])
def test_unknown_spec_names_known_forms(spec: str) -> None:
    with pytest.raises(InputError) as err:
        make_model(spec)
    for form in ("openai:MODEL", "local:smollm2", "local:PATH.gguf"):
        assert form in str(err.value)


def test_openai_spec(tmp_path: Path) -> None:
    m = make_model("openai:gpt-4o-mini", ModelSettings(base_url="http://127.0.0.1:9/v1"))
    assert isinstance(m, OpenAICompatModel) and isinstance(m, Model)
    assert m.id == "openai:gpt-4o-mini" and m.context_window == 128_000
    assert m.count_tokens("abcdefgh") == 2
    wrapped = make_model(
        "openai:x", ModelSettings(context_window=4096), ResponseCache(tmp_path / "c")
    )
    assert isinstance(wrapped, CachedModel) and isinstance(wrapped, Model)
    assert wrapped.id == "openai:x" and wrapped.context_window == 4096


def test_missing_gguf_file(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed")
    with pytest.raises(InputError, match="no such GGUF file"):
        make_model(f"local:{tmp_path / 'nope.gguf'}")
