"""Text metrics of a summary against its reference, computed as the literature computes them.

What each metric is, which implementation computes it, how text is tokenised and how to compare
with published numbers: docs/metrics.md.

- :func:`sentence_bleu`: CodeXGLUE's smoothed sentence BLEU-4 (Code-Text's ``bleu.py``: the
  "smooth BLEU" of Lin & Och 2004 with its own tokenisation and brevity penalty), 0..100; a
  corpus figure is the mean over answers, as CodeXGLUE reports it.
- :func:`corpus_bleu`: sacrebleu's corpus BLEU and its signature.
- :func:`rouge`: ROUGE-1/2/L F1 from ``rouge-score``, with a tokenizer that keeps non-Latin text.
- :func:`meteor`: nltk's METEOR, with WordNet 3.0 read from Debian's packages (never downloaded).
- BERTScore F1 with all-MiniLM-L6-v2, layer 6 (:mod:`truepass.metrics.bertscore`), as
  ``bertscore_minilm_l6``, when the ``embed`` extra is installed; left out otherwise.
- :func:`text_scores`: all per-answer scores in one dict; :func:`text_scores_many`: the same for
  many answers, with BERTScore computed in batches.

Imports of sacrebleu, rouge-score, nltk and torch happen on first use, so importing this module
is cheap. Every function is safe to call from several threads (the WordNet reader and the
BERTScore model are shared under locks).
"""

from __future__ import annotations

import functools
import math
import os
import re
import threading
import warnings
from collections import Counter
from pathlib import Path

import regex

from truepass.errors import TruepassError
from truepass.metrics import bertscore

# --------------------------------------------------------------------------------------------
# CodeXGLUE's smoothed sentence BLEU-4
# --------------------------------------------------------------------------------------------

BLEU_ORDER = 4

# CodeXGLUE lowercases and strips the text, then splits it into runs of word characters and
# single other non-space characters (its ``splitPuncts``) and joins them with spaces.
_WORD_OR_PUNCT = re.compile(r"\w+|[^\s\w]")
# Then its NIST (mteval-v11a) normalisation runs on that string. Of it, only the punctuation rule
# still changes anything: ``_`` is in its punctuation class but is a word character above, so
# ``get_name`` becomes ``get _ name``. The rest cannot fire on splitPuncts' output: no newline is
# left (``<skipped>`` and ``-\n`` removal, line joining), no ``&quot;``-like entity survives
# (``&``, ``;`` are separate tokens), and ``.``, ``,``, ``-`` are already tokens of their own.
_UNDERSCORE = re.compile(r"(_)")


def codexglue_tokens(text: str) -> list[str]:
    """The tokens CodeXGLUE's BLEU counts: lowercased words (Unicode ``\\w`` runs, split at
    underscores, each ``_`` a token) and single punctuation characters."""
    tokens: list[str] = []
    for token in _WORD_OR_PUNCT.findall(text.strip().lower()):
        if "_" in token and token != "_":
            tokens.extend(part for part in _UNDERSCORE.split(token) if part)
        else:
            tokens.append(token)
    return tokens


