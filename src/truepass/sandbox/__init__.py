"""The sandbox: untrusted code (candidate patches and their tests) runs only through here.

``run_sandboxed`` lays files out in a fresh workspace and runs a command under bubblewrap (tier
``bwrap``) or, where that is impossible, under rlimits alone (tier ``rlimits-only``, weaker, with
a loud warning). ``sandbox_tier`` says which one this machine gives.
"""

from truepass.sandbox.models import Limits, SandboxResult
from truepass.sandbox.runner import run_sandboxed, sandbox_tier

__all__ = ["Limits", "SandboxResult", "run_sandboxed", "sandbox_tier"]
