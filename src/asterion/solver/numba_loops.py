"""The one switch for the compiled loops (the edge-matching search, the Stellar flow check):
numba compiles a decorated function (cached on disk, releasing the interpreter lock); without
numba the same code runs as plain Python, correct and far slower."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

try:
    from numba import njit as _numba_njit  # type: ignore[import-untyped,unused-ignore]

    HAVE_NUMBA = True

    def compiled(func: F) -> F:
        return _numba_njit(cache=True, nogil=True)(func)  # type: ignore[return-value]

except ImportError:  # pragma: no cover - exercised only where numba is missing
    HAVE_NUMBA = False

    def compiled(func: F) -> F:
        return func
