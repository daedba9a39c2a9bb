"""Consistent identifier renaming of a sample's Python sources: the leakage probe's rewrite.

:func:`plan_renaming` reads every version of a sample's files (buggy code, fixed code, overfit
code, tests) with :mod:`ast` and decides, once per identifier, whether the sample itself defines it
and can rename it safely; :func:`rewrite_files` then applies that one plan to any version, so the
buggy code, its fix and its tests stay consistent. Nothing of the sample is executed: only the
standard library modules (and pytest) that a sample imports are imported here, to learn which
attribute names their objects carry.

What is renamed: functions, classes, methods, parameters, locals, module-level names, attributes
defined on the sample's own classes (class-body names, ``self.x = ...``, ``__slots__``), keyword
arguments at calls of the sample's own callables, and the modules of its ``.py`` files. New names
come from a seeded hash: ``f_1a2b`` (function), ``C_77aa`` (class), ``v_9c0d`` (anything else),
``mod_3f2a`` (module), keeping leading underscores and a ``test``/``Test`` prefix so that pytest
still collects tests. Docstrings and other bare string statements go, comments go, the layout is
``ast.unparse``'s; string literals that are data stay as they are.

What is kept, on purpose (see :attr:`Renaming.kept` for the reason of each): builtins, dunder
names, ``self``/``cls``, names imported from outside the sample, attributes that objects of the
standard library or pytest also carry (``pop``, ``name``, ...), pytest fixture parameters, Enum
members and TypedDict keys, keywords passed through calls the analysis cannot follow, and, when
the code reflects on names (``getattr``, ``asdict``, ``mock.patch``, ...), every identifier that
also occurs as a string literal. Package directories, ``__init__.py`` and ``conftest.py`` keep their
names.
"""

from __future__ import annotations

from truepass.families.repair.transforms.obfuscation.facts import (
    BUILTIN_NAMES,
    ENUM_BASES,
    FIELD_BASES,
    FORWARDERS,
    KEEP_ALWAYS,
    KEEP_FILES,
    NEVER_IMPORT,
    PYTEST_INTERNALS,
    PYTEST_NAMES,
    REFLECTIVE,
    STRING_LISTS,
    TYPEVAR_LIKE,
    ObfuscationError,
    Renaming,
    module_name,
)
from truepass.families.repair.transforms.obfuscation.plan import plan_renaming
from truepass.families.repair.transforms.obfuscation.rewrite import (
    rename_in_text,
    rewrite_files,
    rewrite_source,
)

__all__ = [
    "BUILTIN_NAMES",
    "ENUM_BASES",
    "FIELD_BASES",
    "FORWARDERS",
    "KEEP_ALWAYS",
    "KEEP_FILES",
    "NEVER_IMPORT",
    "PYTEST_INTERNALS",
    "PYTEST_NAMES",
    "REFLECTIVE",
    "STRING_LISTS",
    "TYPEVAR_LIKE",
    "ObfuscationError",
    "Renaming",
    "module_name",
    "plan_renaming",
    "rename_in_text",
    "rewrite_files",
    "rewrite_source",
]
