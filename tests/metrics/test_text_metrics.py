"""Text metrics: hand-computed small cases, and agreement with the reference implementations that
are installed (sacrebleu, rouge-score, nltk). docs/metrics.md."""

from __future__ import annotations

import math
import random
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from truepass.metrics import text
from truepass.metrics.text import (
    codexglue_tokens,
    corpus_bleu,
    meteor,
    meteor_tokens,
    rouge,
    sentence_bleu,
    text_scores,
    words,
)

# ---------------------------------------------------------------- CodeXGLUE sentence BLEU


def test_codexglue_tokens_lowercase_split_punctuation_and_underscores():
    # splitPuncts (\w+ runs and single punctuation), then NIST's rule splitting "_"
    assert codexglue_tokens("  Returns the user_id, or None.\n") == [
        *("returns", "the", "user", "_", "id", ",", "or", "none", "."),
    ]
    assert codexglue_tokens("__init__ (3.5)") == [
        *("_", "_", "init", "_", "_", "(", "3", ".", "5", ")"),
    ]
    # a run of Han characters is one \w run, so one token (as in CodeXGLUE)
    assert codexglue_tokens("返回 文件名") == ["返回", "文件名"]


def test_bleu_identical_is_100():
    # 4 tokens, every n-gram matches: p1 = 4/4, p2 = (3+1)/(3+1), p3 = (2+1)/(2+1),
    # p4 = (1+1)/(1+1); c = r so the penalty min(0, 1 - 5/5) = 0: 100 * exp(0) = 100
    assert sentence_bleu("Returns the file name", "returns the file name") == pytest.approx(100)


def test_bleu_shorter_hypothesis_by_hand():
    # hyp: get the name (c = 3); ref: get the file name (r = 4)
    # p1 = 3/3; bigrams {get the, the name} vs {get the, the file, file name}: 1 of 2 ->
    # p2 = (1+1)/(2+1) = 2/3; trigram {get the name}: 0 of 1 -> p3 = (0+1)/(1+1) = 1/2;
    # no 4-gram -> p4 = (0+1)/(0+1) = 1; penalty min(0, 1 - (4+1)/(3+1)) = -0.25
    # BLEU = 100 * exp((log 1 + log 2/3 + log 1/2 + log 1) / 4 - 0.25)
    #      = 100 * exp((-0.405465 - 0.693147) / 4 - 0.25) = 100 * exp(-0.524653) = 59.1761
    expected = 100 * math.exp((math.log(2 / 3) + math.log(1 / 2)) / 4 - 0.25)
    assert sentence_bleu("get the name", "get the file name") == pytest.approx(expected)
    assert expected == pytest.approx(59.1761, abs=1e-4)


def test_bleu_tokenisation_by_hand():
    # hyp tokens: returns the user _ id . (c = 6); ref: returns the user id (r = 4)
    # unigrams: returns, the, user, id match -> p1 = 4/6
    # bigrams (5): returns the, the user match -> p2 = (2+1)/(5+1) = 1/2
    # trigrams (4): returns the user matches -> p3 = (1+1)/(4+1) = 2/5
    # 4-grams (3): none -> p4 = (0+1)/(3+1) = 1/4; c >= r: penalty 0
    # BLEU = 100 * (2/3 * 1/2 * 2/5 * 1/4) ** (1/4) = 100 * (1/30) ** 0.25 = 42.7287...
    value = sentence_bleu("Returns the user_id.", "returns the user id")
    assert value == pytest.approx(100 * (1 / 30) ** 0.25)
    assert value == pytest.approx(42.7287, abs=1e-4)


def test_bleu_one_token_and_its_brevity_penalty():
    # one matching token: p1 = 1/1, p2..p4 = (0+1)/(0+1) = 1; c = r = 1: 100
    assert sentence_bleu("returns", "returns") == pytest.approx(100)
    # against a 3-token reference: penalty 1 - (3+1)/(1+1) = -1: 100 * e^-1 = 36.79
    assert sentence_bleu("returns", "returns the name") == pytest.approx(100 / math.e)


def test_bleu_zero_without_unigram_match_and_for_empty_answers():
    assert sentence_bleu("open a socket", "returns the file name") == 0.0
    # CodeXGLUE's script gives 100 * exp(-r) here (0/0 precisions taken as 1); we give 0
    assert sentence_bleu("", "returns the name") == 0.0
    assert sentence_bleu("  \n ", "returns the name") == 0.0


