from colors import hex_to_rgb


def test_parse():
    assert hex_to_rgb("#102030") == (16, 32, 48)


def test_black():
    assert hex_to_rgb("#000000") == (0, 0, 0)
