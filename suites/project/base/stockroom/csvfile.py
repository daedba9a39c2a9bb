"""A small CSV reader and writer with typed columns and line numbers in every error.

Records are split by a state machine: fields may be quoted with ``"``, a quote inside a quoted
field is written twice (``""``), and quoted fields may span lines. Unquoted fields are stripped
of surrounding blanks; quoted fields are kept exactly. Blank lines and lines starting with ``#``
are skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from stockroom.dates import parse_date
from stockroom.errors import ParseError
from stockroom.money import parse_money

TRUE_WORDS = frozenset({"true", "yes", "y", "1"})
FALSE_WORDS = frozenset({"false", "no", "n", "0"})


@dataclass(frozen=True)
class Column:
    """One expected column: its header name, value kind, and what to do when it is empty."""

    name: str
    kind: str = "str"  # str | int | decimal | money | date | bool
    required: bool = True
    default: object = None


@dataclass
class Row:
    """A data record: the line it starts on and its converted values by column name."""

    line: int
    values: dict[str, object] = field(default_factory=dict)

    def __getitem__(self, name: str) -> object:
        return self.values[name]


def split_records(text: str, delimiter: str = ",") -> list[tuple[int, list[str]]]:
    """Split ``text`` into records: ``(line where the record starts, fields)``."""
    records: list[tuple[int, list[str]]] = []
    fields: list[str] = []
    buf: list[str] = []
    quoted = False  # the current field was quoted
    in_quotes = False
    after_quote = False  # just closed a quoted field: only blanks or a delimiter may follow
    line = 1
    start = 1
    at_record_start = True
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    i = 0
    n = len(text)

    def end_field() -> None:
        nonlocal quoted, after_quote
        value = "".join(buf)
        fields.append(value if quoted else value.strip())
        buf.clear()
        quoted = after_quote = False

    while i < n:
        ch = text[i]
        if at_record_start:
            start = line
            eol = text.find("\n", i)
            rest = text[i:] if eol < 0 else text[i:eol]
            if not rest.strip() or rest.lstrip().startswith("#"):
                i = n if eol < 0 else eol + 1
                line += 1
                continue
            at_record_start = False
        if in_quotes:
            if ch == '"':
                if i + 1 < n and text[i + 1] == '"':
                    buf.append('"')
                    i += 1
                else:
                    in_quotes = False
                    after_quote = True
            else:
                if ch == "\n":
                    line += 1
                buf.append(ch)
        elif ch == delimiter:
            end_field()
        elif ch == "\n":
            end_field()
            records.append((start, fields))
            fields = []
            line += 1
            at_record_start = True
        elif after_quote:
            if not ch.isspace():
                raise ParseError(f"unexpected {ch!r} after a closing quote", line)
        elif ch == '"' and not "".join(buf).strip():
            buf.clear()
            quoted = in_quotes = True
        else:
            buf.append(ch)
        i += 1
    if in_quotes:
        raise ParseError("unterminated quoted field", start)
    if not at_record_start:
        end_field()
        records.append((start, fields))
    return records


def _to_bool(value: str) -> bool:
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"not a yes/no value: {value!r}")


def _to_int(value: str) -> int:
    return int(value.replace("_", ""))


def _to_decimal(value: str) -> Decimal:
    try:
        return Decimal(value)
    except InvalidOperation:
        raise ValueError(f"not a number: {value!r}") from None


CONVERTERS: dict[str, Callable[[str], object]] = {
    "str": str,
    "int": _to_int,
    "decimal": _to_decimal,
    "money": parse_money,
    "date": parse_date,
    "bool": _to_bool,
}


def convert(value: str, column: Column, line: int) -> object:
    """The typed value of one field, or the column's default when it is empty."""
    if value == "":
        if column.required and column.default is None:
            raise ParseError(f"missing value for {column.name!r}", line)
        return column.default
    try:
        return CONVERTERS[column.kind](value)
    except ParseError as exc:
        raise ParseError(f"{column.name}: {exc.message}", line) from None
    except (ValueError, KeyError) as exc:
        raise ParseError(f"{column.name}: {exc}", line) from None


def read_table(
    text: str,
    columns: Iterable[Column],
    delimiter: str = ",",
    errors: list[ParseError] | None = None,
) -> list[Row]:
    """Typed rows of a CSV text whose first record is a header.

    Headers match column names ignoring case and blanks; unknown headers are ignored; a missing
    required column, a repeated header or a record with too many fields is an error. With an
    ``errors`` list, a bad data record is appended to it and skipped instead of raised.
    """
    wanted = list(columns)
    records = split_records(text, delimiter)
    if not records:
        raise ParseError("no header line")
    header_line, header = records[0]
    names = [h.strip().lower() for h in header]
    seen: set[str] = set()
    for name in names:
        if name and name in seen:
            raise ParseError(f"column {name!r} appears twice", header_line)
        seen.add(name)
    positions: dict[str, int] = {}
    for column in wanted:
        key = column.name.lower()
        if key in names:
            positions[column.name] = names.index(key)
        elif column.required and column.default is None:
            raise ParseError(f"missing column {column.name!r}", header_line)
    rows: list[Row] = []
    for line, fields in records[1:]:
        try:
            rows.append(Row(line, _values(fields, wanted, positions, len(names), line)))
        except ParseError as exc:
            if errors is None:
                raise
            errors.append(exc)
    return rows


def _values(
    fields: list[str], wanted: list[Column], positions: dict[str, int], width: int, line: int
) -> dict[str, object]:
    if len(fields) > width:
        raise ParseError(f"{len(fields)} fields, the header has {width}", line)
    values: dict[str, object] = {}
    for column in wanted:
        pos = positions.get(column.name)
        raw = fields[pos] if pos is not None and pos < len(fields) else ""
        values[column.name] = convert(raw, column, line)
    return values


def quote(value: str, delimiter: str = ",") -> str:
    """A field as it must be written so that ``split_records`` reads it back unchanged."""
    if (
        any(c in value for c in (delimiter, '"', "\n", "\r"))
        or value != value.strip()
        or value.startswith("#")
    ):
        return '"' + value.replace('"', '""') + '"'
    return value


def write_table(
    rows: Iterable[Mapping[str, object]], columns: list[str], delimiter: str = ","
) -> str:
    """CSV text with a header; ``None`` is written as an empty field."""
    lines = [delimiter.join(quote(c, delimiter) for c in columns)]
    for row in rows:
        cells = ["" if row.get(c) is None else str(row.get(c)) for c in columns]
        lines.append(delimiter.join(quote(cell, delimiter) for cell in cells))
    return "\n".join(lines) + "\n"
