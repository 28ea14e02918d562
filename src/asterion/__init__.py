"""asterion: a constraint-solving puzzle and analysis toolkit for star-themed board games.

The layers go one way: ``cli`` → ``puzzles`` → ``solver`` → ``models``; ``render`` reads
``models``. See ``DESIGN.md`` in the project's shared folder for the architecture.
"""

__version__ = "0.1.0"
