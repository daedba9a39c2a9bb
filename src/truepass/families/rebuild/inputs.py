"""Seed inputs, their mutations and argument values for rebuild tests (all deterministic: a
mutation takes a ``random.Random`` the caller seeds)."""

from __future__ import annotations

import base64
import binascii
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from truepass.errors import InputError
from truepass.families.rebuild.emit import Case
from truepass.families.rebuild.grammar import Grammar, Option

SEEDS: dict[str, bytes] = {
    "empty": b"",
    "one-line": b"hello world\n",
    "lines": b"alpha\nbravo\ncharlie\ndelta\n",
    "no-newline": b"first line\nsecond line",
    "tabs": b"a\tb\tc\n\td\te\n",
    "long-line": b"x" * 300 + b"yz" * 40 + b"\n",
    "utf8": "héllo wörld\nñandú 日本語\n€ 1\n".encode(),
    "blank-lines": b"one\n\n\ntwo\n\nthree\n",
    "numbers": b"10\n2\n-3\n4.5\n1e3\n007\n",
    "binary": b"ab\x00cd\n\xff\xfe\x01\n\x7f\n",
    "spaces": b"  leading\ntrailing  \n  both  \n",
    "crlf": b"dos\r\nline\r\n",
    "words": b"the quick brown fox\njumps over the lazy dog\nthe end\n",
    "mixed": b"Line 1: a,b;c\nline-2 [x] {y} (z)\n$HOME `q` 'r' \"s\" \\t\n",
    "overstrike": b"ab\x08c\tde\x08\x08f\n_\x08x_\x08y\tz\n\tlead\x08\n",
}
"""The standard seeds: name -> bytes."""

STANDARD = SEEDS["lines"]
"""The input of tests about something else (options, environment)."""

