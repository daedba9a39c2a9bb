"""Decide whether a client request should be throttled."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Client:
    name: str
    is_admin: bool = False
    allowlisted: bool = False


def is_exempt(client: Client) -> bool:
    """Admins and allow-listed clients are never throttled."""
    return client.is_admin


def should_throttle(client: Client, requests_this_minute: int, limit: int) -> bool:
    """Throttle a client that is not exempt once it goes over ``limit`` requests a minute."""
    return not is_exempt(client) and requests_this_minute > limit
