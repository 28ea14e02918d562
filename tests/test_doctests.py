"""The examples in the docstrings run, so the documentation cannot drift from the code."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import asterion

MODULES = sorted(info.name for info in pkgutil.walk_packages(asterion.__path__, prefix="asterion."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
