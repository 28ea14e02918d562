"""Tile-set files: the JSON format and the generic edge-matching text, validated at the door.

Every bad file gives an InputError with a one-line message naming the file and, for JSON, the
field (issue 4: malformed JSON, offsets outside [0, 1], duplicate ids, a grid over 32 x 32, a
piece count other than W x H, ...); nothing else ever escapes, whatever the bytes.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nacht_charts import unit_viewport, woven_chart

from asterion.errors import InputError, TooLargeError
from asterion.models.nacht import Segment, Star, TileSet
from asterion.models.nacht_cut import cut
from asterion.models.nacht_files import (
    load_tileset,
    parse_edge_text,
    parse_tileset,
    tileset_from_data,
    tileset_schema,
    tileset_to_data,
)

SOURCE = "set.json"
NONE = {"NE": False, "NW": False, "SW": False, "SE": False}

GOOD: dict[str, Any] = {
    "format": "asterion.tileset/1",
    "name": "hand",
    "grid": {"width": 2, "height": 2},
    "rotations": False,
    "constellations": [{"abbr": "Ori", "name": "Orion"}, {"abbr": "Cnc", "name": "Cancer"}],
    "tiles": [
        {
            "id": "T1",
            "labels": ["north-west"],
            "chamfers": {**NONE, "SE": True},
            "stars": [{"x": 0.31, "y": 0.72, "mag": 0.5, "constellation": "Ori"}],
            "segments": [{"constellation": "Ori", "a": [0.31, 0.72], "b": [1.0, 0.55]}],
            "edges": None,
        },
        {
            "id": "T2",
            "chamfers": {**NONE, "SW": True},
            "stars": [{"x": 0.5, "y": 0.5, "mag": 2.0}],
            "segments": [{"constellation": "Ori", "a": [0.0, 0.55], "b": [0.5, 0.5]}],
        },
        {"id": "T3", "chamfers": {**NONE, "NE": True}, "stars": [], "segments": []},
        {
            "id": "T4",
            "chamfers": {**NONE, "NW": True},
            "stars": [{"x": 0.2, "y": 0.2, "mag": 4.0, "constellation": "Cnc"}],
        },
    ],
}


def good() -> dict[str, Any]:
    return copy.deepcopy(GOOD)


def parse(data: object) -> TileSet:
    text = data if isinstance(data, str) else json.dumps(data)
    return parse_tileset(text, SOURCE)


def error_for(data: object) -> InputError:
    with pytest.raises(InputError) as caught:
        parse(data)
    return caught.value


def check_error(error: InputError, field: str | None, *words: str) -> None:
    """One line, naming the file and (for JSON) a field under ``field``."""
    message = str(error)
    assert "\n" not in message
    assert error.source == SOURCE, message
    assert message.startswith(f"{SOURCE}: "), message
    if field is not None:
        assert error.field is not None, message
        assert error.field.startswith(field), message
        assert message.startswith(f"{SOURCE}: {error.field}: "), message
    for word in words:
        assert word in message, message


# -- good files -----------------------------------------------------------------------------------


def test_a_good_file() -> None:
    tileset = parse(GOOD)
    assert (tileset.name, tileset.width, tileset.height) == ("hand", 2, 2)
    assert not tileset.rotations and not tileset.generic
    assert tileset.tolerance == 0.02 and not tileset.allow_border_fragments
    assert tileset.expected_constellations is None and tileset.markers is None
    assert [c.abbr for c in tileset.constellations] == ["Ori", "Cnc"]
    t1, t2, t3, t4 = tileset.tiles
    assert [t.id for t in tileset.tiles] == ["T1", "T2", "T3", "T4"]
    assert t1.labels == ("north-west",)
    assert t1.chamfers == {"SE"} and t2.chamfers == {"SW"}
    assert t3.chamfers == {"NE"} and t4.chamfers == {"NW"}
    assert t1.stars == (Star(0.31, 0.72, 0.5, "Ori"),)
    assert t2.stars == (Star(0.5, 0.5, 2.0, None),)
    assert t1.segments == (Segment("Ori", (0.31, 0.72), (1.0, 0.55)),)
    assert t3.stars == t3.segments == ()
    assert t1.edges is None
    # The fragment at y = 0.55 reads 0.45 on T1's E side and 0.55 on T2's W side.
    assert t1.fragments("E") == ((pytest.approx(0.45), "Ori"),)
    assert t2.fragments("W") == ((0.55, "Ori"),)


def test_optional_set_fields() -> None:
    data = good()
    data.update(
        rotations=True,
        tolerance=0.05,
        allow_border_fragments=True,
        expected_constellations=2,
        markers=1,
    )
    tileset = parse(data)
    assert tileset.rotations and tileset.allow_border_fragments
    assert (tileset.tolerance, tileset.expected_constellations, tileset.markers) == (0.05, 2, 1)
    written = tileset_to_data(tileset)
    assert {k: v for k, v in written.items() if k != "tiles"} == {
        k: v for k, v in data.items() if k != "tiles"
    }
    assert parse(written) == tileset


def test_round_trip_of_the_good_file(tmp_path: Path) -> None:
    tileset = parse(GOOD)
    again = tileset_from_data(json.loads(json.dumps(tileset_to_data(tileset))), SOURCE)
    assert again == tileset
    path = tmp_path / "set.json"
    path.write_text(json.dumps(tileset_to_data(tileset)), encoding="utf-8")
    assert load_tileset(path) == tileset


@pytest.mark.parametrize(("width", "height", "seed"), [(2, 2, 0), (5, 5, 1), (4, 3, 2)])
def test_round_trip_of_cut_sets(width: int, height: int, seed: int) -> None:
    tileset = cut(woven_chart(width, height, seed), width, height, unit_viewport(width, height))
    text = json.dumps(tileset_to_data(tileset))
    assert parse_tileset(text, SOURCE) == tileset
    assert json.loads(text)["grid"] == {"width": width, "height": height}


def test_generic_json_sets_derive_chamfers() -> None:
    data = {
        "grid": {"width": 2, "height": 2},
        "tiles": [
            {"id": "a", "edges": {"N": "0", "E": "x", "S": "y", "W": "0"}},
            {"id": "b", "edges": {"N": "0", "E": "0", "S": "z", "W": "x"}},
            {"id": "c", "edges": {"N": "y", "E": "w", "S": "0", "W": "0"}},
            {"id": "d", "edges": {"N": "z", "E": "0", "S": "0", "W": "w"}},
        ],
    }
    tileset = parse(data)
    assert tileset.generic
    assert [t.edges for t in tileset.tiles] == [tuple(e) for e in ("0xy0", "00zx", "yw00", "z00w")]
    assert [t.chamfers for t in tileset.tiles] == [{"SE"}, {"SW"}, {"NE"}, {"NW"}]
    assert parse(tileset_to_data(tileset)) == tileset


def test_the_text_format() -> None:
    text = "2 2\n0 1 2 0\n0 0 3 1\n\n2 4 0 0\n3 0 0 4\n"
    tileset = parse_edge_text(text, "puzzle.txt")
    assert tileset.generic and tileset.rotations
    assert (tileset.width, tileset.height, tileset.name) == (2, 2, "puzzle")
    assert [t.id for t in tileset.tiles] == ["0", "1", "2", "3"]
    assert [t.edges for t in tileset.tiles] == [tuple(e) for e in ("0120", "0031", "2400", "3004")]
    assert [t.chamfers for t in tileset.tiles] == [{"SE"}, {"SW"}, {"NE"}, {"NW"}]
    # Told apart from JSON by content, and converted to JSON and back unchanged.
    assert parse_tileset(text, "puzzle.txt") == tileset
    assert parse(tileset_to_data(tileset)) == tileset


def test_the_text_format_skips_comments() -> None:
    plain = "2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n"
    commented = (
        "# a 2x2 worked by hand\n2 2  # W H\n0 1 2 0\n#\n  # corners, clockwise\n"
        "0 0 3 1 # NE\n2 4 0 0\n3 0 0 4#no space\n"
    )
    assert parse_edge_text(commented, "puzzle.txt") == parse_edge_text(plain, "puzzle.txt")
    # leading zeros, however many, are the same number
    padded = "0" * 5000 + "2 02\n" + plain.partition("\n")[2]
    assert parse_edge_text(padded, "puzzle.txt") == parse_edge_text(plain, "puzzle.txt")
    # a comment holds no colors: a line of three colors and a commented fourth is refused
    check_error(error_for("2 2\n0 1 2 # 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n"), None, "line 2")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])  # -sig: with a byte-order mark
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_files_from_windows_editors_read_the_same(
    tmp_path: Path, encoding: str, newline: str
) -> None:
    text = "2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n"
    data = json.dumps(tileset_to_data(parse_edge_text(text, "puzzle.txt")))
    for name, content in (("puzzle.txt", text), ("puzzle.json", data)):
        path = tmp_path / name
        path.write_bytes(content.replace("\n", newline).encode(encoding))
        assert load_tileset(path) == parse_tileset(content, str(path))


def test_the_schema_documents_the_format() -> None:
    schema = tileset_schema()
    assert {"grid", "tiles"} <= set(schema["required"])
    assert "asterion.tileset/1" in json.dumps(schema)


# -- bad JSON -------------------------------------------------------------------------------------


def with_tile(index: int, **changes: Any) -> dict[str, Any]:
    data = good()
    data["tiles"][index].update(changes)
    return data


def with_fields(**changes: Any) -> dict[str, Any]:
    data = good()
    data.update(changes)
    return data


def star(**changes: Any) -> dict[str, Any]:
    return {"x": 0.5, "y": 0.5, "mag": 1.0, **changes}


def segment(**changes: Any) -> dict[str, Any]:
    return {"constellation": "Ori", "a": [0.5, 0.5], "b": [1.0, 0.5], **changes}


BAD_JSON: list[tuple[object, str | None, tuple[str, ...]]] = [
    ('{"grid": {"width": 2, "height": 2}, "tiles": [', None, ("JSON",)),
    ('{"grid": {"width": 2, "width": 2}}', None, ("twice",)),
    (with_tile(0, stars=[star(x=1.5)]), "tiles.0.stars.0.x", ("[0, 1]",)),
    (with_tile(1, stars=[star(y=-0.01)]), "tiles.1.stars.0.y", ("[0, 1]",)),
    (with_tile(1, segments=[segment(a=[1.2, 0.5])]), "tiles.1.segments.0.a", ("[0, 1]",)),
    (with_tile(2, segments=[segment(b=[0.5, -1])]), "tiles.2.segments.0.b", ("[0, 1]",)),
    (
        '{"grid": {"width": 2, "height": 2}, "tiles": [{"id": "a", "stars": '
        '[{"x": NaN, "y": 0.5, "mag": 1}]}]}',
        "tiles.0.stars.0.x",
        (),
    ),
    (with_tile(3, id="T1"), "tiles.3.id", ("duplicate", "T1")),
    (with_fields(grid={"width": 33, "height": 2}), "grid.width", ()),
    (with_fields(grid={"width": 2, "height": 40}), "grid.height", ()),
    (with_fields(grid={"width": 1, "height": 2}), "grid.width", ()),
    (with_fields(grid={"width": 3, "height": 2}), "tiles", ("4 tiles", "3x2", "6")),
    (with_fields(tiles=GOOD["tiles"][:3]), "tiles", ("3 tiles",)),
    (with_tile(0, stars=[star(constellation="Leo")]), "tiles.0.stars.0.constellation", ("Leo",)),
    (with_tile(1, segments=[segment(constellation="X")]), "tiles.1.segments.0.constellation", ()),
    (
        with_tile(0, edges={"N": "0", "E": "a", "S": "b", "W": "0"}),
        "tiles",
        ("edges",),
    ),
    (
        {
            "grid": {"width": 2, "height": 2},
            "tiles": [
                {"id": str(i), "edges": {"N": "a", "E": "a", "S": "a", "W": "a"}} for i in range(3)
            ]
            + [{"id": "3", "edges": {"N": "a", "E": "a", "S": "a", "W": "a"}, "stars": [star()]}],
        },
        "tiles.3",
        ("edges",),
    ),
    (with_tile(0, chamfers=None), "tiles.0.chamfers", ("missing",)),
    (with_tile(0, chamfers={"NE": True}), "tiles.0.chamfers", ("missing",)),
    (with_fields(constellations=[{"abbr": "A"}, {"abbr": "A"}]), "constellations", ("twice",)),
    (with_fields(format="asterion.tileset/2"), "format", ()),
    (with_fields(colour=1), "colour", ("unknown",)),
    (with_fields(tolerance=0.7), "tolerance", ()),
    (with_tile(0, stars=[star(mag=99)]), "tiles.0.stars.0.mag", ()),
    (with_tile(0, id=""), "tiles.0.id", ()),
    ({"tiles": []}, "grid", ("missing",)),
]


@pytest.mark.parametrize(("data", "field", "words"), BAD_JSON)
def test_bad_json(data: object, field: str | None, words: tuple[str, ...]) -> None:
    check_error(error_for(data), field, *words)


def test_a_grid_over_32_by_32() -> None:
    tiles = [{"id": str(i), "chamfers": NONE} for i in range(33 * 33)]
    data = {"grid": {"width": 33, "height": 33}, "tiles": tiles}
    check_error(error_for(data), "grid.width")


# -- bad text -------------------------------------------------------------------------------------

BAD_TEXT: list[tuple[str, tuple[str, ...]]] = [
    ("", ("empty",)),
    ("\n  \n", ("empty",)),
    ("2\n", ("line 1", "W H")),
    ("2 x\n", ("line 1", "integers")),
    ("2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n", ("3 pieces", "2x2", "4")),
    ("2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n1 1 1 1\n", ("5 pieces",)),
    ("2 2\n0 1 2 0\n0 0 3\n2 4 0 0\n3 0 0 4\n", ("line 3", "four colors")),
    ("2 2\n0 1 2 0\n0 0 3 1.5\n2 4 0 0\n3 0 0 4\n", ("line 3", "integers")),
    ("2 2\n0 1 2 0\n0 0 3 -1\n2 4 0 0\n3 0 0 4\n", ("line 3",)),
    ("1 2\n0 0 0 0\n0 0 0 0\n", ("line 1", "at least 2")),
    ("0" * 4300 + "1 2\n", ("line 1", "at least 2")),  # (int() refuses over 4,300 digits)
    ("2 2\n0 1 2 0\n0 0 3 ²\n2 4 0 0\n3 0 0 4\n", ("line 3", "integers")),
    ("-3 2\n", ("line 1",)),
    ("[1, 2]\n", ("a JSON object, not an array",)),  # JSON, but not a tile set
]


@pytest.mark.parametrize(("text", "words"), BAD_TEXT)
def test_bad_text(text: str, words: tuple[str, ...]) -> None:
    check_error(error_for(text), None, *words)


@pytest.mark.parametrize("header", ["33 2", "2 33", "100 100"])
def test_a_text_grid_over_32_by_32_is_too_large(header: str) -> None:
    error = error_for(header + "\n" + "0 0 0 0\n" * 4)
    assert isinstance(error, TooLargeError)
    check_error(error, None, "32x32")


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        load_tileset(tmp_path / "nothing.json")
    assert "no such file" in str(caught.value)


# -- fuzz -----------------------------------------------------------------------------------------


def parses_or_refuses(text: str) -> None:
    """The only outcomes: a tile set, or one line of InputError."""
    try:
        tileset = parse_tileset(text, SOURCE)
    except InputError as error:
        assert "\n" not in str(error)
        assert str(error).startswith(SOURCE)
    else:
        assert isinstance(tileset, TileSet)
        assert len(tileset.tiles) == tileset.width * tileset.height


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_random_text_parses_or_is_refused(text: str) -> None:
    parses_or_refuses(text)


NUMBERISH = st.text(  # digits of any script, superscripts, fractions: what int() may misread
    st.characters(categories=("Nd", "No")) | st.sampled_from("0123456789+-_ "), max_size=6
)


@settings(max_examples=150, deadline=None)
@given(st.lists(NUMBERISH, min_size=18, max_size=18))
def test_number_like_words_parse_or_are_refused(words: list[str]) -> None:
    lines = [" ".join(words[:2])] + [" ".join(words[k : k + 4]) for k in range(2, 18, 4)]
    parses_or_refuses("\n".join(lines))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_parse_or_are_refused(raw: bytes) -> None:
    parses_or_refuses(raw.decode("utf-8", errors="replace"))
    parses_or_refuses("{" + raw.decode("latin-1"))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5)
    | st.sampled_from(["0", "Ori", "T1", "NE"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += paths(value, (*prefix, i))
    return found


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutations_of_a_good_file_parse_or_are_refused(data: st.DataObject) -> None:
    doc = good()
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(paths(doc)[1:]))
        parent = doc
        for key in where[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[where[-1]] = data.draw(JSON_VALUES)
        elif action == "delete":
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[data.draw(st.text(max_size=5))] = data.draw(JSON_VALUES)
        else:
            parent.append(data.draw(JSON_VALUES))
        if not isinstance(doc, dict) or not paths(doc)[1:]:
            break
    parses_or_refuses(json.dumps(doc))


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_character_edits_of_good_files_parse_or_are_refused(data: st.DataObject) -> None:
    text = data.draw(
        st.sampled_from([json.dumps(GOOD), "2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n"])
    )
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 4)))
        text = text[:i] + data.draw(st.text(max_size=4)) + text[j:]
    parses_or_refuses(text)
