"""Tests the workflow writes itself: the changed functions called on fuzzed inputs, so that
candidates passing the visible tests can be compared on behaviour (self-consistency).

Seeds are the calls the visible tests make with literal arguments (``clamp(15, 0, 10)``); new
inputs grow from them by the type-aware mutation ``truepass harden`` uses
(:func:`truepass.pycode.inputs.generate_inputs`, seeded by the sample). Each candidate runs them
in one fresh sandbox (:func:`truepass.sandbox.run_sandboxed`) through a small driver that reports
each call's result (its ``repr``) or the exception's type through the result channel. Nothing
here knows which outcome is right: :func:`agreement` only measures how far candidates agree.
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass

from truepass import pyast
from truepass.errors import SandboxError
from truepass.pycode.inputs import generate_inputs
from truepass.pycode.values import stable_args
from truepass.sandbox import Limits, run_sandboxed
from truepass.suites.literals import LiteralError

INPUTS_FILE = "_truepass_fuzz_inputs.json"
CALL_TIMEOUT_S = 2
MAX_TARGETS = 3
OUTCOME_CHARS = 300

DRIVER = r"""
import ast, importlib, json, os, re, signal, sys
fd = int(os.environ.pop("TRUEPASS_CHANNEL_FD", "-1"))
out = os.fdopen(os.dup(fd), "w", encoding="utf-8") if fd >= 0 else sys.stderr
if fd >= 0:
    os.close(fd)
with open(INPUTS, encoding="utf-8") as fh:
    spec = json.load(fh)
sys.path.insert(0, os.getcwd())
def _late(*_):
    raise TimeoutError("the call took too long")
signal.signal(signal.SIGALRM, _late)
address = re.compile(r"\b0x[0-9a-f]{6,16}\b")
for target in spec:
    outcomes = []
    try:
        fn = getattr(importlib.import_module(target["module"]), target["function"])
    except BaseException as exc:
        fn, broken = None, "!import:" + type(exc).__name__
    for text in target["inputs"]:
        if fn is None:
            outcomes.append(broken)
            continue
        signal.alarm(TIMEOUT)
        try:
            got = "=" + address.sub("0x", repr(fn(*ast.literal_eval(text))))
        except BaseException as exc:
            got = "!" + type(exc).__name__
        finally:
            signal.alarm(0)
        outcomes.append(got[:CHARS])
    out.write(json.dumps({"key": target["key"], "outcomes": outcomes}) + "\n")
    out.flush()
