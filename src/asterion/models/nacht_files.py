"""Tile-set files: the JSON format (``asterion.tileset/1``) and generic edge-matching text.

JSON (documented by ``asterion nacht schema``)::

    {"format": "asterion.tileset/1", "name": "...", "grid": {"width": 5, "height": 5},
     "rotations": false,
     "constellations": [{"abbr": "Ori", "name": "Orion"}],
     "tiles": [{"id": "T07", "chamfers": {"NE": true, "NW": true, "SW": false, "SE": false},
                "stars": [{"x": 0.31, "y": 0.72, "mag": 0.5, "constellation": "Ori"}],
                "segments": [{"constellation": "Ori", "a": [0.31, 0.72], "b": [1.0, 0.55]}],
                "edges": null}]}

A tile gives either stars and segments, or ``edges`` (one label per side, ``"0"`` the outer
border; chamfers may then be left out and are derived). Optional set fields carry the rules
page's parameters: ``tolerance`` (N1, 0.02), ``allow_border_fragments`` (N3, false),
``expected_constellations`` and ``markers``.

Text (the Eternity II family): first line ``W H``, then W x H lines of four integers, the side
colors clockwise from north, ``0`` the border; ``#`` starts a comment. Pieces rotate; a piece's
id is its 0-based line number after the header, blank and comment lines not counted. The two
are told apart by content: JSON starts with ``{``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from asterion.errors import InputError, TooLargeError
from asterion.models.edges import MAX_SIDE, MIN_SIDE
from asterion.models.files import (
    STDIN,
    plain_digits,
    read_json_text,
    read_text_file,
    validate,
)
from asterion.models.nacht import (
    CORNERS,
    SIDES,
    TOLERANCE,
    Constellation,
    Segment,
    Star,
    Tile,
    TileSet,
    derived_chamfers,
)

TILESET_FORMAT = "asterion.tileset/1"
MAX_ITEMS = 10_000
"""Stars or segments on one tile, or constellations in a set: far beyond any real sky."""


def _unit(value: float) -> float:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{value} is outside [0, 1] (tile-local coordinates)")
    return value


Unit = Annotated[float, Field(json_schema_extra={"minimum": 0.0, "maximum": 1.0})]
"""A tile-local coordinate (checked by ``_unit``, for its message; bounded in the schema)."""


class _StarSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    x: Unit
    y: Unit
    mag: float = Field(ge=-30, le=30)
    constellation: str | None = None

    @field_validator("x", "y")
    @classmethod
    def _inside(cls, value: float) -> float:
        return _unit(value)


class _SegmentSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    constellation: str
    a: tuple[Unit, Unit]
    b: tuple[Unit, Unit]

    @field_validator("a", "b")
    @classmethod
    def _inside(cls, point: tuple[float, float]) -> tuple[float, float]:
        return (_unit(point[0]), _unit(point[1]))


class _ChamferSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    NE: bool
    NW: bool
    SW: bool
    SE: bool


class _EdgesSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    N: str = Field(min_length=1, max_length=64)
    E: str = Field(min_length=1, max_length=64)
    S: str = Field(min_length=1, max_length=64)
    W: str = Field(min_length=1, max_length=64)


class _TileSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=64)
    labels: list[str] = Field(default_factory=list, max_length=16)
    chamfers: _ChamferSpec | None = None
    stars: list[_StarSpec] = Field(default_factory=list, max_length=MAX_ITEMS)
    segments: list[_SegmentSpec] = Field(default_factory=list, max_length=MAX_ITEMS)
    edges: _EdgesSpec | None = None


class _GridSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: int = Field(ge=MIN_SIDE, le=MAX_SIDE)
    height: int = Field(ge=MIN_SIDE, le=MAX_SIDE)


class _ConstellationSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    abbr: str = Field(min_length=1, max_length=16)
    name: str = Field(default="", max_length=100)


class TileSetSpec(BaseModel):
    """The JSON tile-set file."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.tileset/1"] = "asterion.tileset/1"
    name: str = Field(default="", max_length=200)
    grid: _GridSpec
    rotations: bool = False
    tolerance: float = Field(default=TOLERANCE, gt=0, lt=0.5)
    allow_border_fragments: bool = False
    expected_constellations: int | None = Field(default=None, ge=0, le=MAX_ITEMS)
    markers: int | None = Field(default=None, ge=0, le=MAX_SIDE * MAX_SIDE)
    constellations: list[_ConstellationSpec] = Field(default_factory=list, max_length=MAX_ITEMS)
    tiles: list[_TileSpec] = Field(max_length=MAX_SIDE * MAX_SIDE)


