"""BERTScore F1 (Zhang et al. 2020) with all-MiniLM-L6-v2, layer 6, computed by the reference
implementation ``bert-score`` (0.3.13).

Each text is tokenised and embedded by ``bert_score.utils.get_bert_embedding`` (the model's
layer-6 output, i.e. its last layer; word pieces of the model's own uncased tokenizer, with
``[CLS]`` and ``[SEP]``), and each pair is scored by ``bert_score.utils.greedy_cos_idf``: every
token of one side is matched to its most similar token (cosine) of the other; precision is the
mean over the answer's tokens, recall over the reference's, F1 their harmonic mean. No idf
weighting (``[CLS]`` and ``[SEP]`` weigh 0, every other token 1, as ``bert_score.score(...,
idf=False)``), no baseline rescaling. This is what ``bert_score.score([answer], [reference],
model_type=<the packaged model's directory>, num_layers=6)`` computes for one pair; what is ours
is only the loop around those two functions: the model loaded once per process from the packaged
directory (:mod:`.minilm`); each text's embedding kept (up to :data:`CACHE_TOKENS` token vectors,
least recently used first out), so a reference scored against many answers is embedded once;
and each pair matched alone, so that its score does not depend on the other pairs scored with it
(bert-score's batched matching lets padding, similarity 0, win over negative similarities).

The numbers are **not comparable** with BERTScore from ``roberta-large`` (bert-score's English
default) or any other model, nor with rescaled BERTScore. docs/metrics.md.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from typing import Any

from truepass.metrics import minilm

KEY = "bertscore_minilm_l6"
"""The score's name in ``text_scores``: the model and the layer, so it is never mistaken for
BERTScore from another model."""
LAYER = 6
BATCH_SIZE = 32
"""Texts embedded together by the batch path (sorted by length: little padding). On one CPU
thread 16 to 32 was fastest here; 64 pads more."""
CACHE_TOKENS = 1 << 16
"""Token vectors (384 float32 each, 1.5 KiB) kept between calls: about 100 MB at most."""
BERT_SCORE_VERSION = "0.3.13"


@cache
def available() -> bool:
    """Whether BERTScore can be computed: the ``embed`` extra (the model, torch, transformers and
    bert-score) is installed. Nothing is imported to find out."""
    return minilm.available() and not minilm.missing(("bert_score",))


class _Scorer:
    """The model, its tokenizer and the embedding cache; one per process, used under a lock."""

    def __init__(self) -> None:
        path = minilm.model_dir("BERTScore")
        if minilm.missing(("bert_score",)):
            raise minilm.ModelMissingError(
                f"BERTScore needs bert-score=={BERT_SCORE_VERSION} of truepass's "
                f"'{minilm.EXTRA}' extra: {minilm.INSTALL}"
            )
        minilm.prepare_runtime()
        import torch
        from transformers import AutoModel, AutoTokenizer

        # bert_score.utils.get_model/get_tokenizer pick a loader by the model's *name* (a path
        # containing "t5" would load T5): the same calls, made on the directory directly.
        self.tokenizer = AutoTokenizer.from_pretrained(str(path), use_fast=False)
        model = AutoModel.from_pretrained(str(path), local_files_only=True)
        if len(model.encoder.layer) != LAYER:
            raise RuntimeError(f"{path} has {len(model.encoder.layer)} layers, not {LAYER}")
        model.eval()
        self.model = model.to("cpu")
        self.torch = torch
        idf: dict[int, float] = _Ones()
        idf[self.tokenizer.sep_token_id] = 0.0
        idf[self.tokenizer.cls_token_id] = 0.0
        self.idf = idf
        self.cache: OrderedDict[str, tuple[Any, Any]] = OrderedDict()
        self.cached_tokens = 0
        self.lock = threading.Lock()

    def _embed_missing(self, texts: list[str]) -> None:
        from bert_score.utils import get_bert_embedding

        # longest first, by word pieces: a batch of similar lengths pads little
        todo = sorted(
            {t for t in texts if t not in self.cache},
            key=lambda t: (-len(self.tokenizer.tokenize(t)), t),
        )
        for start in range(0, len(todo), BATCH_SIZE):
            batch = todo[start : start + BATCH_SIZE]
            embs, masks, idf = get_bert_embedding(
                batch, self.model, self.tokenizer, self.idf, device="cpu"
            )
            for i, text in enumerate(batch):
                length = int(masks[i].sum().item())
                self.cache[text] = (embs[i, :length].clone(), idf[i, :length].clone())
                self.cached_tokens += length

    def _trim(self, keep: set[str]) -> None:
        for text in list(self.cache):
            if self.cached_tokens <= CACHE_TOKENS:
                break
            if text not in keep:
                self.cached_tokens -= self.cache.pop(text)[0].shape[0]

    def _padded(self, texts: list[str]) -> tuple[Any, Any, Any]:
        """bert_cos_score_idf's ``pad_batch_stats``: embeddings padded with 2.0, idf with 0, and
        the mask of real positions (fresh tensors: greedy_cos_idf divides them in place)."""
        from torch.nn.utils.rnn import pad_sequence

        torch = self.torch
        embs = [self.cache[t][0] for t in texts]
        idfs = [self.cache[t][1] for t in texts]
        lens = torch.tensor([e.size(0) for e in embs], dtype=torch.long)
        mask = torch.arange(int(lens.max())).expand(len(texts), -1) < lens.unsqueeze(1)
        return (
            pad_sequence(embs, batch_first=True, padding_value=2.0),
            mask,
            pad_sequence(idfs, batch_first=True),
        )

    def f1(self, hypotheses: list[str], references: list[str]) -> list[float]:
        from bert_score.utils import greedy_cos_idf

        out: list[float] = []
        with self.lock, self.torch.no_grad():
            self._embed_missing([*references, *hypotheses])
            # Each pair is matched alone: in a padded batch greedy_cos_idf lets a padding
            # position (similarity 0) win over negative similarities, so a pair's score would
            # depend on the other pairs of its batch (docs/metrics.md).
            for ref, hyp in zip(references, hypotheses, strict=True):
                _, _, f1 = greedy_cos_idf(*self._padded([ref]), *self._padded([hyp]))
                out.append(float(f1[0]))
            for text in (*references, *hypotheses):
                self.cache.move_to_end(text)
            self._trim(set(references) | set(hypotheses))
        return out


class _Ones(dict[int, float]):
    """bert-score's idf table without idf: 1 for every token id not set otherwise."""

    def __missing__(self, key: int) -> float:
        return 1.0


