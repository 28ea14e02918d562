"""The Stellar SOLO puzzle file: a known deck order, one player, fixed section targets.

rules/stellar.md, question 3: with the deck order known (perfect information), what is the
maximum final score and a plan that reaches it? The file is::

    {"format": "asterion.stellar-solo/1",
     "deck_order": ["M4a", "S2", "P1b", ...],
     "telescope_start": "P3s", "notebook_start": "M3s",
     "hand": ["C2a", "B5b"], "display": ["A1a", "P4b", "M0a", "S3", "C5a"],
     "targets": {"top": 16, "middle": 10, "bottom": 13},
     "turns": 11}

``deck_order`` is the deck, top card first: the cards not otherwise placed (deck cards the
puzzle leaves out are out of the game). Every turn draws exactly two deck cards (the refill of
two display gaps, or the forced second card and one refill), so the order must hold at least
``2 × turns`` cards; the puzzle never runs the deck dry. ``telescope_start`` goes to telescope
slot 1 and ``notebook_start`` to the notebook, as the starters do in a game (any cards may be
used). A section is won by beating its target (S3: a tie wins nothing unless the rules say
so). ``turns`` defaults to 11, the whole game (the telescope's 12 slots are then full); fewer
turns make smaller puzzles. The cards are those of a deck file (the shipped one, S2, by
default).

>>> puzzle = deal_solo_puzzle(seed=3, turns=4)
>>> state = puzzle.start_state()
>>> (len(state.area.hand), len(state.display), state.rules.turns)
(2, 5, 4)
>>> solo_puzzle_from_data(solo_puzzle_to_data(puzzle), "copy") == puzzle
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.files import read_json_file, read_json_text, validate
from asterion.models.stellar import DISPLAY_SIZE, HAND_SIZE, StellarRules, StellarState
from asterion.models.stellar_cards import CardId, Deck, SectionName, default_deck

SOLO_FORMAT = "asterion.stellar-solo/1"
MAX_TURNS = 11
"""A game is 11 turns: the starter and 11 cards fill the telescope's 12 slots."""
DRAWS_PER_TURN = 2
"""Deck cards every turn consumes: two display gaps refilled, or the forced second card and one
gap."""
MAX_CARDS = 200
MAX_TARGET = 100
SECTIONS: tuple[SectionName, ...] = ("top", "middle", "bottom")

TARGET_SPREAD = 2
"""Generated targets lie within this many points of the typical section sum."""


class _TargetsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    top: int = Field(ge=0, le=MAX_TARGET)
    middle: int = Field(ge=0, le=MAX_TARGET)
    bottom: int = Field(ge=0, le=MAX_TARGET)


class SoloSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.stellar-solo/1"]
    deck_order: list[str] = Field(max_length=MAX_CARDS)
    telescope_start: str
    notebook_start: str
    hand: list[str] = Field(min_length=HAND_SIZE, max_length=HAND_SIZE)
    display: list[str] = Field(min_length=DISPLAY_SIZE, max_length=DISPLAY_SIZE)
    targets: _TargetsSpec
    turns: int = Field(MAX_TURNS, ge=1, le=MAX_TURNS)


@dataclass(frozen=True)
class SoloPuzzle:
    """A validated solo puzzle; :meth:`start_state` is the position before turn 1."""

    deck_order: tuple[CardId, ...]
    telescope_start: CardId
    notebook_start: CardId
    hand: tuple[CardId, ...]
    display: tuple[CardId, ...]
    targets: tuple[tuple[SectionName, int], ...]
    turns: int = MAX_TURNS
    deck: Deck = field(default_factory=default_deck, compare=False, repr=False)

    @property
    def rules(self) -> StellarRules:
        return StellarRules(deck=self.deck, solo_targets=self.targets, turns=self.turns)

    def start_state(self) -> StellarState:
        return StellarState.solo(
            self.rules,
            telescope_start=self.telescope_start,
            notebook_start=self.notebook_start,
            hand=self.hand,
            display=self.display,
            deck=self.deck_order,
        )

    def placed_cards(self) -> tuple[CardId, ...]:
        """Every card the puzzle names, starters and hand first, then display and deck."""
        return (
            self.telescope_start,
            self.notebook_start,
            *self.hand,
            *self.display,
            *self.deck_order,
        )


# -- reading and writing -------------------------------------------------------------------------


def load_solo_puzzle(path: Path | str, deck: Deck | None = None) -> SoloPuzzle:
    """The puzzle in ``path``. :raises InputError: naming the file and the field."""
    return solo_puzzle_from_data(read_json_file(path), str(path), deck)


def parse_solo_puzzle(text: str, source: str = "<puzzle>", deck: Deck | None = None) -> SoloPuzzle:
    return solo_puzzle_from_data(read_json_text(text, source), source, deck)


def solo_puzzle_from_data(data: Any, source: str, deck: Deck | None = None) -> SoloPuzzle:
    spec = validate(SoloSpec, data, source)
    try:
        return _build(spec, deck or default_deck())
    except InputError as error:
        raise error.located(source) from None


