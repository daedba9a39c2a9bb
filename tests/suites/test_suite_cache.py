"""The suite cache (truepass.suites.cache): a suite file or a self-contained benchmark file is
read once per content; what comes back is the same suite as a fresh load; a changed file, or a
format whose samples depend on more than its file, is read again."""

from __future__ import annotations

from pathlib import Path

import pytest

from truepass.suites import cache
from truepass.suites.loader import bundled_dir, load_suite


@pytest.fixture
def suite_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "suite-cache"
    monkeypatch.setenv(cache.ENV, str(where))
    return where


def _fresh(ref: str | Path, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        m.setenv(cache.ENV, "off")
        return load_suite(ref)


def test_a_suite_file_is_read_once_and_comes_back_the_same(
    suite_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mini"
    folder.mkdir()
    (folder / "suite.jsonl").write_bytes((bundled_dir() / "mini" / "suite.jsonl").read_bytes())
    first = load_suite(folder)
    assert len(list(suite_cache.glob("*.pickle"))) == 1
    fresh = _fresh(folder, monkeypatch)
    calls: list[bytes] = []
    import truepass.suites.loader as loader

    real = loader.parse_jsonl
    monkeypatch.setattr(
        loader, "parse_jsonl", lambda raw, path: calls.append(raw) or real(raw, path)
    )
    again = load_suite(folder)
    assert calls == []  # from the cache
    for got in (first, again):
        assert got.samples == fresh.samples and got.content_hash == fresh.content_hash  # type: ignore[attr-defined]
        assert got.family == fresh.family == "repair"  # type: ignore[attr-defined]
    lines = (folder / "suite.jsonl").read_text(encoding="utf-8").splitlines()
    (folder / "suite.jsonl").write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    changed = load_suite(folder)
    assert len(calls) == 1 and len(changed.samples) == 3  # read again: its bytes changed
    assert changed.content_hash != first.content_hash


def test_the_key_covers_the_reader_and_the_bytes() -> None:
    assert cache.key("suite.jsonl", b"a") == cache.key("suite.jsonl", b"a")
    assert cache.key("suite.jsonl", b"a") != cache.key("suite.jsonl", b"b")
    assert cache.key("suite.jsonl", b"a") != cache.key("format:humaneval", b"a")


def test_off_and_an_unreadable_entry_read_afresh(
    suite_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def load() -> cache.Loaded:
        calls.append(1)
        return [], "hash"

    assert cache.cached("r", b"x", load) == ([], "hash")
    (entry,) = suite_cache.glob("*.pickle")
    entry.write_bytes(b"not a pickle")
    assert cache.cached("r", b"x", load) == ([], "hash") and len(calls) == 2
    assert cache.cached("r", b"x", load) == ([], "hash") and len(calls) == 2  # rewritten
    monkeypatch.setenv(cache.ENV, "off")
    assert cache.directory() is None
    cache.cached("r", b"x", load)
    assert len(calls) == 3


def test_only_self_contained_formats_are_kept() -> None:
    from truepass.families.registry import formats

    kept = {name for name, f in formats().items() if f.self_contained}
    assert kept == {"humaneval"}  # SWE-bench reads clones and environments.toml beside its file