def tileset_schema() -> dict[str, Any]:
    """The JSON Schema of the tile-set format."""
    schema = TileSetSpec.model_json_schema()
    schema["$id"] = "https://asterion.invalid/schema/tileset-1.json"
    schema["title"] = "asterion tile set (asterion.tileset/1)"
    return schema


DEFAULT_SKY = "nacht_sky.json"
"""The shipped tile set: the real sky of tools/build_nacht_sky.py (docs/data.md)."""


def default_tileset() -> TileSet:
    """The shipped sky."""
    text = resources.files("asterion.data").joinpath(DEFAULT_SKY).read_text(encoding="utf-8")
    return parse_tileset(text, DEFAULT_SKY)


def load_tileset(path: Path | str) -> TileSet:
    """Read a tile set in either format (JSON if it starts with ``{`` or ``[``)."""
    text = read_text_file(path)
    return parse_tileset(text, str(path))


def parse_tileset(text: str, source: str) -> TileSet:
    if text.lstrip().startswith(("{", "[")):  # JSON ("[": not a tile set, said as such)
        return tileset_from_data(read_json_text(text, source), source)
    return parse_edge_text(text, source)


def tileset_from_data(data: Any, source: str) -> TileSet:
    """A validated :class:`TileSet` from parsed JSON."""
    spec = validate(TileSetSpec, data, source)
    width, height = spec.grid.width, spec.grid.height
    if len(spec.tiles) != width * height:
        raise InputError(
            f"{len(spec.tiles)} tiles for a {width}x{height} grid (expected {width * height})",
            source=source,
            field="tiles",
        )
    known = {c.abbr for c in spec.constellations}
    if len(known) != len(spec.constellations):
        raise InputError(
            "a constellation abbreviation appears twice", source=source, field="constellations"
        )
    seen: set[str] = set()
    generic = [tile.edges is not None for tile in spec.tiles]
    if any(generic) and not all(generic):
        raise InputError(
            "tiles must all give edges (a generic set) or none (stars and lines)",
            source=source,
            field="tiles",
        )
    tiles = []
    for i, tile in enumerate(spec.tiles):
        where = f"tiles.{i}"
        if tile.id in seen:
            raise InputError(f"duplicate tile id {tile.id!r}", source=source, field=f"{where}.id")
        seen.add(tile.id)
        tiles.append(_tile(tile, known, source, where))
    constellations = tuple(Constellation(c.abbr, c.name) for c in spec.constellations)
    return TileSet(
        name=spec.name,
        width=width,
        height=height,
        tiles=tuple(tiles),
        constellations=constellations,
        rotations=spec.rotations,
        tolerance=spec.tolerance,
        allow_border_fragments=spec.allow_border_fragments,
        expected_constellations=spec.expected_constellations,
        markers=spec.markers,
        generic=all(generic),
    )


def _tile(spec: _TileSpec, known: set[str], source: str, where: str) -> Tile:
    named = [("stars", j, s.constellation) for j, s in enumerate(spec.stars)]
    named += [("segments", j, s.constellation) for j, s in enumerate(spec.segments)]
    for kind, j, abbr in named:
        if abbr is not None and abbr not in known:
            raise InputError(
                f"unknown constellation {abbr!r} (not in 'constellations')",
                source=source,
                field=f"{where}.{kind}.{j}.constellation",
            )
    edges = None
    if spec.edges is not None:
        if spec.stars or spec.segments:
            raise InputError(
                "a tile gives either edges or stars and segments, not both",
                source=source,
                field=where,
            )
        edges = (spec.edges.N, spec.edges.E, spec.edges.S, spec.edges.W)
    if spec.chamfers is not None:
        chamfers = frozenset(c for c in CORNERS if getattr(spec.chamfers, c))
    elif edges is not None:
        chamfers = derived_chamfers(edges)
    else:
        raise InputError(
            "required field is missing (chamfers may be left out only with edges)",
            source=source,
            field=f"{where}.chamfers",
        )
    return Tile(
        id=spec.id,
        chamfers=chamfers,
        stars=tuple(Star(s.x, s.y, s.mag, s.constellation) for s in spec.stars),
        segments=tuple(Segment(s.constellation, s.a, s.b) for s in spec.segments),
        edges=edges,
        labels=tuple(spec.labels),
    )