"""
_DRIVER_CONSTANTS = f"INPUTS, TIMEOUT, CHARS = {INPUTS_FILE!r}, {CALL_TIMEOUT_S}, {OUTCOME_CHARS}"


@dataclass(frozen=True)
class Target:
    """A top-level function of a code file."""

    file: str
    function: str

    @property
    def module(self) -> str:
        return self.file.removesuffix(".py").replace("/", ".")

    @property
    def key(self) -> str:
        return f"{self.module}.{self.function}"


def top_level_functions(code: dict[str, str]) -> dict[str, set[str]]:
    """Module name -> the names of its top-level functions (Python files that parse)."""
    out: dict[str, set[str]] = {}
    for path, text in code.items():
        if not path.endswith(".py"):
            continue
        try:
            tree = pyast.parse(text)
        except SyntaxError:
            continue
        out[Target(path, "").module] = {
            n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
    return out


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def seed_inputs(code: dict[str, str], tests: dict[str, str]) -> dict[Target, list[list[object]]]:
    """The literal arguments the visible tests pass to top-level functions of the code, per
    function (calls with keywords, ``*args`` or a non-literal argument are skipped)."""
    functions = top_level_functions(code)
    files = {Target(p, "").module: p for p in code if p.endswith(".py")}
    seeds: dict[Target, list[list[object]]] = {}
    for text in tests.values():
        try:
            tree = pyast.parse(text)
        except SyntaxError:
            continue
        names: dict[str, Target] = {}
        modules: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in functions and not node.level:
                for a in node.names:
                    if a.name in functions[node.module]:
                        names[a.asname or a.name] = Target(files[node.module], a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in functions:
                        modules[a.asname or a.name] = a.name
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or node.keywords:
                continue
            target = None
            if isinstance(node.func, ast.Name):
                target = names.get(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                module = modules.get(_dotted(node.func.value) or "")
                if module and node.func.attr in functions[module]:
                    target = Target(files[module], node.func.attr)
            if target is None or any(isinstance(a, ast.Starred) for a in node.args):
                continue
            try:
                args = [ast.literal_eval(a) for a in node.args]
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            found = seeds.setdefault(target, [])
            if args not in found:
                found.append(args)
    return seeds


def choose_targets(
    seeds: dict[Target, list[list[object]]], changed: dict[str, set[str]]
) -> list[Target]:
    """The functions to fuzz: those the candidates change that have seeds, else the other
    seeded functions of the changed files (at most :data:`MAX_TARGETS`)."""
    seeded = [t for t in seeds if t.file in changed]
    first = [t for t in seeded if t.function in changed[t.file]]
    rest = [t for t in seeded if t not in first]
    return (first or rest)[:MAX_TARGETS]


def fuzz_inputs(
    targets: list[Target], seeds: dict[Target, list[list[object]]], n: int, *, seed: int, key: str
) -> dict[Target, list[str]]:
    """Up to ``n`` new inputs per target as argument text (``1, [2, 3]``), none a seed."""
    out: dict[Target, list[str]] = {}
    for t in targets:
        texts = []
        for g in generate_inputs(seeds[t], n, seed=seed, key=f"{key}:{t.key}"):
            try:
                texts.append(stable_args(g.args))
            except LiteralError:
                continue
        if texts:
            out[t] = texts
    return out


def run_inputs(
    files: dict[str, str], inputs: dict[Target, list[str]], limits: Limits
) -> dict[str, list[str]]:
    """Call each target on its inputs with ``files`` as the code, in a fresh sandbox: target key
    -> each call's outcome (``=REPR`` or ``!ExceptionType``); a target the run did not report
    (it crashed or timed out) is missing."""
    spec = [
        {"key": t.key, "module": t.module, "function": t.function,
         "inputs": [f"({text},)" if text else "()" for text in texts]}
        for t, texts in inputs.items()
    ]  # fmt: skip
    argv = [sys.executable, "-P", "-c", _DRIVER_CONSTANTS + DRIVER]
    try:
        result = run_sandboxed(
            argv, {**files, INPUTS_FILE: json.dumps(spec)}, limits=limits,
            env={"PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"},
        )  # fmt: skip
    except SandboxError:
        return {}
    out: dict[str, list[str]] = {}
    for line in result.channel.decode("utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(event, dict) and isinstance(event.get("outcomes"), list):
            out[str(event.get("key"))] = [str(o) for o in event["outcomes"]]
    return out


def agreement(
    outcomes: dict[str, dict[str, list[str]]], votes: dict[str, int], keys: dict[str, int]
) -> dict[str, float | None]:
    """Per candidate, the mean over every fuzzed call of the share of the other candidates (each
    weighed by its votes, its own duplicates included) whose outcome is the same. ``outcomes``:
    candidate -> target key -> outcomes; ``keys``: target key -> number of inputs. None for all
    when there is nothing to compare (one candidate, or no input)."""
    total = sum(votes.values())
    calls = [(k, i) for k, n in keys.items() for i in range(n)]
    if total < 2 or not calls:
        return dict.fromkeys(votes)
    out: dict[str, float | None] = {}
    for c in votes:
        score = 0.0
        for k, i in calls:
            mine = _outcome(outcomes, c, k, i)
            same = sum(
                v for d, v in votes.items() if d != c and _outcome(outcomes, d, k, i) == mine
            )
            score += (same + votes[c] - 1) / (total - 1)
        out[c] = round(score / len(calls), 4)
    return out


def _outcome(outcomes: dict[str, dict[str, list[str]]], c: str, key: str, i: int) -> str:
    got = outcomes.get(c, {}).get(key, [])
    return got[i] if i < len(got) else f"?{c}"  # a missing outcome agrees with nobody
