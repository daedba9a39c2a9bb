"""lzip files written by us (``families/rebuild/lzip.py``) and the lzip tasks' seeds
(``scripts/make_lzip_seeds.py``): valid where meant to be, damaged where meant to be, and the
committed seeds are what the script writes."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from truepass.families.rebuild.inputs import load_seeds
from truepass.families.rebuild.lzip import decompress, member, variant

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "make_lzip_seeds.py"
COMMITTED = ROOT / "suites" / "rebuild-large" / "seeds"


def _lzip_test(blob: bytes) -> int:
    lzip = shutil.which("lzip")
    if lzip is None:
        pytest.skip("lzip is not installed (make rebuild-deps installs it)")
    return subprocess.run([lzip, "-t", "-q"], input=blob, timeout=30).returncode


def test_members_round_trip_and_lzip_accepts_them() -> None:
    text = b"alpha\nbravo\n" * 50
    one = member(text)
    assert one[:6] == b"LZIP\x01\x10" and len(one) < len(text)
    assert decompress(one) == text
    assert decompress(member(b"a") + member(b"") + member(b"b", 12)) == b"ab"
    assert _lzip_test(one) == 0
    assert _lzip_test(member(b"x", 24) + member(b"")) == 0
    with pytest.raises(ValueError, match="12 to 29"):
        member(b"x", 11)


def test_damage_is_caught_by_both_readers() -> None:
    one = member(b"some text that is long enough to damage\n" * 4)
    flipped = one[:30] + bytes([one[30] ^ 1]) + one[31:]
    for bad in (flipped, one[:-5]):
        with pytest.raises(ValueError):
            decompress(bad)
        assert _lzip_test(bad) != 0


def test_variants_are_deterministic_and_of_every_shape() -> None:
    texts = [b"line %d\n" % i * (i + 1) for i in range(60)]
    drawn = [variant(t, random.Random(i)) for i, t in enumerate(texts)]
    assert drawn == [variant(t, random.Random(i)) for i, t in enumerate(texts)]
    intact = sum(1 for blob in drawn if _decodes(blob))
    assert 20 < intact < 60  # mostly whole members, some damaged, truncated or with trailing data
    assert any(blob.count(b"LZIP\x01") >= 2 for blob in drawn)  # several members


def _decodes(blob: bytes) -> bool:
    try:
        decompress(blob)
    except ValueError:
        return False
    return True


def test_committed_seeds_are_what_the_script_writes(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], check=True, timeout=60)
    for name in ("lzip.json", "lziprecover.json"):
        assert (tmp_path / name).read_text() == (COMMITTED / name).read_text(), name
    seeds = load_seeds(COMMITTED / "lziprecover.json")
    files = dict(seeds.files)
    assert decompress(files["multi.lz"]) == files["plain.txt"]
    assert decompress(files["a.lz"]) == files["plain.txt"]
    with pytest.raises(ValueError):
        decompress(files["bad.lz"])
    named = {a.rpartition("=")[2] for args in seeds.args for a in args}
    named = {a for a in named if a.endswith((".lz", ".lzma", ".txt"))}
    written = {"out.txt", "out.lz", "fixed.lz", "merged.lz", "part.lz", "missing.lz"}
    assert named - written <= set(files)  # every file an argument list reads is a seed
    assert any(args[0] == "-R" for args in seeds.args)