def parse_edge_text(text: str, source: str) -> TileSet:
    """The generic text format: ``W H`` then one line of four colors per piece; ``#`` starts
    a comment, to the end of its line, and lines left blank are skipped."""
    content = ((n, line.partition("#")[0].split()) for n, line in enumerate(text.splitlines(), 1))
    lines = [(n, words) for n, words in content if words]
    if not lines:
        raise InputError("empty file (expected 'W H' then one line per piece)", source=source)
    header_no, header = lines[0]
    width, height = _ints(header, 2, source, header_no, "header 'W H'")
    for value, name in ((width, "W"), (height, "H")):
        if value > MAX_SIDE:
            raise TooLargeError(
                f"line {header_no}: {name} = {value}; the largest grid is {MAX_SIDE}x{MAX_SIDE}",
                source=source,
            )
        if value < MIN_SIDE:
            raise InputError(
                f"line {header_no}: {name} = {value}; at least {MIN_SIDE}", source=source
            )
    pieces = lines[1:]
    tiles = []
    for i, (line_no, words) in enumerate(pieces):  # (a line that is no piece named first)
        colors = _ints(words, 4, source, line_no, "four colors N E S W")
        edges = (str(colors[0]), str(colors[1]), str(colors[2]), str(colors[3]))
        tiles.append(Tile(id=str(i), chamfers=derived_chamfers(edges), edges=edges))
    if len(pieces) != width * height:
        raise InputError(
            f"{len(pieces)} pieces for a {width}x{height} grid (expected {width * height})",
            source=source,
        )
    return TileSet(
        name="stdin" if source == STDIN else Path(source).stem,
        width=width,
        height=height,
        tiles=tuple(tiles),
        rotations=True,
        generic=True,
    )


def _ints(words: list[str], count: int, source: str, line_no: int, what: str) -> list[int]:
    if len(words) != count:
        raise InputError(f"line {line_no}: expected {what}, got {' '.join(words)!r}", source=source)
    if not all(plain_digits(word) for word in words):
        raise InputError(
            f"line {line_no}: expected integers ({what}), got {' '.join(words)!r}", source=source
        )
    # (leading zeros dropped and digits counted first: int() refuses over 4,300 of them)
    numbers = [word.lstrip("0") or "0" for word in words]
    if any(len(number) > 7 or int(number) > 1_000_000 for number in numbers):
        raise InputError(f"line {line_no}: values must lie in 0..1000000", source=source)
    return [int(number) for number in numbers]


def tileset_to_data(tileset: TileSet) -> dict[str, Any]:
    """The JSON form of a tile set (what ``asterion nacht convert`` writes)."""
    data: dict[str, Any] = {
        "format": TILESET_FORMAT,
        "name": tileset.name,
        "grid": {"width": tileset.width, "height": tileset.height},
        "rotations": tileset.rotations,
    }
    if tileset.tolerance != TOLERANCE:
        data["tolerance"] = tileset.tolerance
    if tileset.allow_border_fragments:
        data["allow_border_fragments"] = True
    if tileset.expected_constellations is not None:
        data["expected_constellations"] = tileset.expected_constellations
    if tileset.markers is not None:
        data["markers"] = tileset.markers
    data["constellations"] = [{"abbr": c.abbr, "name": c.name} for c in tileset.constellations]
    data["tiles"] = [_tile_data(tile) for tile in tileset.tiles]
    return data


def _tile_data(tile: Tile) -> dict[str, Any]:
    data: dict[str, Any] = {"id": tile.id}
    if tile.labels:
        data["labels"] = list(tile.labels)
    data["chamfers"] = {c: c in tile.chamfers for c in CORNERS}
    if tile.edges is not None:
        data["edges"] = dict(zip(SIDES, tile.edges, strict=True))
        return data
    data["stars"] = [
        {"x": s.x, "y": s.y, "mag": s.mag, "constellation": s.constellation} for s in tile.stars
    ]
    data["segments"] = [
        {"constellation": s.constellation, "a": list(s.a), "b": list(s.b)} for s in tile.segments
    ]
    data["edges"] = None
    return data
