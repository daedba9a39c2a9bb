"""The parent's reading of result frames (``verdict._messages``) and the per-case caches of
``Case``. Parsing all frames at once must give what parsing each alone gives; only frames crafted
to join across their boundaries could differ, and the child that would craft them could as well
write the joined messages as frames of their own."""

from __future__ import annotations

import json

import pytest

from truepass.sandbox.guest.plainvalues import Unserialisable
from truepass.sandbox.verdict import Case, _messages


def _stream(*frames: bytes) -> bytes:
    return b"".join(len(f).to_bytes(4, "big") + f for f in frames)


def _alone(*frames: bytes) -> list[dict]:
    out = []
    for f in frames:
        try:
            m = json.loads(f)
        except ValueError:
            m = {}
        out.append(m if isinstance(m, dict) else {})
    return out


@pytest.mark.parametrize(
    "frames",
    [
        (b'{"i": 0, "k": "ok", "v": 1}', b'{"i": 1, "k": "ok", "v": ["L", 1, 2]}'),
        (
            b'{"i": 0, "k": "ok", "v": 1}',
            b"[1, 2]",
            b'{"i": 2, "k": "exc", "e": "E: x"}',
        ),  # not an object
        (b'{"i": 0, "k": "ok", "v": 1}', b'{"i": 1, "k": '),  # malformed JSON
        (b'{"i": 0}, {"i": 1}', b'{"i": 2}'),  # one frame holding two objects: counts differ
        (b'{"i": 0, "v": "\xff"}', b'{"i": 1}'),  # not UTF-8
        (b"", b'{"i": 1}'),  # empty
        (b'{"i": 0, "k": "armed"}',),  # a single frame
    ],
)
def test_frames_read_together_are_what_each_frame_says_alone(frames: tuple[bytes, ...]) -> None:
    assert list(_messages(_stream(*frames))) == _alone(*frames)


def test_no_frames_no_messages() -> None:
    assert list(_messages(b"")) == []


def test_a_case_encodes_its_arguments_once_and_checks_its_expected_value_once() -> None:
    case = Case([[1, 2], "a", (3, 4.5)], {"k": None})
    first = case.args_json()
    assert json.loads(first) == ["L", ["L", 1, 2], "a", ["T", 3, 4.5]]
    assert case.args_json() is first  # kept, not made again
    case.check_plain()
    case.check_plain()
    assert case == Case([[1, 2], "a", (3, 4.5)], {"k": None})  # the caches are not part of it

    class Sub(int):
        pass

    with pytest.raises(Unserialisable):
        Case([1], Sub(2)).check_plain()
