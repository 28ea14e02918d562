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
    without writing): checked before a command's work, not after it."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        return "cannot write the picture: it is a folder"
    if not folder.is_dir():
        return f"cannot write the picture: the folder {str(folder)!r} does not exist"
    if not os.access(target if target.exists() else folder, os.W_OK):
        return "cannot write the picture: permission denied"
    return None


def write_svg(path: str | os.PathLike[str], svg_text: str) -> None:
    """Write ``svg_text`` to ``path`` as UTF-8.

    :raises InputError: with a one-line message if the file cannot be written (missing
        folder, no permission, a folder in the way).
    """
    target = Path(path)
    try:
        target.write_text(svg_text, encoding="utf-8", newline="\n")
    except FileNotFoundError:
        raise InputError(
            f"cannot write the picture: the folder {str(target.parent)!r} does not exist",
            source=str(target),
        ) from None
    except IsADirectoryError:
        raise InputError("cannot write the picture: it is a folder", source=str(target)) from None
    except PermissionError:
        raise InputError(
            "cannot write the picture: permission denied", source=str(target)
        ) from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InputError(f"cannot write the picture: {reason}", source=str(target)) from None
