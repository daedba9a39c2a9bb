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

- ``truepass BLEU+ROUGE+METEOR``: BLEU (CodeXGLUE's), ROUGE-1/2/L, METEOR, one call each per
  answer; and each alone (``truepass sentence_bleu``, ``rouge``, ``meteor``);
- the peers, each called as its own documentation shows: ``sacrebleu.sentence_bleu`` (its
  default 13a tokenisation and exp smoothing), rouge-score's ``RougeScorer`` with its default
  tokenizer, nltk's ``meteor_score`` on ``str.split`` tokens with the same WordNet reader;
  ``peers together`` is the sum of the three: the plain computation of the same scores.

WordNet is loaded, and a first pass fills nltk's synset cache, before timing (both are printed
apart).

Then, when the ``embed`` extra is installed (``--no-bertscore`` skips it; ``--bert-repeats``,
default 3), BERTScore F1 with all-MiniLM-L6-v2, layer 6: ``truepass bertscore_f1`` per answer
(what the summarisation judge does for each attempt) beside bert-score's ``BERTScorer.score`` per
answer (the model held); ``truepass bertscore_f1_many`` on the whole batch beside
``BERTScorer.score`` on the batch and the plain ``bert_score.score`` function (which loads the
model in every call); and ``truepass text_scores`` (all six scores) beside the sum of the four
peers per answer. truepass's embedding cache is emptied before each timing. The agreement of the
values is printed too.

