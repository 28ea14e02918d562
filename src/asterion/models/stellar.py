"""The Stellar rules engine: immutable two-player states, legal moves, ``apply``, scoring.

Everything follows rules/stellar.md. A turn is one compound move (:class:`Turn`): take a
display card (step 1), play a hand card to the telescope or the notebook (step 2), and put the
forced second card, the display card under the played card's number or the deck's top card,
into the other area (step 3); the display is then refilled (step 4). When a satellite left the
display during the turn and ``satellite_reset`` is on, the opponent first decides whether the
display is dealt anew (:class:`ResetDisplay`). After both players' 11 turns, each plays one of
the two cards left in hand to the notebook (:class:`FinalNote`).

Choices the rules page leaves open are parameters of :class:`StellarRules`: S1 layout, S2 deck,
S3 section ties; and two made here: a deck that runs out leaves display gaps unfilled and a
forced draw from an empty deck is skipped; the 0/6 card scores as 6 in telescope sections.

>>> state = StellarState.new_game(seed=1)
>>> len(list(legal_moves(state))) > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Literal

from asterion.errors import IllegalActionError, InputError
from asterion.models.stellar_cards import (
    FACE_DOWN_NUMBER,
    TYPES,
    CardId,
    CelestialType,
    Deck,
    Layout,
    SectionName,
    SlotId,
    StellarCard,
    default_deck,
)

Area = Literal["telescope", "notebook"]
AREAS: tuple[Area, Area] = ("telescope", "notebook")
DISPLAY_SIZE = 5
HAND_SIZE = 2
SECTION_BONUS = 10
DIVERSITY_BONUS = 10


@dataclass(frozen=True)
class StellarRules:
    """Parameters: S1 ``layout``, S2 ``deck``, S3 ``section_tie_bonus`` (who gains on a tie:
    nobody by default), the R display reset after a satellite was taken (``satellite_reset``),
    and S4 ``reset_to_bottom``: the discarded display goes under the deck (default), so resets
    never run the deck dry; with ``False`` it leaves the game, and a turn that finds the
    display empty skips step 1 (``Turn.take == 0``)."""

    deck: Deck = field(default_factory=default_deck)
    layout: Layout = field(default_factory=Layout)
    section_tie_bonus: bool = False
    satellite_reset: bool = True
    reset_to_bottom: bool = True
    turns: int = 11
    solo_targets: tuple[tuple[SectionName, int], ...] | None = None
    """Solo puzzles: one player, each section won by beating its fixed target sum; the
    second seat never plays and no display reset is offered."""

    @property
    def is_solo(self) -> bool:
        return self.solo_targets is not None


@dataclass(frozen=True)
class Placed:
    card: CardId
    face_down: bool = False


@dataclass(frozen=True)
class PlayerArea:
    """One player's telescope (slot → card), notebook and hand."""

    telescope: tuple[tuple[SlotId, Placed], ...] = ()
    notebook: tuple[CardId, ...] = ()
    hand: tuple[CardId, ...] = ()

    def slot(self, slot: SlotId) -> Placed | None:
        return dict(self.telescope).get(slot)

    def with_telescope(self, slot: SlotId, placed: Placed) -> PlayerArea:
        return replace(self, telescope=tuple(sorted((*self.telescope, (slot, placed)))))


# -- moves -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """Take display card ``take`` (position 1–5), play hand card ``play`` to ``to`` (at
    ``slot`` for the telescope), and put the forced second card in the other area (at
    ``second_slot`` when that is the telescope)."""

    take: int
    play: CardId
    to: Area
    slot: SlotId | None = None
    second_slot: SlotId | None = None

    def __str__(self) -> str:
        where = f"telescope {self.slot}" if self.to == "telescope" else "notebook"
        second = f", second card to telescope {self.second_slot}" if self.second_slot else ""
        return f"take {self.take}, play {self.play} to {where}{second}"


@dataclass(frozen=True)
class ResetDisplay:
    """The opponent's answer after a satellite left the display: deal it anew or not."""

    reset: bool

    def __str__(self) -> str:
        return "deal the display anew" if self.reset else "keep the display"


@dataclass(frozen=True)
class FinalNote:
    """At the end, one of the two cards left in hand goes to the notebook."""

    card: CardId

    def __str__(self) -> str:
        return f"final note: play {self.card} to notebook"


