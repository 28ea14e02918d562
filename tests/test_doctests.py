"""The examples in the docstrings and the Python examples of docs/ run, so the documentation
cannot drift from the code."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import asterion

MODULES = sorted(info.name for info in pkgutil.walk_packages(asterion.__path__, prefix="asterion."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


DOCS = Path(__file__).parents[1] / "docs"
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_python_examples_in_the_docs_run(page: str) -> None:
    for block in PYTHON_BLOCK.findall((DOCS / page).read_text(encoding="utf-8")):
        exec(compile(block, f"docs/{page}", "exec"), {})  # our own pages, run as written