Every repeat is a paired round (benchmarks/rounds.py): every computation once over the whole
workload, back to back, the order rotating. Ratios are the median of the per-round ratios of
truepass's time over the peer's (``peers together``: the sum of the peers' times in the round):
above 1 is slower than the peer. After each table, the rounds with the load average and the cores
other work kept busy, and an UNRELIABLE line for every computation whose cores other work took.
Not a test: nothing here is asserted (docs/metrics.md quotes a run).
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
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import Timing, by_tool, median_ratio, report, run_rounds

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


def _together(have: dict[str, list[Timing]], names: list[str], label: str) -> list[Timing]:
    """Per round, the runs of ``names`` as one: their seconds summed (the plain computation of
    the same scores), the highest others' cores of them."""
    rounds = sorted(set.intersection(*({t.round for t in have[n]} for n in names)))
    out = []
    for r in rounds:
        runs = [next(t for t in have[n] if t.round == r) for n in names]
        out.append(Timing(label, r, sum(t.seconds for t in runs), sum(t.cpu_s for t in runs),
                          (runs[0].load[0], runs[-1].load[1]),
                          max(t.others_cores for t in runs)))  # fmt: skip
    return out


def _per_pair(fn: Callable[[str, str], object], pairs: list[tuple[str, str]]) -> Callable[[], None]:
    def run() -> None:
        for h, r in pairs:
            fn(h, r)

    return run


def _table(per_1000: dict[str, float], ratios: list[tuple[str, str]],
           have: dict[str, list[Timing]]) -> None:  # fmt: skip
    print(f"{'computation':44} {'s / 1,000':>10}")
    for name, seconds in per_1000.items():
        print(f"{name:44} {seconds:10.3f}")
    print("\nratio (truepass / peer, the median of the per-round ratios; above 1: truepass slower)")
    for ours_name, peer_name in ratios:
        ratio = median_ratio(have[ours_name], have[peer_name]) or float("nan")
        print(f"{ours_name:38} / {peer_name:38} {ratio:6.2f}")


def lexical(pairs: list[tuple[str, str]], repeats: int, idle_before: float) -> None:
    """BLEU, ROUGE and METEOR beside sacrebleu, rouge-score and nltk."""
    start = time.perf_counter()
    wordnet = text._wordnet(text.wordnet_dir())
    wordnet_load = time.perf_counter() - start

    def lexical_scores(h: str, r: str) -> object:
        return (text.sentence_bleu(h, r), text.rouge(h, r), text.meteor(h, r))

    ours: dict[str, Callable[[str, str], object]] = {
        "truepass BLEU+ROUGE+METEOR": lexical_scores,
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
        lexical_scores(h, r)
    first_pass = time.perf_counter() - start
    for fn in tools.values():
        _per_pair(fn, pairs)()
    timings = run_rounds({name: _per_pair(fn, pairs) for name, fn in tools.items()}, repeats)
    have = by_tool(timings)
    have["peers together"] = _together(have, list(theirs), "peers together")
    per_1000 = {name: statistics.median(t.seconds for t in ts) * 1000 / len(pairs)
                for name, ts in have.items()}  # fmt: skip
    print(
        f"not in the times below: WordNet cold load {wordnet_load:.2f} s (once per process); "
        f"first pass {first_pass * 1000 / len(pairs):.3f} s / 1,000 (fills nltk's synset cache); "
        f"median of {repeats}\n"
    )
    _table(
        per_1000,
        [
            ("truepass BLEU+ROUGE+METEOR", "peers together"),
            ("truepass sentence_bleu", "sacrebleu sentence_bleu"),
            ("truepass rouge", "rouge-score RougeScorer"),
            ("truepass meteor", "nltk meteor_score"),
        ],
        have,
    )
    pairs_ = [("truepass BLEU+ROUGE+METEOR", "peers together")]
    print("\n" + "\n".join(report("lexical", timings, pairs_, idle_before,
                                    derived=have["peers together"])))  # fmt: skip


def bertscore_part(pairs: list[tuple[str, str]], repeats: int, idle_before: float) -> None:
    """BERTScore F1 (all-MiniLM-L6-v2, layer 6) beside bert-score's own API; the embedding cache
    is emptied before every timing, so each row embeds every distinct text of the workload."""
    import bert_score

    from truepass.metrics import bertscore, minilm

    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    path = str(minilm.model_dir("the benchmark"))
    start = time.perf_counter()
    bertscore.bertscore_f1("warm", "up")  # loads the model (and torch) once per process
    ours_load = time.perf_counter() - start
    start = time.perf_counter()
    scorer = bert_score.BERTScorer(model_type=path, num_layers=bertscore.LAYER, device="cpu")
    peer_load = time.perf_counter() - start

    def peer_one(h: str, r: str) -> float:
        return float(scorer.score([h], [r])[2][0])

    def peer_batch() -> list[float]:  # the batch size of ours
        return scorer.score(hyps, refs, batch_size=bertscore.BATCH_SIZE)[2].tolist()

    def peer_function() -> list[float]:  # the plain function with its defaults (batch 64)
        got = bert_score.score(
            hyps, refs, model_type=path, num_layers=bertscore.LAYER, device="cpu"
        )
        return got[2].tolist()

    tools: dict[str, Callable[[], object]] = {
        "truepass bertscore_f1 per answer": _per_pair(bertscore.bertscore_f1, pairs),
        "bert-score BERTScorer.score per answer": _per_pair(peer_one, pairs),
        "truepass bertscore_f1_many (batch)": lambda: bertscore.bertscore_f1_many(hyps, refs),
        "bert-score BERTScorer.score (batch)": peer_batch,
        "bert_score.score (batch, loads the model)": peer_function,
        "truepass text_scores (all six)": _per_pair(text.text_scores, pairs),
    }
    # agreement, before timing (untimed): ours per answer against the peer per answer and batched
    bertscore.clear_cache()
    ours = [bertscore.bertscore_f1(h, r) for h, r in pairs]
    alone = [peer_one(h, r) for h, r in pairs]
    batched = peer_batch()
    batch_ours = bertscore.bertscore_f1_many(hyps, refs)
    wordnet = text._wordnet(text.wordnet_dir())
    lexical_peers = peers(wordnet)  # in the same rounds, for the sum of the four peers
    tools.update({name: _per_pair(fn, pairs) for name, fn in lexical_peers.items()})
    timings = run_rounds(tools, repeats, before=bertscore.clear_cache)
    have = by_tool(timings)
    together = "peers together (3 lexical + BERTScorer)"
    have[together] = _together(
        have, [*lexical_peers, "bert-score BERTScorer.score per answer"], together
    )
    per_1000 = {name: statistics.median(t.seconds for t in ts) * 1000 / len(pairs)
                for name, ts in have.items() if name not in lexical_peers}  # fmt: skip
    print(
        f"\nBERTScore F1, {minilm.MODEL_NAME} layer {bertscore.LAYER}, torch {version('torch')} "
        f"on {minilm.TORCH_THREADS} thread, bert-score {version('bert-score')}, "
        f"transformers {version('transformers')}; median of {repeats}"
    )
    print(
        f"not in the times below: model load (imports included) ours {ours_load:.2f} s, "
        f"BERTScorer {peer_load:.2f} s (once per process; bert_score.score pays it in every call)\n"
    )
    _table(
        per_1000,
        [
            ("truepass bertscore_f1 per answer", "bert-score BERTScorer.score per answer"),
            ("truepass bertscore_f1_many (batch)", "bert-score BERTScorer.score (batch)"),
            ("truepass bertscore_f1_many (batch)", "bert_score.score (batch, loads the model)"),
            ("truepass text_scores (all six)", "peers together (3 lexical + BERTScorer)"),
        ],
        have,
    )
    pairs_ = [("truepass text_scores (all six)", together)]
    print("\n" + "\n".join(report("BERTScore", timings, pairs_, idle_before,
                                    derived=have[together])))  # fmt: skip
    worst = max(abs(a - b) for a, b in zip(ours, alone, strict=True))
    worst_batch = max(abs(a - b) for a, b in zip(batch_ours, ours, strict=True))
    padded = [i for i, (a, b) in enumerate(zip(batched, alone, strict=True)) if abs(a - b) > 1e-4]
    print(
        f"\nagreement: ours per answer vs BERTScorer per answer, max |difference| {worst:.1e}; "
        f"ours batch vs ours per answer {worst_batch:.1e}; BERTScorer batched differs from "
        f"BERTScorer per answer by more than 1e-4 on {len(padded)} of {len(pairs)} pairs "
        f"(its padding quirk, docs/metrics.md)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="summaries (default 1000)")
    ap.add_argument("--repeats", type=int, default=5, help="median of this many (default 5)")
    ap.add_argument(
        "--bert-repeats", type=int, default=3, help="BERTScore: median of this many (default 3)"
    )
    ap.add_argument("--no-bertscore", action="store_true", help="skip BERTScore")
    ap.add_argument("--chinese", action="store_true", help="Chinese references and answers")
    args = ap.parse_args(argv)

    load_before = os.getloadavg()[0]
    pairs = workload(args.n, args.chinese)
    print(
        f"{len(pairs)} summaries ({'Chinese' if args.chinese else 'English'}; "
        f"mean reference {statistics.mean(len(r) for _, r in pairs):.0f} characters, "
        f"{len({r for _, r in pairs})} distinct references); Python {sys.version.split()[0]}, "
        f"{_versions()}; {os.cpu_count()} cores, load average before {load_before:.2f}"
    )
    lexical(pairs, args.repeats, load_before)
    from truepass.metrics import bertscore

    if args.no_bertscore:
        pass
    elif not bertscore.available():
        print("\nBERTScore: skipped, the 'embed' extra is not installed")
    else:
        bertscore_part(pairs, args.bert_repeats, load_before)
    print(f"\nload average after {os.getloadavg()[0]:.2f}")
    return 0


def _versions() -> str:
    return ", ".join(f"{p} {version(p)}" for p in ("sacrebleu", "rouge-score", "nltk"))


if __name__ == "__main__":
    raise SystemExit(main())