def _build(spec: SoloSpec, deck: Deck) -> SoloPuzzle:
    _check_each_card_once(spec, deck)
    needed = DRAWS_PER_TURN * spec.turns
    if len(spec.deck_order) < needed:
        raise InputError(
            f"{len(spec.deck_order)} cards, but {spec.turns} turns draw {needed} "
            f"({DRAWS_PER_TURN} a turn)",
            field="deck_order",
        )
    targets = spec.targets
    return SoloPuzzle(
        deck_order=tuple(spec.deck_order),
        telescope_start=spec.telescope_start,
        notebook_start=spec.notebook_start,
        hand=tuple(spec.hand),
        display=tuple(spec.display),
        targets=(("top", targets.top), ("middle", targets.middle), ("bottom", targets.bottom)),
        turns=spec.turns,
        deck=deck,
    )


def _check_each_card_once(spec: SoloSpec, deck: Deck) -> None:
    """Every named card is in the deck and named once; the error names the later place."""
    places: list[tuple[str, str]] = [
        ("telescope_start", spec.telescope_start),
        ("notebook_start", spec.notebook_start),
        *((f"hand.{i}", card) for i, card in enumerate(spec.hand)),
        *((f"display.{i}", card) for i, card in enumerate(spec.display)),
        *((f"deck_order.{i}", card) for i, card in enumerate(spec.deck_order)),
    ]
    first_seen: dict[str, str] = {}
    for where, card in places:
        if card not in deck:
            raise InputError(deck.unknown_card(card), field=where)
        if card in first_seen:
            raise InputError(
                f"card {card!r} appears twice (also at {first_seen[card]})", field=where
            )
        first_seen[card] = where


def solo_puzzle_to_data(puzzle: SoloPuzzle) -> dict[str, Any]:
    return {
        "format": SOLO_FORMAT,
        "deck_order": list(puzzle.deck_order),
        "telescope_start": puzzle.telescope_start,
        "notebook_start": puzzle.notebook_start,
        "hand": list(puzzle.hand),
        "display": list(puzzle.display),
        "targets": dict(puzzle.targets),
        "turns": puzzle.turns,
    }


# -- random deals --------------------------------------------------------------------------------


def deal_solo_puzzle(seed: int, turns: int = MAX_TURNS, deck: Deck | None = None) -> SoloPuzzle:
    """A random solo deal, as a game's setup deals one seat (rules/stellar.md, "Setup").

    Two shuffled starters go to telescope slot 1 and the notebook; the rest of the deck
    (the other starters included) is shuffled: 2 cards to the hand, 5 to the display, the
    remainder is the deck order. Each target is the typical sum of its section after
    ``turns`` turns, give or take :data:`TARGET_SPREAD`: the mean telescope number of the
    deck times the section's share of the cards played (slots filled in proportion to the
    section sizes), plus the starter's number in the top section.

    :raises InputError: for a deck without 2 starters (one seat's set-up) or too small for
        ``turns``, or ``turns`` out of 1–11.
    """
    deck = deck or default_deck()
    if not 1 <= turns <= MAX_TURNS:
        raise InputError(f"turns must be from 1 to {MAX_TURNS}, not {turns}", field="turns")
    rng = random.Random(seed)
    starters = [card.id for card in deck.starters]
    if len(starters) < 2:
        raise InputError(
            "the deck needs at least 2 starter cards", source=deck.source, field="cards"
        )
    rng.shuffle(starters)
    rest = [card.id for card in deck.cards if not card.starter] + starters[2:]
    rng.shuffle(rest)
    needed = HAND_SIZE + DISPLAY_SIZE + DRAWS_PER_TURN * turns
    if len(rest) < needed:
        raise InputError(
            f"the deck has {len(rest)} cards to deal, {turns} turns need {needed}",
            source=deck.source,
            field="cards",
        )
    hand, display = tuple(rest[:HAND_SIZE]), tuple(rest[HAND_SIZE : HAND_SIZE + DISPLAY_SIZE])
    targets = _typical_targets(deck, starters[0], turns, rng)
    return SoloPuzzle(
        deck_order=tuple(rest[HAND_SIZE + DISPLAY_SIZE :]),
        telescope_start=starters[0],
        notebook_start=starters[1],
        hand=hand,
        display=display,
        targets=targets,
        turns=turns,
        deck=deck,
    )


def _typical_targets(
    deck: Deck, telescope_start: CardId, turns: int, rng: random.Random
) -> tuple[tuple[SectionName, int], ...]:
    rules = StellarRules(deck=deck)
    mean = sum(card.telescope_number for card in deck.cards) / len(deck.cards)
    sections = dict(rules.layout.sections)
    open_slots = sum(len(slots) for slots in sections.values()) - 1  # slot 1 holds the start
    targets = []
    for name in SECTIONS:
        slots = sections[name]
        start = deck[telescope_start].telescope_number if 1 in slots else 0
        share = (len(slots) - (1 in slots)) / open_slots
        typical = start + mean * share * turns
        spread = rng.randint(-TARGET_SPREAD, TARGET_SPREAD)
        targets.append((name, max(0, round(typical) + spread)))
    return tuple(targets)
