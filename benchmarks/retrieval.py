"""Demonstration retrieval: time per query on a large pool, beside a plain reference in one run.

Builds a synthetic pool of Python functions (``--pool``, default 12,000) from templates written
here (verbs, nouns, fields and a dozen body shapes; snake_case and camelCase names, docstrings and
comments now and then; 40 projects; timestamps over ten years, 2% unknown); no external data.
Then, for ``--queries`` targets (default 200: half drawn from the pool, so the guard meets the
target itself, half generated fresh; every other one with ``same_project=True``), times

- ``Retriever.select`` (bm25s over the whole pool, the guard on the whole ranking, top ``k``), and
- a plain reference: pure-Python BM25 (Lucene variant, the same k1, b and tokens) scoring every
  candidate with ``collections.Counter`` documents, the same guard written as ``if`` statements
  per candidate, and a sort,

in paired rounds (benchmarks/rounds.py): the queries are split into ``--rounds`` chunks, and each
round runs both on its chunk back to back, the order rotating. Prints the median, 90th percentile
and mean time per query of each (wall clock, and CPU time of the process, steadier on a busy
machine), their ratio of medians and the median of the per-round ratios of the chunks' times, the
rounds with the load average and the cores other work kept busy (and an UNRELIABLE line for every
chunk whose cores other work took), the time to build each index, and how often the two agree:
the same top-1, the same top ``k`` in the same order, and the same guard counts. A disagreement
whose two lists have the same reference (float64) scores position by position, within 1e-5
relative, is a near-tie that bm25s's float32 scores break the other way, and is counted apart.

Then, when the ``embed`` extra is installed (``--no-embedding`` skips it), the same queries on
``Retriever(pool, method="embedding")``: embedding the pool with all-MiniLM-L6-v2 is a one-off
cost, printed apart (with torch on one thread, as truepass runs it); per query, ``select`` is timed
beside a plain reference: sentence-transformers' ``util.cos_sim`` of the query's embedding with
every pool embedding (the same vectors), the same ``if``-statement guard, and a heap. A target from
the pool reuses its own embedding in both; a fresh target is embedded in both (reported apart).
The same paired rounds of chunks (pooled and fresh targets together) give its per-round ratios.

    .venv/bin/python benchmarks/retrieval.py
    .venv/bin/python benchmarks/retrieval.py --pool 20000 --queries 500 --k 3

Not a pytest module: run it as a script.
"""

from __future__ import annotations

import argparse
import heapq
import math
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import Timing, by_tool, median_ratio, report, rotation, timed

from truepass.prompts.retrieval import (
    BM25_B,
    BM25_K1,
    REASONS,
    Candidate,
    Retriever,
    query_tokens,
    tokenize,
)

VERBS = [
    "load", "save", "parse", "render", "validate", "compute", "merge", "filter", "sort", "fetch",
    "update", "delete", "create", "find", "count", "normalize", "encode", "decode", "send", "cache",
    "split", "group", "rank", "resolve",
]  # fmt: skip
NOUNS = [
    "user", "order", "invoice", "token", "session", "matrix", "record", "config", "payload",
    "report", "account", "message", "image", "vector", "graph", "node", "edge", "queue", "file",
    "price", "ticket", "schedule", "sensor", "cart", "review", "commit",
]  # fmt: skip
FIELDS = [
    "name", "id", "email", "total", "status", "created_at", "items", "value", "weight", "score",
    "path", "size", "owner", "tags", "priority", "deadline",
]  # fmt: skip
LIBS = ["json", "csv", "re", "math", "itertools", "hashlib", "gzip", "base64", "heapq", "bisect"]