def _ngrams(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def sentence_bleu(hypothesis: str, reference: str) -> float:
    """CodeXGLUE's smoothed sentence BLEU-4 of one answer against one reference, 0..100.

    With clipped n-gram matches ``m_n`` out of ``g_n`` hypothesis n-grams (n = 1..4),
    hypothesis length ``c`` and reference length ``r`` (in :func:`codexglue_tokens`)::

        p_1 = m_1 / g_1,   p_n = (m_n + 1) / (g_n + 1) for n = 2, 3, 4
        BLEU = 100 * exp( (log p_1 + log p_2 + log p_3 + log p_4) / 4 + min(0, 1 - (r+1)/(c+1)) )

    0 when no unigram matches (CodeXGLUE returns about 1e-75 there: it adds the smallest float
    inside the logarithm) and 0 for an answer with no tokens, where CodeXGLUE's script returns
    ``100 * exp(-r)`` (0/0 precisions taken as 1): the one deliberate deviation, so an empty
    answer never outscores a wrong one (docs/metrics.md).
    """
    hyp = codexglue_tokens(hypothesis)
    ref = codexglue_tokens(reference)
    if not hyp:
        return 0.0
    log_precision = 0.0
    for n in range(1, BLEU_ORDER + 1):
        hyp_grams = _ngrams(hyp, n)
        ref_grams = _ngrams(ref, n)
        matched = sum(min(count, ref_grams[gram]) for gram, count in hyp_grams.items())
        guessed = max(len(hyp) - n + 1, 0)
        if n == 1:
            if matched == 0:
                return 0.0
            log_precision += math.log(matched / guessed)
        else:
            log_precision += math.log((matched + 1) / (guessed + 1))
    brevity = min(0.0, 1.0 - (len(ref) + 1) / (len(hyp) + 1))
    return 100.0 * math.exp(log_precision / BLEU_ORDER + brevity)


# --------------------------------------------------------------------------------------------
# sacrebleu corpus BLEU
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _sacrebleu(tokenize: str):
    from sacrebleu.metrics import BLEU

    return BLEU(tokenize=tokenize)


def corpus_bleu(
    hypotheses: list[str], references: list[str], *, tokenize: str = "13a"
) -> tuple[float, str]:
    """sacrebleu's corpus BLEU (0..100) of answers against one reference each, with sacrebleu's
    defaults (``13a`` tokenisation, case kept, exponential smoothing), and its signature string
    (e.g. ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``): print it beside the
    score. ``tokenize="zh"`` is sacrebleu's tokenizer for Chinese references."""
    if len(hypotheses) != len(references):
        raise ValueError(
            f"corpus_bleu needs one reference per hypothesis "
            f"({len(hypotheses)} hypotheses, {len(references)} references)"
        )
    bleu = _sacrebleu(tokenize)
    score = bleu.corpus_score(list(hypotheses), [list(references)])
    return float(score.score), str(bleu.get_signature())


# --------------------------------------------------------------------------------------------
# ROUGE (rouge-score) with a tokenizer that keeps non-Latin text
# --------------------------------------------------------------------------------------------

ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")

# Scripts written without spaces between words: each character is a token (as sacrebleu's
# ``zh`` tokenizer and multilingual ROUGE do for Chinese). Hangul is written with spaces: words.
_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Bopomofo}"
# A word: a run of letters, marks (so Devanagari's vowel signs stay inside) and digits.
_WORD = regex.compile(rf"[[\p{{L}}\p{{M}}\p{{N}}]--[{_CJK}]]+|[{_CJK}]", regex.V1)
# The same, plus each other non-space character as a token of its own (METEOR keeps punctuation).
_WORD_OR_SYMBOL = regex.compile(
    rf"[[\p{{L}}\p{{M}}\p{{N}}_]--[{_CJK}]]+|[{_CJK}]|[^\s\p{{L}}\p{{M}}\p{{N}}_]", regex.V1
)


def words(text: str) -> list[str]:
    """Lowercased words of any script (letters, marks, digits; punctuation and ``_`` dropped),
    one token per character in Chinese and Japanese. On ASCII text these are exactly
    rouge-score's default tokens without stemming."""
    return _WORD.findall(text.lower())


def _rouge_tokenizer():
    from rouge_score.tokenizers import Tokenizer

    class UnicodeWordTokenizer(Tokenizer):
        """rouge-score's tokenizer interface over :func:`words`."""

        def tokenize(self, text: str) -> list[str]:
            return words(text)

    return UnicodeWordTokenizer()


@functools.cache
def _rouge_scorer():
    from rouge_score.rouge_scorer import RougeScorer

    # With a tokenizer given, rouge-score ignores use_stemmer: no stemming (its default), so
    # scores mean the same in every language (docs/metrics.md).
    return RougeScorer(list(ROUGE_TYPES), use_stemmer=False, tokenizer=_rouge_tokenizer())


def rouge(hypothesis: str, reference: str) -> dict[str, float]:
    """ROUGE-1, ROUGE-2 and ROUGE-L (summary-level LCS, no sentence split) F1, each 0..1, from
    rouge-score over :func:`words`."""
    scores = _rouge_scorer().score(reference, hypothesis)
    return {name: float(scores[name].fmeasure) for name in ROUGE_TYPES}


# --------------------------------------------------------------------------------------------
# METEOR (nltk) with WordNet from Debian's packages
# --------------------------------------------------------------------------------------------

WORDNET_ENV = "TRUEPASS_WORDNET_DIR"
DEFAULT_WORDNET_DIR = Path("/usr/share/wordnet")
_WORDNET_FILES = ("lexnames", "data.noun", "index.noun", "noun.exc", "index.sense")
_wordnet_lock = threading.Lock()


class WordNetMissingError(TruepassError, RuntimeError):
    """WordNet's database files are not where METEOR reads them; ``make setup`` installs them."""


def wordnet_dir() -> Path:
    """Where METEOR reads WordNet 3.0: ``$TRUEPASS_WORDNET_DIR``, else ``/usr/share/wordnet``
    (Debian's ``wordnet-base`` and ``wordnet-sense-index``, with the ``lexnames`` file that the
    Makefile's ``system-deps`` writes)."""
    return Path(os.environ.get(WORDNET_ENV) or DEFAULT_WORDNET_DIR)


