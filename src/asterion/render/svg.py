"""What every picture shares: the SVG namespace and writing a picture to a file.

Kept apart from the game renderers so that a command drawing one game's picture loads no
other game's model.
"""

from __future__ import annotations

import os
from pathlib import Path

from asterion.errors import InputError

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def unwritable(path: str | os.PathLike[str]) -> str | None:
    """Why a picture could not be written at ``path`` (None: it can, as far as can be told
    without writing): checked before a command's work, not after it. The file is opened for
    appending (and removed again if it was new), as asking for permission is not enough: root
    may write anywhere by permission, yet not into ``/proc`` or onto a read-only disk."""
    target = Path(path)
    existed = target.exists()
    try:  # (not blocking: a named pipe with no reader would wait for one)
        os.close(os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666))
    except OSError as error:
        return _why_not(error, target)
    if not existed:
        target.unlink(missing_ok=True)
    return None


def _why_not(error: OSError, target: Path) -> str:
    """A picture's write failed: why, in one line."""
    if isinstance(error, IsADirectoryError):
        return "cannot write the picture: it is a folder"
    if isinstance(error, FileNotFoundError) and not target.parent.is_dir():
        return f"cannot write the picture: the folder {str(target.parent)!r} does not exist"
    if isinstance(error, PermissionError):
        return "cannot write the picture: permission denied"
    return f"cannot write the picture: {error.strerror or type(error).__name__}"


def write_svg(path: str | os.PathLike[str], svg_text: str) -> None:
    """Write ``svg_text`` to ``path`` as UTF-8.

    :raises InputError: with a one-line message if the file cannot be written (missing
        folder, no permission, a folder in the way).
    """
    target = Path(path)
    try:
        target.write_text(svg_text, encoding="utf-8", newline="\n")
    except OSError as error:
        raise InputError(_why_not(error, target), source=str(target)) from None
