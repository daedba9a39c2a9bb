from growth import percent_change


def test_increase():
    assert percent_change(100, 150) == 50.0


def test_no_change():
    assert percent_change(80, 80) == 0.0
