"""Stellar cards, the telescope layout, and the deck file (rules/stellar.md, S1, S2).

A celestial card has a type (planet, moon, asteroid, interstellar cloud, black hole) or is a
satellite (wild, no type), a number 1–5 or "0/6" (stored as 0), 0–3 stars, and may be one of
the 5 starters. The deck file is::

    {"format": "asterion.stellar-deck/1", "name": "...",
     "cards": [{"id": "P1a", "type": "planet", "number": 1, "stars": 2},
               {"id": "S0", "type": "satellite", "number": "0/6", "stars": 0},
               {"id": "M3s", "type": "moon", "number": 3, "stars": 1, "starter": true}, ...]}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, field_validator

from asterion.errors import InputError
from asterion.models.files import read_json_file, read_json_text, validate

SlotId = int
"""A telescope slot, 1–12 (the small number at the lower left of a telescope card)."""
CardId = str

ZERO_SIX = 0
"""The number of a "0/6" card: 6 in the telescope, 0 or 6 (free choice) in the notebook."""
FACE_DOWN_NUMBER = 3
"""A card played face down counts as number 3, with no type and no stars."""


class CelestialType(StrEnum):
    PLANET = "planet"
    MOON = "moon"
    ASTEROID = "asteroid"
    CLOUD = "interstellar_cloud"
    BLACK_HOLE = "black_hole"


TYPES: tuple[CelestialType, ...] = tuple(CelestialType)


@dataclass(frozen=True)
class StellarCard:
    """A celestial card; ``kind`` is ``None`` for a satellite."""

    id: CardId
    kind: CelestialType | None
    number: int
    stars: int
    starter: bool = False

    @property
    def is_satellite(self) -> bool:
        return self.kind is None

    @property
    def telescope_number(self) -> int:
        """0/6 counts as 6 in the telescope."""
        return 6 if self.number == ZERO_SIX else self.number

    @property
    def notebook_numbers(self) -> tuple[int, ...]:
        """The numbers the card may stand for in the notebook: 0/6 is 0 or 6."""
        return (0, 6) if self.number == ZERO_SIX else (self.number,)

    @property
    def label(self) -> str:
        number = "0/6" if self.number == ZERO_SIX else str(self.number)
        kind = "satellite" if self.kind is None else self.kind.value
        return f"{kind} {number} ({self.stars}*)"


# -- the telescope layout (S1) -------------------------------------------------------------------

DEFAULT_LAYOUT: dict[SlotId, tuple[int, int]] = {
    1: (0, 2),
    2: (1, 1),
    3: (1, 2),
    4: (2, 0),
    5: (2, 1),
    6: (2, 2),
    7: (3, 1),
    8: (3, 2),
    9: (4, 0),
    10: (4, 1),
    11: (4, 2),
    12: (4, 3),
}
"""S1: slot → (row, column); the seed prints no picture, so this shape is an assumption."""

SectionName = Literal["top", "middle", "bottom"]
DEFAULT_SECTIONS: dict[SectionName, tuple[SlotId, ...]] = {
    "top": (1, 2, 3, 4, 5),
    "middle": (6, 7, 8),
    "bottom": (9, 10, 11, 12),
}


@dataclass(frozen=True)
class Layout:
    """Slot positions; adjacency is sharing a side."""

    positions: tuple[tuple[SlotId, tuple[int, int]], ...] = tuple(DEFAULT_LAYOUT.items())
    sections: tuple[tuple[SectionName, tuple[SlotId, ...]], ...] = tuple(DEFAULT_SECTIONS.items())

    @cached_property
    def slots(self) -> tuple[SlotId, ...]:
        return tuple(sorted(slot for slot, _ in self.positions))

    @cached_property
    def graph(self) -> nx.Graph:
        """Slots as nodes (attributes row, column, section), side-adjacent slots joined."""
        where = dict(self.positions)
        section_of = {slot: name for name, slots in self.sections for slot in slots}
        graph = nx.Graph(name="stellar-telescope")
        for slot, (row, column) in sorted(where.items()):
            graph.add_node(slot, row=row, column=column, section=section_of.get(slot))
        at = {position: slot for slot, position in where.items()}
        for slot, (row, column) in where.items():
            for neighbour in ((row + 1, column), (row, column + 1)):
                if neighbour in at:
                    graph.add_edge(slot, at[neighbour])
        return graph

    def neighbors(self, slot: SlotId) -> tuple[SlotId, ...]:
        return tuple(sorted(self.graph.neighbors(slot)))


# -- the deck ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    cards: tuple[StellarCard, ...]
    name: str = ""
    source: str | None = field(default=None, compare=False)
    """The file the deck was read from (for errors about the deck as a whole)."""

    @cached_property
    def by_id(self) -> dict[CardId, StellarCard]:
        return {card.id: card for card in self.cards}

    def __getitem__(self, card_id: CardId) -> StellarCard:
        try:
            return self.by_id[card_id]
        except KeyError:
            raise InputError(self.unknown_card(card_id)) from None

    def unknown_card(self, card_id: str) -> str:
        """Why ``card_id`` is refused, naming the deck: with ``--deck``, the mistake may
        be the deck file's (a card renamed) rather than the position's."""
        where = "the shipped deck" if self.source == SHIPPED_DECK else f"the deck {self.source}"
        return f"unknown card {card_id!r} (not in {where})"

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.by_id

    @property
    def starters(self) -> tuple[StellarCard, ...]:
        return tuple(card for card in self.cards if card.starter)


DECK_FORMAT = "asterion.stellar-deck/1"
MAX_DECK = 200
SHIPPED_DECK = "stellar_deck.json"
"""The shipped deck's file in ``asterion.data`` (S2; ``tools/build_stellar_deck.py``)."""


