"""The real sky: the chosen bright stars of the 88 IAU constellations and 5 obsolete ones.

The shipped file ``asterion/data/sky.json`` (format ``asterion.sky/1``) is built by
``tools/build_sky.py`` from the Hipparcos 2 catalog and PyEphem's IAU boundaries; the rule that
chose the stars and the provenance are inside the file and in docs/data.md. Reading it needs
neither package.

Plane pictures use the gnomonic projection around a centre, the way a star map is drawn as seen
from Earth: ``x`` grows to the **west** (to the right when facing the sky, east on the left) and
``y`` to the north, in radians of the tangent plane.

>>> orion = default_sky()["Ori"]
>>> orion.name, len(orion.stars), orion.stars[0].label
('Orion', 8, 'Rigel')
>>> len(default_sky().iau)
88
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.files import read_json_file, read_json_text, validate

SKY_FILE = "sky.json"
PlanePoint = tuple[float, float]


@dataclass(frozen=True)
class SkyStar:
    hip: int
    """Hipparcos catalog number."""
    ra: float
    """Right ascension, degrees (J2000)."""
    dec: float
    """Declination, degrees (J2000)."""
    mag: float
    """Hipparcos magnitude Hp (smaller is brighter)."""
    iau: str
    """The IAU constellation the star lies in (differs from its figure's only for obsolete
    ones)."""
    names: tuple[str, ...] = ()
    """Proper names where the source has them (spelling variants all kept)."""

    @property
    def label(self) -> str:
        """The first proper name, else ``HIP n``."""
        return self.names[0] if self.names else f"HIP {self.hip}"


@dataclass(frozen=True)
class SkyConstellation:
    abbr: str
    name: str
    obsolete: bool
    stars: tuple[SkyStar, ...]
    """Brightest first."""
    rule: str = ""
    """For an obsolete constellation: how its stars were chosen."""
    more: tuple[SkyStar, ...] = ()
    """The picture stars beyond :attr:`stars` (fainter ones, brightest first; the file's
    ``picture``): a drawn sky shows :attr:`picture_stars`, a card only :attr:`stars`."""

    @property
    def picture_stars(self) -> tuple[SkyStar, ...]:
        """Every star a drawn picture of the constellation shows, brightest first."""
        return self.stars + self.more

    @cached_property
    def centre(self) -> tuple[float, float]:
        """(RA, Dec) in degrees of the normalized mean of the stars' unit vectors."""
        return mean_direction([(s.ra, s.dec) for s in self.stars])

    def plane(self, centre: tuple[float, float] | None = None) -> tuple[PlanePoint, ...]:
        """The stars projected gnomonically around ``centre`` (default: :attr:`centre`)."""
        ra0, dec0 = centre or self.centre
        return tuple(gnomonic(s.ra, s.dec, ra0, dec0) for s in self.stars)

    def figure_lines(self) -> tuple[tuple[int, int], ...]:
        """The stick figure's lines: the minimum spanning tree of the projected stars."""
        return spanning_lines(self.plane())


@dataclass(frozen=True)
class Sky:
    constellations: tuple[SkyConstellation, ...]
    rule: str
    provenance: dict[str, dict[str, str] | str]

    @cached_property
    def by_abbr(self) -> dict[str, SkyConstellation]:
        return {c.abbr: c for c in self.constellations}

    def __getitem__(self, abbr: str) -> SkyConstellation:
        """The constellation of an abbreviation, in any case ("ori", "ORI": the IAU's three
        letters are unique whatever the case)."""
        try:
            return self.by_abbr[abbr]
        except KeyError:
            folded = [c for c in self.constellations if c.abbr.casefold() == abbr.casefold()]
            if len(folded) == 1:
                return folded[0]
            raise InputError(
                f"unknown constellation {abbr!r} (expected an IAU abbreviation such as 'Ori', "
                "or one of the obsolete: "
                + ", ".join(c.abbr for c in self.constellations if c.obsolete)
                + ")"
            ) from None

    @property
    def iau(self) -> tuple[SkyConstellation, ...]:
        return tuple(c for c in self.constellations if not c.obsolete)

    @property
    def obsolete(self) -> tuple[SkyConstellation, ...]:
        return tuple(c for c in self.constellations if c.obsolete)


# -- geometry -------------------------------------------------------------------------------