_SPECIAL = [b"\t", b"\\", b"\x00", b"%s", b"\xc3\xa9", b"\r", b"  ", b"-", b"'", b"\x1b[1m"]


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _duplicate(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    if not lines:
        return b"\n"
    i = rng.randrange(len(lines))
    line = lines[i] if lines[i].endswith(b"\n") else lines[i] + b"\n"
    return b"".join([*lines[:i], line, *lines[i:]])


def _drop(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    if len(lines) < 2:
        return data[: len(data) // 2]
    del lines[rng.randrange(len(lines))]
    return b"".join(lines)


def _swap(data: bytes, rng: random.Random) -> bytes:
    lines = [ln if ln.endswith(b"\n") else ln + b"\n" for ln in _lines(data)]
    if len(lines) < 2:
        return data + data
    i, j = rng.sample(range(len(lines)), 2)
    lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def _insert_special(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(_SPECIAL) + data[at:]


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data))] if data else b""


def _strip_newline(data: bytes, rng: random.Random) -> bytes:
    return data.rstrip(b"\n") if data.endswith(b"\n") else data + b"\n\n"


def _repeat(data: bytes, rng: random.Random) -> bytes:
    return data * rng.choice((2, 3, 5)) if data else b"\n" * 3


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "duplicate-line": _duplicate,
    "drop-line": _drop,
    "swap-lines": _swap,
    "insert-special": _insert_special,
    "truncate": _truncate,
    "toggle-final-newline": _strip_newline,
    "repeat": _repeat,
}


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One random mutation of ``data``: its name and result."""
    name = rng.choice(sorted(MUTATIONS))
    return name, MUTATIONS[name](data, rng)


_POOLS: dict[str, tuple[str, ...]] = {
    "number": ("0", "1", "3", "-1", "10", "999999", "abc", "1.5", "99999999999999999999999"),
    "size": ("0", "1", "10", "1K", "2M", "-1", "abc"),
    "list": ("1", "2-3", "1,3", "-2", "3-", "1-3", "0", "a"),
    "when": ("always", "never", "auto", "sometimes"),
    "regex": ("a", "^b", "[0-9]+", ".", "a*", "[", "\\(x\\)"),
    "char": (",", ":", "\t", "", "ab", " "),
    "string": ("x", ",", "", "abc", " ", "--", "a b"),
    "file": ("in.txt", "missing.txt"),
}


def values_for(option: Option) -> tuple[str, ...]:
    """Argument values to try for ``option``: what its documentation lists (a braced choice in
    its hint too: ``{name|descriptor}``), signed values where its hint takes a sign
    (``--bytes=[-]NUM``: ``-2``), then the pool of its kind (numbers include 0, negatives and
    huge ones; invalid ones too)."""
    pool = _POOLS.get(option.kind, _POOLS["string"])
    braced = re.fullmatch(r"\{([^{}]+)\}", option.hint)  # {name|descriptor}, {a,b}: a choice
    if braced:
        extra = tuple(re.split(r"[|,]", braced.group(1)))
    else:
        extra = (option.hint,) if option.hint.islower() else ()
    signed = tuple(f"{c}{v}" for c in "-+" if f"[{c}]" in option.hint for v in ("2", "0"))
    return tuple(dict.fromkeys((*option.values, *extra, *signed, *pool)))


OPERANDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "number": (("1",), ("3",), ("10",), ("0",), ("-1",), ("2.5",), ("abc",), ("999999",),
               ("1e3",), ("0x10",), ("18446744073709551617",)),
    "name": (("a/b/c.txt",), ("/usr/lib/",), ("/",), ("",), ("file",), ("//x//y//",), (".",),
             ("a.tar.gz",), ("dir/",), ("-",)),
    "suffix": ((".txt",), (".gz",), ("c",), ("",), ("a.tar.gz",)),
    "format": (("%s\\n",), ("%d|%5.2f|%x|%o\\n",), ("%b\\n",), ("hello\\tworld\\n",),
               ("%q\\n",), ("%%|%c\\n",), ("%10s|%-4d|\\n",), ("%e %g %G\\n",),
               ("\\x41\\101\\u00e9\\n",), ("%*d\\n",), ("%.3s\\n",), ("%i %u %z\\n",)),
    "argument": (("1",), ("abc",), ("3.5",), ("-7",), ("'x",), ("0x1F",), ("\\t",), ("",),
                 ("1e2",), ("077",)),
    "expression": (("1", "+", "2"), ("length", "abc"), ("substr", "hello", "2", "3"),
                   ("abc", ":", "a\\(.\\)"), ("5", "<", "3"), ("index", "abc", "c"),
                   ("1", "/", "0"), ("a", "|", "b"), ("(", "2", "*", "3", ")", "%", "4"),
                   ("", "&", "x"), ("match", "ab12", "[a-z]*"), ("10", "-", "abc"),
                   ("9999999999999999999", "*", "9"), ("+", "x"), ("2", "=", "2.0"),
                   ("b", ">=", "a"), ("1", "+")),
    "pattern": (("/b/",), ("2",), ("%a%",), ("/x/", "{*}"), ("/a/", "{2}"), ("3", "{1}"),
                ("/[0-9]/+1",), ("/[/",), ("0",)),
    "prefix": (("part",), ("x-",)),
}  # fmt: skip
"""Values of operands by kind (:func:`operand_kind`); an expression's is several arguments."""


def operand_kind(name: str) -> str | None:
    """The kind of the operand the synopsis calls ``name`` (``startcol``: number, ``SUFFIX``,
    ``FORMAT``, ``EXPRESSION``...), or None for files and what is not known (the file cases
    cover files)."""
    word = name.lower().rstrip("0123456789")
    if "file" in word or word in ("input", "path", "dir", "directory", "url"):
        return None
    if re.search(r"col|start|stop|end|first|last|incr|number|num|count|width|^n$", word):
        return "number"
    for kind in ("name", "suffix", "format", "expression", "pattern", "prefix"):
        if kind in word:
            return kind
    return "argument" if word in ("argument", "arg", "string", "text", "word") else None


