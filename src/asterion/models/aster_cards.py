"""Aster cards: constellations, the Big and Bang base cards, and the JSON catalog format.

A card (rules/aster.md, "Constellations") has a ``name``, an ``abbr``, a ``pattern`` of
lattice points, ``points`` (the number of stars), a ``deck`` (``small``: 2–4 stars,
``large``: 5 or more, ``base`` for Big and Bang, ``obsolete`` for the variant), the
``actions`` it adds to its owner's sequence, its ``links`` (A7) and an optional ``scoring``
effect (asymmetric variant).

The catalog file is ``{"provenance": "...", "cards": [card, ...]}`` with each card as
``{"abbr": "Cru", "name": "Crux", "deck": "small", "points": 4, "pattern": [[0, 1], ...],
"actions": ["nudge"], "links": {"left": true, "right": true, "up": false, "down": false}}``,
plus ``"scoring": {"kind": "per_set", "points": 2}`` on a card with an effect.

Base cards come in copies, one per player: the same ``abbr`` (``Big``, ``Bang``) on several
entries alike on their standard side (``actions``, ``links``), each with its astronomer side
``"astronomer": {"copy": 2, "actions": ["generate_targeted", "nudge"]}`` for the asymmetric
variant. Looking a card up by ``abbr`` gives the first copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from asterion.errors import InputError
from asterion.models.aster_patterns import Pattern
from asterion.models.files import read_json_file, read_json_text, validate


class ActionKind(StrEnum):
    """The nine action symbols (rules/aster.md, "Actions"), by their code names."""

    GENERATE = "generate"
    GENERATE_TARGETED = "generate_targeted"
    MOVE_LINE = "move_line"
    MOVE_RING = "move_ring"
    NUDGE = "nudge"
    SUPERNOVA = "supernova"
    BLACK_HOLE = "black_hole"
    VICTORY_POINT = "victory_point"
    GRAVITY = "gravity"


BOARD_ACTIONS = frozenset(
    {
        ActionKind.GENERATE,
        ActionKind.GENERATE_TARGETED,
        ActionKind.MOVE_LINE,
        ActionKind.MOVE_RING,
        ActionKind.NUDGE,
        ActionKind.SUPERNOVA,
    }
)
"""The actions that can change which stars stand where."""


def parse_action_kind(name: str) -> ActionKind:
    """:raises InputError: naming the known actions."""
    try:
        return ActionKind(name)
    except ValueError:
        known = ", ".join(kind.value for kind in ActionKind)
        raise InputError(f"unknown action {name!r} (expected one of: {known})") from None


class Deck(StrEnum):
    SMALL = "small"
    LARGE = "large"
    BASE = "base"
    OBSOLETE = "obsolete"


SMALL_DECK_STARS = (2, 4)
"""A small card has 2 to 4 stars; a large one 5 or more (the seed's two decks)."""


@dataclass(frozen=True)
class Links:
    """A7: the connectors printed on a card's edges."""

    left: bool = False
    right: bool = False
    up: bool = False
    down: bool = False

    @property
    def is_vertical(self) -> bool:
        """Whether a card can host an aggregated card (``gravity``): it has an up or down link."""
        return self.up or self.down


class ScoringKind(StrEnum):
    """The end-of-game scoring effects of the asymmetric variant (an assumption: the seed says
    cards carry them and prints none). Each adds ``points`` times a count taken from the final
    state of the card's owner; "claimed cards" are the row and the aside, not Big and Bang and
    not aggregated cards. An effect counts only while its card is claimed (row or aside): an
    aggregated card scores nothing (A5)."""

    IN_ROW = "in_row"
    """1 if this card is in its owner's row rather than aside."""
    PER_SMALL_CARD = "per_small_card"
    """The owner's claimed cards of the small deck (this one included)."""
    PER_SET = "per_set"
    """The owner's sets of one small and one large claimed card: min(small, large)."""
    PER_AGGREGATED_CARD = "per_aggregated_card"
    """The cards aggregated under the owner's row (``gravity``)."""
    PER_INNER_STAR = "per_inner_star"
    """The owner's stars on the innermost ring (ring R, not C) at the end."""
    PER_GENERATION_STAR = "per_generation_star"
    """The owner's stars on generation points (A2) at the end."""


@dataclass(frozen=True)
class ScoringEffect:
    """An end-of-game scoring effect (asymmetric variant): ``points`` per unit of ``kind``."""

    kind: ScoringKind
    points: int

    def __str__(self) -> str:
        return f"{self.points:+d} {self.kind.value}"


BASE_COPIES = 4
"""Big and Bang come one per player, and Aster seats at most 4 players."""


@dataclass(frozen=True)
class AstronomerSide:
    """The other side of a Big or Bang copy (asymmetric variant): its actions. Its connectors
    are the standard side's (an assumption: the row must still start Big, Bang)."""

    copy: int
    actions: tuple[ActionKind, ...]


@dataclass(frozen=True)
class Card:
    abbr: str
    name: str
    deck: Deck
    points: int
    pattern: Pattern
    actions: tuple[ActionKind, ...]
    links: Links
    scoring: ScoringEffect | None = None
    astronomer: AstronomerSide | None = None

    @property
    def stars(self) -> int:
        return len(self.pattern)


@dataclass(frozen=True)
class Catalog:
    """An ordered, immutable set of cards with unique abbreviations."""

    cards: tuple[Card, ...]
    provenance: str = ""

    @cached_property
    def by_abbr(self) -> dict[str, Card]:
        """Each abbreviation's first card: for Big and Bang, copy 1 (all copies share their
        standard side)."""
        first: dict[str, Card] = {}
        for card in self.cards:
            first.setdefault(card.abbr, card)
        return first

    def __getitem__(self, abbr: str) -> Card:
        try:
            return self.by_abbr[abbr]
        except KeyError:
            raise InputError(f"unknown card {abbr!r} (not in the catalog)") from None

    def __contains__(self, abbr: object) -> bool:
        return abbr in self.by_abbr

    def deck(self, deck: Deck) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.deck is deck)

    def astronomer_actions(self, abbr: str, copy: int) -> tuple[ActionKind, ...]:
        """The actions on the astronomer side of copy ``copy`` of the base card ``abbr``.

        :raises InputError: if the catalog has no such side.
        """
        for card in self.cards:
            if card.abbr == abbr and card.astronomer and card.astronomer.copy == copy:
                return card.astronomer.actions
        raise InputError(
            f"card {abbr!r} has no astronomer side for copy {copy} "
            "(the asymmetric variant needs one per player)"
        )


