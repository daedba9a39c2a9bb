"""The wide candidate pool of rebuild tests (issue 27: hundreds of tests per task), on top of
:func:`~truepass.families.rebuild.inputs.initial_cases`: every option crossed with several
inputs, every documented value, pairs of options, inputs in the language the program reads
(:mod:`~truepass.families.rebuild.snippets`), directory trees for programs that walk them, and
locales; and the moves that grow new candidates from kept ones beyond
:func:`~truepass.families.rebuild.inputs.grow_cases` (a fresh snippet, the gold's own output fed
back as input, another locale).

All deterministic for a seeded ``random.Random`` (and the machine's installed locales).
"""

from __future__ import annotations

import functools
import random
import re
import subprocess
from collections.abc import Sequence

from truepass.families.rebuild.emit import Case
from truepass.families.rebuild.grammar import Grammar, Operand, Option
from truepass.families.rebuild.inputs import (
    OPERANDS,
    SEEDS,
    Seeds,
    arg_form,
    env_values,
    flag_form,
    grow_cases,
    initial_cases,
    is_meta,
    operand_kind,
    unique_cases,
    values_for,
)
from truepass.families.rebuild.snippets import Language, languages_of

CROSS_INPUTS = 4
"""Inputs every flag is tried on (each valued option's values rotate over them)."""
SNIPPETS = 40
"""Snippets per language the program reads, as standard input (a quarter also as a file)."""
MAX_PAIRS = 240
"""Pairs of options tried (a seeded sample when there are more)."""
TREES = 8
"""Directory trees for a program that walks directories."""
FEEDBACK_BYTES = 4096
"""The largest output fed back as an input."""

WANTED_LOCALES = ("C", "POSIX", "C.UTF-8", "en_US.UTF-8", "de_DE.UTF-8", "tr_TR.UTF-8")
"""Locales tried, when the machine has them (``C``, ``POSIX`` and ``C.UTF-8`` come with the C
library; the others only where installed): ``tr_TR`` for its dotless i, ``de_DE`` for its
decimal comma."""


def _locale_key(name: str) -> str:
    return name.lower().replace("utf-8", "utf8")


