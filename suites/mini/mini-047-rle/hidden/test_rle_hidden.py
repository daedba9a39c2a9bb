from rle import rle_decode, rle_encode, rle_string


def test_single_character():
    assert rle_encode("z") == [("z", 1)]


def test_no_repeats():
    assert rle_encode("abc") == [("a", 1), ("b", 1), ("c", 1)]


def test_round_trip():
    for text in ["", "a", "aab", "abba", "zzzzzzzzzzzz"]:
        assert rle_decode(rle_encode(text)) == text


def test_string_form():
    assert rle_string("wwwbbx") == "w3b2x1"
    assert rle_string("") == ""