@functools.cache
def _wordnet(directory: Path):
    missing = [name for name in _WORDNET_FILES if not (directory / name).is_file()]
    if missing:
        raise WordNetMissingError(
            f"METEOR needs WordNet 3.0 in {directory}, which lacks {', '.join(missing)}: run "
            f"`make setup` (it installs Debian's wordnet-base and wordnet-sense-index and writes "
            f"lexnames), or point ${WORDNET_ENV} at a WordNet dict directory. Nothing is "
            f"downloaded at run time."
        )
    import nltk.data
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class WordNet30(WordNetCorpusReader):
        """nltk's reader over a plain WordNet 3.0 directory. nltk maps other WordNet versions
        onto 3.0 for its multilingual (OMW) data by loading its own downloaded copy; these files
        are 3.0 itself and OMW is not used, so there is nothing to map."""

        def map_wn(self, version="wordnet"):
            return None

    # nltk (3.10) reads corpora only below the directories of nltk.data.path.
    if str(directory) not in map(str, nltk.data.path):
        nltk.data.path.append(str(directory))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The multilingual functions are not available")
        return WordNet30(str(directory), None)


def meteor_tokens(text: str) -> list[str]:
    """The tokens METEOR aligns: :func:`words` (``_`` kept inside words) plus each punctuation
    character as a token, as in CodeXGLUE-tokenised docstrings; nltk lowercases them again."""
    return _WORD_OR_SYMBOL.findall(text.lower())


def meteor(hypothesis: str, reference: str) -> float:
    """nltk's METEOR (exact, Porter-stem and WordNet-synonym matches; alpha 0.9, beta 3,
    gamma 0.5), 0..1. Even a perfect answer of ``m`` tokens scores ``1 - 0.5 / m**3`` (one chunk:
    the fragmentation penalty), and 0 when either side has no tokens.

    Raises:
        WordNetMissingError: WordNet is not installed (run ``make setup``).
    """
    wordnet = _wordnet(wordnet_dir())
    from nltk.translate.meteor_score import meteor_score

    hyp, ref = meteor_tokens(hypothesis), meteor_tokens(reference)
    if not hyp or not ref:
        return 0.0
    # The reader shares open data files between calls (seek, then read): one caller at a time.
    with _wordnet_lock:
        return float(meteor_score([ref], hyp, wordnet=wordnet))


# --------------------------------------------------------------------------------------------
# All per-answer scores
# --------------------------------------------------------------------------------------------

BERTSCORE = bertscore.KEY
"""``bertscore_minilm_l6``: BERTScore F1 with all-MiniLM-L6-v2, layer 6, no idf, no rescaling."""
TEXT_SCORES = ("bleu", *ROUGE_TYPES, "meteor", *((BERTSCORE,) if bertscore.available() else ()))
"""The keys of :func:`text_scores`, in order; ``bertscore_minilm_l6`` only when the ``embed``
extra is installed (checked once per process, without importing it)."""


def _lexical_scores(hypothesis: str, reference: str) -> dict[str, float]:
    return {
        "bleu": sentence_bleu(hypothesis, reference),
        **rouge(hypothesis, reference),
        "meteor": meteor(hypothesis, reference),
    }


def text_scores(hypothesis: str, reference: str) -> dict[str, float]:
    """Every per-answer score of a summary, keyed as :data:`TEXT_SCORES`: ``bleu``
    (:func:`sentence_bleu`, 0..100), ``rouge1``, ``rouge2``, ``rougeL`` (:func:`rouge`, 0..1),
    ``meteor`` (:func:`meteor`, 0..1) and, when the ``embed`` extra is installed,
    ``bertscore_minilm_l6`` (:func:`truepass.metrics.bertscore.bertscore_f1`, 0..1; the model is
    loaded on the first call of the process)."""
    scores = _lexical_scores(hypothesis, reference)
    if BERTSCORE in TEXT_SCORES:
        scores[BERTSCORE] = bertscore.bertscore_f1(hypothesis, reference)
    return scores


def text_scores_many(hypotheses: list[str], references: list[str]) -> list[dict[str, float]]:
    """:func:`text_scores` of each answer against its one reference, with BERTScore computed in
    batches (the faster path when many answers are scored at once); the same values, up to
    float32 rounding."""
    if len(hypotheses) != len(references):
        raise ValueError(
            f"text_scores_many needs one reference per answer "
            f"({len(hypotheses)} answers, {len(references)} references)"
        )
    out = [_lexical_scores(h, r) for h, r in zip(hypotheses, references, strict=True)]
    if BERTSCORE in TEXT_SCORES:
        values = bertscore.bertscore_f1_many(hypotheses, references)
        for scores, value in zip(out, values, strict=True):
            scores[BERTSCORE] = value
    return out
