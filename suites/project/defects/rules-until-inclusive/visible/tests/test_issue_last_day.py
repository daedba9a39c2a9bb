"""Issue: "until 2024-05-31" promotions stop a day early; customers complained on 31 May."""

from datetime import date

from stockroom.rules import parse_rule


def test_promotion_runs_on_its_last_day() -> None:
    promo = parse_rule("promo SPRING: 10% off category books until 2024-05-31")
    assert promo.active_on(date(2024, 5, 31))
