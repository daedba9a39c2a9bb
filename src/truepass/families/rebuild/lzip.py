"""Files in the lzip compressed format, written by us, for programs that read them (``lzip``,
``clzip``, ``lziprecover``): whole members, several members, trailing data, a damaged byte, a
truncated member.

A member is the lzip header (``LZIP``, version 1, the coded dictionary size), an LZMA stream
with an end marker (``lc=3 lp=0 pb=2``, what liblzma's raw LZMA1 encoder writes through
:mod:`lzma`) and the trailer: the CRC-32 of the data, the data size and the member size, little
endian.
"""

from __future__ import annotations

import lzma
import random
import struct
import zlib

MIN_DICT_LOG = 12
MAX_DICT_LOG = 29


def _filters(dict_log: int) -> list[dict[str, int]]:
    """lzip's LZMA parameters with a dictionary of ``2 ** dict_log`` bytes."""
    return [{"id": lzma.FILTER_LZMA1, "dict_size": 1 << dict_log, "lc": 3, "lp": 0, "pb": 2}]


def member(data: bytes, dict_log: int = 16) -> bytes:
    """One lzip member holding ``data``, its dictionary ``2 ** dict_log`` bytes (12 to 29)."""
    if not MIN_DICT_LOG <= dict_log <= MAX_DICT_LOG:
        raise ValueError(f"dict_log {dict_log}: lzip takes 12 to 29")
    stream = lzma.compress(data, format=lzma.FORMAT_RAW, filters=_filters(dict_log))
    head = b"LZIP\x01" + bytes([dict_log])
    size = len(head) + len(stream) + 20
    return head + stream + struct.pack("<IQQ", zlib.crc32(data), len(data), size)


def decompress(blob: bytes) -> bytes:
    """The data of every member of ``blob`` in turn (their trailers checked).

    Raises:
        ValueError: ``blob`` is not a sequence of whole, intact lzip members.
    """
    out = b""
    while blob:
        if blob[:5] != b"LZIP\x01" or len(blob) < 26:
            raise ValueError("not an lzip member")
        dict_log = blob[5] & 0x1F
        decoder = lzma.LZMADecompressor(format=lzma.FORMAT_RAW, filters=_filters(dict_log))
        try:
            data = decoder.decompress(blob[6:])
        except lzma.LZMAError as exc:
            raise ValueError(f"a damaged LZMA stream: {exc}") from None
        rest = decoder.unused_data
        if not decoder.eof or len(rest) < 20:
            raise ValueError("a truncated member")
        crc, size, member_size = struct.unpack("<IQQ", rest[:20])
        if (
            crc != zlib.crc32(data)
            or size != len(data)
            or member_size != len(blob) - len(rest) + 20
        ):
            raise ValueError("a member's trailer does not match its data")
        out += data
        blob = rest[20:]
    return out


def variant(text: bytes, rng: random.Random) -> bytes:
    """``text`` in one of the shapes an lzip reader must handle, drawn by ``rng``: one member
    (most often), two or three members, trailing data, one damaged byte in the stream, a
    truncated member, a small or large dictionary, an empty member before it."""
    kind = rng.choices(
        ("one", "members", "trailing", "damaged", "truncated", "dictionary", "empty"),
        weights=(8, 3, 2, 2, 1, 1, 1),
    )[0]
    whole = member(text)
    if kind == "members":
        cuts = sorted(rng.sample(range(len(text) + 1), k=rng.choice((1, 2))))
        parts = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        return b"".join(member(p) for p in parts)
    if kind == "trailing":
        return whole + rng.choice((b"trailing data\n", b"\x00" * 8, b"LZI", b"LZIP\x01"))
    if kind == "damaged":
        at = rng.randrange(6, len(whole) - 20)
        return whole[:at] + bytes([whole[at] ^ (1 << rng.randrange(8))]) + whole[at + 1 :]
    if kind == "truncated":
        return whole[: rng.randrange(6, len(whole))]
    if kind == "dictionary":
        return member(text, rng.choice((MIN_DICT_LOG, 20, 24)))
    if kind == "empty":
        return member(b"") + whole
    return whole