# -- the file format ----------------------------------------------------------------------


class _LinksSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    left: bool = False
    right: bool = False
    up: bool = False
    down: bool = False


class _ScoringSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: ScoringKind
    points: int = Field(ge=-100, le=100)


class _AstronomerSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    copy_: int = Field(alias="copy", ge=1, le=BASE_COPIES)
    actions: list[ActionKind] = Field(max_length=16)


class _CardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    abbr: str = Field(min_length=1, max_length=16)
    name: str = Field(min_length=1, max_length=80)
    deck: Deck
    points: int = Field(ge=0, le=100)
    pattern: list[tuple[int, int]] = Field(max_length=81)
    actions: list[ActionKind] = Field(max_length=16)
    links: _LinksSpec = _LinksSpec()
    scoring: _ScoringSpec | None = None
    astronomer: _AstronomerSpec | None = None

    @model_validator(mode="after")
    def _deck_matches_stars(self) -> _CardSpec:
        stars = len(self.pattern)
        if len(set(self.pattern)) != stars:
            raise ValueError(f"card {self.abbr}: the pattern repeats a point")
        if self.deck is Deck.BASE:
            if stars or self.points:
                raise ValueError(f"card {self.abbr}: base cards have no stars and no points")
            if self.scoring is not None:
                raise ValueError(f"card {self.abbr}: base cards have no scoring effect")
            return self
        if self.astronomer is not None:
            raise ValueError(f"card {self.abbr}: only base cards have an astronomer side")
        low, high = SMALL_DECK_STARS
        if self.deck is Deck.SMALL and not low <= stars <= high:
            raise ValueError(f"card {self.abbr}: a small card has {low}-{high} stars, not {stars}")
        if self.deck in (Deck.LARGE, Deck.OBSOLETE) and stars <= high:
            raise ValueError(
                f"card {self.abbr}: {self.deck.value} cards have {high + 1} or more stars, "
                f"not {stars}"
            )
        if self.points != stars:
            raise ValueError(
                f"card {self.abbr}: points must equal its number of stars "
                f"({stars}), not {self.points}"
            )
        return self


