"""Load prompt templates (bundled or user-given) and render them into chat messages.

Convention (docs/prompts.md): a template is plain Jinja2 text in which ``{{ role("system") }}``,
``{{ role("user") }}`` and ``{{ role("assistant") }}`` start a new message; everything up to the
next ``role()`` call is that message's content (surrounding whitespace stripped, empty messages
dropped). Only whitespace and comments may come before the first ``role()`` call.
"""

from __future__ import annotations

import re
import secrets
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import Any

from jinja2 import (
    ChoiceLoader,
    FileSystemLoader,
    StrictUndefined,
    Template,
    TemplateError,
    TemplateNotFound,
    TemplateRuntimeError,
    TemplateSyntaxError,
)
from jinja2.sandbox import SandboxedEnvironment

from truepass.errors import InputError

BUNDLED_DIR = Path(__file__).parent / "templates"
ROLES = ("system", "user", "assistant")


def bundled_template_dir() -> Path:
    """Directory of the templates shipped with truepass (copy one to start an override)."""
    return BUNDLED_DIR


def fence(text: str) -> str:
    """A Markdown code fence longer than any run of backticks in ``text``."""
    runs = [len(r) for r in re.findall(r"`+", text)]
    return "`" * max(3, max(runs, default=0) + 1)


@lru_cache(maxsize=16)
def _environment(template_dir: Path | None) -> SandboxedEnvironment:
    dirs = [BUNDLED_DIR] if template_dir is None else [template_dir, BUNDLED_DIR]
    env = SandboxedEnvironment(
        loader=ChoiceLoader([FileSystemLoader(str(d)) for d in dirs]),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["fence"] = fence
    return env


def load_template(name: str, template_dir: Path | None = None) -> Template:
    """Template ``name``, from ``template_dir`` when it holds that file, else the bundled one.

    Raises :class:`InputError` naming the file (and line) of a missing or broken template.
    """
    if template_dir is not None and not Path(template_dir).is_dir():
        raise InputError("not a directory of prompt templates", location=str(template_dir))
    env = _environment(None if template_dir is None else Path(template_dir).resolve())
    try:
        return env.get_template(name)
    except TemplateNotFound as exc:
        where = f"{template_dir} or the bundled templates" if template_dir else "bundled templates"
        raise InputError(
            f"prompt template '{exc.name}' not found in {where}", location=exc.name
        ) from exc
    except TemplateSyntaxError as exc:
        raise InputError(
            f"broken prompt template: {exc.message}",
            location=f"{exc.filename or exc.name or name}:{exc.lineno}",
        ) from exc
    except TemplateError as exc:
        raise InputError(f"broken prompt template: {exc}", location=name) from exc


def render_messages(template: Template, context: dict[str, Any]) -> list[dict[str, str]]:
    """Render ``template`` with ``context`` and split it into ``{"role", "content"}`` messages."""
    nonce = secrets.token_hex(8)

    def role(name: str) -> str:
        if name not in ROLES:
            raise TemplateRuntimeError(f"role() takes one of {ROLES}, not {name!r}")
        return f"\x00{nonce}:{name}\x00"

    try:
        text = template.render({**context, "role": role})
    except TemplateError as exc:
        where = _template_frame(exc.__traceback__) or template.filename or template.name
        what = f"template '{exc.name}' not found" if isinstance(exc, TemplateNotFound) else exc
        raise InputError(f"prompt template failed: {what}", location=where) from exc
    parts = re.split(rf"\x00{nonce}:(\w+)\x00", text)
    if parts[0].strip():
        raise InputError(
            "text before the first role() call; start every message with "
            '{{ role("system") }}, {{ role("user") }} or {{ role("assistant") }}',
            location=template.filename or template.name,
        )
    pairs = zip(parts[1::2], parts[2::2], strict=True)
    messages = [{"role": r, "content": body.strip()} for r, body in pairs]
    return [m for m in messages if m["content"]]


def _template_frame(tb: TracebackType | None) -> str | None:
    """``file:line`` of the innermost template frame of a rendering error."""
    found = None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not name.endswith(".py") and Path(name).is_file():
            found = f"{name}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found
