"""Time of truepass's text metrics per 1,000 summaries, beside the plain reference computations.

    .venv/bin/python benchmarks/text_metrics.py                 # 1,000 summaries, median of 5
    .venv/bin/python benchmarks/text_metrics.py --n 200 --repeats 1   # a smoke run

Workload: reference summaries are the first sentences of the docstrings of public functions and
classes in the standard library (sorted, so the same set on every machine with the same
Python); each answer is its reference perturbed by a seeded generator (words dropped, swapped,
replaced by other words of the workload, a word appended), so scores spread over 0..1. With
``--chinese``, every reference is replaced by a string of Han characters of the same length
(scored per character by ROUGE and METEOR).

Timed, on the same pairs in the same process, interleaved per repeat:

- ``truepass text_scores``: BLEU (CodeXGLUE's), ROUGE-1/2/L, METEOR in one call per answer;
  and each of its parts alone (``truepass sentence_bleu``, ``rouge``, ``meteor``);
- the peers, each called as its own documentation shows: ``sacrebleu.sentence_bleu`` (its
  default 13a tokenisation and exp smoothing), rouge-score's ``RougeScorer`` with its default
  tokenizer, nltk's ``meteor_score`` on ``str.split`` tokens with the same WordNet reader;
  ``peers together`` is the sum of the three: the plain computation of the same scores.

WordNet is loaded, and a first pass fills nltk's synset cache, before timing (both are printed
apart). Ratios are
truepass's median time over the peer's: above 1 is slower than the peer. Not a test: nothing here
is asserted (docs/metrics.md quotes a run).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

from truepass.metrics import text

MODULES = (
    "argparse", "base64", "bisect", "calendar", "collections", "csv", "datetime", "decimal",
    "difflib", "email.utils", "fractions", "functools", "gzip", "heapq", "html", "http.client",
    "inspect", "ipaddress", "itertools", "json", "logging", "mailbox", "operator", "os",
    "pathlib", "pickle", "pprint", "queue", "random", "re", "shlex", "shutil", "smtplib",
    "socket", "sqlite3", "statistics", "string", "subprocess", "tarfile", "tempfile",
    "textwrap", "threading", "tokenize", "traceback", "typing", "unittest", "urllib.parse",
    "uuid", "wave", "xml.dom.minidom", "zipfile", "zoneinfo",
)  # fmt: skip


def references(n: int) -> list[str]:
    """First sentences of standard-library docstrings (at least 3 words), repeated up to n."""
    found: set[str] = set()
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, obj in sorted(vars(module).items()):
            if attr.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            doc = inspect.getdoc(obj) or ""
            first = " ".join(doc.split("\n\n")[0].split()).split(". ")[0].strip()
            if len(first.split()) >= 3:
                found.add(first)
    pool = sorted(found)
    if not pool:
        raise SystemExit("no docstrings found")
    return [pool[i % len(pool)] for i in range(n)]


def perturb(reference: str, vocabulary: list[str], rng: random.Random) -> str:
    """A plausible model answer: the reference with words dropped, swapped and replaced."""
    out = []
    for word in reference.split():
        roll = rng.random()
        if roll < 0.15:
            continue
        out.append(rng.choice(vocabulary) if roll < 0.35 else word)
    if len(out) > 2 and rng.random() < 0.5:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    if rng.random() < 0.5:
        out.append(rng.choice(vocabulary))
    return " ".join(out) or rng.choice(vocabulary)


def chinese(reference: str, rng: random.Random) -> str:
    return "".join(chr(0x4E00 + rng.randrange(300)) for _ in range(max(4, len(reference) // 4)))


def workload(n: int, use_chinese: bool, seed: int = 0) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    refs = references(n)
    if use_chinese:
        refs = [chinese(r, rng) for r in refs]
        vocab = sorted({c for r in refs for c in r})
        return [(perturb(" ".join(r), vocab, rng).replace(" ", ""), r) for r in refs]
    vocab = sorted({w for r in refs for w in r.split()})
    return [(perturb(r, vocab, rng), r) for r in refs]


def peers(wordnet) -> dict[str, Callable[[str, str], object]]:
    import sacrebleu
    from nltk.translate.meteor_score import meteor_score
    from rouge_score.rouge_scorer import RougeScorer

    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"])
    return {
        "sacrebleu sentence_bleu": lambda h, r: sacrebleu.sentence_bleu(h, [r]).score,
        "rouge-score RougeScorer": lambda h, r: scorer.score(r, h),
        "nltk meteor_score": lambda h, r: meteor_score([r.split()], h.split(), wordnet=wordnet),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="summaries (default 1000)")
    ap.add_argument("--repeats", type=int, default=5, help="median of this many (default 5)")
    ap.add_argument("--chinese", action="store_true", help="Chinese references and answers")
    args = ap.parse_args(argv)

    load_before = os.getloadavg()[0]
    pairs = workload(args.n, args.chinese)
    start = time.perf_counter()
    wordnet = text._wordnet(text.wordnet_dir())
    wordnet_load = time.perf_counter() - start
    ours: dict[str, Callable[[str, str], object]] = {
        "truepass text_scores": text.text_scores,
        "truepass sentence_bleu": text.sentence_bleu,
        "truepass rouge": text.rouge,
        "truepass meteor": text.meteor,
    }
    theirs = peers(wordnet)
    tools = {**ours, **theirs}
    # The first pass reads every word's synsets from WordNet's files into nltk's caches: timed
    # apart, then every tool runs once over the whole workload untimed (imports, caches).
    start = time.perf_counter()
    for h, r in pairs:
        text.text_scores(h, r)
    first_pass = time.perf_counter() - start
    for fn in tools.values():
        for h, r in pairs:
            fn(h, r)

    times: dict[str, list[float]] = {name: [] for name in tools}
    for repeat in range(args.repeats):
        order = list(tools)
        order = order[repeat % len(order) :] + order[: repeat % len(order)]
        for name in order:
            fn = tools[name]
            start = time.perf_counter()
            for h, r in pairs:
                fn(h, r)
            times[name].append(time.perf_counter() - start)

    per_1000 = {name: statistics.median(t) * 1000 / len(pairs) for name, t in times.items()}
    per_1000["peers together"] = sum(per_1000[name] for name in theirs)
    versions = _versions()
    print(
        f"{len(pairs)} summaries ({'Chinese' if args.chinese else 'English'}; "
        f"mean reference {statistics.mean(len(r) for _, r in pairs):.0f} characters), "
        f"median of {args.repeats}; Python {sys.version.split()[0]}, {versions}; "
        f"load average before {load_before:.2f}, after {os.getloadavg()[0]:.2f}"
    )
    print(
        f"not in the times below: WordNet cold load {wordnet_load:.2f} s (once per process); "
        f"first text_scores pass {first_pass * 1000 / len(pairs):.3f} s / 1,000 (fills nltk's "
        f"synset cache)\n"
    )
    print(f"{'computation':28} {'s / 1,000':>10}")
    for name, seconds in per_1000.items():
        print(f"{name:28} {seconds:10.3f}")
    print("\nratio (truepass / peer; above 1: truepass slower)")
    for ours_name, peer_name in (
        ("truepass text_scores", "peers together"),
        ("truepass sentence_bleu", "sacrebleu sentence_bleu"),
        ("truepass rouge", "rouge-score RougeScorer"),
        ("truepass meteor", "nltk meteor_score"),
    ):
        ratio = per_1000[ours_name] / per_1000[peer_name]
        print(f"{ours_name:24} / {peer_name:24} {ratio:6.2f}")
    return 0


def _versions() -> str:
    from importlib.metadata import version

    return ", ".join(f"{p} {version(p)}" for p in ("sacrebleu", "rouge-score", "nltk"))


if __name__ == "__main__":
    raise SystemExit(main())
