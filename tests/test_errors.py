"""Input errors are one printable line, whatever the input holds; files are read to a limit
even when they have no size (a pipe, a device)."""

from __future__ import annotations

from pathlib import Path

import pytest

from asterion.errors import MAX_SHOWN, InputError
from asterion.models.files import MAX_FILE_BYTES, read_json_file


def test_control_characters_from_the_input_are_escaped() -> None:
    # A field name from a file: NUL, a right-to-left override and a terminal color code.
    error = InputError("unknown field", source="s.json", field="zz\x00\u202e\x1b[31m")
    assert str(error) == "s.json: zz\\x00\\u202e\\x1b[31m: unknown field"


def test_a_huge_echoed_value_is_cut_in_the_middle() -> None:
    key = "9" * 5000
    error = InputError(f"{key!r} is not a slot", field=f"players.0.telescope.{key}")
    field, problem = str(error).split(": ")
    assert len(field) == len(problem) == MAX_SHOWN and "…" in field and "…" in problem
    assert field.startswith("players.0.telescope.999") and problem.endswith("9' is not a slot")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_file_without_a_size_is_read_only_to_the_limit() -> None:
    # stat() says 0 bytes for a device: the whole stream was read (gigabytes, no end).
    with pytest.raises(InputError, match=f"/dev/zero: input is over {MAX_FILE_BYTES} bytes"):
        read_json_file("/dev/zero")
