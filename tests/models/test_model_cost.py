"""Token cost: the price table, --price overrides, unknown and local models."""

from __future__ import annotations

import pytest

from truepass.errors import InputError
from truepass.models.cost import DEFAULT_PRICES, Price, cost_usd, parse_price, price_table


def test_known_model_cost() -> None:
    p = DEFAULT_PRICES["gpt-4o-mini"]
    expected = (1000 * p.input_per_mtok + 500 * p.output_per_mtok) / 1e6
    assert cost_usd("openai:gpt-4o-mini", 1000, 500) == pytest.approx(expected)
    assert cost_usd("openai:gpt-4o-mini-2024-07-18", 1000, 500) == pytest.approx(expected)


def test_unknown_and_local() -> None:
    assert cost_usd("openai:my-vllm-model", 10, 10) is None
    assert cost_usd("local:smollm2", 10**6, 10**6) == 0.0
    assert cost_usd("local:/models/x.gguf", 5, 5) == 0.0


def test_parse_and_extend() -> None:
    assert parse_price("my-model=1,2.5") == ("my-model", Price(1.0, 2.5))
    assert parse_price(" openai:q = 0.1 , 0.2 ") == ("openai:q", Price(0.1, 0.2))
    table = price_table(["my-model=1,2", "gpt-4o-mini=0,0"])
    assert cost_usd("openai:my-model", 10**6, 10**6, table) == 3.0
    assert cost_usd("openai:gpt-4o-mini", 10**6, 10**6, table) == 0.0
    assert "gpt-4o-mini" in DEFAULT_PRICES and DEFAULT_PRICES["gpt-4o-mini"] != Price(0, 0)


def test_full_id_beats_bare_name() -> None:
    table = price_table(["m=1,1", "openai:m=2,2"])
    assert cost_usd("openai:m", 10**6, 0, table) == 2.0
    assert cost_usd("other:m", 10**6, 0, table) == 1.0


@pytest.mark.parametrize(
    "bad", ["", "model", "model=", "=1,2", "m=1", "m=1,2,3", "m=a,b", "m=-1,2", "m=nan,1"]
)
def test_bad_syntax(bad: str) -> None:
    with pytest.raises(InputError, match="--price"):
        parse_price(bad)