def _sacrebleu_add_one(hyp: list[str], ref: list[str]) -> float:
    """sacrebleu's sentence BLEU with Lin & Och's add-one smoothing (orders 2-4) on our tokens:
    the same precisions as CodeXGLUE; only the brevity penalty differs."""
    bleu = BLEU(tokenize="none", smooth_method="add-k", smooth_value=1, effective_order=False)
    return bleu.corpus_score([" ".join(hyp)], [[" ".join(ref)]]).score


def test_bleu_agrees_with_sacrebleu_add_one_smoothing():
    rng = random.Random(7)
    vocab = ["returns", "the", "file", "name", "of", "a", "user", "id", "or", "none", "path"]
    checked = 0
    for _ in range(300):
        hyp = " ".join(rng.choices(vocab, k=rng.randint(1, 12)))
        ref = " ".join(rng.choices(vocab, k=rng.randint(1, 12)))
        h, r = codexglue_tokens(hyp), codexglue_tokens(ref)
        c, n = len(h), len(r)
        theirs = _sacrebleu_add_one(h, r)
        # sacrebleu's penalty exp(1 - r/c) when c < r, CodeXGLUE's exp(min(0, 1 - (r+1)/(c+1)))
        ours_penalty = math.exp(min(0.0, 1 - (n + 1) / (c + 1)))
        their_penalty = math.exp(1 - n / c) if c < n else 1.0
        assert sentence_bleu(hyp, ref) == pytest.approx(theirs / their_penalty * ours_penalty)
        checked += theirs > 0
    assert checked > 100  # most pairs share a word: the comparison is not all zeros


# ---------------------------------------------------------------- sacrebleu corpus BLEU


def test_corpus_bleu_by_hand_and_signature():
    # 13a tokens: hyp a b c d (c = 4), ref a b c d e (r = 5); every n-gram of the hypothesis
    # matches (p1..p4 = 1), penalty exp(1 - 5/4): 100 * exp(-0.25) = 77.88
    score, signature = corpus_bleu(["a b c d"], ["a b c d e"])
    assert score == pytest.approx(100 * math.exp(-0.25))
    assert signature.startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:")
    assert corpus_bleu(["Returns the name."], ["Returns the name."])[0] == pytest.approx(100)


def test_corpus_bleu_agrees_with_sacrebleu():
    import sacrebleu

    hyps = ["Returns the file name.", "Open a socket", "Get the user id or None"]
    refs = ["Return the name of the file.", "Opens a TCP socket.", "Returns the user id."]
    score, _ = corpus_bleu(hyps, refs)
    assert score == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score)
    zh = corpus_bleu(["返回文件名"], ["返回用户名"], tokenize="zh")
    theirs = sacrebleu.corpus_bleu(["返回文件名"], [["返回用户名"]], tokenize="zh").score
    assert zh[0] == pytest.approx(theirs) and zh[0] > 0
    assert "tok:zh" in zh[1]
    with pytest.raises(ValueError, match="one reference per hypothesis"):
        corpus_bleu(["a"], [])


# ---------------------------------------------------------------- ROUGE


def test_words_keep_every_script_and_split_chinese_and_japanese_per_character():
    assert words("Ελληνικά КИРИЛЛИЦА हिन्दी Naïve x_y, 3.5") == [
        *("ελληνικά", "кириллица", "हिन्दी", "naïve", "x", "y", "3", "5"),
    ]
    assert words("返回文件名") == ["返", "回", "文", "件", "名"]
    assert words("ファイル名を返す") == ["フ", "ァ", "イ", "ル", "名", "を", "返", "す"]
    assert words("파일 이름을 반환") == ["파일", "이름을", "반환"]  # Hangul is written with spaces


def test_rouge_by_hand():
    # hyp: the cat sat (3 words); ref: the cat sat on the mat (6 words)
    # ROUGE-1: 3 matched, P = 3/3, R = 3/6, F = 2PR/(P+R) = 1/1.5 = 2/3
    # ROUGE-2: hyp bigrams {the cat, cat sat} both in ref's 5: P = 1, R = 2/5, F = 0.8/1.4 = 4/7
    # ROUGE-L: LCS = the cat sat = 3: as ROUGE-1, 2/3
    scores = rouge("The cat sat", "the cat sat on the mat")
    assert scores == pytest.approx({"rouge1": 2 / 3, "rouge2": 4 / 7, "rougeL": 2 / 3})


