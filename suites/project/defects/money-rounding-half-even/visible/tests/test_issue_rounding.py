"""Issue: a 15% discount on a €3.50 notepad comes out as €0.52; our tills say €0.53."""

from stockroom.money import Money


def test_percent_rounds_half_a_cent_up() -> None:
    assert Money.of("3.50").percent(15) == Money.of("0.53")


def test_half_a_cent_rounds_up() -> None:
    assert Money.of("0.125").rounded() == Money.of("0.13")