BODIES = [
    "    result = []\n    for {n} in {ns}:\n        if {n}.{f} > {k}:\n"
    "            result.append({n}.{g})\n    return result\n",
    "    with open(path) as handle:\n        data = {lib}.load(handle)\n"
    "    return [{N}(**row) for row in data['{ns}']]\n",
    "    total = 0\n    for {n} in {ns}:\n        total += {n}.{f} * {k}\n    return total\n",
    "    if not {n}.{f}:\n        raise ValueError('{n} has no {f}')\n"
    "    {n}.{g} = {lib}.{fn}({n}.{f})\n    return {n}\n",
    "    seen = set()\n    out = []\n    for {n} in {ns}:\n        key = {n}.{f}\n"
    "        if key not in seen:\n            seen.add(key)\n            out.append({n})\n"
    "    return out\n",
    "    return sorted({ns}, key=lambda {n}: ({n}.{f}, {n}.{g}), reverse={rev})\n",
    "    groups = {{}}\n    for {n} in {ns}:\n        groups.setdefault({n}.{f}, []).append({n})\n"
    "    return groups\n",
    "    cache = self._cache.get({n}.{f})\n    if cache is None:\n"
    "        cache = self.client.{v}({n}.{g}, timeout={k})\n        self._cache[{n}.{f}] = cache\n"
    "    return cache\n",
    "    payload = {{'{f}': {n}.{f}, '{g}': {n}.{g}}}\n"
    "    return self.session.post('/{ns}/{v}', json=payload).status_code == {code}\n",
    "    lo, hi = 0, len({ns})\n    while lo < hi:\n        mid = (lo + hi) // 2\n"
    "        if {ns}[mid].{f} < {n}.{f}:\n            lo = mid + 1\n        else:\n"
    "            hi = mid\n    return lo\n",
    "    count = Counter({n}.{f} for {n} in {ns})\n    return count.most_common({k})\n",
    "    for attempt in range({k}):\n        try:\n            return self.{v}_{n}({n}.{g})\n"
    "        except TimeoutError:\n            time.sleep(attempt * 0.{k})\n"
    "    raise RuntimeError('could not {v} {n}')\n",
]


def _name(rng: random.Random, verb: str, noun: str) -> str:
    if rng.random() < 0.5:
        return f"{verb}_{noun}" + rng.choice(["", "", "s", "_by_" + rng.choice(FIELDS)])
    return verb + noun.capitalize() + rng.choice(["", "", "s", "By" + rng.choice(FIELDS).title()])


def snippet(rng: random.Random) -> str:
    verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
    f, g = rng.sample(FIELDS, 2)
    head = f"def {_name(rng, verb, noun)}(self, {noun}s, {noun}=None, path=None):\n"
    if rng.random() < 0.3:
        head += f'    """{verb.capitalize()} the {noun}s by {f}."""\n'
    if rng.random() < 0.2:
        head += f"    # {g} is optional here\n"
    body = rng.choice(BODIES).format(
        n=noun, ns=f"{noun}s", N=noun.capitalize(), f=f, g=g, v=verb, k=rng.randint(1, 9),
        lib=rng.choice(LIBS), fn=rng.choice(["dumps", "sha1", "compress", "floor", "escape"]),
        rev=rng.choice([True, False]), code=rng.choice([200, 201, 204]),
    )  # fmt: skip
    return head + body


def stamp(rng: random.Random) -> str | None:
    if rng.random() < 0.02:
        return None
    start = datetime(2015, 1, 1, tzinfo=UTC).timestamp()
    return datetime.fromtimestamp(start + rng.random() * 10 * 365 * 86400, UTC).isoformat()


def candidate(rng: random.Random, cid: str) -> Candidate:
    return Candidate(cid, snippet(rng), f"proj-{rng.randrange(40):02d}", stamp(rng))


class Reference:
    """Plain BM25 and the guard in pure Python: one loop over every candidate per query."""

    def __init__(self, pool: list[Candidate]) -> None:
        self.pool = pool
        self.docs = [Counter(tokenize(c.text)) for c in pool]
        lengths = [sum(d.values()) for d in self.docs]
        avgdl = sum(lengths) / len(lengths)
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(pool)
        self.idf = {t: math.log(1 + (n - m + 0.5) / (m + 0.5)) for t, m in df.items()}
        self.norm = [BM25_K1 * (1 - BM25_B + BM25_B * dl / avgdl) for dl in lengths]
        self.when = [self._when(c.timestamp) for c in pool]

    @staticmethod
    def _when(ts: str | None) -> datetime | None:
        if not ts:
            return None
        moment = datetime.fromisoformat(ts)
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

    def score(self, i: int, query: list[str]) -> float:
        doc, norm, total = self.docs[i], self.norm[i], 0.0
        for t in query:
            tf = doc.get(t)
            if tf:
                total += self.idf[t] * tf / (tf + norm)
        return total

    def guarded(self, target: Candidate, same_project: bool) -> tuple[list[int], dict[str, int]]:
        """The guard as ``if`` statements: the positions that pass, and the counts."""
        when = self._when(target.timestamp)
        removed = dict.fromkeys(REASONS, 0)
        passing = []
        for i, c in enumerate(self.pool):
            if c.id == target.id:
                removed["target"] += 1
            elif c.body_hash == target.body_hash:
                removed["near-duplicate"] += 1
            elif when is not None and (self.when[i] is None or self.when[i] > when):
                removed["later"] += 1
            elif same_project and c.project != target.project:
                removed["other-project"] += 1
            else:
                passing.append(i)
        return passing, removed

    def select(self, target: Candidate, k: int, same_project: bool):
        query = [t for t in query_tokens(target.text) if t in self.idf]
        passing, removed = self.guarded(target, same_project)
        ranked = [(-self.score(i, query), self.pool[i].id, i) for i in passing]
        top = heapq.nsmallest(k, ranked)
        return [self.pool[i].id for _, _, i in top], removed


