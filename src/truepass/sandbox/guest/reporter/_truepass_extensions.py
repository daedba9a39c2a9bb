"""pytest plugin, in the sandbox: rebuild the workspace's compiled extensions first.

Loaded (``-p _truepass_extensions``) when a patch changes the compiled sources of a repository
whose environment built them: ``setup.py build_ext --inplace`` runs here, in the sandbox, before
the first conftest imports the project (which would bind a stale extension). A build that fails
ends the session once the reporter has started (the run reports no test, so it cannot pass: the
candidate's fault, not the harness's), with the compiler's last words on stderr.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

_FAILED: list[str] = []


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args) -> None:  # type: ignore[no-untyped-def]
    proc = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        _FAILED.append(proc.stderr[-4000:])


@pytest.hookimpl(trylast=True)
def pytest_configure(config) -> None:  # type: ignore[no-untyped-def]
    if _FAILED:
        sys.stderr.write(_FAILED[0])
        raise pytest.UsageError("truepass: the patched compiled extension does not build")
