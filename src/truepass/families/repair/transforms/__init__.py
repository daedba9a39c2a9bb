"""Suite transforms for the leakage probe: the same defects in a form no model has seen.

``obfuscate`` renames what each sample defines (functions, classes, parameters, locals,
attributes of its own classes, its modules), drops comments and docstrings and normalises the
layout, consistently across code, visible and hidden tests, reference fix and ``known_overfit``
(see :mod:`truepass.families.repair.transforms.obfuscate` for what is and is not renamed). Running
one
solver on a suite and on its transform, then comparing the runs sample by sample, measures how
much of its success rests on having memorised the original text.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from truepass.errors import InputError, PatchError
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.transforms.obfuscate import (
    ObfuscationError,
    plan_renaming,
    rename_in_text,
    rewrite_files,
)
from truepass.patches.apply import apply_diff, changed_lines, unified_diff
from truepass.suites.suite import Suite

TRANSFORMS = ("obfuscate",)


def transform_suite(suite: Suite, name: str, *, seed: int = 0) -> Suite:
    """``suite`` with transform ``name`` applied to every sample.

    Args:
        suite: the suite to transform (left unchanged).
        name: the transform; one of :data:`TRANSFORMS`.
        seed: varies the new names; the same seed always gives the same suite.

    Returns a suite named ``<name>+obfuscated`` whose content hash is the sha256 of the canonical
    JSON of the transformed samples; sample ids and ``path`` are kept, so runs on both forms pair
    by sample id. Raises :class:`InputError` for an unknown transform.
    """
    if name not in TRANSFORMS:
        raise InputError(
            f"unknown transform '{name}' (known transforms: {', '.join(TRANSFORMS)})",
            field="transform",
        )
    samples = [obfuscate_sample(s, seed=seed) for s in suite.samples]
    return replace(
        suite,
        name=f"{suite.name}+obfuscated",
        content_hash=samples_hash(samples),
        samples=samples,
    )


def samples_hash(samples: list[RepairSample]) -> str:
    """sha256 of the canonical JSON (sorted keys, compact separators) of ``samples``."""
    payload = [s.model_dump(mode="json") for s in samples]
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def obfuscate_sample(sample: RepairSample, seed: int = 0) -> RepairSample:
    """``sample`` with its identifiers renamed, comments and docstrings removed, layout normalised.

    The reference fix and ``known_overfit`` are applied to the original buggy files, the results
    rewritten with the same renaming, and the diffs regenerated against the rewritten buggy files;
    fault lines are recomputed from the new fix (the buggy lines it removes or changes; for a pure
    insertion the line before). The description is natural language and is kept, except that
    identifiers written as code in it (in backticks, with an underscore, in camelCase, or as a
    call ``name(``) and file names are renamed along with the code.

    ``meta["transform"]`` records ``"obfuscate"`` with the seed and the number of renamed
    identifiers and files (never the names themselves: they would leak the original). A sample
    that cannot be obfuscated safely (code that does not parse, a fix that does not apply, a fix
    that only touched comments) is returned unchanged but for a note in ``meta["transform"]``;
    so is a sample with ``tests.expected`` (its test ids would not follow renamed tests).
    """
    if sample.tests.expected is not None:
        return _skipped(sample, "its expected test ids would not follow renamed tests")
    try:
        fixed = apply_diff(sample.files, sample.fix)
        overfit = apply_diff(sample.files, sample.known_overfit) if sample.known_overfit else None
    except PatchError as exc:
        return _skipped(sample, f"a reference patch does not apply: {exc}")
    tests = sample.test_files
    versions = [sample.files, fixed, tests, *([overfit] if overfit is not None else [])]
    try:
        renaming = plan_renaming(versions, seed=seed, salt=sample.id, test_paths=frozenset(tests))
        files = rewrite_files(sample.files, renaming)
        new_fixed = rewrite_files(fixed, renaming)
        visible = rewrite_files(sample.tests.visible, renaming)
        hidden = rewrite_files(sample.tests.hidden, renaming)
        new_overfit = rewrite_files(overfit, renaming) if overfit is not None else None
    except ObfuscationError as exc:
        return _skipped(sample, str(exc))
    fix = unified_diff(files, new_fixed)
    if not fix:
        return _skipped(sample, "the reference fix changes only comments, docstrings or layout")
    meta: dict[str, object] = {
        **sample.meta,
        "transform": "obfuscate",
        "transform_seed": seed,
        "renamed_identifiers": len(renaming.names),
        "renamed_files": len(renaming.paths),
    }
    known_overfit = None
    if new_overfit is not None:
        known_overfit = unified_diff(files, new_overfit) or None
        if known_overfit in (None, fix):
            known_overfit = None
            meta["transform_note"] = "known_overfit dropped: it no longer differs after rewriting"
    fault = [
        {"file": p, "lines": changed_lines(files[p], new_fixed[p])}
        for p in sorted(files)
        if p in new_fixed and new_fixed[p] != files[p]
    ]
    data = sample.model_dump()
    data.update(
        description=rename_in_text(sample.description, renaming),
        files=files,
        tests={"visible": visible, "hidden": hidden, "visible_role": sample.tests.visible_role},
        fix=fix,
        fault=fault,
        known_overfit=known_overfit,
        test_command=_argv(sample.test_command, renaming.paths),
        meta=meta,
    )
    return RepairSample.model_validate(data)


def _argv(argv: list[str] | None, paths: dict[str, str]) -> list[str] | None:
    """A custom test command with renamed file paths (``path`` and ``path::node`` arguments)."""
    if argv is None:
        return None
    out = []
    for arg in argv:
        head, sep, tail = arg.partition("::")
        out.append(paths.get(head, head) + sep + tail)
    return out


def _skipped(sample: RepairSample, reason: str) -> RepairSample:
    meta = {**sample.meta, "transform": f"obfuscate skipped: {reason}"}
    return sample.model_copy(update={"meta": meta})
