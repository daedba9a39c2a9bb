from inventory import Item, restock_orders


def test_low_item_is_topped_up():
    assert restock_orders([Item("bolt", 2, 5, 20)]) == {"bolt": 18}


def test_well_stocked_item_is_skipped():
    assert restock_orders([Item("nut", 50, 10, 60)]) == {}
