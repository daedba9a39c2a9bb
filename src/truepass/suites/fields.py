"""Fields every family's samples share: the leakage tier and relative paths inside a sample."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator

Leakage = Literal["public-old", "public-recent", "private"]


def check_timestamp(value: str | None) -> str | None:
    """An ISO 8601 date and time (or None: unknown), kept as written."""
    if value is not None:
        try:
            datetime.fromisoformat(value)
        except ValueError as exc:
            raise ValueError(f"'{value}' is not an ISO 8601 date and time") from exc
    return value


Timestamp = Annotated[str | None, AfterValidator(check_timestamp)]
"""A sample's time (ISO 8601; None: unknown): the leakage guard never shows a later sample."""


def aware(timestamp: str | None) -> datetime | None:
    """``timestamp`` as an aware datetime (one without an offset is read as UTC)."""
    if timestamp is None:
        return None
    t = datetime.fromisoformat(timestamp)
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)