@dataclass(frozen=True)
class Pass:
    """Only when nothing else is legal: no card in hand or display (the deck ran dry, S4)."""

    def __str__(self) -> str:
        return "pass"


Move = Turn | ResetDisplay | FinalNote | Pass
Phase = Literal["turn", "reset", "final", "over"]


# -- the state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StellarState:
    areas: tuple[PlayerArea, PlayerArea]
    display: tuple[CardId | None, ...]
    deck: tuple[CardId, ...]
    active: int = 0
    turns_taken: tuple[int, int] = (0, 0)
    phase: Phase = "turn"
    resetter: int | None = None
    rules: StellarRules = field(default_factory=StellarRules, compare=False, hash=False, repr=False)

    @classmethod
    def new_game(cls, rules: StellarRules | None = None, seed: int = 0) -> StellarState:
        """Setup (rules/stellar.md): each player gets 2 starters, one to telescope slot 1 and
        one to the notebook (the first dealt goes to the telescope); the fifth starter is
        shuffled into the deck; 2 cards to each hand, 5 to the display."""
        rules = rules or StellarRules()
        rng = random.Random(seed)
        starters = [card.id for card in rules.deck.starters]
        if len(starters) < 5:
            raise InputError(
                "the deck needs 5 starter cards", source=rules.deck.source, field="cards"
            )
        rng.shuffle(starters)
        rest = [card.id for card in rules.deck.cards if not card.starter] + starters[4:]
        rng.shuffle(rest)
        areas = []
        for player in range(2):
            first, second = starters[2 * player], starters[2 * player + 1]
            hand, rest = tuple(rest[:HAND_SIZE]), rest[HAND_SIZE:]
            areas.append(PlayerArea(((1, Placed(first)),), (second,), hand))
        display, rest = tuple(rest[:DISPLAY_SIZE]), rest[DISPLAY_SIZE:]
        return cls((areas[0], areas[1]), display, tuple(rest), rules=rules)

    @classmethod
    def solo(
        cls,
        rules: StellarRules,
        *,
        telescope_start: CardId,
        notebook_start: CardId,
        hand: tuple[CardId, ...],
        display: tuple[CardId | None, ...],
        deck: tuple[CardId, ...],
    ) -> StellarState:
        """A solo puzzle's start: one player, a known deck order (top first)."""
        if not rules.is_solo:
            raise InputError("a solo puzzle needs section targets", field="targets")
        area = PlayerArea(((1, Placed(telescope_start)),), (notebook_start,), tuple(hand))
        return cls((area, PlayerArea()), tuple(display), tuple(deck), rules=rules)

    # -- queries -----------------------------------------------------------------------------------

    def card(self, card_id: CardId) -> StellarCard:
        return self.rules.deck[card_id]

    @property
    def area(self) -> PlayerArea:
        return self.areas[self.active]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def telescope_types(self, player: int) -> dict[SlotId, CelestialType]:
        """The type of each face-up typed card in ``player``'s telescope."""
        result = {}
        for slot, placed in self.areas[player].telescope:
            kind = self.card(placed.card).kind
            if not placed.face_down and kind is not None:
                result[slot] = kind
        return result


def legal_slots(state: StellarState, player: int, card: StellarCard) -> tuple[SlotId, ...]:
    """Where ``card`` may go face up: a satellite or a new type anywhere empty; a type already
    in the telescope only orthogonally next to a card of that type."""
    layout = state.rules.layout
    area = state.areas[player]
    occupied = {slot for slot, _ in area.telescope}
    empty = [slot for slot in layout.slots if slot not in occupied]
    if card.kind is None:
        return tuple(empty)
    same = {slot for slot, kind in state.telescope_types(player).items() if kind is card.kind}
    if not same:
        return tuple(empty)
    return tuple(s for s in empty if any(n in same for n in layout.neighbors(s)))


def telescope_placements(
    state: StellarState, player: int, card: StellarCard
) -> list[tuple[SlotId, bool]]:
    """``(slot, face_down)`` options: the legal slots, or face down on any empty slot."""
    legal = legal_slots(state, player, card)
    if legal:
        return [(slot, False) for slot in legal]
    occupied = {slot for slot, _ in state.areas[player].telescope}
    return [(slot, True) for slot in state.rules.layout.slots if slot not in occupied]


def second_card_source(state: StellarState, taken: int, played: StellarCard) -> int | None:
    """Display position of the forced second card, or ``None`` for the deck's top card: 0/6
    and an empty position (taken in step 1) send the player to the deck."""
    position = played.number
    if 1 <= position <= DISPLAY_SIZE and position != taken and state.display[position - 1]:
        return position
    return None


