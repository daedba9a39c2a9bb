"""Grammar-guided inputs for programs that read a language: a small context-free grammar
expander and grammars of JSON, markdown, shell, ``bc`` arithmetic and ``ed`` commands, text
compressed in lzip files, and which of them a program reads (from the words its documentation
describes it with).

Deterministic: every snippet comes from a ``random.Random`` the caller seeds.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from truepass.families.rebuild import lzip
from truepass.families.rebuild.grammar import Grammar

Rules = Mapping[str, Sequence[Sequence[str]]]
"""A grammar: nonterminal (``<name>``) -> its alternatives, each a sequence of symbols (a
nonterminal, i.e. a key of the rules, or else literal text). By convention an alternative with
the fewest nonterminals comes first: that one ends an expansion when the depth runs out."""


def expand(rules: Rules, start: str, rng: random.Random, depth: int = 6) -> str:
    """One random sentence of ``rules`` from ``start``; below ``depth`` levels every nonterminal
    takes its alternative with the fewest nonterminals (so the expansion always ends)."""
    alternatives = rules[start]
    if depth <= 0:
        chosen = min(alternatives, key=lambda alt: sum(s in rules for s in alt))
    else:
        chosen = alternatives[rng.randrange(len(alternatives))]
    return "".join(expand(rules, s, rng, depth - 1) if s in rules else s for s in chosen)


@dataclass(frozen=True)
class Language:
    """An input language: its grammar, start symbol, the file extension its files take, the
    words (regular expressions) that, describing a program, say that it reads it, and how a
    sentence is encoded in its files (None: as UTF-8 text; else a function of the text and the
    generator, e.g. compressed)."""

    name: str
    rules: Rules
    start: str
    extension: str
    words: tuple[str, ...]
    depth: int = 6
    encode: Callable[[bytes, random.Random], bytes] | None = None

    def snippet(self, rng: random.Random) -> bytes:
        """One sentence of the language, as bytes (encoded, if the language encodes)."""
        text = expand(self.rules, self.start, rng, self.depth).encode()
        return self.encode(text, rng) if self.encode is not None else text

    def snippets(self, rng: random.Random, n: int) -> list[bytes]:
        """Up to ``n`` distinct sentences (tries ``4 n`` times), in the order drawn."""
        out: dict[bytes, None] = {}
        for _ in range(n * 4):
            if len(out) >= n:
                break
            out.setdefault(self.snippet(rng))
        return list(out)


_WORDS = ("hello", "world", "Title", "foo-bar", "x_y", "42", "café", "a\\*b", "&amp;", "日本")

JSON: Rules = {
    "<json>": [["<value>", "\n"], ["<value>", "\n", "<value>", "\n"]],
    "<value>": [["<scalar>"], ["<object>"], ["<array>"], ["<object>"]],
    "<scalar>": [["null"], ["true"], ["false"], ["<number>"], ["<string>"]],
    "<number>": [["0"], ["1"], ["-7"], ["3.14"], ["1e3"], ["-0.5E-2"], ["12345678901234567890"]],
    "<string>": [
        ['"a"'], ['""'], ['"hello world"'], ['"quote \\" inside"'], ['"tab\\tnl\\n"'],
        ['"\\u00e9t\\u00e9"'], ['"日本"'], ['"a.b"'], ['"<b>&</b>"'], ['"\\\\back"'],
    ],
    "<object>": [["{}"], ["{", "<ws>", "<members>", "<ws>", "}"]],
    "<members>": [["<member>"], ["<member>", ",", "<ws>", "<members>"]],
    "<member>": [["<key>", ":", "<ws>", "<value>"]],
    "<key>": [
        ['"a"'], ['"b"'], ['"name"'], ['"x y"'], ['"1"'], ['""'], ['"a-b"'], ['"ünï"'],
        ['"id"'], ['"a.b"'], ['"z"'],
    ],
    "<array>": [["[]"], ["[", "<ws>", "<elements>", "<ws>", "]"]],
    "<elements>": [["<value>"], ["<value>", ",", "<ws>", "<elements>"]],
    "<ws>": [[""], [" "], ["\n  "], [""]],
}  # fmt: skip

MARKDOWN: Rules = {
    "<doc>": [["<block>"], ["<block>", "\n", "<doc>"], ["<heading>", "\n", "<doc>"]],
    "<block>": [
        ["<para>"], ["<heading>"], ["<list>"], ["<code>"], ["<quote>"], ["<rule>"], ["<table>"],
        ["<para>"], ["<deflist>"],
    ],
    "<heading>": [
        ["# ", "<text>", "\n"], ["## ", "<text>", "\n"], ["### ", "<text>", "\n"],
        ["<word>", "\n===\n"], ["<word>", "\n---\n"], ["# NAME 1 \"June 2020\"\n"],
    ],
    "<para>": [
        ["<text>", "\n"], ["<text>", "\n", "<text>", "\n"], ["<text>", "  \n", "<text>", "\n"],
    ],
    "<text>": [["<word>"], ["<word>", " ", "<text>"], ["<inline>", " ", "<text>"]],
    "<inline>": [
        ["*", "<word>", "*"], ["**", "<word>", "**"], ["`", "<word>", "`"], ["_", "<word>", "_"],
        ["[", "<word>", "](http://example.com)"], ["~~", "<word>", "~~"], ["<b>", "<word>", "</b>"],
        ["\\", "<word>"], ["<http://example.org>"], ["![img](a.png)"],
    ],
    "<word>": [[w] for w in _WORDS],
    "<list>": [["<item>"], ["<item>", "<list>"]],
    "<item>": [
        ["- ", "<text>", "\n"], ["* ", "<text>", "\n"], ["1. ", "<text>", "\n"],
        ["  - ", "<text>", "\n"], ["+ ", "<text>", "\n"],
    ],
    "<code>": [
        ["    ", "<word>", "\n"], ["```\n", "<word>", "\n```\n"], ["```sh\necho hi\n```\n"],
        ["~~~\n", "<word>", "\n~~~\n"],
    ],
    "<quote>": [["> ", "<text>", "\n"], ["> ", "<text>", "\n> > ", "<word>", "\n"]],
    "<rule>": [["---\n"], ["***\n"], ["___\n"]],
    "<table>": [["| a | b |\n|---|:-:|\n| ", "<word>", " | ", "<word>", " |\n"]],
    "<deflist>": [["<word>", "\n: ", "<text>", "\n"]],
}  # fmt: skip

SHELL: Rules = {
    "<script>": [["<stmt>", "\n"], ["<stmt>", "\n", "<script>"], ["#!/bin/sh\n", "<script>"]],
    "<stmt>": [
        ["<simple>"], ["<simple>", " | ", "<simple>"], ["<simple>", " && ", "<simple>"],
        ["<simple>", " || ", "<simple>"], ["<if>"], ["<for>"], ["<while>"], ["<func>"],
        ["<assign>"], ["<case>"], ["<group>"], ["<comment>"], ["<simple>", " &"],
        ["<simple>", " >", "<arg>"], ["<simple>", " 2>&1 >/dev/null"], ["<heredoc>"],
        ["<simple>", ";", "<simple>"],
    ],
    "<simple>": [["<cmd>"], ["<cmd>", " ", "<args>"], ["<assign>", " ", "<cmd>"]],
    "<cmd>": [["echo"], ["ls"], ["cat"], ["printf"], ["test"], ["grep"], ["true"], ["[ -f x ]"]],
    "<args>": [["<arg>"], ["<arg>", " ", "<args>"], ["<arg>", "   ", "<args>"]],
    "<arg>": [
        ["foo"], ["$x"], ['"$@"'], ["'single quoted'"], ['"a b"'], ["${var:-default}"],
        ["$(date)"], ["`pwd`"], ["-n"], ["*.txt"], ["$((1 + 2))"], ["\\$"], ["${#arr[@]}"],
        ["<(ls)"], ["{a,b}"], ["~/x"],
    ],
    "<assign>": [
        ["x=1"], ['name="value"'], ["arr=(a b c)"], ["export PATH"], ["local y=2"],
        ["readonly z"], ["let i++"],
    ],
    "<if>": [
        ["if ", "<simple>", "; then\n\t", "<simple>", "\nfi"],
        ["if ", "<simple>", "; then ", "<simple>", "; else ", "<simple>", "; fi"],
        ["if [[ $x == y ]]; then\n", "<stmt>", "\nelif true; then\n", "<simple>", "\nfi"],
    ],
    "<for>": [
        ["for i in ", "<args>", "; do\n", "<stmt>", "\ndone"],
        ["for ((i = 0; i < 3; i++)); do ", "<simple>", "; done"],
    ],
    "<while>": [
        ["while ", "<simple>", "; do ", "<simple>", "; done"], ["until false; do break; done"],
    ],
    "<func>": [["f() {\n", "<stmt>", "\n}"], ["function g {\n\t", "<simple>", "\n}"]],
    "<case>": [["case $x in\na) ", "<simple>", " ;;\n*) ", "<simple>", " ;;\nesac"]],
    "<group>": [["( ", "<simple>", " )"], ["{ ", "<simple>", "; }"]],
    "<comment>": [["# a comment"], ["<simple>", " # trailing"]],
    "<heredoc>": [["cat <<EOF\nline $x\nEOF"], ["cat <<-'END'\n\tquoted\n\tEND"]],
}  # fmt: skip

BC: Rules = {
    "<prog>": [["<stmt>", "\n"], ["<stmt>", "\n", "<prog>"], ["<stmt>", "; ", "<stmt>", "\n"]],
    "<stmt>": [
        ["<expr>"], ["scale=", "<small>"], ["x=", "<expr>"], ["print ", "<expr>", ", \"\\n\""],
        ["if (", "<expr>", " > 1) ", "<expr>"], ["for (i=0; i<3; i++) i*", "<expr>"],
        ["define f(n) { return (n*2); }\nf(", "<num>", ")"], ["ibase=16\nFF\nibase=A"],
        ["obase=", "<base>", "\n", "<expr>", "\nobase=10"], ["sqrt(", "<num>", ")"],
        ["/* comment */ ", "<expr>"], ["x++"], ["length(", "<num>", ")"], ["scale(", "<num>", ")"],
        ["while (x < 3) x += 1"], ["{ ", "<expr>", "; ", "<expr>", " }"],
    ],
    "<expr>": [
        ["<num>"], ["<expr>", " + ", "<expr>"], ["(", "<expr>", ")"], ["<expr>", "*", "<num>"],
        ["<expr>", " / ", "<num>"], ["<expr>", "%", "<num>"], ["<expr>", "^", "<small>"],
        ["-", "<expr>"], ["x"], ["<expr>", " - ", "<expr>"], ["<expr>", " == ", "<num>"],
        ["!", "<num>"], ["<num>", " && ", "<num>"],
    ],
    "<num>": [
        ["0"], ["1"], ["2"], ["10"], ["3.5"], ["99999999999999999999"], [".5"], ["0.001"], ["7"],
        ["A"],
    ],
    "<small>": [["0"], ["1"], ["2"], ["5"], ["20"]],
    "<base>": [["2"], ["8"], ["16"], ["100"]],
}  # fmt: skip

ED: Rules = {
    "<script>": [["<cmds>", "Q\n"], ["<cmds>", ",p\nQ\n"], ["<cmds>", "w out.txt\nq\n"]],
    "<cmds>": [["<cmd>", "\n"], ["<cmd>", "\n", "<cmds>"]],
    "<cmd>": [
        ["p"], [",p"], ["1p"], ["$p"], ["n"], ["l"], ["2d"], ["1,2m$"], ["1t0"], ["="],
        ["a\nnew line\n."], ["i\ninserted\n."], ["2c\nchanged\n."], ["s/a/b/"],
        ["s/[aeiou]/X/g"], ["g/a/p"], ["v/a/d"], ["1,$j"], ["/bravo/p"], ["?a?p"], ["u"],
        ["ka"], ["'ap"], ["H"], ["h"], ["9p"], ["1,3n"], [",s/\\(.\\)\\(.\\)/\\2\\1/"],
        ["r in.txt"], ["z"], ["x"],
    ],
}  # fmt: skip

TEXT: Rules = {
    "<text>": [["<line>"], ["<line>", "<text>"], ["<line>", "<line>", "<text>"]],
    "<line>": [
        ["<words>", "\n"], ["<words>", "\n"], ["\n"], ["x" * 200, "\n"], ["<words>"],
        ["<words>", " ", "<words>", " ", "<words>", "\n"], ["ab" * 50, "<words>", "\n"],
    ],
    "<words>": [["<word>"], ["<word>", " ", "<words>"], ["<word>", "\t", "<word>"]],
    "<word>": [[w] for w in (*_WORDS, "alpha", "bravo", "the quick brown fox", "\x00", "0123")],
}  # fmt: skip
"""Text with repeats (for compressed files: matches near and far)."""

LANGUAGES: tuple[Language, ...] = (
    Language("json", JSON, "<json>", "json", (r"\bjson\b",)),
    Language("markdown", MARKDOWN, "<doc>", "md", (r"\bmarkdown\b",)),
    Language("shell", SHELL, "<script>", "sh", (r"\bshell programs\b", r"\bformats? shell\b")),
    Language("bc", BC, "<prog>", "bc", (r"\bcalculator\b",)),
    Language("ed", ED, "<script>", "ed", (r"\btext editor\b",), depth=8),
    Language("lzip", TEXT, "<text>", "lz", (r"\blzip\b",), encode=lzip.variant),
)
"""The languages snippets are made in."""


def _describing_text(grammar: Grammar) -> str:
    """What a program says it is: the man page's NAME section and the help text before its
    first option line."""
    name = re.search(r"^NAME\n(.*?)(?:\n\S|\Z)", grammar.man_text, re.MULTILINE | re.DOTALL)
    head: list[str] = []
    for line in grammar.help_text.splitlines():
        if line.strip().startswith("-"):
            break
        head.append(line)
    return (name.group(1) if name else "") + "\n" + "\n".join(head)


def languages_of(grammar: Grammar) -> tuple[Language, ...]:
    """The languages the program reads, by the words its NAME line and the head of its help
    describe it with (``gron - transform JSON into ...``, ``bc - An arbitrary precision
    calculator language``)."""
    text = _describing_text(grammar)
    return tuple(
        lang for lang in LANGUAGES if any(re.search(w, text, re.IGNORECASE) for w in lang.words)
    )
