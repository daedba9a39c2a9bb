from datetime import date
from decimal import Decimal

import pytest

from stockroom.csvfile import Column, quote, read_table, split_records, write_table
from stockroom.errors import ParseError
from stockroom.money import Money


def fields(text: str) -> list[list[str]]:
    return [f for _, f in split_records(text)]


def test_plain_records() -> None:
    assert split_records("a,b,c\n1,2,3\n") == [(1, ["a", "b", "c"]), (2, ["1", "2", "3"])]


def test_unquoted_fields_are_stripped_and_quoted_ones_kept() -> None:
    assert fields(' a , " b ",c ') == [["a", " b ", "c"]]


def test_doubled_quotes_inside_quoted_fields() -> None:
    assert fields('"say ""hi""",x\n') == [['say "hi"', "x"]]
    assert fields('"12"" ruler","a "" b"\n') == [['12" ruler', 'a " b']]
    assert fields('""""\n') == [['"']]


def test_empty_quoted_fields() -> None:
    assert fields('a,"",c\n') == [["a", "", "c"]]
    assert fields('"",""\n') == [["", ""]]
    assert fields('x,""') == [["x", ""]]


def test_quoted_delimiters_and_newlines() -> None:
    assert fields('"a,b","line1\nline2",c\n') == [["a,b", "line1\nline2", "c"]]


def test_line_numbers_count_lines_inside_quotes() -> None:
    text = 'h1,h2\n"multi\nline\ntext",1\nx,2\n\n# note\ny,3\n'
    assert [line for line, _ in split_records(text)] == [1, 2, 5, 8]


def test_crlf_and_cr_line_ends() -> None:
    assert fields("a,b\r\n1,2\r\n") == [["a", "b"], ["1", "2"]]
    assert fields("a\r1\r") == [["a"], ["1"]]


def test_blank_and_comment_lines_are_skipped() -> None:
    assert split_records("\n# comment\na\n   \n#x,y\nb") == [(3, ["a"]), (6, ["b"])]


def test_hash_inside_a_record_is_data() -> None:
    assert fields('a,#b\n"#c",d\n') == [["a", "#b"], ["#c", "d"]]


def test_empty_fields() -> None:
    assert fields("a,,c\n,\n") == [["a", "", "c"], ["", ""]]


def test_other_delimiters() -> None:
    assert split_records("a;b\n1;2,5", delimiter=";") == [(1, ["a", "b"]), (2, ["1", "2,5"])]


def test_unterminated_quote_names_the_line_it_started_on() -> None:
    with pytest.raises(ParseError) as err:
        split_records('a\nb\n"open,\nmore\n')
    assert err.value.line == 3


def test_text_after_a_closing_quote_is_an_error() -> None:
    with pytest.raises(ParseError) as err:
        split_records('a\n"x"y,1\n')
    assert err.value.line == 2
    assert fields('"x"  ,1') == [["x", "1"]]


COLUMNS = [
    Column("sku"),
    Column("qty", "int"),
    Column("price", "money", required=False, default=Money.of("0")),
    Column("since", "date", required=False),
    Column("active", "bool", required=False, default=True),
    Column("weight", "decimal", required=False),
]


def test_read_table_converts_values() -> None:
    rows = read_table(
        "SKU, Qty ,price,since,active,weight\nA,1_000,€2.50,2024-01-02,no,0.25\nB,3,,,,\n",
        COLUMNS,
    )
    assert rows[0].line == 2
    assert rows[0].values == {
        "sku": "A",
        "qty": 1000,
        "price": Money.of("2.50"),
        "since": date(2024, 1, 2),
        "active": False,
        "weight": Decimal("0.25"),
    }
    assert rows[1]["price"] == Money.of("0")
    assert rows[1]["active"] is True
    assert rows[1]["since"] is None


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("yes", True),
        ("Y", True),
        ("TRUE", True),
        ("1", True),
        ("no", False),
        ("n", False),
        ("False", False),
        ("0", False),
    ],
)
def test_bool_words(word: str, value: bool) -> None:
    assert read_table(f"sku,qty,active\nA,1,{word}\n", COLUMNS)[0]["active"] is value


def test_columns_in_any_order_and_unknown_columns_ignored() -> None:
    rows = read_table("colour,qty,sku\nred,2,A\n", COLUMNS)
    assert rows[0]["sku"] == "A" and rows[0]["qty"] == 2


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("qty\n1\n", 1, "missing column 'sku'"),
        ("sku,qty,SKU\nA,1,B\n", 1, "appears twice"),
        ("sku,qty\nA,1\nB,x\n", 3, "qty"),
        ("sku,qty\nA,\n", 2, "missing value for 'qty'"),
        ("sku,qty\nA,1,extra\n", 2, "3 fields"),
        ("sku,qty,active\nA,1,maybe\n", 2, "yes/no"),
        ("sku,qty,price\nA,1,12 EUR USD\n", 2, "price"),
        ("sku,qty,since\nA,1,2024-02-30\n", 2, "since"),
        ('sku,qty\n"A\nB",1\nC,x\n', 4, "qty"),
        ("", 0, "no header"),
    ],
)
def test_read_table_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ParseError) as err:
        read_table(text, COLUMNS)
    assert err.value.line == line
    assert words in str(err.value)


def test_read_table_can_collect_errors_and_keep_good_rows() -> None:
    problems: list[ParseError] = []
    rows = read_table("sku,qty\nA,1\nB,x\nC,3\nD,\n", COLUMNS, errors=problems)
    assert [r["sku"] for r in rows] == ["A", "C"]
    assert [p.line for p in problems] == [3, 5]


def test_missing_trailing_fields_are_empty() -> None:
    assert read_table("sku,qty,weight\nA,2\n", COLUMNS)[0]["weight"] is None


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("plain", "plain"),
        ("a,b", '"a,b"'),
        ('12" ruler', '"12"" ruler"'),
        ("two\nlines", '"two\nlines"'),
        (" padded ", '" padded "'),
        ("#tag", '"#tag"'),
        ("", ""),
    ],
)
def test_quote(value: str, written: str) -> None:
    assert quote(value) == written


def test_write_then_read_gives_the_same_values() -> None:
    rows = [
        {"sku": "A", "name": 'Ruler 12"', "note": "x, y"},
        {"sku": "B", "name": " spaced ", "note": None},
        {"sku": "C", "name": 'say "hi"\nbye', "note": "#1"},
    ]
    text = write_table(rows, ["sku", "name", "note"])
    back = read_table(
        text, [Column("sku"), Column("name"), Column("note", required=False, default="")]
    )
    assert [r.values for r in back] == [
        {"sku": "A", "name": 'Ruler 12"', "note": "x, y"},
        {"sku": "B", "name": " spaced ", "note": ""},
        {"sku": "C", "name": 'say "hi"\nbye', "note": "#1"},
    ]


def test_write_table_header_and_empty_cells() -> None:
    assert write_table([{"a": 1, "b": None}], ["a", "b"]) == "a,b\n1,\n"
    assert write_table([], ["a"], delimiter=";") == "a\n"
