"""Running the ``asterion`` command in-process in the CLI tests."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from asterion.cli import app
from asterion.models.edges import EdgeProblem

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``asterion ARGS``."""
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, document: object, name: str = "state.json") -> str:
    """Write a JSON document (or raw text) to a file and return its path."""
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def puzzle_text(problem: EdgeProblem) -> str:
    """A puzzle in the edge-matching text format: ``W H``, then each piece's four colors."""
    rows = "".join(" ".join(map(str, piece)) + "\n" for piece in problem.pieces)
    return f"{problem.width} {problem.height}\n{rows}"
