"""The names and defaults of the Nacht play analyses (solver/nacht_play.py), kept apart from
the analyses so that the command line can show them in ``--help`` without loading them."""

from __future__ import annotations

DEFAULT_EXACT_TIME_LIMIT = 60.0
"""Seconds the exact two-player solve may take (its positions grow fast past 4x5)."""
DEFAULT_SAMPLES = 200
"""Sampled deals per move for decline advice."""
STRATEGY_NAMES = ("always", "greedy", "denial", "lookahead")
"""The heuristics the issue names (``random`` is also accepted)."""