class _CatalogSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    provenance: str = ""
    cards: list[_CardSpec] = Field(min_length=1, max_length=500)

    @model_validator(mode="after")
    def _unique_abbreviations_but_base_copies(self) -> _CatalogSpec:
        first: dict[str, _CardSpec] = {}
        copies: set[tuple[str, int]] = set()
        for card in self.cards:
            earlier = first.setdefault(card.abbr, card)
            if earlier is not card and not _are_copies(earlier, card):
                raise ValueError(
                    f"abbreviation {card.abbr!r} is used by two cards "
                    "(only copies of a base card may share one)"
                )
            if card.astronomer is not None:
                key = (card.abbr, card.astronomer.copy_)
                if key in copies:
                    raise ValueError(f"card {card.abbr}: two astronomer sides for copy {key[1]}")
                copies.add(key)
        return self


def _are_copies(a: _CardSpec, b: _CardSpec) -> bool:
    """Two entries are copies of one base card: both base, both with an astronomer side, and
    alike on the standard side."""
    standard = {"name", "deck", "points", "pattern", "actions", "links"}
    return (
        a.deck is Deck.BASE
        and a.astronomer is not None
        and b.astronomer is not None
        and a.model_dump(include=standard) == b.model_dump(include=standard)
    )


def _card_from_spec(spec: _CardSpec) -> Card:
    scoring, astronomer = spec.scoring, spec.astronomer
    return Card(
        abbr=spec.abbr,
        name=spec.name,
        deck=spec.deck,
        points=spec.points,
        pattern=tuple(spec.pattern),
        actions=tuple(spec.actions),
        links=Links(**spec.links.model_dump()),
        scoring=None if scoring is None else ScoringEffect(scoring.kind, scoring.points),
        astronomer=(
            None
            if astronomer is None
            else AstronomerSide(astronomer.copy_, tuple(astronomer.actions))
        ),
    )


def catalog_from_data(data: object, source: str) -> Catalog:
    spec = validate(_CatalogSpec, data, source)
    return Catalog(tuple(_card_from_spec(card) for card in spec.cards), spec.provenance)


def load_catalog(path: Path | str | None = None) -> Catalog:
    """The catalog in ``path``, or the shipped one when ``path`` is ``None``."""
    if path is None:
        return default_catalog()
    return catalog_from_data(read_json_file(path), str(path))


@cache
def default_catalog() -> Catalog:
    """The shipped catalog (``asterion/data/aster_cards.json``): the 88 IAU constellations and
    the 5 obsolete ones from real star figures, and the Big and Bang cards."""
    return _shipped_catalog("aster_cards.json")


@cache
def provisional_catalog() -> Catalog:
    """The earlier, hand-drawn 14-card catalog (``asterion/data/aster_cards_provisional.json``),
    kept because tests and benchmarks were written against its patterns."""
    return _shipped_catalog("aster_cards_provisional.json")


def _shipped_catalog(name: str) -> Catalog:
    text = resources.files("asterion.data").joinpath(name).read_text("utf-8")
    return catalog_from_data(read_json_text(text, name), name)


def catalog_to_data(catalog: Catalog) -> dict[str, object]:
    """The JSON document for a catalog (the ``catalog --json`` shape)."""
    return {"cards": [card_to_data(card) for card in catalog.cards]}


def card_to_data(card: Card) -> dict[str, object]:
    """One card in the file's shape; ``scoring`` and ``astronomer`` only when the card has
    them."""
    data: dict[str, object] = {
        "abbr": card.abbr,
        "name": card.name,
        "deck": card.deck.value,
        "points": card.points,
        "pattern": [list(p) for p in card.pattern],
        "actions": [a.value for a in card.actions],
        "links": {
            "left": card.links.left,
            "right": card.links.right,
            "up": card.links.up,
            "down": card.links.down,
        },
    }
    if card.scoring is not None:
        data["scoring"] = {"kind": card.scoring.kind.value, "points": card.scoring.points}
    if card.astronomer is not None:
        data["astronomer"] = {
            "copy": card.astronomer.copy,
            "actions": [a.value for a in card.astronomer.actions],
        }
    return data