# -- legal moves -----------------------------------------------------------------------------------


def legal_moves(state: StellarState) -> Iterator[Move]:
    """Every legal move, in a fixed order."""
    if state.phase == "over":
        return
    if state.phase == "reset":
        yield ResetDisplay(True)
        yield ResetDisplay(False)
        return
    if state.phase == "final":
        finals: list[Move] = [FinalNote(card_id) for card_id in dict.fromkeys(state.area.hand)]
        yield from finals or [Pass()]
        return
    turns: list[Move] = list(_turns(state))
    yield from turns or [Pass()]


def _turns(state: StellarState) -> Iterator[Turn]:
    player = state.active
    takes: list[tuple[int, CardId | None]] = [
        (i, c) for i, c in enumerate(state.display, start=1) if c is not None
    ]
    for take, taken_id in takes or [(0, None)]:
        hand = state.area.hand if taken_id is None else (*state.area.hand, taken_id)
        for play_id in dict.fromkeys(hand):
            played = state.card(play_id)
            after_take = replace(state, display=_without(state.display, take))
            second = _second_card(after_take, take, played)
            for to in AREAS:
                first_slots: list[SlotId | None] = (
                    [s for s, _ in telescope_placements(state, player, played)]
                    if to == "telescope"
                    else [None]
                )
                for slot in first_slots:
                    for second_slot in _second_slots(state, player, to, slot, played, second):
                        yield Turn(take, play_id, to, slot, second_slot)


def _second_card(state: StellarState, take: int, played: StellarCard) -> CardId | None:
    source = second_card_source(state, take, played)
    if source is not None:
        return state.display[source - 1]
    return state.deck[0] if state.deck else None


def _second_slots(
    state: StellarState,
    player: int,
    to: str,
    slot: SlotId | None,
    played: StellarCard,
    second: CardId | None,
) -> list[SlotId | None]:
    if to == "telescope" or second is None:
        return [None]
    # The first card went to the notebook: the second card goes to the telescope.
    return [s for s, _ in telescope_placements(state, player, state.card(second))]


def _without(display: tuple[CardId | None, ...], position: int) -> tuple[CardId | None, ...]:
    """The display with ``position`` emptied (position 0: nothing was taken)."""
    return tuple(None if i == position - 1 else c for i, c in enumerate(display))


# -- apply -----------------------------------------------------------------------------------------


def apply(state: StellarState, move: Move) -> StellarState:
    """The state after ``move``. :raises IllegalActionError: naming the move and the reason."""
    if move not in set(legal_moves(state)):
        raise IllegalActionError(f"illegal move {move}: {why_illegal(state, move)}")
    return apply_unchecked(state, move)


def why_illegal(state: StellarState, move: Move) -> str:
    if state.phase == "over":
        return "the game is over"
    expected = {"turn": Turn, "reset": ResetDisplay, "final": FinalNote}[state.phase]
    if isinstance(move, Pass):
        return "a pass is only legal when no card can be played"
    if not isinstance(move, expected):
        return f"the game expects a {expected.__name__} now"
    if isinstance(move, Turn):
        if move.take == 0 and any(state.display):
            return "a display card must be taken while the display holds one"
        if not 0 <= move.take <= DISPLAY_SIZE:
            return f"display position {move.take} does not exist (1-{DISPLAY_SIZE})"
        if move.take and state.display[move.take - 1] is None:
            return f"display position {move.take} holds no card"
        if move.play not in (*state.area.hand, state.display[move.take - 1] if move.take else None):
            return f"{move.play} is not in hand"
        return "no such slot is legal for that card"
    if isinstance(move, FinalNote):
        return f"{move.card} is not in hand"
    return "not allowed now"


def apply_unchecked(state: StellarState, move: Move) -> StellarState:
    if isinstance(move, Pass):
        return _pass(state)
    if isinstance(move, ResetDisplay):
        return _after_reset(state, move.reset)
    if isinstance(move, FinalNote):
        return _final_note(state, move.card)
    return _turn(state, move)


def _place(
    state: StellarState, player: int, card_id: CardId, area: Area, slot: SlotId | None
) -> StellarState:
    current = state.areas[player]
    if area == "notebook":
        updated = replace(current, notebook=(*current.notebook, card_id))
    else:
        assert slot is not None
        face_down = not legal_slots(state, player, state.card(card_id))
        updated = current.with_telescope(slot, Placed(card_id, face_down))
    areas = tuple(updated if i == player else a for i, a in enumerate(state.areas))
    return replace(state, areas=(areas[0], areas[1]))