class EmbeddingReference:
    """Cosine similarity by sentence-transformers' ``util.cos_sim`` over the pool's embeddings,
    the guard of :class:`Reference`, and a heap."""

    def __init__(self, guard: Reference, vectors, row_of_text: dict[str, int]) -> None:
        import torch

        from truepass.metrics import minilm

        self.guard = guard
        self.model = minilm.sentence_model()
        self.vectors = torch.from_numpy(vectors)  # one row per pool candidate
        self.row_of_text = row_of_text  # text -> a pool position with that text

    def query(self, text: str):
        import torch

        row = self.row_of_text.get(text)
        if row is not None:
            return self.vectors[row]
        return torch.from_numpy(self.model.encode([text], normalize_embeddings=True)[0])

    def select(self, target: Candidate, k: int, same_project: bool):
        from sentence_transformers import util

        sims = util.cos_sim(self.query(target.text), self.vectors)[0].tolist()
        passing, removed = self.guard.guarded(target, same_project)
        top = heapq.nsmallest(k, [(-sims[i], self.guard.pool[i].id, i) for i in passing])
        return [self.guard.pool[i].id for _, _, i in top], removed, sims


def _ms(values: list[float]) -> str:
    q = statistics.quantiles(values, n=10)[-1]
    return (
        f"median {statistics.median(values) * 1e3:8.3f} ms   p90 {q * 1e3:8.3f} ms   "
        f"mean {statistics.fmean(values) * 1e3:8.3f} ms"
    )


Query = tuple[Any, float, float]  # a tool's answer to one query, its wall and CPU seconds