INVALID: dict[str, tuple[str, ...]] = {
    "number": ("abc", "-5", "1x"),
    "size": ("abc", "1Q"),
    "list": ("a", "0", "3-1"),
    "when": ("sometimes",),
    "regex": ("[", "\\"),
}
"""Values that a program of good manners refuses, by kind."""


# --- candidate cases, by dimension -------------------------------------------------------------

DIMENSIONS = ("args", "env", "help", "stdin", "files", "subcommands")


@dataclass(frozen=True)
class Seeds:
    """Program-specific seeds (``--seeds FILE``): standard inputs, argument lists, command
    scripts (for programs driven by commands on stdin, like ed or bc) and files every run of a
    script or seeded argument list finds in its directory."""

    stdin: tuple[bytes, ...] = ()
    args: tuple[tuple[str, ...], ...] = ()
    scripts: tuple[bytes, ...] = ()
    files: tuple[tuple[str, bytes], ...] = ()


def arg_form(option: Option, value: str, index: int) -> tuple[str, ...]:
    """``option`` with ``value``, alternating the spellings a parser must accept."""
    if option.long and (index % 2 == 0 or not option.short):
        if option.arg == "optional" or index % 4 == 0:
            return (f"{option.long}={value}",)
        return (option.long, value)
    name = option.short or option.name
    if option.arg == "optional" or (index % 3 == 1 and value and len(name) == 2):
        return (name + value,)
    return (name, value)


def flag_form(option: Option, index: int) -> str:
    """A flag's short or long name, alternating by ``index`` when it has both."""
    if option.short and option.long:
        return option.short if index % 2 == 0 else option.long
    return option.short or option.name


def env_values(name: str, grammar: Grammar) -> tuple[str, ...]:
    """Values to try for the environment variable ``name``, by what its name suggests."""
    upper = name.upper()
    if any(w in upper for w in ("LENGTH", "WIDTH", "COLUMNS", "LINES", "SIZE", "COUNT")):
        return ("0", "5", "100", "abc")
    if any(w in upper for w in ("ARGS", "OPTS", "OPTIONS", "FLAGS")):
        flags = [o.short or o.name for o in grammar.options if o.arg is None and not is_meta(o)]
        return (*tuple(flags[:3]), "--no-such-option")
    if upper == "POSIXLY_CORRECT":
        return ("1",)
    if "DIR" in upper:
        return ("/nonexistent", ".")
    return ("1", "", "x")


def is_meta(option: Option) -> bool:
    """Whether ``option`` is ``--help`` or ``--version`` (tested apart, never combined)."""
    return option.is_help or option.is_version


def _unknown_short(grammar: Grammar) -> str:
    taken = {o.short for o in grammar.options}
    return next(f"-{c}" for c in "ZQjyYkKJ0" if f"-{c}" not in taken)


def _ambiguous_prefix(grammar: Grammar) -> str | None:
    longs = sorted(o.long for o in grammar.options if o.long)
    for size in range(3, 8):
        prefixes: dict[str, int] = {}
        for name in longs:
            if len(name) > size:
                prefixes[name[:size]] = prefixes.get(name[:size], 0) + 1
        shared = sorted(p for p, n in prefixes.items() if n >= 2)
        if shared:
            return shared[0]
    return None


def _unique_prefix(name: str, grammar: Grammar) -> str | None:
    longs = [o.long for o in grammar.options if o.long and o.long != name]
    for size in range(3, len(name)):
        if not any(other.startswith(name[:size]) for other in longs):
            return name[:size]
    return None


