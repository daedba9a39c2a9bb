import pytest
from colors import hex_to_rgb, rgb_to_hex


def test_letters():
    assert hex_to_rgb("#FFa500") == (255, 165, 0)


def test_shorthand():
    assert hex_to_rgb("#fff") == (255, 255, 255)
    assert hex_to_rgb("0f8") == (0, 255, 136)


def test_round_trip():
    for rgb in [(0, 0, 0), (18, 52, 86), (255, 255, 255), (171, 205, 239)]:
        assert hex_to_rgb(rgb_to_hex(*rgb)) == rgb


def test_bad_length():
    with pytest.raises(ValueError):
        hex_to_rgb("#12345")


def test_bad_channel():
    with pytest.raises(ValueError):
        rgb_to_hex(256, 0, 0)
