"""Forced-language mode (``--transform language-NAME``): every task of a rebuild suite requires
its submissions in one language. The agent is told so; the judge gives a submission mainly in
another language zero (``wrong-language``, :func:`truepass.families.rebuild.family`)."""

from __future__ import annotations

from dataclasses import replace

from truepass.suites.loader import samples_hash
from truepass.suites.suite import Suite


def force_language(suite: Suite, language: str) -> Suite:
    """``suite`` with every task requiring ``language`` (``Rust``), named
    ``NAME+language-rust``, with its own content hash: runs in this mode never mix with runs of
    the free mode in a store; sample ids are kept, so the two pair by task."""
    samples = [s.model_copy(update={"required_language": language}) for s in suite.samples]
    return replace(
        suite,
        name=f"{suite.name}+language-{language.casefold()}",
        content_hash=samples_hash(samples),
        samples=samples,
    )