@functools.cache
def installed_locales() -> frozenset[str]:
    """The locales ``locale -a`` lists (normalised: lower case, ``utf8``); empty when it
    cannot be run."""
    try:
        done = subprocess.run(["locale", "-a"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(_locale_key(x) for x in done.stdout.decode("ascii", "replace").split())


def locales() -> tuple[str, ...]:
    """The :data:`WANTED_LOCALES` this machine has (the sandbox sees the same system)."""
    have = installed_locales()
    base = ("C", "POSIX", "C.UTF-8")
    return tuple(x for x in WANTED_LOCALES if x in base or _locale_key(x) in have)


def walks(grammar: Grammar) -> bool:
    """Whether the program walks directories: its documentation speaks of directories or
    recursion, or an option takes a DIR."""
    text = grammar.help_text + "\n" + grammar.usage
    if re.search(r"\bdirector(y|ies)\b|\brecursive(ly)?\b", text, re.IGNORECASE):
        return True
    return any("DIR" in o.hint.upper() for o in grammar.options)


_TREE_DIRS = ("", "sub/", "sub/deep/", "other/", ".hidden/", "a b/")
_TREE_NAMES = ("a", "b", "notes", "x y", ".dot", "README", "z-last", "UPPER")


def tree(rng: random.Random, contents: Sequence[bytes], extension: str = "txt",
         root: str = "tree") -> tuple[tuple[str, bytes], ...]:  # fmt: skip
    """A small directory tree under ``root``: two to seven files in nested, hidden and spaced
    directories, some with ``extension``, some without, their contents drawn from
    ``contents`` (sorted by path; no two files at one path)."""
    files: dict[str, bytes] = {}
    for _ in range(rng.randint(2, 7)):
        where = _TREE_DIRS[rng.randrange(len(_TREE_DIRS))]
        name = _TREE_NAMES[rng.randrange(len(_TREE_NAMES))]
        suffix = f".{extension}" if rng.random() < 0.7 else rng.choice(("", ".log", ".bak"))
        files[f"{root}/{where}{name}{suffix}"] = contents[rng.randrange(len(contents))]
    return tuple(sorted(files.items()))


def _with_value(option: Option, index: int) -> tuple[str, ...]:
    if option.arg is None:
        return (flag_form(option, index),)
    values = values_for(option)
    return arg_form(option, values[index % len(values)], index)


def _inputs(seeds: Seeds, snippets: Sequence[bytes]) -> list[bytes]:
    """The inputs options are crossed with: the program's own seeds (scripts first: a program
    driven by commands reads them), snippets of its language, then the standard seeds."""
    standard = [
        SEEDS[n] for n in ("lines", "words", "utf8", "no-newline", "numbers", "tabs", "overstrike")
    ]
    found = [*seeds.scripts, *seeds.stdin, *snippets[:CROSS_INPUTS], *standard]
    return list(dict.fromkeys(found))


def _is_option(arg: str) -> bool:
    return arg.startswith("-") and arg != "-"


OPERAND_MIXES = 12
"""Runs with every operand given at once, the values rotating."""


def _filled(operands: Sequence[Operand], upto: int, turn: int = 0) -> tuple[str, ...]:
    """Arguments for the operands before ``upto``: the required ones (a file as ``-``, standard
    input) and the optional ones of a known kind, each its first value (``turn`` > 0: the n-th
    operand its ``turn + n``-th)."""
    out: tuple[str, ...] = ()
    for n, operand in enumerate(operands[:upto]):
        kind = operand_kind(operand.name)
        if kind is not None:
            values = OPERANDS[kind]
            out += values[(turn + n) % len(values) if turn else 0]
        elif operand.required:
            out += ("-",)
    return out


def _operand_cases(
    operands: Sequence[Operand], inputs: Sequence[bytes], sfiles: tuple[tuple[str, bytes], ...]
) -> list[Case]:
    """Every value of each operand of a known kind (on two inputs, the operands before it
    filled in), then all operands at once with rotating values."""
    cases: list[Case] = []
    for i, operand in enumerate(operands):
        kind = operand_kind(operand.name)
        if kind is None:
            continue
        before = _filled(operands, i)
        for j, value in enumerate(OPERANDS[kind]):
            for k in range(2):
                stdin = inputs[(i + j + k) % len(inputs)]
                note = f"{operand.name} {' '.join(value)!r}, input {k}"
                cases.append(Case("args", before + value, stdin, sfiles, note=note))
    if any(operand_kind(o.name) for o in operands):
        for turn in range(1, OPERAND_MIXES + 1):
            args = _filled(operands, len(operands), turn)
            note = f"operands {' '.join(args)!r}"
            cases.append(Case("args", args, inputs[turn % len(inputs)], sfiles, note=note))
    return cases


def wider_cases(grammar: Grammar, seeds: Seeds, rng: random.Random) -> list[Case]:
    """The candidates of :func:`initial_cases` and, beyond them, options crossed with inputs,
    pairs, language snippets, directory trees and locales (no repeats; deterministic for a
    seeded ``rng``)."""
    base = initial_cases(grammar, seeds, rng)
    options = [o for o in grammar.options if not is_meta(o) and not o.writes]
    languages = languages_of(grammar)
    snippets: list[bytes] = []
    by_language: list[tuple[Language, list[bytes]]] = []
    for lang in languages:
        made = lang.snippets(rng, SNIPPETS)
        by_language.append((lang, made))
        snippets += made
    inputs = _inputs(seeds, snippets)
    sfiles = seeds.files
    cases: list[Case] = []

    # stdin and files: the language's snippets, as input and as a file operand
    for lang, made in by_language:
        for k, text in enumerate(made):
            cases.append(Case("stdin", (), text, sfiles, note=f"{lang.name} snippet {k + 1}"))
        readers = [o for o in grammar.options if o.kind == "file" and o.arg and not o.writes]
        for k, text in enumerate(made[: SNIPPETS // 4]):
            name = f"in.{lang.extension}"
            files = (*sfiles, (name, text))
            note = f"{lang.name} snippet {k + 1} in a file"
            if readers:
                args = arg_form(readers[k % len(readers)], name, k)
                cases.append(Case("files", args, b"", files, note=note))
            if grammar.takes_files or not readers:
                cases.append(Case("files", (name,), b"", files, note=note))

    # args: every option on several inputs, every value, pairs of options
    for i, option in enumerate(options):
        if option.arg is None:
            for k in range(CROSS_INPUTS):
                stdin = inputs[(i + k) % len(inputs)]
                args = (flag_form(option, i + k),)
                cases.append(Case("args", args, stdin, sfiles, note=f"{option.name}, input {k}"))
        else:
            for j, value in enumerate(values_for(option)):
                for k in range(2):
                    stdin = inputs[(i + j + k) % len(inputs)]
                    args = arg_form(option, value, j + k)
                    note = f"{option.name} {value!r}, input {k}"
                    cases.append(Case("args", args, stdin, sfiles, note=note))
    pairs = [(a, b) for n, a in enumerate(options) for b in options[n + 1 :]]
    rng.shuffle(pairs)
    for k, (a, b) in enumerate(pairs[:MAX_PAIRS]):
        args = _with_value(a, k) + _with_value(b, k + 1)
        note = f"{a.name} with {b.name}"
        cases.append(Case("args", args, inputs[k % len(inputs)], sfiles, note=note))

    # operands: values for the synopsis's operands (numbers, names, formats, expressions), one
    # at a time and all together; options then also run with the required ones
    cases += _operand_cases(grammar.operands, inputs, sfiles)
    needed = [o for o in grammar.operands if o.required]
    required = _filled(needed, len(needed))
    if any(operand_kind(o.name) for o in needed):
        options_only = [c for c in cases if c.dimension == "args" and _is_option(c.args[0])]
        for case in options_only:
            note = f"{case.note}; with {' '.join(required)}"
            cases.append(Case("args", case.args + required, case.stdin, case.files, note=note))

    # env: locales on inputs and options, the documented variables on more inputs
    flags = [o for o in options if o.arg is None]
    for n, loc in enumerate(locales()):
        env = (("LC_ALL", loc),)
        for stdin in (*inputs[:2], SEEDS["utf8"], SEEDS["binary"]):
            cases.append(Case("env", (), stdin, sfiles, env, note=f"LC_ALL={loc}"))
        for k, option in enumerate(flags[:3]):
            args = (flag_form(option, n + k),)
            note = f"LC_ALL={loc} with {option.name}"
            cases.append(Case("env", args, inputs[k % len(inputs)], sfiles, env, note=note))
    for name in grammar.env_vars:
        for value in env_values(name, grammar):
            for stdin in inputs[2:CROSS_INPUTS]:
                cases.append(Case("env", (), stdin, sfiles, ((name, value),),
                                  note=f"{name}={value!r}"))  # fmt: skip

    # files: directory trees for a program that walks them, alone and under every flag
    if walks(grammar):
        extension = languages[0].extension if languages else "txt"
        contents = snippets[:8] or inputs
        for t in range(TREES):
            files = tree(rng, contents, extension)
            for args in ((), (".",), ("tree",)):
                cases.append(Case("files", args, b"", files, note=f"tree {t + 1} {args}"))
        for i, option in enumerate(options):
            files = tree(rng, contents, extension)
            args = (*_with_value(option, i), "tree")
            cases.append(Case("files", args, b"", files, note=f"{option.name} on a tree"))
    return unique_cases(base + cases)


def grow_wider(
    kept: Sequence[Case], outputs: Sequence[bytes], grammar: Grammar, rng: random.Random, n: int
) -> list[Case]:
    """``n`` new candidates near ``kept`` (at most; repeats dropped): half by
    :func:`grow_cases`' moves, half by this module's: its input replaced by a fresh snippet of
    the program's language, by one of the gold's own ``outputs`` (a formatter's output is its
    input), or its locale changed."""
    if not kept:
        return []
    languages = languages_of(grammar)
    fed = [o for o in outputs if o and len(o) <= FEEDBACK_BYTES]
    locs = locales()
    half = n // 2
    out = grow_cases(list(kept), grammar, rng, n - half)
    for _ in range(half * 3):
        if len(out) >= n:
            break
        base = kept[rng.randrange(len(kept))]
        move = rng.randrange(3)
        if move == 0 and languages:
            lang = languages[rng.randrange(len(languages))]
            stdin = lang.snippet(rng)
            note = f"{base.note}; a fresh {lang.name} snippet"
        elif move == 1 and fed:
            stdin = fed[rng.randrange(len(fed))]
            note = f"{base.note}; on an output of the gold"
        else:
            loc = locs[rng.randrange(len(locs))]
            env = (*(kv for kv in base.env if kv[0] != "LC_ALL"), ("LC_ALL", loc))
            out.append(Case("env", base.args, base.stdin, base.files, env,
                            f"{base.note}; LC_ALL={loc}"))  # fmt: skip
            continue
        out.append(Case(base.dimension, base.args, stdin, base.files, base.env, note))
    return unique_cases(out)
