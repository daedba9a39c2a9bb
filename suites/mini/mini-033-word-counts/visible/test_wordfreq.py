from wordfreq import word_counts


def test_case_insensitive():
    assert word_counts("The cat saw the dog") == {"the": 2, "cat": 1, "saw": 1, "dog": 1}


def test_empty_text():
    assert word_counts("") == {}
