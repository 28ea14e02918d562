"""Counts in sentences: "1 puzzle", "3 puzzles"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, in the plural (``noun + "s"`` unless given) unless it is 1.

    >>> counted(1, "action"), counted(0, "action"), counted(2, "equilibrium", "equilibria")
    ('1 action', '0 actions', '2 equilibria')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
