"""Input errors are one printable line, whatever the input holds; files are read to a limit
even when they have no size (a pipe, a device); JSON's types are kept to the letter."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import asterion.data
from asterion.errors import MAX_SHOWN, InputError
from asterion.models.aster_files import state_from_data
from asterion.models.files import MAX_FILE_BYTES, STDIN, read_json_file
from asterion.models.nacht_files import default_tileset, tileset_from_data, tileset_to_data
from asterion.models.sky import sky_from_data
from asterion.models.stellar_cards import deck_from_data


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


def test_a_dash_reads_standard_input_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps({"format": "x"})
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + text.encode())))
    assert read_json_file(STDIN) == {"format": "x"}  # (a byte-order mark dropped, as from a file)
    flood = io.BytesIO(b" " * (MAX_FILE_BYTES + 1))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(flood))
    with pytest.raises(InputError, match=f"^-: input is over {MAX_FILE_BYTES} bytes"):
        read_json_file(STDIN)
    assert flood.tell() == MAX_FILE_BYTES + 1  # read to the limit, not to the end


def _shipped(name: str) -> dict[str, object]:
    return json.loads((Path(asterion.data.__file__).parent / name).read_text())


def _aster_with_rings(rings: object) -> None:
    state_from_data({**_shipped("aster_demo_state.json"), "rings": rings}, "state.json")


def _deck_with_number(number: object) -> None:
    deck = _shipped("stellar_deck.json")
    cards = deck["cards"]
    assert isinstance(cards, list)
    deck_from_data({**deck, "cards": [{**cards[0], "number": number}, *cards[1:]]}, "deck.json")


def _tileset_with_x(x: object) -> None:
    data = tileset_to_data(default_tileset())
    k = next(k for k, tile in enumerate(data["tiles"]) if tile["stars"])
    tile = data["tiles"][k]
    data["tiles"][k] = {**tile, "stars": [{**tile["stars"][0], "x": x}, *tile["stars"][1:]]}
    tileset_from_data(data, "sky.json")


@pytest.mark.parametrize(
    ("load", "value", "field"),
    [
        (_aster_with_rings, 4.0, "rings"),  # a whole number written with a fraction
        (_aster_with_rings, "4", "rings"),  # a number written as a string
        (_aster_with_rings, True, "rings"),
        (_deck_with_number, "1", "cards.0.number"),
        (_tileset_with_x, "0.5", "tiles.1.stars.0.x"),
    ],
)
def test_json_types_are_the_contract(load: Any, value: object, field: str) -> None:
    # JSON says what a value is: a string, a fraction or a Boolean is no integer, and no
    # number is read out of a string (the files are written by programs as often as by hand).
    with pytest.raises(InputError) as caught:
        load(value)
    assert caught.value.field == field and "should be a valid" in caught.value.problem


def test_a_whole_number_is_a_fraction_where_one_is_asked() -> None:
    _tileset_with_x(0)  # x is a fraction of the tile's side: 0 is one
    _aster_with_rings(4)


def test_a_union_names_the_field_and_every_kind_it_takes() -> None:
    with pytest.raises(InputError) as caught:
        _deck_with_number("1")
    assert str(caught.value) == (
        "deck.json: cards.0.number: should be a valid integer or '0/6' (got \"1\")"
    )


@pytest.mark.parametrize(
    ("value", "shown"), [(None, "null"), (True, "true"), ("x" * 100, '"' + "x" * 56 + "...")]
)
def test_a_wrong_value_is_shown_as_the_file_wrote_it(value: object, shown: str) -> None:
    with pytest.raises(InputError) as caught:
        _deck_with_number(value)
    assert str(caught.value).endswith(f"(got {shown})")


def _sky_with_provenance(value: object) -> None:
    sky_from_data({**_shipped("sky.json"), "provenance": value}, "sky.json")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # provenance entries are strings, or objects of strings
        ({"k": 5}, "sky.json: provenance.k: should be a JSON object or a valid string (got 5)"),
        ({"k": {"a": 1}}, "sky.json: provenance.k.a: Input should be a valid string (got 1)"),
    ],
)
def test_a_union_of_a_string_and_an_object_says_which_value_is_wrong(
    value: object, expected: str
) -> None:
    with pytest.raises(InputError) as caught:
        _sky_with_provenance(value)
    assert str(caught.value) == expected


def test_a_wrong_key_is_not_taken_for_another_kind_of_value() -> None:
    # A key's error and the value's are two problems, not two kinds of one value.
    state = {**_shipped("aster_demo_state.json"), "vp": {"purple": "x"}}
    with pytest.raises(InputError) as caught:
        state_from_data(state, "state.json")
    assert caught.value.field == "vp.purple.[key]"
    assert " or a valid integer" not in caught.value.problem


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_non_finite_numbers_are_refused_where_they_are(value: float) -> None:
    # (Python's JSON reader takes NaN, Infinity and 1e400, which JSON has no number for)
    with pytest.raises(InputError) as caught:
        _tileset_with_x(value)
    assert caught.value.field == "tiles.1.stars.0.x"
    assert caught.value.problem.startswith("is not a finite number")