def initial_cases(grammar: Grammar, seeds: Seeds, rng: random.Random) -> list[Case]:
    """The first candidates, along every dimension (deterministic for a seeded ``rng``)."""
    options = [o for o in grammar.options if not is_meta(o)]
    flags = [o for o in options if o.arg is None]
    valued = [o for o in options if o.arg is not None and not o.writes]
    rotation = [SEEDS[n] for n in ("lines", "words", "blank-lines", "no-newline", "numbers")]
    rotation += list(seeds.stdin)
    inputs = [STANDARD, *seeds.stdin[:2], *seeds.scripts[:2]]
    sfiles = seeds.files
    cases: list[Case] = []

    # help: help and version, bad options, missing and invalid arguments
    for option in grammar.options:
        if option.is_help or option.is_version:
            for name in option.names:
                cases.append(Case("help", (name,), note=f"{name}"))
    cases.append(Case("help", ("--no-such-option",), STANDARD, note="an unknown long option"))
    bad = _unknown_short(grammar)
    cases.append(Case("help", (bad,), STANDARD, note=f"an unknown short option {bad}"))
    if (prefix := _ambiguous_prefix(grammar)) is not None:
        cases.append(Case("help", (prefix,), STANDARD, note=f"an ambiguous abbreviation {prefix}"))
    for option in options:
        if option.arg == "required":
            for name in option.names:
                cases.append(Case("help", (name,), STANDARD, note=f"{name} without its argument"))
        for value in INVALID.get(option.kind, ()):
            args = arg_form(option, value, len(cases))
            cases.append(Case("help", args, STANDARD, note=f"{option.name}: invalid {value!r}"))
    for option in flags:
        if option.long:
            arg = f"{option.long}=x"
            cases.append(Case("help", (arg,), STANDARD, note=f"{arg}: no argument allowed"))

    # args: every option alone (on rotating inputs), with every value, then in pairs
    for i, option in enumerate(flags):
        stdin = rotation[i % len(rotation)]
        cases.append(Case("args", (flag_form(option, i),), stdin, note=f"{option.name}"))
        if option.long and (prefix := _unique_prefix(option.long, grammar)):
            cases.append(Case("args", (prefix,), stdin, note=f"{option.long} abbreviated"))
    for i, option in enumerate(valued):
        for j, value in enumerate(values_for(option)):
            stdin = rotation[(i + j) % len(rotation)]
            note = f"{option.name} {value!r}"
            cases.append(Case("args", arg_form(option, value, j), stdin, note=note))
    pairs = [(a, b) for i, a in enumerate(options) for b in options[i + 1 :]]
    rng.shuffle(pairs)
    for k, (a, b) in enumerate(pairs[:40]):
        args: tuple[str, ...] = ()
        for m, option in enumerate((a, b)):
            if option.arg is None:
                args += (flag_form(option, k + m),)
            else:
                values = values_for(option)
                args += arg_form(option, values[(k + m) % len(values)], k + m)
        note = f"{a.name} with {b.name}"
        cases.append(Case("args", args, rotation[k % len(rotation)], note=note))
    shorts = [o.short for o in flags if o.short]
    if len(shorts) >= 2:
        combined = "-" + "".join(s[1] for s in shorts[:3])
        cases.append(Case("args", (combined,), STANDARD, note=f"short options combined {combined}"))
    cases.append(Case("args", ("--",), STANDARD, note="-- ends the options"))
    for args in seeds.args:
        for stdin in (STANDARD, *seeds.stdin[:1], *seeds.scripts[:1]):
            cases.append(Case("args", tuple(args), stdin, sfiles, note="seeded arguments"))

    # env: the standard environment variables and the ones the man page names
    utf8 = SEEDS["utf8"]
    for stdin in inputs:
        cases.append(
            Case("env", (), stdin, env=(("POSIXLY_CORRECT", "1"),), note="POSIXLY_CORRECT")
        )
        cases.append(Case("env", (), stdin, env=(("COLUMNS", "20"),), note="COLUMNS=20"))
    cases.append(Case("env", (), utf8, env=(("LC_ALL", "C.UTF-8"),), note="UTF-8 locale"))
    cases.append(
        Case("env", (), utf8, env=(("LC_ALL", ""), ("LANG", "C.UTF-8")), note="LANG UTF-8")
    )
    cases.append(Case("env", (), SEEDS["binary"], env=(("LC_ALL", "C.UTF-8"),), note="bytes"))
    cases.append(Case("env", ("--no-such-option",), env=(("LC_ALL", "C.UTF-8"),), note="UTF-8"))
    cases.append(Case("env", (), STANDARD, env=(("TZ", "America/New_York"),), note="TZ"))
    if flags:
        late = (flag_form(flags[0], 0),)
        files = (("in.txt", STANDARD),)
        env = (("POSIXLY_CORRECT", "1"),)
        note = "POSIXLY_CORRECT: an option after an operand"
        cases.append(Case("env", ("in.txt", *late), files=files, env=env, note=note))
    for name in grammar.env_vars:
        for value in env_values(name, grammar):
            for stdin in inputs[:2] if len(inputs) > 1 else inputs:
                env = ((name, value),)
                cases.append(Case("env", (), stdin, sfiles, env, note=f"{name}={value!r}"))

    # stdin: every seed, then mutations of each
    stdins = [*SEEDS.items(), *((f"seed {i + 1}", s) for i, s in enumerate(seeds.stdin))]
    for name, data in stdins:
        cases.append(Case("stdin", (), data, note=f"input: {name}"))
    for name, data in stdins:
        for _ in range(2):
            how, mutated = mutate(data, rng)
            cases.append(Case("stdin", (), mutated, note=f"input: {name}, {how}"))

    # files: operands, several, missing, '-', a directory, output files
    a, b = SEEDS["lines"], SEEDS["words"]
    file_cases = [
        (("in.txt",), b"", (("in.txt", a),), "one file"),
        (("a.txt", "b.txt"), b"", (("a.txt", a), ("b.txt", b)), "two files"),
        (("missing.txt",), b"", (), "a missing file"),
        (("a.txt", "missing.txt", "b.txt"), b"", (("a.txt", a), ("b.txt", b)), "missing between"),
        (("-",), a, (), "'-' for standard input"),
        (("a.txt", "-", "b.txt"), SEEDS["one-line"], (("a.txt", a), ("b.txt", b)), "'-' between"),
        (("empty.txt",), b"", (("empty.txt", b""),), "an empty file"),
        (("in.txt",), b"", (("in.txt", SEEDS["no-newline"]),), "no final newline"),
        (("sub",), b"", (("sub/x.txt", a),), "a directory"),
        (("sub/x.txt",), b"", (("sub/x.txt", SEEDS["utf8"]),), "a file in a directory"),
        (("--", "-dash.txt"), b"", (("-dash.txt", a),), "a file named like an option"),
        (("in.txt", "in.txt"), b"", (("in.txt", SEEDS["blank-lines"]),), "the same file twice"),
    ]
    for args, stdin, files, note in file_cases:
        cases.append(Case("files", args, stdin, files, note=note))
    for i, option in enumerate(o for o in options if o.writes):
        out = arg_form(option, "out.txt", i)
        cases.append(Case("files", out, STANDARD, note=f"{option.name} writes a file"))
        cases.append(Case("files", (*out, "in.txt"), b"", (("in.txt", b),), note=option.name))
    for i, option in enumerate(o for o in options if o.kind == "file" and not o.writes):
        for value in ("in.txt", "missing.txt"):
            args = arg_form(option, value, i)
            cases.append(Case("files", args, STANDARD, (("in.txt", a),), note=option.name))

    # subcommands: seeded command scripts, alone and with the seeded arguments
    for i, script in enumerate(seeds.scripts):
        cases.append(Case("subcommands", (), script, sfiles, note=f"script {i + 1}"))
        for args in seeds.args[:3]:
            note = f"script {i + 1} with {' '.join(args)}"
            cases.append(Case("subcommands", tuple(args), script, sfiles, note=note))
    return unique_cases(cases)


