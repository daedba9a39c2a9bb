#!/usr/bin/env python3
"""Write the seeds of the lzip tasks of ``suites/rebuild-large`` (``lzip.lzip``, ``lzip.clzip``,
``lzip.lziprecover``): lzip files made from our own text by
:mod:`truepass.families.rebuild.lzip` (one member, several, trailing data, damaged bytes, a
truncated member, an empty one, a zeroed sector, an lzma-alone file), and argument lists that use
them the ways the programs' manuals describe (test, list, decompress, ranges, repair, merge,
split, dump, strip, remove; compress with levels, member and volume sizes).

Deterministic: running it again writes the same files (a test checks the committed ones).

Usage::

    python scripts/make_lzip_seeds.py [OUT_DIR]   # default suites/rebuild-large/seeds
"""

from __future__ import annotations

import base64
import json
import lzma
import sys
from pathlib import Path

from truepass.families.rebuild.lzip import member

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "suites/rebuild-large/seeds"

TEXT = b"".join(b"%d: alpha bravo charlie delta\n" % i for i in range(40))
BIG = b"".join(b"line %05d: the quick brown fox jumps over the lazy dog %d\n" % (i, i * i % 97)
               for i in range(600))  # fmt: skip


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1 :]


def files() -> dict[str, bytes]:
    """The seed files: name -> bytes."""
    one = member(TEXT)
    big = member(BIG)
    third = len(TEXT) // 3
    parts = (TEXT[:third], TEXT[third : 2 * third], TEXT[2 * third :])
    return {
        "plain.txt": TEXT,
        "big.txt": BIG,
        "a.lz": one,
        "multi.lz": b"".join(member(p) for p in parts),
        "tdata.lz": one + b"trailing data\n",
        "bad.lz": _flip(one, 40),
        "bad2.lz": _flip(one, 60),
        "trunc.lz": one[:-10],
        "big.lz": big,
        "empty.lz": member(b""),
        "zeroed.lz": big[:512] + b"\x00" * 512 + big[1024:],
        "alone.lzma": lzma.compress(TEXT, format=lzma.FORMAT_ALONE, preset=0),
    }  # fmt: skip


COMMON = [
    ["-t", "a.lz"], ["-tv", "multi.lz"], ["-l", "multi.lz"], ["-lv", "tdata.lz"],
    ["-l", "a.lz", "multi.lz", "tdata.lz"], ["-cd", "a.lz"], ["-cd", "multi.lz"],
    ["-cd", "tdata.lz"], ["-a", "-cd", "tdata.lz"], ["-t", "bad.lz"], ["-t", "trunc.lz"],
    ["-cd", "trunc.lz"], ["-l", "trunc.lz"], ["-cd", "empty.lz"], ["-d", "-k", "a.lz"],
    ["-d", "-o", "out.txt", "multi.lz"], ["--loose-trailing", "-t", "tdata.lz"],
    ["-t", "a.lz", "missing.lz"], ["-tvv", "big.lz"], ["-cd", "plain.txt"], ["-q", "-t", "bad.lz"],
]  # fmt: skip
"""Reading lzip files: what the compressors and lziprecover share."""

COMPRESS = [
    ["-c", "plain.txt"], ["-k", "plain.txt"], ["-0", "-c", "plain.txt"], ["-9", "-c", "big.txt"],
    ["-s", "4KiB", "-c", "big.txt"], ["-b", "10KiB", "-c", "big.txt"], ["-S", "12KiB", "big.txt"],
    ["-o", "out.lz", "plain.txt"], ["-m", "10", "-c", "plain.txt"], ["-1", "-c", "big.txt"],
    ["-c", "a.lz"], ["-f", "-k", "plain.txt"], ["-c", "-v", "plain.txt", "big.txt"],
]  # fmt: skip
"""Compressing (lzip, clzip)."""

RECOVER = [
    ["-D", "0-20", "big.lz"], ["-D", "100,50", "multi.lz"], ["-D", "5000-6000", "big.lz"],
    ["-D", "30-", "a.lz"], ["-i", "-D", "0-100", "bad.lz"], ["-R", "bad.lz"],
    ["-R", "-o", "fixed.lz", "bad2.lz"], ["-v", "-R", "trunc.lz"],
    ["-m", "-o", "merged.lz", "bad.lz", "bad2.lz"], ["-m", "-v", "bad.lz", "bad.lz"],
    ["-s", "multi.lz"], ["-s", "-o", "part.lz", "multi.lz"], ["--dump=tdata", "tdata.lz"],
    ["--dump=1", "multi.lz"], ["--dump=d", "bad.lz"], ["--dump=1-2:t", "multi.lz"],
    ["--strip=tdata", "tdata.lz"], ["--strip=2", "multi.lz"], ["--remove=tdata", "tdata.lz"],
    ["--remove=1", "multi.lz"], ["-A", "alone.lzma"], ["-A", "-c", "alone.lzma"],
    ["-cdi", "bad.lz"], ["-cdi", "trunc.lz"], ["-e", "--reference-file=big.txt", "zeroed.lz"],
    ["-l", "-i", "bad.lz"], ["--dump=2", "-i", "multi.lz"],
]  # fmt: skip
"""lziprecover's own work: ranges, repair, merge, split, members and trailing data."""


def _data(blob: bytes) -> str | dict[str, str]:
    try:
        return blob.decode()
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(blob).decode()}


def seeds(args: list[list[str]], stdin: list[bytes]) -> str:
    """A seeds file (JSON) with every seed file, these argument lists and standard inputs."""
    made = {
        "stdin": [_data(b) for b in stdin],
        "args": args,
        "files": {name: _data(blob) for name, blob in files().items()},
    }
    return json.dumps(made, indent=1, sort_keys=True) + "\n"


def write(out: Path) -> list[Path]:
    """Write ``lzip.json`` (the compressors) and ``lziprecover.json`` into ``out``."""
    f = files()
    out.mkdir(parents=True, exist_ok=True)
    made = {
        "lzip.json": seeds(COMPRESS + COMMON, [f["a.lz"], TEXT, f["tdata.lz"]]),
        "lziprecover.json": seeds(RECOVER + COMMON, [f["a.lz"], f["multi.lz"], f["bad.lz"]]),
    }
    for name, text in made.items():
        (out / name).write_text(text, encoding="utf-8")
    return [out / name for name in made]


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT):
        print(path)