def mean_direction(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The (RA, Dec) in degrees of the normalized sum of the unit vectors of ``points``.

    >>> mean_direction([(10.0, 0.0), (20.0, 0.0)])
    (15.0, 0.0)
    """
    x = y = z = 0.0
    for ra, dec in points:
        a, d = math.radians(ra), math.radians(dec)
        x += math.cos(d) * math.cos(a)
        y += math.cos(d) * math.sin(a)
        z += math.sin(d)
    ra = math.degrees(math.atan2(y, x)) % 360.0
    dec = math.degrees(math.atan2(z, math.hypot(x, y)))
    return (round(ra, 9), round(dec, 9))


def gnomonic(ra: float, dec: float, ra0: float, dec0: float) -> PlanePoint:
    """The gnomonic (tangent-plane) projection of (ra, dec) around (ra0, dec0), degrees in.

    ``x`` grows to the west (as a star map is drawn, east on the left), ``y`` to the north.

    :raises InputError: if the point is 90 degrees or more from the centre.

    >>> gnomonic(10.0, 0.0, 10.0, 0.0)
    (0.0, 0.0)
    >>> x, y = gnomonic(9.0, 0.0, 10.0, 0.0)
    >>> round(x, 6), round(y, 6)
    (0.017455, 0.0)
    """
    a, d = math.radians(ra), math.radians(dec)
    a0, d0 = math.radians(ra0), math.radians(dec0)
    cos_c = math.sin(d0) * math.sin(d) + math.cos(d0) * math.cos(d) * math.cos(a - a0)
    if cos_c <= 1e-9:
        raise InputError(f"({ra}, {dec}) is too far from the projection centre ({ra0}, {dec0})")
    east = math.cos(d) * math.sin(a - a0) / cos_c
    north = (math.cos(d0) * math.sin(d) - math.sin(d0) * math.cos(d) * math.cos(a - a0)) / cos_c
    return (-east + 0.0, north + 0.0)


def spanning_lines(points: Sequence[PlanePoint]) -> tuple[tuple[int, int], ...]:
    """The edges of the Euclidean minimum spanning tree of ``points``, as sorted index pairs.

    The data gives no stick figures, so this is the figure's documented stand-in: the shortest
    set of lines joining every star (docs/data.md).

    >>> spanning_lines([(0.0, 0.0), (1.0, 0.0), (5.0, 0.0)])
    ((0, 1), (1, 2))
    """
    graph = nx.Graph()
    graph.add_nodes_from(range(len(points)))
    for i, (xi, yi) in enumerate(points):
        for j in range(i + 1, len(points)):
            xj, yj = points[j]
            graph.add_edge(i, j, weight=math.hypot(xi - xj, yi - yj))
    tree = nx.minimum_spanning_tree(graph, algorithm="kruskal")
    return tuple(sorted((min(a, b), max(a, b)) for a, b in tree.edges()))


# -- the file -------------------------------------------------------------------------------


class _StarSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hip: int = Field(ge=1, le=200_000)
    ra: float = Field(ge=0, lt=360)
    dec: float = Field(ge=-90, le=90)
    mag: float = Field(ge=-30, le=30)
    iau: str = Field(min_length=1, max_length=8)
    names: list[str] = Field(default_factory=list, max_length=20)


class _ConstellationSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    abbr: str = Field(min_length=1, max_length=16)
    name: str = Field(min_length=1, max_length=80)
    obsolete: bool = False
    rule: str = Field(default="", max_length=1000)
    stars: list[_StarSpec] = Field(min_length=1, max_length=100)
    picture: list[_StarSpec] = Field(default_factory=list, max_length=200)


class _SkySpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.sky/1"]
    provenance: dict[str, dict[str, str] | str] = Field(default_factory=dict)
    rule: str = ""
    picture_rule: str = ""
    epoch: str = "J2000"
    magnitude: str = ""
    constellations: list[_ConstellationSpec] = Field(min_length=1, max_length=200)


def _star(spec: _StarSpec) -> SkyStar:
    return SkyStar(spec.hip, spec.ra, spec.dec, spec.mag, spec.iau, tuple(spec.names))


def sky_from_data(data: object, source: str) -> Sky:
    spec = validate(_SkySpec, data, source)
    seen: set[str] = set()
    constellations = []
    for i, c in enumerate(spec.constellations):
        if c.abbr in seen:
            raise InputError(
                f"duplicate constellation {c.abbr!r}", source=source, field=f"constellations.{i}"
            )
        seen.add(c.abbr)
        stars = tuple(_star(s) for s in c.stars)
        more = tuple(_star(s) for s in c.picture)
        constellations.append(SkyConstellation(c.abbr, c.name, c.obsolete, stars, c.rule, more))
    return Sky(tuple(constellations), spec.rule, spec.provenance)


def load_sky(path: Path | str | None = None) -> Sky:
    """The sky file at ``path``, or the shipped one."""
    if path is None:
        return default_sky()
    return sky_from_data(read_json_file(path), str(path))


@cache
def default_sky() -> Sky:
    """The shipped sky (``asterion/data/sky.json``)."""
    text = resources.files("asterion.data").joinpath(SKY_FILE).read_text("utf-8")
    return sky_from_data(read_json_text(text, SKY_FILE), SKY_FILE)