def test_rouge_chinese_scores_meaningfully():
    summary = "返回文件名"
    assert rouge(summary, summary) == pytest.approx({"rouge1": 1, "rouge2": 1, "rougeL": 1})
    # characters 返 回 文 件 名 vs 返 回 用 户 名: 3 of 5 shared -> ROUGE-1 = 0.6;
    # bigrams 返回 回文 文件 件名 vs 返回 回用 用户 户名: 1 of 4 -> 0.25; LCS 返回名 = 3 -> 0.6
    assert rouge(summary, "返回用户名") == pytest.approx(
        {"rouge1": 0.6, "rouge2": 0.25, "rougeL": 0.6}
    )
    # what rouge-score's default tokenizer makes of it: nothing (why we pass our own)
    from rouge_score.rouge_scorer import RougeScorer

    assert RougeScorer(["rouge1"]).score(summary, summary)["rouge1"].fmeasure == 0.0


def test_rouge_agrees_with_rouge_score_default_on_ascii_text():
    from rouge_score.rouge_scorer import RougeScorer

    default = RougeScorer(list(text.ROUGE_TYPES), use_stemmer=False)
    pairs = [
        ("Returns the file name.", "Return the name of the file"),
        ("Get user_id (or None) from the DB!", "Returns the user's id, or None when absent."),
        ("Compute 3.5 * x for every x in xs", "Multiply each element of xs by 3.5"),
        ("a b a b a", "b a b"),
    ]
    for hyp, ref in pairs:
        theirs = default.score(ref, hyp)
        assert rouge(hyp, ref) == pytest.approx({k: theirs[k].fmeasure for k in theirs})


# ---------------------------------------------------------------- METEOR


def test_meteor_tokens():
    # CodeSearchNet-style: words (with "_") and single punctuation; Chinese per character
    assert meteor_tokens("Returns the user_id. 返回(x)") == [
        *("returns", "the", "user_id", ".", "返", "回", "(", "x", ")"),
    ]


def test_meteor_exact_match_keeps_the_fragmentation_penalty():
    # m = 4 matches, P = R = 1, Fmean = 1; one chunk: penalty 0.5 * (1/4)^3 = 1/128
    assert meteor("Returns the file name", "returns the file name") == pytest.approx(1 - 1 / 128)


def test_meteor_partial_by_hand():
    # hyp the cat sat, ref the cat sat down: m = 3, P = 1, R = 3/4,
    # Fmean = P R / (0.9 P + 0.1 R) = 0.75 / 0.975 = 10/13; one chunk: penalty 0.5 / 27 = 1/54
    # METEOR = 10/13 * 53/54 = 0.754986
    assert meteor("the cat sat", "the cat sat down") == pytest.approx(10 / 13 * 53 / 54)
    # punctuation is a token: hyp returns the name . (4), ref returns the name (3): m = 3,
    # P = 3/4, R = 1, Fmean = 0.75 / (0.675 + 0.1) = 30/31; penalty 1/54
    assert meteor("returns the name.", "returns the name") == pytest.approx(30 / 31 * 53 / 54)
    # two chunks: hyp b a, ref a b: m = 2, Fmean = 1, chunks 2, penalty 0.5 * (2/2)^3 = 0.5
    assert meteor("b a", "a b") == pytest.approx(0.5)


def test_meteor_stems_and_wordnet_synonyms():
    # Porter stems: returns~return, files~file: m = 2, Fmean = 1, penalty 0.5 / 8
    assert meteor("returns files", "return file") == pytest.approx(1 - 1 / 16)
    # WordNet: car and auto share the synset car.n.01: m = 2, one chunk: 1 - 1/16
    assert meteor("the car", "the auto") == pytest.approx(1 - 1 / 16)
    # without synonyms only "the" matches: P = R = 1/2, Fmean = 1/2, penalty 0.5 * 1^3 = 0.5
    from nltk.translate.meteor_score import meteor_score

    class NoSynonyms:
        def synsets(self, word):
            return []

    assert meteor_score([["the", "auto"]], ["the", "car"], wordnet=NoSynonyms()) == 0.25


