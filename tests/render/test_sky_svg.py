"""Pictures of the real sky: one constellation, and the card sheet."""

from __future__ import annotations

import pytest
from svgxml import parse, with_class

from asterion.errors import InputError
from asterion.models.aster_board import Board
from asterion.models.aster_cards import provisional_catalog
from asterion.models.sky import default_sky
from asterion.render.sky_svg import card_sheet_svg, constellation_svg


def test_constellation_picture_is_byte_stable_and_labels_every_star() -> None:
    orion = default_sky()["Ori"]
    svg = constellation_svg(orion)
    assert svg == constellation_svg(orion)
    root = parse(svg)
    labels = [e.text or "" for e in with_class(root, "text", "label")]
    assert len(labels) == 8 and any(label.startswith("Rigel") for label in labels)


def test_east_is_drawn_on_the_left() -> None:
    # Betelgeuse (east of Rigel) is drawn left of Rigel.
    root = parse(constellation_svg(default_sky()["Ori"]))
    stars = with_class(root, "circle", "star")
    rigel, betelgeuse = float(stars[0].get("cx", "0")), float(stars[1].get("cx", "0"))
    assert betelgeuse < rigel


def test_card_sheet_draws_a_board_and_a_figure_per_card() -> None:
    catalog = provisional_catalog()
    root = parse(card_sheet_svg(catalog.cards, default_sky(), Board()))
    cards = [c for c in catalog.cards if c.pattern]
    assert len(with_class(root, "circle", "pattern")) == sum(len(c.pattern) for c in cards)
    # every provisional card names a real constellation: one figure panel each
    figures = sum(len(default_sky()[c.abbr].stars) for c in cards)
    assert len(with_class(root, "circle", "star")) == figures


def test_bad_sizes_are_input_errors() -> None:
    with pytest.raises(InputError):
        constellation_svg(default_sky()["Ori"], size=0)
    with pytest.raises(InputError):
        card_sheet_svg(provisional_catalog().cards, default_sky(), Board(), columns=0)
    with pytest.raises(InputError, match="no card with a pattern"):
        card_sheet_svg(provisional_catalog().cards[:2], default_sky(), Board())
