"""The sandbox: untrusted code (candidate patches and their tests) runs only through here.

``run_sandboxed`` lays files out in a fresh workspace and runs a command under bubblewrap (tier
``bwrap``) or, where that is impossible, under rlimits alone (tier ``rlimits-only``, weaker, with
a loud warning). ``sandbox_tier`` says which one this machine gives.

The names are imported when first used (PEP 562): a module that only needs :class:`Limits`
(``truepass.judged``, and through it every suite schema) does not import the runner, cgroups and
bubblewrap's command line.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from truepass.sandbox.models import Limits, SandboxResult
    from truepass.sandbox.runner import run_sandboxed, sandbox_tier

_NAMES = {
    "Limits": "truepass.sandbox.models",
    "SandboxResult": "truepass.sandbox.models",
    "run_sandboxed": "truepass.sandbox.runner",
    "sandbox_tier": "truepass.sandbox.runner",
}

__all__ = ["Limits", "SandboxResult", "run_sandboxed", "sandbox_tier"]


def __getattr__(name: str) -> Any:
    if name not in _NAMES:
        raise AttributeError(f"module 'truepass.sandbox' has no attribute '{name}'")
    value = getattr(importlib.import_module(_NAMES[name]), name)
    globals()[name] = value
    return value
