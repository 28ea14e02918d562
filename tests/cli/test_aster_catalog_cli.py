"""``asterion aster catalog`` on the real catalog: the exact JSON shape and the card sheet."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import run

KEYS = ["abbr", "name", "deck", "points", "pattern", "actions", "links"]
EXTRA = {"base": ["astronomer"], "small": ["scoring"], "large": ["scoring"], "obsolete": []}
"""The only keys after the contract's: a Big or Bang copy's astronomer side, an effect."""


def test_catalog_json_has_exactly_the_documented_shape() -> None:
    code, out, _ = run("aster", "catalog", "--json")
    document = json.loads(out)
    assert code == 0 and list(document) == ["cards"]
    for card in document["cards"]:
        assert card["deck"] in ("small", "large", "obsolete", "base")
        assert list(card)[: len(KEYS)] == KEYS
        assert list(card)[len(KEYS) :] in ([], EXTRA[card["deck"]])
        assert all(len(xy) == 2 for xy in card["pattern"])
        assert set(card["links"]) == {"left", "right", "up", "down"}
    base = [c["name"] for c in document["cards"] if c["deck"] == "base"]
    assert base == ["Big"] * 4 + ["Bang"] * 4  # one copy per player
    orion = next(c for c in document["cards"] if c["abbr"] == "Ori")
    assert orion["name"] == "Orion" and orion["points"] == 8 and orion["deck"] == "large"


def test_catalog_svg_draws_the_card_sheet(tmp_path: Path) -> None:
    picture = tmp_path / "cards.svg"
    code, out, _ = run("aster", "catalog", "--svg", str(picture))
    assert code == 0 and "picture:" in out
    text = picture.read_text()
    assert text.count('class="pattern"') == sum(
        len(c["pattern"]) for c in json.loads(run("aster", "catalog", "--json")[1])["cards"]
    )


def test_catalog_json_with_svg_prints_only_json(tmp_path: Path) -> None:
    code, out, _ = run("aster", "catalog", "--json", "--svg", str(tmp_path / "c.svg"))
    assert code == 0 and json.loads(out)["cards"]
