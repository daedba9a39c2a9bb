"""Suite formats: public benchmark files read as they are (``--suite FORMAT:PATH``,
``truepass import``), each contributed by the family whose samples it makes
(:meth:`~truepass.families.base.Family.suite_formats`; all of them:
:func:`truepass.families.registry.formats`).

A format's reader is a function ``(path) -> (samples, source_bytes)``: the samples it builds, and
the bytes of the files it read (their sha256 is the suite's content hash). Data stays where the
user keeps it; nothing is copied into truepass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class SuiteFormat:
    """One public benchmark format."""

    name: str
    """what ``--suite NAME:PATH`` calls it"""
    read: Callable[[Path], tuple[list[Any], bytes]]
    """the reader (imported when it is called: a family's readers may be heavy)"""
    reads: str
    """what PATH is (``truepass suites``, docs/adapters.md)"""
    default_source: Callable[[], Path] | None = None
    """where its data comes from when no path is given (``--suite humaneval``); None: a path is
    needed"""
    setting: str | None = None
    """what its samples show their solvers, when the benchmark has settings (SWE-bench's
    ``issue-only`` and ``tests-shown``): the suite's ``setting``, recorded in the manifest and
    shown in the summary and the report"""
    self_contained: bool = False
    """its samples depend on the bytes of the file PATH alone (no file beside it, no repository):
    then a load is kept in the suite cache by those bytes (:mod:`truepass.suites.cache`)"""