def _turn(state: StellarState, move: Turn) -> StellarState:
    player = state.active
    taken = state.display[move.take - 1] if move.take else None
    satellite_left = taken is not None and state.card(taken).is_satellite
    hand = list(state.area.hand if taken is None else (*state.area.hand, taken))
    hand.remove(move.play)
    played = state.card(move.play)
    source = second_card_source(state, move.take, played)
    state = replace(state, display=_without(state.display, move.take))
    area = replace(state.area, hand=tuple(hand))
    state = replace(state, areas=_with_area(state.areas, player, area))
    # Step 2: the played card.
    state = _place(state, player, move.play, move.to, move.slot)
    # Step 3: the forced second card, to the other area.
    other: Area = "notebook" if move.to == "telescope" else "telescope"
    second: CardId | None
    if source is not None:
        second = state.display[source - 1]
        satellite_left = satellite_left or state.card(second or "").is_satellite
        state = replace(state, display=_without(state.display, source))
    elif state.deck:
        second, state = state.deck[0], replace(state, deck=state.deck[1:])
    else:
        second = None  # the deck ran out: no second card
    if second is not None:
        state = _place(state, player, second, other, move.second_slot)
    # Step 4: refill the display, then the turn passes.
    state = _refill(state)
    taken_counts = tuple(n + (i == player) for i, n in enumerate(state.turns_taken))
    state = replace(state, turns_taken=(taken_counts[0], taken_counts[1]))
    if satellite_left and state.rules.satellite_reset and not state.rules.is_solo:
        return replace(state, phase="reset", resetter=1 - player)
    return _next_player(state)


def _pass(state: StellarState) -> StellarState:
    if state.phase == "final":
        if state.active == 0 and not state.rules.is_solo:
            return replace(state, active=1)
        return replace(state, phase="over")
    counts = tuple(n + (i == state.active) for i, n in enumerate(state.turns_taken))
    return _next_player(replace(state, turns_taken=(counts[0], counts[1])))


def _with_area(
    areas: tuple[PlayerArea, PlayerArea], player: int, area: PlayerArea
) -> tuple[PlayerArea, PlayerArea]:
    return (area, areas[1]) if player == 0 else (areas[0], area)


def _refill(state: StellarState) -> StellarState:
    display, deck = list(state.display), list(state.deck)
    for i, card in enumerate(display):
        if card is None and deck:
            display[i] = deck.pop(0)
    return replace(state, display=tuple(display), deck=tuple(deck))


def _after_reset(state: StellarState, reset: bool) -> StellarState:
    if reset:
        discarded = tuple(c for c in state.display if c is not None)
        deck = (*state.deck, *discarded) if state.rules.reset_to_bottom else state.deck
        display, deck = deck[:DISPLAY_SIZE], deck[DISPLAY_SIZE:]
        padded = (*display, *([None] * (DISPLAY_SIZE - len(display))))
        state = replace(state, display=padded, deck=deck)
    return _next_player(replace(state, phase="turn", resetter=None))


def _next_player(state: StellarState) -> StellarState:
    turns = state.rules.turns
    if state.rules.is_solo:
        return replace(state, phase="final" if state.turns_taken[0] >= turns else "turn")
    if all(n >= turns for n in state.turns_taken):
        return replace(state, phase="final", active=0)
    return replace(state, active=1 - state.active)


def _final_note(state: StellarState, card_id: CardId) -> StellarState:
    player = state.active
    area = state.area
    hand = list(area.hand)
    hand.remove(card_id)
    area = replace(area, hand=tuple(hand), notebook=(*area.notebook, card_id))
    state = replace(state, areas=_with_area(state.areas, player, area))
    if player == 0 and not state.rules.is_solo:
        return replace(state, active=1)
    return replace(state, phase="over")


# -- scoring ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """A player's score with the free choices that reach it."""

    types: dict[CelestialType, int]
    sections: dict[SectionName, int]
    diversity: int
    choices: dict[CardId, tuple[CelestialType, int]]
    """Each satellite's type and each 0/6's value in the notebook (``(type, number)``)."""

    @property
    def total(self) -> int:
        return sum(self.types.values()) + sum(self.sections.values()) + self.diversity


