"""The booklet's print fixes: text halos drawn so that WeasyPrint keeps the letters on top."""

from __future__ import annotations

import base64

from asterion.puzzles.booklet import print_safe

HALO = (
    '<svg xmlns="http://www.w3.org/2000/svg"><style>\n'
    ".tile-id { fill: #7f8db8; paint-order: stroke; stroke: #111b3f; stroke-width: 3; }\n"
    ".title { fill: white; }\n</style>"
    '<text class="tile-id" x="1" y="2">P07</text><text class="title" x="0" y="0">T</text></svg>'
)


def _uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def test_halo_text_is_drawn_twice_letters_last() -> None:
    page = f'<img src="{_uri(HALO)}">'
    fixed = print_safe(page)
    svg = base64.b64decode(fixed.split("base64,", 1)[1].split('"', 1)[0]).decode()
    assert svg.count(">P07</text>") == 2 and svg.count(">T</text>") == 1
    assert svg.index('<text class="tile-id" x="1"') < svg.index('class="tile-id fill-only" x="1"')
    assert ".tile-id.fill-only { stroke: none; }" in svg


def test_pictures_without_halos_are_left_alone() -> None:
    plain = '<svg xmlns="http://www.w3.org/2000/svg"><text class="a">x</text></svg>'
    page = f'<p>hi</p><img src="{_uri(plain)}">'
    assert print_safe(page) == page
