from human_size import human_size


def test_zero():
    assert human_size(0) == "0.0 B"


def test_kibibytes():
    assert human_size(10240) == "10.0 KiB"


def test_gibibytes():
    assert human_size(3 * 1024**3) == "3.0 GiB"
