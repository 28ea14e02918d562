"""What each game *is*: geometry graphs, components, states and rules engines.

Pure Python plus networkx; nothing here imports from ``solver``, ``puzzles`` or ``render``.
"""