class _CardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=16)
    type: Literal["planet", "moon", "asteroid", "interstellar_cloud", "black_hole", "satellite"]
    number: int | Literal["0/6"]
    stars: int = Field(ge=0, le=3)
    starter: bool = False

    @field_validator("number")
    @classmethod
    def _number_range(cls, value: int | str) -> int | str:
        if isinstance(value, int) and not 1 <= value <= 5:
            raise ValueError('a number is 1 to 5 or "0/6"')
        return value


class _DeckSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.stellar-deck/1"] = "asterion.stellar-deck/1"
    name: str = ""
    cards: list[_CardSpec] = Field(min_length=1, max_length=MAX_DECK)


def deck_from_data(data: object, source: str) -> Deck:
    spec = validate(_DeckSpec, data, source)
    seen: set[str] = set()
    for i, card in enumerate(spec.cards):
        if card.id in seen:
            raise InputError(
                f"card id {card.id!r} is used twice", source=source, field=f"cards.{i}.id"
            )
        seen.add(card.id)
    cards = tuple(
        StellarCard(
            id=card.id,
            kind=None if card.type == "satellite" else CelestialType(card.type),
            number=ZERO_SIX if card.number == "0/6" else int(card.number),
            stars=card.stars,
            starter=card.starter,
        )
        for card in spec.cards
    )
    return Deck(cards, spec.name, source)


def deck_to_data(deck: Deck) -> dict[str, object]:
    return {
        "format": DECK_FORMAT,
        "name": deck.name,
        "cards": [
            {
                "id": card.id,
                "type": "satellite" if card.kind is None else card.kind.value,
                "number": "0/6" if card.number == ZERO_SIX else card.number,
                "stars": card.stars,
                **({"starter": True} if card.starter else {}),
            }
            for card in deck.cards
        ],
    }


def load_deck(path: Path | str | None = None) -> Deck:
    """The deck in ``path``, or the shipped default (S2) when ``path`` is ``None``."""
    if path is None:
        return default_deck()
    return deck_from_data(read_json_file(path), str(path))


@cache
def default_deck() -> Deck:
    """S2: the shipped deck, a documented guess (``tools/build_stellar_deck.py``)."""
    text = resources.files("asterion.data").joinpath(SHIPPED_DECK).read_text("utf-8")
    return deck_from_data(read_json_text(text, SHIPPED_DECK), SHIPPED_DECK)
