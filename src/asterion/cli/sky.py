"""``asterion sky …``: the real constellations the games' data is built from."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

import typer
from rich.table import Table

from asterion.cli._common import (
    JsonOpt,
    SvgOpt,
    console,
    print_json,
    reports_input_errors,
    save_svg,
)
from asterion.models.sky import SkyConstellation, default_sky
from asterion.render.sky_svg import constellation_svg

app = typer.Typer(
    help="The real sky: the chosen bright stars of the 88 IAU constellations and 5 obsolete "
    "ones (Hipparcos positions; docs/data.md).",
    no_args_is_help=True,
)


def constellation_to_data(constellation: SkyConstellation) -> dict[str, Any]:
    ra, dec = constellation.centre
    data: dict[str, Any] = {
        "abbr": constellation.abbr,
        "name": constellation.name,
        "obsolete": constellation.obsolete,
        "centre": {"ra": ra, "dec": dec},
        "stars": [
            {
                "hip": s.hip,
                "ra": s.ra,
                "dec": s.dec,
                "mag": s.mag,
                "iau": s.iau,
                "names": list(s.names),
            }
            for s in constellation.stars
        ],
        "lines": [list(line) for line in constellation.figure_lines()],
    }
    if constellation.rule:
        data["rule"] = constellation.rule
    return data


@app.command()
@reports_input_errors
def show(
    abbr: Annotated[
        str, typer.Argument(metavar="ABBR", help="An IAU abbreviation (Ori) or an obsolete one.")
    ],
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
    picture: Annotated[
        bool,
        typer.Option(
            "--picture",
            help="The picture stars instead: every star of Hp <= 4.5, as the Nacht der Sterne "
            "sky draws the figure (the chosen ones are the cards').",
        ),
    ] = False,
) -> None:
    """A constellation's chosen stars: HIP number, position, magnitude, names; its figure."""
    constellation = default_sky()[abbr]
    if picture:
        constellation = replace(constellation, stars=constellation.picture_stars, more=())
    save_svg(svg, lambda: constellation_svg(constellation), quiet=json_out)
    if json_out:
        print_json(constellation_to_data(constellation))
    else:
        kind = "obsolete constellation" if constellation.obsolete else "IAU constellation"
        table = Table(title=f"{constellation.abbr} · {constellation.name} ({kind})")
        for column in ("HIP", "RA (deg)", "Dec (deg)", "Hp mag", "name", "IAU"):
            table.add_column(column)
        for star in constellation.stars:
            table.add_row(
                str(star.hip),
                f"{star.ra:.4f}",
                f"{star.dec:+.4f}",
                f"{star.mag:.2f}",
                " / ".join(star.names) or "-",
                star.iau,
            )
        console.print(table)
        lines = " ".join(f"{a}-{b}" for a, b in constellation.figure_lines())
        console.print(f"figure lines (minimum spanning tree, star rows from 0): {lines}")
        if constellation.rule:
            console.print(f"stars chosen: {constellation.rule}")


@app.command("list")
@reports_input_errors
def list_(json_out: JsonOpt = False) -> None:
    """Every constellation in the data, with its number of chosen stars."""
    sky = default_sky()
    if json_out:
        print_json(
            {
                "constellations": [
                    {"abbr": c.abbr, "name": c.name, "obsolete": c.obsolete, "stars": len(c.stars)}
                    for c in sky.constellations
                ]
            }
        )
        return
    table = Table(title=f"{len(sky.iau)} IAU and {len(sky.obsolete)} obsolete constellations")
    for column in ("abbr", "name", "stars", "brightest"):
        table.add_column(column)
    for c in sky.constellations:
        name = c.name + (" (obsolete)" if c.obsolete else "")
        table.add_row(c.abbr, name, str(len(c.stars)), c.stars[0].label)
    console.print(table)
    console.print(f"stars chosen: {sky.rule}")
