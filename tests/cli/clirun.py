"""Running the ``asterion`` command in-process in the CLI tests."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from asterion.cli import app

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
