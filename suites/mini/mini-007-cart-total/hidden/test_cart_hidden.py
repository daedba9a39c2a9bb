import pytest
from cart import Line, subtotal_cents, total_cents

CART = [Line("mug", 3, 250), Line("tea", 2, 499)]


def test_several_lines():
    assert subtotal_cents(CART) == 1748


def test_empty_cart():
    assert subtotal_cents([]) == 0
    assert total_cents([], 10, 20) == 0


def test_single_unit():
    assert subtotal_cents([Line("card", 1, 99)]) == 99


def test_discount_and_tax():
    assert total_cents([Line("mug", 3, 250)], discount_pct=10, tax_pct=20) == 810


def test_rounding_half_up():
    assert total_cents([Line("gum", 1, 5)], tax_pct=10) == 6


def test_bad_discount():
    with pytest.raises(ValueError):
        total_cents(CART, discount_pct=120)
