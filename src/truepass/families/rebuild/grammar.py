"""The option grammar of a gold program, read from its ``--help`` output and man page: which
options it has, which take an argument, what kind of argument (the hint: NUM, FILE, LIST...), the
values an argument is documented to take, and the environment variables the man page names.

Cheap and forgiving: documentation is prose, so whatever does not parse is skipped.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field

_SHORT = re.compile(r"^-[A-Za-z0-9?#@]$")
_LONG = re.compile(r"^--?[A-Za-z0-9][A-Za-z0-9_-]+$")
_ARG_WORD = re.compile(
    r"^(?:[A-Z][A-Z0-9_-]*|<[^>]+>|\[[^\]]+\]|\{[^}]+\}"
    r"|string|str|int|uint|int64|uint64|float|float64|duration|value)$"
)
"""An option's argument word: ``NUM``, ``<file>``, ``[WHEN]``, ``{a,b}``, or the type Go's flag
package prints (``-in string``)."""
_GENERIC = {"STRING", "STR", "VALUE", ""}
_SECTION = re.compile(r"^[A-Z][A-Z /-]+$")
_DOC_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "MANWIDTH": "80", "MAN_KEEP_FORMATTING": ""}

# argument hints, by the kind of value they take (checked in this order, by substring)
_KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("file", ("FILE", "PATH", "DIR")),
    ("list", ("LIST", "FIELDS", "RANGE")),
    ("size", ("SIZE", "BYTES")),
    ("number", ("NUM", "COUNT", "WIDTH", "COLS", "LINES", "INT", "DIGIT", "LENGTH", "TABS")),
    ("when", ("WHEN",)),
    ("regex", ("REGEX", "REGEXP", "PATTERN", "BRE", "ERE")),
    ("char", ("CC", "CHAR", "SEP", "DELIM")),
)
_NUMBER_WORDS = {"N", "K", "M", "X", "NUMBER"}


@dataclass(frozen=True)
class Option:
    """One option: its names (``-s``, ``--separator``), whether it takes an argument (``None``,
    ``"required"`` or ``"optional"``), the argument's hint and the values it is documented to
    take."""

    names: tuple[str, ...]
    arg: str | None = None
    hint: str = ""
    description: str = ""
    values: tuple[str, ...] = ()

    @property
    def short(self) -> str | None:
        return next((n for n in self.names if _SHORT.match(n)), None)

    @property
    def long(self) -> str | None:
        return next((n for n in self.names if n.startswith("--")), None)

    @property
    def name(self) -> str:
        """The name tests use: the long one when there is one."""
        return self.long or self.names[0]

    @property
    def kind(self) -> str:
        """What the argument takes: file, list, size, number, when, regex, char or string."""
        hint = self.hint.strip("<>[]{}=").upper()
        if hint in _NUMBER_WORDS:
            return "number"
        for kind, words in _KINDS:
            if any(w in hint for w in words):
                return kind
        if self.arg and hint in _GENERIC and re.search(r"\b(path|file)\b", self.description, re.I):
            return "file"  # "-in string: Path to file to be processed"
        return "string"

    @property
    def is_help(self) -> bool:
        return "--help" in self.names or "help" in self.description.lower().split()[:3]

    @property
    def is_version(self) -> bool:
        return "--version" in self.names or "version" in self.description.lower().split()[:3]

    @property
    def writes(self) -> bool:
        """An option whose argument names a file the program writes."""
        words = self.description.lower()
        return self.kind == "file" and any(w in words for w in ("output", "write", "save"))


@dataclass(frozen=True)
class Grammar:
    """What the documentation says about the command line."""

    options: tuple[Option, ...] = ()
    env_vars: tuple[str, ...] = ()
    help_text: str = ""
    man_text: str = ""
    usage: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    def find(self, name: str) -> Option | None:
        return next((o for o in self.options if name in o.names), None)

    @property
    def takes_files(self) -> bool:
        """Whether the synopsis names file operands (FILE, file...)."""
        return bool(re.search(r"\bfiles?\b", self.usage, re.IGNORECASE))

    @property
    def operands(self) -> tuple[Operand, ...]:
        """The operands the synopsis names after the program (``startcol``, ``NAME``,
        ``SUFFIX``, ``FILE1``), in order, each required unless in brackets; options and their
        placeholders (``[OPTION]...``) aside."""
        found: dict[str, Operand] = {}
        depth = 0
        for token in re.findall(r"[\[\]]|[^\s\[\]]+", self.usage)[1:]:
            if token in "[]":
                depth = max(0, depth + (1 if token == "[" else -1))
                continue
            word = token.rstrip(".")
            if not _OPERAND_WORD.fullmatch(word) or word.upper() in _NOT_OPERANDS:
                continue
            found.setdefault(word, Operand(word, required=depth == 0))
        return tuple(found.values())


_OPERAND_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_NOT_OPERANDS = {"OPTION", "OPTIONS", "FLAGS", "ARGS", "COMMAND"}


@dataclass(frozen=True)
class Operand:
    """An operand of the synopsis: its word and whether it must be given."""

    name: str
    required: bool


def _parse_spec(line: str) -> tuple[list[str], str | None, str, str]:
    """The names, argument kind, hint and description of one option line
    (``-s, --separator=STRING   use STRING...``): option tokens, then the description."""
    names: list[str] = []
    arg: str | None = None
    hint = ""
    rest = line.strip()
    while rest:
        m = re.match(r"^(\S+?)(,?)(\s+|$)", rest)
        if m is None:
            break
        token = m.group(1)
        # --lines=NUM, --color[=WHEN], and a hint with a sign: --bytes=[-]NUM, --lines=[+]NUM
        o = re.match(r"^(--?[A-Za-z0-9?#@][A-Za-z0-9_-]*)(\[?=((?:\[[-+]\])?[^\]\s]*)\]?)?$", token)
        if o and (_SHORT.match(o.group(1)) or _LONG.match(o.group(1))):
            names.append(o.group(1))
            if o.group(2) and arg is None:
                arg = "optional" if o.group(2).startswith("[") else "required"
                hint = o.group(3) or hint
        elif names and _ARG_WORD.match(token) and not hint:
            arg = "optional" if token.startswith("[") else "required"
            hint = token.strip("[]=<>")
        else:
            break
        rest = rest[m.end() :]
    return names, arg, hint, rest.strip()


def parse_options(text: str) -> list[Option]:
    """Options described in a help text or man page: lines starting with ``-``, each followed
    by its description on the same line or the next indented lines."""
    found: list[Option] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("-") or stripped.startswith("---"):
            continue
        names, arg, hint, desc = _parse_spec(stripped)
        if not names:
            continue
        if not desc:
            indent = len(line) - len(line.lstrip())
            follow = []
            for nxt in lines[i + 1 : i + 4]:
                if not nxt.strip() or len(nxt) - len(nxt.lstrip()) <= indent:
                    break
                follow.append(nxt.strip())
            desc = " ".join(follow)
        found.append(Option(tuple(names), arg, hint, " ".join(desc.split())))
    return found


def _documented_values(hint: str, text: str) -> tuple[str, ...]:
    """Values the documentation lists for an argument hint: "STYLE is one of:" followed by an
    indented table, or quoted words in the sentence that defines the hint."""
    if not hint or not re.match(r"^[A-Z][A-Z0-9_]+$", hint):
        return ()
    values: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not re.search(rf"\b{re.escape(hint)}\b\s+(is|can be|may be|must be)\b", line):
            continue
        if line.rstrip().endswith(":"):
            for nxt in lines[i + 1 : i + 16]:
                if not nxt.strip():
                    if values:
                        break
                    continue
                m = re.match(r"^\s+(\S+)\s{2,}\S", nxt)
                if not m:
                    break
                word = m.group(1)
                # "pBRE": a prefix and a placeholder -> the prefix with a simple pattern
                word = re.sub(r"[A-Z]{2,}$", "^[a-m]", word) if re.search(r"[a-z]", word) else word
                values.append(word)
        sentence = " ".join(lines[i : i + 3])
        values += re.findall(r"['‘`]([A-Za-z0-9_-]{1,20})['’]", sentence)
    return tuple(dict.fromkeys(values))


def env_vars(man_text: str, help_text: str = "") -> tuple[str, ...]:
    """Environment variables the documentation names: entries of the man page's ENVIRONMENT
    section, and ``$NAME``/"environment variable NAME" mentions elsewhere."""
    names: list[str] = []
    section = ""
    for line in man_text.splitlines():
        if _SECTION.match(line):
            section = line
            continue
        if section.startswith("ENVIRONMENT"):
            m = re.match(r"^\s{1,12}([A-Z][A-Z0-9_]{2,})\b", line)
            if m:
                names.append(m.group(1))
    for text in (man_text, help_text):
        names += re.findall(r"environment variable\s+\$?([A-Z][A-Z0-9_]{2,})", text)
        names += re.findall(r"\$([A-Z][A-Z0-9_]{2,})\b", text)
    return tuple(dict.fromkeys(n for n in names if n not in {"PATH", "HOME"}))


def merge(*groups: list[Option], text: str = "") -> tuple[Option, ...]:
    """One option per name, in first-seen order: the first description, any argument."""
    merged: list[Option] = []
    for group in groups:
        for opt in group:
            same = next((m for m in merged if set(m.names) & set(opt.names)), None)
            if same is None:
                merged.append(opt)
                continue
            names = tuple(dict.fromkeys(same.names + opt.names))
            arg = same.arg or opt.arg
            hint = same.hint or opt.hint
            new = Option(names, arg, hint, same.description or opt.description)
            merged[merged.index(same)] = new
    return tuple(
        Option(
            o.names, o.arg, o.hint, o.description,
            tuple(dict.fromkeys(_documented_values(o.hint, text) + described_values(o))),
        )
        for o in merged
    )  # fmt: skip


def described_values(option: Option) -> tuple[str, ...]:
    """Values an option's own description lists: a slash-separated choice (``bash/posix/mksh``)
    and a quoted default (``default "auto"``), for options that take an argument."""
    if option.arg is None:
        return ()
    found: list[str] = []
    for m in re.finditer(r"(?<![\w/.-])([a-z0-9][a-z0-9_-]*(?:/[a-z0-9][a-z0-9_-]*)+)(?![\w/])",
                         option.description):  # fmt: skip
        found += m.group(1).split("/")
    found += re.findall(r"default:?\s+[\"'‘`]([^\"'’`\s]{1,20})[\"'’`]", option.description)
    return tuple(dict.fromkeys(found))


def usage_line(text: str) -> str:
    m = re.search(r"^\s*usage:\s*(.*)$", text, re.IGNORECASE | re.MULTILINE)
    if m:
        return m.group(1).strip()
    m = re.search(r"^SYNOPSIS\n\s+(.*)$", text, re.MULTILINE)
    return m.group(1).strip() if m else ""


def read_help(gold: str, program: str, args: list[str] | tuple[str, ...] = ("--help",)) -> str:
    """The gold's output for ``args`` (stdout, else stderr), as the task's docs give it."""
    try:
        done = subprocess.run(
            [program, *args], executable=gold, capture_output=True, timeout=10,
            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}, check=False, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (done.stdout or done.stderr).decode("utf-8", "replace")


def read_man(name: str) -> str:
    """The man page of ``name`` as plain text (empty when there is none)."""
    man = shutil.which("man")
    if man is None:
        return ""
    try:
        done = subprocess.run(
            [man, "-P", "cat", name], capture_output=True, timeout=30, env=_DOC_ENV, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    text = done.stdout.decode("utf-8", "replace")
    return re.sub(r".\x08", "", text) if done.returncode == 0 else ""


def grammar_of(help_text: str, man_text: str) -> Grammar:
    """The grammar both texts describe (help first: it is the program's own word)."""
    text = help_text + "\n" + man_text
    options = merge(parse_options(help_text), parse_options(man_text), text=text)
    return Grammar(
        options=options,
        env_vars=env_vars(man_text, help_text),
        help_text=help_text,
        man_text=man_text,
        usage=usage_line(help_text) or usage_line(man_text),
    )
