"""Validation errors of suite lines as ``file:line: field 'a.b': message`` with a hint."""

from __future__ import annotations

from pydantic import ValidationError

from truepass.errors import SuiteError


def describe_validation_error(exc: ValidationError, where: str) -> list[str]:
    """Turn pydantic errors into ``file:line: field 'a.b': message`` lines with a hint."""
    out = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(line)"
        msg = err["msg"]
        if err["type"] == "missing":
            msg = "required field is missing"
        elif err["type"] == "extra_forbidden":
            msg = "unknown field (check its spelling; put extra data under 'meta')"
        elif err["type"] == "literal_error":
            msg = f"{msg}, got {err.get('input')!r}"
        out.append(f"{where}: field '{loc}': {msg}")
    return out


def invalid_sample(exc: ValidationError, what: str, where: str) -> SuiteError:
    """An adapter's error for the ``what`` (``record``, ``instance``) at ``where`` that does not
    make a valid sample: one line per field in trouble (:func:`describe_validation_error`)."""
    return SuiteError(
        f"the {what} does not make a valid sample:\n"
        + "\n".join(describe_validation_error(exc, where)),
        location=where,
    )