def unique_cases(cases: list[Case]) -> list[Case]:
    """``cases`` without repeats of a run (the first of each key kept, in order)."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for case in cases:
        if case.key not in seen:
            seen.add(case.key)
            out.append(case)
    return out


def grow_cases(kept: list[Case], grammar: Grammar, rng: random.Random, n: int) -> list[Case]:
    """New candidates near the kept ones: their input mutated (a script line by line), an
    option added, or another value for an option's argument."""
    options = [o for o in grammar.options if not is_meta(o)]
    out: list[Case] = []
    if not kept:
        return out
    for _ in range(n * 3):
        if len(out) >= n:
            break
        base = kept[rng.randrange(len(kept))]
        move = rng.randrange(3)
        if move == 0 or not options:
            how, stdin = mutate(base.stdin, rng)
            note = f"{base.note}; {how}"
            out.append(Case(base.dimension, base.args, stdin, base.files, base.env, note))
        elif move == 1:
            option = options[rng.randrange(len(options))]
            if option.arg is None:
                extra: tuple[str, ...] = (flag_form(option, rng.randrange(2)),)
            else:
                values = values_for(option)
                extra = arg_form(option, values[rng.randrange(len(values))], rng.randrange(4))
            note = f"{base.note}; with {' '.join(extra)}"
            dim = "args" if base.dimension in ("stdin", "help") else base.dimension
            out.append(Case(dim, extra + base.args, base.stdin, base.files, base.env, note))
        else:
            valued = [o for o in options if o.arg is not None]
            if not valued:
                continue
            option = valued[rng.randrange(len(valued))]
            values = values_for(option)
            value = values[rng.randrange(len(values))]
            args = arg_form(option, value, rng.randrange(4))
            stdin = base.stdin or STANDARD
            note = f"{option.name} {value!r} on: {base.note}"
            out.append(Case("args", args, stdin, base.files, base.env, note))
    return unique_cases(out)


