"""Model usage of one attempt: calls, cache hits, tokens, latency and cost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

if TYPE_CHECKING:
    from truepass.models.base import Completion


class Usage(BaseModel):
    """Summed over every model call an attempt made (several for the feedback loop)."""

    calls: int = 0
    cached_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = 0.0
    tokens_estimated: bool = False

    def add(
        self,
        *,
        prompt_tokens: int,
        completion_tokens: int,
        latency_s: float,
        cached: bool,
        cost_usd: float | None,
        estimated: bool = False,
    ) -> None:
        """Count one call. A cached answer costs nothing and took no model time now."""
        self.calls += 1
        self.cached_calls += int(cached)
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        self.tokens_estimated |= estimated
        if not cached:
            self.latency_s = round(self.latency_s + latency_s, 4)
        if self.cost_usd is not None:
            spent = 0.0 if cached or cost_usd is None else cost_usd
            self.cost_usd = None if cost_usd is None else self.cost_usd + spent

    def add_completion(self, completion: Completion, cost_usd: float | None) -> None:
        """Count one model answer (its tokens, latency, whether it came from the cache) that cost
        ``cost_usd`` (None: unknown, no price)."""
        self.add(
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            latency_s=completion.latency_s,
            cached=completion.cached,
            cost_usd=cost_usd,
            estimated=completion.tokens_estimated,
        )
