"""Domain exceptions. The CLI maps them to exit statuses; nothing below it prints."""

from __future__ import annotations


class TruepassError(Exception):
    """Base of every error truepass raises on purpose."""


class InputError(TruepassError):
    """Bad user input (a suite, a patches file, an option). The CLI exits with status 2.

    ``location`` names the file and line (``path:line``) and ``field`` the offending field, so a
    user can go straight to the problem.
    """

    def __init__(self, message: str, *, location: str | None = None, field: str | None = None):
        self.location = location
        self.field = field
        self.reason = message
        parts = [p for p in (location, f"field '{field}'" if field else None) if p]
        super().__init__(f"{': '.join(parts)}: {message}" if parts else message)


class SuiteError(InputError):
    """A suite file or directory that cannot be loaded."""


class PatchError(TruepassError):
    """A patch that cannot be parsed or applied (judged ``apply-failed``, never an infra error)."""


class SandboxError(TruepassError):
    """The sandbox itself failed (judged ``infra-error`` after retries)."""


class SolverError(TruepassError):
    """A solver could not produce an answer for reasons outside the candidate (a model endpoint
    that keeps failing, a tool that crashed). The attempt is recorded as ``infra-error`` and
    retried when the run is resumed."""