# --- seed files ------------------------------------------------------------------------------


def load_seeds(path: Path) -> Seeds:
    """Program-specific seeds from a JSON file: ``{"stdin": [DATA], "args": [[str]],
    "scripts": [DATA], "files": {name: DATA}}`` (every key optional), where DATA is text, or
    ``{"base64": str}`` for bytes that are not text (compressed files, say).

    Raises:
        InputError: the file is missing, not JSON, or not of that shape.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(
            f"cannot read the seeds file: {exc.strerror}", location=str(path)
        ) from None
    except json.JSONDecodeError as exc:
        where = f"{path}:{exc.lineno}"
        raise InputError(f"not JSON: {exc.msg}", location=where) from None
    known = {"stdin", "args", "scripts", "files"}
    if not isinstance(data, dict) or set(data) - known:
        extra = sorted(set(data) - known) if isinstance(data, dict) else "not an object"
        raise InputError(
            f"a seeds file is an object with keys {sorted(known)} (found {extra})",
            location=str(path),
        )

    def blob(value: object, field: str) -> bytes:
        if isinstance(value, str):
            return value.encode()
        if (
            isinstance(value, dict)
            and set(value) == {"base64"}
            and isinstance(value["base64"], str)
        ):
            try:
                return base64.b64decode(value["base64"], validate=True)
            except binascii.Error as exc:
                raise InputError(f"bad base64: {exc}", location=str(path), field=field) from None
        raise InputError('must be text or {"base64": "..."}', location=str(path), field=field)

    def blobs(key: str) -> tuple[bytes, ...]:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise InputError("must be a list", location=str(path), field=key)
        return tuple(blob(v, f"{key}[{i}]") for i, v in enumerate(value))

    args = data.get("args", [])
    if not isinstance(args, list) or not all(
        isinstance(a, list) and all(isinstance(s, str) for s in a) for a in args
    ):
        raise InputError("must be a list of lists of strings", location=str(path), field="args")
    files = data.get("files", {})
    if not isinstance(files, dict):
        raise InputError("must map file names to data", location=str(path), field="files")
    return Seeds(
        stdin=blobs("stdin"),
        args=tuple(tuple(a) for a in args),
        scripts=blobs("scripts"),
        files=tuple((k, blob(v, f"files.{k}")) for k, v in sorted(files.items())),
    )