def paired_chunks(
    targets: list[Candidate], n_rounds: int, tools: dict[str, Callable[[int, Candidate], Any]]
) -> tuple[dict[str, dict[int, Query]], list[Timing]]:
    """Every tool on every target, in paired rounds: round r's chunk of the targets by each
    tool back to back, the order rotating; per tool and target index its answer and times, and
    each chunk's window."""
    n_rounds = max(1, min(n_rounds, len(targets)))
    size = -(-len(targets) // n_rounds)
    got: dict[str, dict[int, Query]] = {name: {} for name in tools}
    timings = []
    for r in range(n_rounds):
        chunk = list(enumerate(targets))[r * size : (r + 1) * size]
        for name in rotation(list(tools), r):

            def run(fn: Callable[[int, Candidate], Any] = tools[name],
                    out: dict[int, Query] = got[name],
                    todo: list[tuple[int, Candidate]] = chunk) -> None:  # fmt: skip
                for j, target in todo:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    answer = fn(j, target)
                    out[j] = (answer, time.perf_counter() - start, time.process_time() - start_cpu)

            timings.append(timed(name, r, run)[1])
    return got, timings


def embedding_part(
    pool: list[Candidate], targets: list[Candidate], reference: Reference, k: int,
    n_rounds: int, idle_before: float,
) -> None:  # fmt: skip
    """The embedding retriever on the same pool and queries (see the module docstring)."""
    import numpy as np

    from truepass.metrics import minilm

    start = time.perf_counter()
    minilm.sentence_model()
    load = time.perf_counter() - start
    start, start_cpu = time.perf_counter(), time.process_time()
    retriever = Retriever(pool, method="embedding")
    build, build_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    distinct = len({c.text for c in pool})
    print(
        f"\nembedding (all-MiniLM-L6-v2, sentence-transformers {version('sentence-transformers')}, "
        f"torch {version('torch')} on {minilm.TORCH_THREADS} thread)"
    )
    print(
        f"  one-off: model load {load:.2f} s; embedding the pool ({distinct} distinct texts) "
        f"{build:.1f} s wall, {build_cpu:.1f} s cpu (per text: {build / distinct * 1e3:.1f} ms "
        f"wall, {build_cpu / distinct * 1e3:.1f} ms cpu)"
    )
    vectors = retriever._text_vectors[retriever._text_rows]  # the same vectors, pool order
    rows: dict[str, int] = {}
    for i, c in enumerate(pool):
        rows.setdefault(c.text, i)
    plain = EmbeddingReference(reference, np.ascontiguousarray(vectors), rows)
    got, timings = paired_chunks(targets, n_rounds, {
        "ours": lambda j, t: retriever.select(t, k, same_project=j % 4 in (1, 2)),
        "plain": lambda j, t: plain.select(t, k, j % 4 in (1, 2)),
    })  # fmt: skip
    times: dict[str, dict[str, list[float]]] = {
        f"{who} {kind}": {"wall": [], "cpu": []}
        for who in ("ours", "plain")
        for kind in ("pooled", "fresh")
    }
    top1 = topk = guard = ties = 0
    for j, target in enumerate(targets):
        kind = "pooled" if target.text in rows else "fresh"
        for who in ("ours", "plain"):
            times[f"{who} {kind}"]["wall"].append(got[who][j][1])
            times[f"{who} {kind}"]["cpu"].append(got[who][j][2])
        sel = got["ours"][j][0]
        a_ids, a_removed = sel.shown_ids, sel.removed
        b_ids, b_removed, sims = got["plain"][j][0]
        guard += a_removed == b_removed
        top1 += a_ids[:1] == b_ids[:1]
        if a_ids == b_ids:
            topk += 1
        else:  # near-ties: the reference's similarities equal position by position
            where = {c.id: i for i, c in enumerate(pool) if c.id in set(a_ids) | set(b_ids)}
            sa, sb = [sims[where[x]] for x in a_ids], [sims[where[x]] for x in b_ids]
            ties += len(sa) == len(sb) and all(
                abs(x - y) <= 1e-6 for x, y in zip(sa, sb, strict=True)
            )
    print(f"  queries: {len(targets)} (same targets as above), k = {k}")
    for name, label in (
        ("ours pooled", "Retriever.select, pool target"),
        ("plain pooled", "plain cos_sim + guard, pool target"),
        ("ours fresh", "Retriever.select, fresh target"),
        ("plain fresh", "plain cos_sim + guard, fresh target"),
    ):
        if times[name]["wall"]:
            print(f"  {label:36s} wall {_ms(times[name]['wall'])}")
            print(f"  {'':36s} cpu  {_ms(times[name]['cpu'])}")
    for kind in ("pooled", "fresh"):
        ours, theirs = times[f"ours {kind}"]["cpu"], times[f"plain {kind}"]["cpu"]
        if ours and theirs:
            ratio = statistics.median(theirs) / statistics.median(ours)
            wall = statistics.median(times[f"plain {kind}"]["wall"]) / statistics.median(
                times[f"ours {kind}"]["wall"]
            )
            print(
                f"  ratio of medians, {kind} targets (plain / ours): "
                f"wall {wall:.1f}x, cpu {ratio:.1f}x"
            )
    n = len(targets)
    print(
        f"  agreement: top-1 {top1}/{n}, top-{k} in order {topk}/{n}, guard counts {guard}/{n}; "
        f"top-{k} disagreements that are near-ties (within 1e-6): {ties}/{n - topk}"
    )
    print("\n".join(report("embedding queries", timings, [("plain", "ours")], idle_before)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pool", type=int, default=12_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-embedding", action="store_true", help="skip the embedding retriever's part"
    )
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds (query chunks)")
    args = parser.parse_args()
    idle_before = os.getloadavg()[0]

    print(
        f"python {platform.python_version()}, numpy {version('numpy')}, bm25s {version('bm25s')}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    pool = [candidate(rng, f"s{i:06d}") for i in range(args.pool)]
    t1 = time.perf_counter()
    retriever = Retriever(pool)
    t2 = time.perf_counter()
    reference = Reference(pool)
    t3 = time.perf_counter()
    distinct = len({c.body_hash for c in pool})
    print(
        f"pool: {len(pool)} snippets ({distinct} distinct normalised bodies), "
        f"{sum(len(c.text) for c in pool) / len(pool):.0f} characters on average, "
        f"{len(reference.idf)} distinct tokens"
    )
    print(
        f"build: candidates with body hashes {t1 - t0:.2f} s, bm25s index {t2 - t1:.2f} s, "
        f"reference index {t3 - t2:.2f} s"
    )

    targets = [
        rng.choice(pool) if j % 2 == 0 else candidate(rng, f"fresh{j:04d}")
        for j in range(args.queries)
    ]
    got, timings = paired_chunks(
        targets,
        args.rounds,
        {
            "ours": lambda j, t: retriever.select(t, args.k, same_project=j % 4 in (1, 2)),
            "plain": lambda j, t: reference.select(t, args.k, j % 4 in (1, 2)),
        },
    )  # fmt: skip  (same_project on every other pair: pooled and fresh targets both get it)
    passed = [got["ours"][j][0].passed for j in range(len(targets))]
    ours, ours_cpu = ([got["ours"][j][i] for j in range(len(targets))] for i in (1, 2))
    plain, plain_cpu = ([got["plain"][j][i] for j in range(len(targets))] for i in (1, 2))
    position = {c.id: i for i, c in enumerate(pool)}
    top1 = topk = guard = ties1 = tiesk = 0
    for j, target in enumerate(targets):
        sel = got["ours"][j][0]
        (a_ids, a_removed), (b_ids, b_removed) = (sel.shown_ids, sel.removed), got["plain"][j][0]
        guard += a_removed == b_removed
        if a_ids == b_ids:
            topk += 1
        else:  # the same scores position by position (reference's float64): float32 near-ties
            query = [t for t in query_tokens(target.text) if t in reference.idf]
            sa = [reference.score(position[x], query) for x in a_ids]
            sb = [reference.score(position[x], query) for x in b_ids]
            tied = len(sa) == len(sb) and all(
                abs(x - y) <= 1e-5 * max(abs(x), abs(y), 1e-12) for x, y in zip(sa, sb, strict=True)
            )
            tiesk += tied
            if a_ids[:1] != b_ids[:1]:
                ties1 += tied
        top1 += a_ids[:1] == b_ids[:1]

    n = len(targets)
    print(f"queries: {n} (half from the pool, half fresh; same_project on half), k = {args.k}")
    print(
        f"  candidates passing the guard per query: median {statistics.median(passed):.0f}, "
        f"min {min(passed)}, max {max(passed)}"
    )
    for label, wall, cpu in (
        ("Retriever.select (bm25s + guard)", ours, ours_cpu),
        ("plain Python BM25 + guard", plain, plain_cpu),
    ):
        print(f"  {label:34s} wall {_ms(wall)}")
        print(f"  {'':34s} cpu  {_ms(cpu)}")
    wall_ratio = statistics.median(plain) / statistics.median(ours)
    cpu_ratio = statistics.median(plain_cpu) / statistics.median(ours_cpu)
    paired = median_ratio(by_tool(timings)["plain"], by_tool(timings)["ours"]) or float("nan")
    print(f"  ratio of medians (plain / ours): wall {wall_ratio:.1f}x, cpu {cpu_ratio:.1f}x; "
          f"median of the per-round ratios (wall, chunks) {paired:.1f}x")  # fmt: skip
    print(
        f"agreement: top-1 {top1}/{n}, top-{args.k} in order {topk}/{n}, guard counts {guard}/{n}"
    )
    print(
        f"  disagreements that are float32 near-ties (same float64 scores position by position): "
        f"top-1 {ties1}/{n - top1}, top-{args.k} {tiesk}/{n - topk}"
    )
    print("\n".join(report("BM25 queries", timings, [("plain", "ours")], idle_before)))
    if args.no_embedding:
        return
    from truepass.metrics import minilm

    if not minilm.available():
        print(f"\nembedding: skipped, the '{minilm.EXTRA}' extra is not installed")
        return
    embedding_part(pool, targets, reference, args.k, args.rounds, idle_before)


if __name__ == "__main__":
    main()
