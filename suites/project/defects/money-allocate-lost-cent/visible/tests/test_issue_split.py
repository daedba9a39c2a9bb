"""Issue: splitting €100.00 three ways gives parts that add up to €99.99."""

from stockroom.money import Money, total


def test_three_way_split_adds_up() -> None:
    parts = Money.of("100").split(3)
    assert total(parts) == Money.of("100.00")
    assert parts == [Money.of("33.34"), Money.of("33.33"), Money.of("33.33")]
