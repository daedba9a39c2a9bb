import pytest
from human_size import human_size


def test_just_below_one_kibibyte():
    assert human_size(1000) == "1000.0 B"
    assert human_size(1023) == "1023.0 B"


def test_exactly_one_kibibyte():
    assert human_size(1024) == "1.0 KiB"


def test_fraction():
    assert human_size(1536) == "1.5 KiB"


def test_largest_unit_keeps_growing():
    assert human_size(5 * 1024**4) == "5.0 TiB"
    assert human_size(2048 * 1024**4) == "2048.0 TiB"


def test_negative():
    with pytest.raises(ValueError):
        human_size(-1)
