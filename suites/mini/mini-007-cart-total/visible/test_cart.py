from cart import Line, subtotal_cents


def test_two_for_two():
    assert subtotal_cents([Line("pen", 2, 2)]) == 4


def test_three_items():
    assert subtotal_cents([Line("mug", 3, 250)]) == 750
