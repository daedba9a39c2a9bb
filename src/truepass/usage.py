"""Model usage of one attempt: calls, cache hits, tokens, latency and cost."""

from __future__ import annotations

from pydantic import BaseModel


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
