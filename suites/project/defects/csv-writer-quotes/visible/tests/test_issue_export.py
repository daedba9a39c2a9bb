"""Issue: exporting a product called 12" ruler writes CSV that cannot be read back."""

from stockroom.csvfile import Column, read_table, write_table


def test_quote_in_a_name_survives_export() -> None:
    text = write_table([{"sku": "RUL-12", "name": '12" ruler'}], ["sku", "name"])
    rows = read_table(text, [Column("sku"), Column("name")])
    assert rows[0]["name"] == '12" ruler'
