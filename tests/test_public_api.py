"""The flat public API (``truepass.run``, ``truepass.load_suite``, ...) is imported when first
used: every name in ``__all__`` resolves to the object its module defines."""

from __future__ import annotations

import importlib

import pytest

import truepass


@pytest.mark.parametrize("name", truepass.__all__)
def test_every_public_name_is_its_modules_object(name: str) -> None:
    module, attr = truepass._PUBLIC[name]
    assert getattr(truepass, name) is getattr(importlib.import_module(module), attr)


def test_the_names_are_listed_once_and_unknown_ones_are_errors() -> None:
    assert sorted(truepass.__all__) == sorted(truepass._PUBLIC)
    assert set(truepass.__all__) <= set(dir(truepass))
    with pytest.raises(AttributeError, match="no_such_name"):
        truepass.no_such_name  # noqa: B018
