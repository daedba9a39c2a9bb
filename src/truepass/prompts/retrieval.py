"""Choose demonstrations for a target by retrieval, behind a leakage guard.

A :class:`Retriever` indexes a pool of :class:`Candidate` demonstrations once; ``select`` returns
the ``k`` best for one target as a :class:`Selection`: the candidates shown (best first), how many
candidates the guard removed and why, and how many were considered. See docs/retrieval.md.

The guard never shows, in this order of precedence (a candidate is counted under the first
reason that applies, so the counts add up):

- ``target``: the target itself (the same ``id``);
- ``near-duplicate``: a candidate whose :func:`body_hash` equals the target's;
- ``later``: when the target's timestamp is known, a candidate that is not known to be no later
  than it: a later timestamp, or an unknown one (conservative). Equal timestamps pass. When the
  target's timestamp is unknown there is no time filter;
- ``other-project``: with ``same_project=True``, a candidate from another project, or whose
  project is unknown.

Methods: ``bm25`` (default) scores every candidate of the pool with BM25 (the ``bm25s`` library,
Lucene variant, k1 = 1.5, b = 0.75) on the target's distinct query tokens, drops what the guard
removes and keeps the ``k`` highest scores; ties, zero scores included, go to the smaller ``id``.
Because the whole ranking is filtered, ``k`` candidates come back whenever ``k`` survive the
guard. ``embedding`` ranks the same way by the cosine similarity of all-MiniLM-L6-v2 sentence
embeddings (sentence-transformers, the ``embed`` extra's packaged model; the pool is embedded
once, when the retriever is built). ``random`` draws ``k`` of the survivors with a generator
seeded by ``seed`` and the target's id (the zero-shot-retrieval baseline). The guard is the same
code for every method (:meth:`Retriever.guard`).

Tokenisation (:func:`tokenize`): every run of word characters (``\\w+``) is a word; a word is
kept whole, lowercased, and also split on underscores and on camelCase boundaries
(``parseHTTPResponse_v2`` gives ``parsehttpresponse_v2 parse http response v2``); a word that
does not split is kept once. No stop words, no stemming: common keywords get a low IDF.

numpy and bm25s (and, for ``embedding``, torch and sentence-transformers) are imported when a
retriever is built, not when this module is imported.
"""

from __future__ import annotations

import ast
import hashlib
import math
import random
import re
import textwrap
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from truepass import pyast

if TYPE_CHECKING:
    import numpy as np

METHODS = ("bm25", "embedding", "random")
REASONS = ("target", "near-duplicate", "later", "other-project")
"""Why the guard removed a candidate, in order of precedence (the keys of ``Selection.removed``)."""

BM25_K1 = 1.5
BM25_B = 0.75
BM25_VARIANT = "lucene"

