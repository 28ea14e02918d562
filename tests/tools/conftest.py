"""The ``tool`` fixture: the script of tools/ that a test module names in ``TOOL``, imported with
tools/ on the path (the scripts import each other by bare name)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"


@pytest.fixture(scope="module")
def tool(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    sys.path.insert(0, str(TOOLS))
    try:
        yield importlib.import_module(request.module.TOOL)
    finally:
        sys.path.remove(str(TOOLS))