_scorer = minilm.Lazy(_Scorer)


def _key(text: str) -> str:
    return text.strip()  # bert-score strips each text before tokenising it


def bertscore_f1_many(hypotheses: Sequence[str], references: Sequence[str]) -> list[float]:
    """BERTScore F1 of each answer against its one reference, 0..1 (about 1 for an answer equal to
    its reference); the batch path: new texts are embedded in batches of :data:`BATCH_SIZE`.
    An empty answer or reference scores 0 (bert-score's value too, without its warning).

    Raises:
        truepass.metrics.minilm.ModelMissingError: the ``embed`` extra is not installed.
    """
    if len(hypotheses) != len(references):
        raise ValueError(
            f"BERTScore needs one reference per answer "
            f"({len(hypotheses)} answers, {len(references)} references)"
        )
    hyps = [_key(h) for h in hypotheses]
    refs = [_key(r) for r in references]
    scorer: _Scorer = _scorer.get()
    scored = [i for i, (h, r) in enumerate(zip(hyps, refs, strict=True)) if h and r]
    out = [0.0] * len(hyps)
    if scored:
        values = scorer.f1([hyps[i] for i in scored], [refs[i] for i in scored])
        for i, value in zip(scored, values, strict=True):
            out[i] = value
    return out


def bertscore_f1(hypothesis: str, reference: str) -> float:
    """BERTScore F1 of one answer against one reference (see :func:`bertscore_f1_many`)."""
    return bertscore_f1_many([hypothesis], [reference])[0]


def clear_cache() -> None:
    """Forget every kept embedding (a benchmark's cold start; the model stays loaded)."""
    scorer: _Scorer = _scorer.get()
    with scorer.lock:
        scorer.cache.clear()
        scorer.cached_tokens = 0


def signature() -> str:
    """bert-score's hash of these settings, with the model named (print it beside numbers)."""
    from importlib.metadata import version

    return (
        f"{minilm.MODEL_NAME}_L{LAYER}_no-idf_version={version('bert-score')}"
        f"(hug_trans={version('transformers')})"
    )
