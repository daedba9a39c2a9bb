from wordfreq import top_words, word_counts


def test_punctuation_is_stripped():
    assert word_counts("Hello, world! Hello.") == {"hello": 2, "world": 1}


def test_quotes_and_brackets():
    assert word_counts('"Yes," (yes) YES') == {"yes": 3}


def test_punctuation_only_tokens_are_skipped():
    assert word_counts("wait -- what?!") == {"wait": 1, "what": 1}


def test_inner_punctuation_kept():
    assert word_counts("don't stop, don't") == {"don't": 2, "stop": 1}


def test_top_words():
    text = "b a c. A b, B!"
    assert top_words(text, 2) == [("b", 3), ("a", 2)]
