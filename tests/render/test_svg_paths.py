"""Where a picture can be written, found out before a command's work (``--svg``, ``--plot``)
by opening the file, not by asking for permission: root may write anywhere by permission."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from asterion.errors import InputError
from asterion.render.svg import unwritable, write_svg


def test_a_writable_path_leaves_no_file_behind_and_an_old_file_untouched(tmp_path: Path) -> None:
    new, old = tmp_path / "new.svg", tmp_path / "old.svg"
    old.write_text("kept")
    assert unwritable(new) is None and not new.exists()
    assert unwritable(old) is None and old.read_text() == "kept"


@pytest.mark.parametrize(
    ("where", "reason"),
    [("missing/a.svg", "the folder"), (".", "it is a folder"), ("file.txt/a.svg", "")],
)
def test_paths_that_cannot_take_a_file(tmp_path: Path, where: str, reason: str) -> None:
    (tmp_path / "file.txt").write_text("a file, not a folder")
    problem = unwritable(tmp_path / where)
    assert problem is not None and problem.startswith("cannot write the picture: ")
    assert reason in problem


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_folder_no_one_may_create_files_in_is_refused_even_for_root() -> None:
    # os.access says yes to root for /proc; creating a file there fails all the same.
    assert unwritable("/proc/asterion-picture.svg") is not None


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes")
def test_a_named_pipe_without_a_reader_does_not_block(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert unwritable(pipe) is not None  # (opening it to write would wait for a reader)


def test_a_failed_write_is_one_line_naming_the_file(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "a.svg"
    with pytest.raises(InputError) as raised:
        write_svg(target, "<svg/>")
    assert raised.value.source == str(target)
    assert (
        raised.value.problem
        == f"cannot write the picture: the folder {str(target.parent)!r} does not exist"
    )
