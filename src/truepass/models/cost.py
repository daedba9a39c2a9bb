"""Token cost: a price table in USD per million input and output tokens, users can extend it.

The bundled prices are list prices AS OF WRITING (2025), without batch or cached-input discounts;
providers change them. Override or extend them with ``--price MODEL=IN,OUT`` (:func:`parse_price`)
rather than trusting these numbers for a budget.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from truepass.errors import InputError


class Price(NamedTuple):
    """USD per million tokens."""

    input_per_mtok: float
    output_per_mtok: float


# As of writing; override with --price. Keys are model names (any backend) or full model ids.
DEFAULT_PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "o3-mini": Price(1.10, 4.40),
    "deepseek-chat": Price(0.27, 1.10),
    "deepseek-reasoner": Price(0.55, 2.19),
}

FREE_BACKENDS = ("local:",)
"""Models run in-process cost nothing (the electricity is on you)."""

_DATE_SUFFIX = re.compile(r"-\d{4}-\d{2}-\d{2}$")
_PRICE_HELP = (
    "expected MODEL=IN,OUT in USD per million input and output tokens, e.g. gpt-4o-mini=0.15,0.60"
)


def parse_price(text: str) -> tuple[str, Price]:
    """``"MODEL=IN,OUT"`` -> ``(MODEL, Price(IN, OUT))``; InputError on bad syntax.

    MODEL may be a bare name (``gpt-4o-mini``, priced on any backend) or a full id
    (``openai:gpt-4o-mini``).
    """
    model, sep, rest = text.partition("=")
    model = model.strip()
    parts = [p.strip() for p in rest.split(",")]
    if not sep or not model or len(parts) != 2:
        raise InputError(f"bad price {text!r}: {_PRICE_HELP}", field="--price")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise InputError(f"bad price {text!r}: {_PRICE_HELP}", field="--price") from None
    if any(not math.isfinite(v) or v < 0 for v in values):
        raise InputError(
            f"bad price {text!r}: prices must be finite and not negative", field="--price"
        )
    return model, Price(values[0], values[1])


def price_table(
    extra: Iterable[str] = (), base: Mapping[str, Price] | None = None
) -> dict[str, Price]:
    """The default table (or ``base``) extended/overridden by ``MODEL=IN,OUT`` strings."""
    table = dict(DEFAULT_PRICES if base is None else base)
    table.update(parse_price(item) for item in extra)
    return table


def find_price(model_id: str, prices: Mapping[str, Price] | None = None) -> Price | None:
    """The price of ``model_id``: full id first, then its bare name, then without a date suffix
    (``gpt-4o-mini-2024-07-18`` is priced as ``gpt-4o-mini``); local models are free."""
    if model_id.startswith(FREE_BACKENDS):
        return Price(0.0, 0.0)
    table = DEFAULT_PRICES if prices is None else prices
    name = model_id.split(":", 1)[1] if ":" in model_id else model_id
    for candidate in (model_id, name, _DATE_SUFFIX.sub("", name)):
        if candidate in table:
            return table[candidate]
    return None


def cost_usd(
    model_id: str,
    prompt_tokens: int,
    completion_tokens: int,
    prices: Mapping[str, Price] | None = None,
) -> float | None:
    """Cost in USD of one request, or None when the model has no known price."""
    price = find_price(model_id, prices)
    if price is None:
        return None
    return (
        prompt_tokens * price.input_per_mtok + completion_tokens * price.output_per_mtok
    ) / 1_000_000