def telescope_stars(state: StellarState, player: int) -> dict[CelestialType, int]:
    """Stars on each type's face-up telescope cards (satellites have no type)."""
    stars = dict.fromkeys(TYPES, 0)
    for _, placed in state.areas[player].telescope:
        card = state.card(placed.card)
        if not placed.face_down and card.kind is not None:
            stars[card.kind] += card.stars
    return stars


def section_sums(state: StellarState, player: int) -> dict[SectionName, int]:
    """Sum of telescope numbers per section: 0/6 counts 6, a face-down card 3."""
    sums: dict[SectionName, int] = {}
    placed_at = dict(state.areas[player].telescope)
    for name, slots in state.rules.layout.sections:
        total = 0
        for slot in slots:
            placed = placed_at.get(slot)
            if placed is not None:
                card = state.card(placed.card)
                total += FACE_DOWN_NUMBER if placed.face_down else card.telescope_number
        sums[name] = total
    return sums


def longest_run(numbers: Iterable[int]) -> int:
    """The longest run of consecutive numbers (duplicates do not help).

    >>> longest_run([4, 5, 6, 6, 1])
    3
    """
    present = set(numbers)
    best = 0
    for n in present:
        if n - 1 not in present:
            length = 1
            while n + length in present:
                length += 1
            best = max(best, length)
    return best


def notebook_options(
    state: StellarState, player: int
) -> list[list[tuple[CardId, CelestialType, int]]]:
    """For each notebook card, its possible (type, number) readings: a satellite joins any
    type's group, a 0/6 is 0 or 6."""
    options = []
    for card_id in state.areas[player].notebook:
        card = state.card(card_id)
        kinds = TYPES if card.kind is None else (card.kind,)
        options.append([(card_id, k, n) for k in kinds for n in card.notebook_numbers])
    return options


def type_scores_by_enumeration(
    state: StellarState, player: int
) -> tuple[dict[CelestialType, int], dict[CardId, tuple[CelestialType, int]]]:
    """Stars × longest run per type, maximized over every reading of the free cards (the
    exact baseline; the CP-SAT model in ``solver`` must agree)."""
    stars = telescope_stars(state, player)
    options = notebook_options(state, player)
    fixed = [o[0] for o in options if len(o) == 1]
    free = [o for o in options if len(o) > 1]
    best: tuple[int, dict[CelestialType, int], dict[CardId, tuple[CelestialType, int]]] | None
    best = None
    for reading in product(*free):
        groups: dict[CelestialType, list[int]] = {t: [] for t in TYPES}
        for _, kind, number in (*fixed, *reading):
            groups[kind].append(number)
        scores = {t: stars[t] * longest_run(groups[t]) for t in TYPES}
        total = sum(scores.values())
        if best is None or total > best[0]:
            best = (total, scores, {cid: (k, n) for cid, k, n in reading})
    assert best is not None
    return best[1], best[2]


TypeScorer = Callable[
    [StellarState, int], tuple[dict[CelestialType, int], dict[CardId, tuple[CelestialType, int]]]
]


def score(
    state: StellarState, type_scorer: TypeScorer = type_scores_by_enumeration
) -> tuple[Score, Score]:
    """Both players' scores, the free choices made optimally by ``type_scorer`` (by default the
    enumeration; ``asterion.solver.stellar_score`` has the CP-SAT one). In a solo puzzle the
    sections are judged against the targets and the second score is meaningless."""
    sums = [section_sums(state, p) for p in range(2)]
    if state.rules.solo_targets is not None:
        sums[1] = dict(state.rules.solo_targets)
    results = []
    for player in range(2):
        types, choices = type_scorer(state, player)
        sections = {
            name: SECTION_BONUS if beats(sums[player][name], sums[1 - player][name], state) else 0
            for name in sums[player]
        }
        kinds = set(state.telescope_types(player).values())
        diversity = DIVERSITY_BONUS if len(kinds) == len(TYPES) else 0
        results.append(Score(types, sections, diversity, choices))
    return results[0], results[1]


def beats(mine: int, theirs: int, state: StellarState) -> bool:
    return wins_section(mine, theirs, state.rules.section_tie_bonus)


def wins_section(mine: int, theirs: int, tie_bonus: bool) -> bool:
    """S3: the larger sum gains the section; a tie gains nobody (unless ``tie_bonus``)."""
    return mine > theirs or (tie_bonus and mine == theirs)