def test_meteor_matches_synonyms_only_between_porter_stems():
    # nltk's known behaviour, kept as it is what everyone computes: the synonym stage sees the
    # stems left by the stem stage, so big ~ large misses (large -> "larg"): 2 of 3 match,
    # Fmean = 2/3, two chunks: penalty 0.5 * (2/2)^3 -> 1/3. If nltk changes it, this fails.
    assert meteor("a big house", "a large house") == pytest.approx(1 / 3)


def test_meteor_empty_is_zero():
    assert meteor("", "returns the name") == 0.0
    assert meteor("returns", "...") == 0.0  # a lone "." still shares nothing with "returns"
    assert meteor("?!", "") == 0.0


def test_meteor_is_thread_safe():
    pairs = [
        (f"returns the {a} of the {b}", f"return the {b} {a}")
        for a in ("name", "car", "size", "path", "dog")
        for b in ("file", "automobile", "list", "user", "hound")
    ]
    expected = [meteor(h, r) for h, r in pairs]
    results: dict[int, list[float]] = {}

    def work(k: int) -> None:
        results[k] = [meteor(h, r) for h, r in pairs]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(got == expected for got in results.values())


def test_meteor_without_wordnet_says_to_run_make_setup(tmp_path, monkeypatch):
    monkeypatch.setenv(text.WORDNET_ENV, str(tmp_path))
    with pytest.raises(text.WordNetMissingError, match=r"make setup.*Nothing is downloaded"):
        meteor("a", "a")


def test_meteor_reads_debian_wordnet_and_downloads_nothing(tmp_path):
    # a fresh interpreter with an empty HOME, no NLTK_DATA and every socket refused
    script = textwrap.dedent(
        """
        import socket
        def refuse(*args, **kwargs):
            raise OSError("network used")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        from truepass.metrics.text import meteor
        print(meteor("the car", "the auto"))
        """
    )
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == pytest.approx(1 - 1 / 16)
    assert not (tmp_path / "nltk_data").exists()


def test_lexnames_written_by_setup_agree_with_the_wordnet_data():
    # `make setup` writes lexnames; every synset's lex_filenum (2nd field of data.POS) must name
    # a lexicographer file of its own part of speech, and the table is the 45-line standard
    directory = text.wordnet_dir()
    rows = [line.split("\t") for line in (directory / "lexnames").read_text().splitlines()]
    assert len(rows) == 45
    assert [int(r[0]) for r in rows] == list(range(45))
    assert rows[0] == ["00", "adj.all", "3"] and rows[44] == ["44", "adj.ppl", "3"]
    category = {"noun": "1", "verb": "2", "adj": "3", "adv": "4"}
    assert all(r[2] == category[r[1].split(".")[0]] for r in rows)
    for pos in ("noun", "verb", "adj", "adv"):
        used = set()
        with Path(directory, f"data.{pos}").open(encoding="utf-8") as fh:
            for line in fh:
                if not line.startswith("  "):  # the licence header lines start with spaces
                    used.add(int(line.split(" ", 2)[1]))
        assert {rows[i][1].split(".")[0] for i in used} == {pos}


# ---------------------------------------------------------------- all scores


def test_text_scores_holds_every_per_answer_score():
    scores = text_scores("Returns the user_id.", "returns the user id")
    # then bertscore_minilm_l6 when the embed extra is installed (tests/metrics/test_bertscore.py)
    assert list(scores)[:5] == ["bleu", "rouge1", "rouge2", "rougeL", "meteor"]
    assert list(scores) == list(text.TEXT_SCORES)
    assert scores["bleu"] == pytest.approx(100 * (1 / 30) ** 0.25)
    # ROUGE drops punctuation and splits user_id: the same four words
    assert scores["rouge1"] == scores["rougeL"] == pytest.approx(1.0)
    # METEOR: returns the user_id . vs returns the user id: m = 2, P = R = 1/2, one chunk:
    # 1/2 * (1 - 0.5 * (1/2)^3) = 0.46875
    assert scores["meteor"] == pytest.approx(0.46875)