_WORD = re.compile(r"\w+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


# -- candidates and their near-duplicate hash -------------------------------------------------


def _strip_docstrings(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:]


def _python_form(code: str) -> str | None:
    """The code's syntax tree without docstrings, as text; None when it is not Python."""
    try:
        tree = pyast.parse(textwrap.dedent(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    _strip_docstrings(tree)
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def body_hash(code: str) -> str:
    """The normalised-body hash two near-duplicates share (sha256, hex).

    Text that parses as Python (after :func:`textwrap.dedent`; a function body without its
    ``def`` line parses too) is hashed as its syntax tree with docstrings removed: comments,
    docstrings, whitespace, line breaks, quote style and redundant parentheses do not count,
    names and literals do. Any other text (a diff, prose, another language) is hashed with all
    whitespace removed and case folded.
    """
    form = _python_form(code)
    payload = "python\0" + form if form is not None else "text\0" + "".join(code.split()).casefold()
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Candidate:
    """One demonstration candidate, or a target.

    ``text`` is what retrieval matches on (a function's code, a diff and its description).
    ``timestamp`` is ISO 8601 (``2024-05-01``, ``2024-05-01T12:00:00+02:00``, ``...Z``; without a
    zone it is taken as UTC); None or ``""`` means unknown. ``body_hash`` is computed from
    ``text`` by :func:`body_hash` when left empty.
    """

    id: str
    text: str
    project: str | None = None
    timestamp: str | None = None
    body_hash: str = ""

    def __post_init__(self) -> None:
        if not self.body_hash:
            object.__setattr__(self, "body_hash", body_hash(self.text))


@dataclass(frozen=True)
class Selection:
    """What ``Retriever.select`` chose for one target.

    ``shown``: the demonstrations, best first (``random``: in drawing order); ``scores``: their
    scores (BM25, or cosine similarity for ``embedding``; empty for ``random``); ``removed``:
    guard reason -> how many candidates it removed, every reason of :data:`REASONS` present;
    ``considered``: the candidates examined (the whole pool), so
    ``considered == sum(removed.values()) + passed``.
    """

    shown: list[Candidate]
    removed: dict[str, int]
    considered: int
    scores: list[float] = field(default_factory=list)
    method: str = "bm25"

    @property
    def shown_ids(self) -> list[str]:
        return [c.id for c in self.shown]

    @property
    def passed(self) -> int:
        """How many candidates the guard let through (``shown`` is the first ``k`` of them)."""
        return self.considered - sum(self.removed.values())

    def record(
        self, shown: Sequence[str] | None = None, passed_over: Mapping[str, int] | None = None
    ) -> dict[str, Any]:
        """What a run's records keep of it (``solver_meta.demonstrations``): the ``retrieval``
        method, the ids ``shown`` with their ``scores``, what was ``removed`` and why, and the
        candidates ``considered``.

        A family that passes over some of the selection (a demonstration that would trip the
        prompt leak guard, one of the target's own bug, ...) gives the ids it kept (``shown``,
        in the order shown) and its own reasons with their counts (``passed_over``), which join
        the guard's in ``removed``.
        """
        ids = self.shown_ids if shown is None else list(shown)
        score = dict(zip(self.shown_ids, self.scores, strict=False))
        return {
            "retrieval": self.method,
            "shown": ids,
            "scores": [score[i] for i in ids if i in score],
            "removed": dict(self.removed) | dict(passed_over or {}),
            "considered": self.considered,
        }


# -- tokens -----------------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def _word_tokens(word: str) -> tuple[str, ...]:
    whole = word.lower()
    parts = [p.lower() for chunk in word.split("_") if chunk for p in _CAMEL.split(chunk) if p]
    return (whole,) if parts == [whole] else (whole, *parts)


def tokenize(text: str) -> list[str]:
    """Code-aware tokens: each identifier whole and split on snake_case and camelCase, lowered."""
    out: list[str] = []
    for word in _WORD.findall(text):
        out.extend(_word_tokens(word))
    return out


def query_tokens(text: str) -> list[str]:
    """The distinct tokens of a query, in order of first appearance (what BM25 scores)."""
    return list(dict.fromkeys(tokenize(text)))


# -- the retriever ----------------------------------------------------------------------------


def instant(timestamp: str | None, who: str = "") -> float:
    """POSIX seconds of an ISO 8601 timestamp (UTC when it names no zone); NaN when unknown."""
    if timestamp is None or not timestamp.strip():
        return math.nan
    try:
        moment = datetime.fromisoformat(timestamp.strip())
    except ValueError as err:
        where = f"candidate {who!r}: " if who else ""
        raise ValueError(f"{where}timestamp {timestamp!r} is not ISO 8601") from err
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _codes(values: Sequence[str | None]) -> tuple[dict[str, int], list[int]]:
    """Integer codes for values (None: -1), so the guard compares numpy arrays."""
    table: dict[str, int] = {}
    codes = [-1 if v is None else table.setdefault(v, len(table)) for v in values]
    return table, codes


class Retriever:
    """Demonstration retrieval over one pool, indexed once; see the module docstring."""

    def __init__(self, pool: Sequence[Candidate], *, method: str = "bm25") -> None:
        import numpy as np

        if method not in METHODS:
            raise ValueError(f"unknown retrieval method {method!r}; known: {', '.join(METHODS)}")
        self.method = method
        self.pool: list[Candidate] = list(pool)
        self._position: dict[str, int] = {}
        for i, c in enumerate(self.pool):
            if c.id in self._position:
                raise ValueError(f"candidate id {c.id!r} appears twice in the pool")
            self._position[c.id] = i
        n = len(self.pool)
        order = sorted(range(n), key=lambda i: self.pool[i].id)
        self._id_rank = np.empty(n, dtype=np.int64)
        self._id_rank[order] = np.arange(n, dtype=np.int64)
        self._instants = np.array([instant(c.timestamp, c.id) for c in self.pool], dtype=np.float64)
        self._project_table, projects = _codes([c.project for c in self.pool])
        self._projects = np.array(projects, dtype=np.int64)
        self._hash_table, hashes = _codes([c.body_hash for c in self.pool])
        self._hashes = np.array(hashes, dtype=np.int64)
        self._bm25: Any = None
        self._text_vectors: Any = None
        self._text_matrix: Any = None
        self._text_rows: Any = None
        self._row_of_text: dict[str, int] = {}
        if method == "bm25":
            self._bm25 = self._index()
        elif method == "embedding":
            self._embed()

    def _index(self) -> Any:
        corpus = [tokenize(c.text) for c in self.pool]
        if not any(corpus):  # nothing to match on: every score is zero
            return None
        import bm25s

        index = bm25s.BM25(k1=BM25_K1, b=BM25_B, method=BM25_VARIANT)
        index.index(corpus, create_empty_token=False, show_progress=False)
        return index

    def _embed(self) -> None:
        import numpy as np

        from truepass.metrics import minilm

        minilm.model_dir("the embedding retriever")  # ModelMissingError without the extra
        # each distinct text once, in sorted order: the batches, and so every vector to the
        # last bit, do not depend on the pool's order
        texts = sorted({c.text for c in self.pool})
        self._row_of_text = {text: i for i, text in enumerate(texts)}
        self._text_vectors = minilm.embed(texts)
        self._text_rows = np.array([self._row_of_text[c.text] for c in self.pool], dtype=np.int64)
        import torch

        # the similarities are one matrix-vector product in torch, on its one thread: numpy's
        # BLAS would use every core (and wait for them on a busy machine)
        self._text_matrix = torch.from_numpy(self._text_vectors)

    def __len__(self) -> int:
        return len(self.pool)

    def scores(self, text: str) -> np.ndarray:
        """The method's score of every pool candidate (pool order) for a query text (float32):
        BM25, or for ``embedding`` the cosine similarity of the sentence embeddings (a text equal
        to a pool candidate's uses that candidate's embedding; any other is embedded now)."""
        import numpy as np

        if self._text_vectors is not None:
            row = self._row_of_text.get(text)
            if row is not None:
                query = self._text_vectors[row]
            else:
                from truepass.metrics import minilm

                query = minilm.embed([text])[0]
            import torch

            # per distinct text in sorted order, then spread over the pool: a candidate's score
            # does not depend on its position (BLAS sums a row differently by where it lies)
            similarity = torch.mv(self._text_matrix, torch.from_numpy(np.ascontiguousarray(query)))
            return similarity.numpy()[self._text_rows]
        if self._bm25 is None:
            return np.zeros(len(self.pool), dtype=np.float32)
        vocab = self._bm25.vocab_dict
        ids = [vocab[t] for t in query_tokens(text) if t in vocab]
        if not ids:
            return np.zeros(len(self.pool), dtype=np.float32)
        return self._bm25.get_scores_from_ids(ids)

    def guard(self, target: Candidate, *, same_project: bool = False) -> tuple[Any, dict[str, int]]:
        """(mask of the pool candidates the guard lets through, reason -> how many it removed)."""
        import numpy as np

        if same_project and target.project is None:
            raise ValueError(f"target {target.id!r} has no project: same_project needs one")
        moment = instant(target.timestamp, target.id)
        n = len(self.pool)
        keep = np.ones(n, dtype=bool)
        removed: dict[str, int] = {}

        def drop(reason: str, mask: np.ndarray | None) -> None:
            if mask is None:
                removed[reason] = 0
                return
            hit = mask & keep
            removed[reason] = int(hit.sum())
            keep[hit] = False

        where = self._position.get(target.id)
        if where is None:
            drop("target", None)
        else:
            mask = np.zeros(n, dtype=bool)
            mask[where] = True
            drop("target", mask)
        code = self._hash_table.get(target.body_hash)
        drop("near-duplicate", None if code is None else self._hashes == code)
        # NaN (unknown) compares false, so an undated candidate is dropped with the later ones
        drop("later", None if math.isnan(moment) else ~(self._instants <= moment))
        if same_project:
            drop("other-project", self._projects != self._project_table.get(target.project, -2))
        else:
            drop("other-project", None)
        return keep, removed

    def select(
        self, target: Candidate, k: int, *, same_project: bool = False, seed: int = 0
    ) -> Selection:
        """The ``k`` best demonstrations for ``target`` that pass the guard (fewer if fewer pass).

        ``same_project``: only candidates of the target's project (the target must name one).
        ``seed``: the ``random`` method's draw (mixed with the target's id); the others ignore it.
        """
        import numpy as np

        if k < 0:
            raise ValueError(f"k must be >= 0, got {k}")
        keep, removed = self.guard(target, same_project=same_project)
        survivors = np.flatnonzero(keep)
        if self.method == "random":
            survivors = survivors[np.argsort(self._id_rank[survivors], kind="stable")]
            rng = random.Random(f"{seed}:{target.id}")
            picked = rng.sample(survivors.tolist(), min(k, len(survivors)))
            return Selection(
                shown=[self.pool[i] for i in picked],
                removed=removed,
                considered=len(self.pool),
                method=self.method,
            )
        if k == 0 or len(survivors) == 0:
            return Selection(
                shown=[], removed=removed, considered=len(self.pool), method=self.method
            )
        scores = self.scores(target.text)
        if k < len(survivors):
            mine = scores[survivors]
            kth_best = np.partition(mine, len(mine) - k)[len(mine) - k]
            survivors = survivors[mine >= kth_best]  # every tie at the boundary stays in
        order = np.lexsort((self._id_rank[survivors], -scores[survivors]))
        top = survivors[order[:k]].tolist()
        return Selection(
            shown=[self.pool[i] for i in top],
            removed=removed,
            considered=len(self.pool),
            scores=[float(scores[i]) for i in top],
            method=self.method,
        )


_POOLS_LOCK = threading.Lock()
_POOLS: dict[tuple[int, Callable[[Any], Candidate], str], tuple[Sequence[Any], Retriever]] = {}


def pool_retriever(
    pool: Sequence[Any], candidate: Callable[[Any], Candidate], method: str = "bm25"
) -> Retriever:
    """One index per demonstration pool (a suite's samples), per way of making candidates from
    them and per method (:data:`METHODS`), built on first use and shared by every attempt of a
    run.

    Raises:
        ValueError: an unknown method.
        truepass.metrics.minilm.ModelMissingError: ``embedding`` without the ``embed`` extra.
    """
    key = (id(pool), candidate, method)
    with _POOLS_LOCK:
        held = _POOLS.get(key)
        if held is None or held[0] is not pool:
            held = (pool, Retriever([candidate(s) for s in pool], method=method))
            _POOLS[key] = held
        return held[1]
