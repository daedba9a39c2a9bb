from inventory import Item, restock_orders, total_units


def test_at_reorder_point():
    assert restock_orders([Item("washer", 5, 5, 20)]) == {"washer": 15}


def test_empty_shelf():
    assert restock_orders([Item("gear", 0, 3, 12)]) == {"gear": 12}


def test_mixed_inventory():
    items = [Item("a", 1, 4, 10), Item("b", 9, 4, 10), Item("c", 3, 4, 8)]
    orders = restock_orders(items)
    assert orders == {"a": 9, "c": 5}
    assert total_units(orders) == 14


def test_nothing_to_order():
    assert total_units(restock_orders([])) == 0
