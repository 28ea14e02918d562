"""Stellar under hidden information: policies, Monte Carlo move advice, and self-play
(rules/stellar.md, question 4).

A player sees both telescopes and notebooks, the display, their own hand, and how many cards
the opponent holds and the deck has; the opponent's hand and the deck order are hidden.

**Policies** are objects with ``choose(state, rng) -> Move`` that only look at what the
player to move can see (:func:`mover` is whoever decides now: the active player, or the
opponent answering a display reset):

- :class:`RandomPolicy`: a legal move uniformly at random.
- :class:`GreedyPolicy`: one-ply lookahead. A move is valued by the score the rules would
  give if the game ended right after it (rules/stellar.md, "Scoring", applied to the partial
  position), the mover's minus the opponent's (in a solo game, the mover's alone); the best
  value wins, ties broken at random. A card the turn would draw from the deck is unknown
  when the turn is chosen and adds nothing; if it goes to the telescope, its slot is chosen
  once it is drawn. Among slots of equal value a face-up card goes where most neighbours
  are empty (room for its type to grow), a face-down one where fewest are. After a
  satellite left the display it asks for a reset only when no turn on the display gains
  anything.
- :class:`AdvicePolicy`: plays the best move of :func:`advise`, with few samples, sampling
  only the ``width`` moves the greedy valuation rates highest.

**Advice** (:func:`advise`) ranks the moves of the player to move by their expected final
score, the mover's own (the issue's "expected final score"; ``objective="margin"`` ranks by
the mover's score minus the opponent's). Each sample (*determinization*) shuffles the unseen
cards, the opponent's hand and the deck, together and deals them back (sizes kept); the move
is applied and the game rolled out to the end with ``rollout_policy`` in both seats. A state
carries no history, so cards the opponent took from the display in plain view, and display
cards sent under the deck by a reset, still count as unseen.

- Sample ``j`` is the same deal and the same random stream for every move (common random
  numbers), so differences between moves are not drowned by deal luck.
- Moves are grouped when equivalent: moves that lead to the same position (the same two
  display cards taken and put in the same places, such as "take 2, play P4a to telescope 5"
  and "take 4, play P2b to notebook, second card to telescope 5") are one entry; and turns
  that send a card drawn from the deck to the telescope, which differ only in the slot the
  player picks after seeing the card, are one entry whose drawn card the rollout policy
  places in each sample (:attr:`MoveAdvice.slot_after_draw`). :attr:`MoveAdvice.alternatives`
  lists the other moves of an entry; every legal move is in exactly one entry.
- Samples go where they matter by *sequential halving* (Karnin, Koren & Somekh, "Almost
  optimal exploration in multi-armed bandits", ICML 2013): every entry gets
  :data:`FIRST_ROUND_SAMPLES` samples, then the better half (at least :data:`FINALISTS`
  entries) twice as many, and so on until the finalists have ``samples``. Entries are ranked
  by the round they reached, then by mean, so a weak move's lucky mean over a few samples
  does not outrank the finalists; each entry states its own sample count. With
  ``halving=False`` every entry gets ``samples`` and the ranking is by mean alone.
- The 95% confidence interval of a mean is the normal approximation ``mean ± q · s/√n``
  (``s`` the sample standard deviation) with Student's t quantile ``q`` for up to 30
  degrees of freedom, so small samples are not overconfident.

Speed (measured on the 2-core development machine, CPU time): a greedy rollout from the start
takes about 8 ms; advice on a start position (about 280 legal moves, 238 entries) with 100
samples takes about 2000 rollouts and 16 s; a greedy-against-greedy self-play game about
25 ms; an advice-policy game (16 samples, width 10) about 7 s.

Rollouts apply moves with the rules engine (:func:`~asterion.models.stellar.apply_unchecked`;
the policies only produce moves in ``legal_moves``, which the tests check on random
positions) and score the end with :func:`final_totals`, which the tests compare with
:func:`~asterion.models.stellar.score`. The policies list turns by slot-free *shapes* of
their own (:func:`legal_turns` expands them), compared with the engine's ``legal_moves`` in
the tests; valuing a shape once for all its slots is what makes greedy rollouts fast.
Self-play applies every move through the checked :func:`~asterion.models.stellar.apply`.

**Self-play** (:func:`selfplay`) plays seeded games between two policies, seats alternating:
games ``2k`` and ``2k+1`` share a deal, each policy moving first once (a duplicate format
that cancels deal luck).

>>> from asterion.models.stellar import StellarState
>>> state = StellarState.new_game(seed=3)
>>> move = GreedyPolicy().choose(state, random.Random(0))
>>> move in set(legal_moves(state))
True
"""

from __future__ import annotations

import math
import random
import statistics
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import islice
from typing import Literal, NamedTuple

from asterion.errors import InputError, TooLargeError
from asterion.models.files import plain_digits
from asterion.models.stellar import (
    DISPLAY_SIZE,
    FinalNote,
    Move,
    Pass,
    ResetDisplay,
    StellarRules,
    StellarState,
    Turn,
    apply,
    apply_unchecked,
    legal_moves,
    legal_slots,
    score,
    section_sums,
    telescope_placements,
    wins_section,
)
from asterion.models.stellar_cards import (
    FACE_DOWN_NUMBER,
    TYPES,
    ZERO_SIX,
    CardId,
    CelestialType,
    Layout,
    SectionName,
    SlotId,
    StellarCard,
)
from asterion.solver.stats import confidence_interval

__all__ = [
    "DEFAULT_SAMPLES",
    "FINALISTS",
    "FIRST_ROUND_SAMPLES",
    "POLICY_NAMES",
    "AdvicePolicy",
    "GameRecord",
    "GreedyPolicy",
    "MoveAdvice",
    "Objective",
    "PlayedComparison",
    "Policy",
    "RandomPolicy",
    "SelfPlayReport",
    "advise",
    "compare_played",
    "confidence_interval",
    "distinct_moves",
    "final_totals",
    "legal_turns",
    "make_policy",
    "mover",
    "play_out",
    "selfplay",
    "selfplay_game",
]

# -- parameters -------------------------------------------------------------------------------

DEFAULT_SAMPLES = 100
"""Sampled deals per finalist move in :func:`advise`."""
FIRST_ROUND_SAMPLES = 2
"""Samples every move gets in the first round of sequential halving."""
FINALISTS = 8
"""Halving never keeps fewer moves than this: they all get the full sample count."""
MAX_SAMPLES = 100_000
MAX_GAMES = 1_000_000
"""Larger requests are refused (DESIGN.md, principle 4), not attempted."""

ADVICE_POLICY_SAMPLES = 16
ADVICE_POLICY_WIDTH = 10
""":class:`AdvicePolicy` defaults: samples per finalist, and moves sampled at all."""

SECTION_BONUS = 10
DIVERSITY_BONUS = 10

Objective = Literal["score", "margin"]
"""What a sample's value is: the mover's final score, or it minus the opponent's."""

_KIND_INDEX = {kind: i for i, kind in enumerate(TYPES)}


def mover(state: StellarState) -> int:
    """The player who decides now: the opponent answering a display reset, else the active
    player.

    >>> from asterion.models.stellar import StellarState
    >>> mover(StellarState.new_game(seed=0))
    0
    """
    if state.phase == "reset" and state.resetter is not None:
        return state.resetter
    return state.active


# -- valuing a partial position (the greedy evaluation) -----------------------------------------


def _longest_run_of_bits(mask: int) -> int:
    best = run = 0
    for n in range(7):
        run = run + 1 if mask >> n & 1 else 0
        best = max(best, run)
    return best


_RUN = tuple(_longest_run_of_bits(mask) for mask in range(128))
"""Longest run of consecutive numbers in a notebook group given as a bit mask of 0–6."""

_Free = tuple[tuple[int, int], ...]
"""Notebook cards with a free reading: (type index or -1 for a satellite, number; 0 = 0/6)."""


def _run_with_zero_six(mask: int, zero_sixes: int) -> int:
    """Longest run of ``mask`` plus ``zero_sixes`` cards each read 0 or 6 (more numbers never
    shorten a run, so two such cards read 0 and 6)."""
    if zero_sixes == 0:
        return _RUN[mask]
    if zero_sixes == 1:
        return max(_RUN[mask | 1], _RUN[mask | 1 << 6])
    return _RUN[mask | 1 | 1 << 6]


@lru_cache(maxsize=1 << 16)
def _type_points(stars: tuple[int, ...], groups: tuple[int, ...], free: _Free) -> int:
    """Σ stars × longest run per type, the free cards read as well as possible: the value of
    ``type_scores_by_enumeration`` (the tests compare them), found without enumerating.

    A typed 0/6 card only matters to its own type, where reading it 0 or 6 is a choice of
    two (``_run_with_zero_six``). Satellites are shared out among the types with stars: for
    each type, the value of every subset of satellites it could take, combined over the
    types by dynamic programming over the subsets already given away (3^s steps per type
    for s satellites).
    """
    zero_sixes = [0] * len(stars)
    satellites: list[int] = []
    for kind, number in free:
        if kind >= 0:
            zero_sixes[kind] += 1
        else:
            satellites.append(number)
    kinds = [k for k in range(len(stars)) if stars[k]]
    if not satellites:
        return sum(stars[k] * _run_with_zero_six(groups[k], zero_sixes[k]) for k in kinds)
    count = len(satellites)
    everything = (1 << count) - 1
    subset_bits = [0] * (1 << count)
    subset_zero_sixes = [0] * (1 << count)
    for subset in range(1, 1 << count):
        low = (subset & -subset).bit_length() - 1
        rest = subset & (subset - 1)
        number = satellites[low]
        subset_bits[subset] = subset_bits[rest] | (0 if number == ZERO_SIX else 1 << number)
        subset_zero_sixes[subset] = subset_zero_sixes[rest] + (number == ZERO_SIX)
    best: dict[int, int] = {0: 0}  # satellites given away -> best points so far
    for k in kinds:
        values = [
            stars[k]
            * _run_with_zero_six(groups[k] | subset_bits[s], zero_sixes[k] + subset_zero_sixes[s])
            for s in range(1 << count)
        ]
        after: dict[int, int] = {}
        for used, points in best.items():
            left = everything & ~used
            subset = left
            while True:
                total = points + values[subset]
                if after.get(used | subset, -1) < total:
                    after[used | subset] = total
                if subset == 0:
                    break
                subset = (subset - 1) & left
        best = after
    return max(best.values())


@lru_cache(maxsize=16)
def _layout_facts(
    layout: Layout,
) -> tuple[dict[SlotId, SectionName], dict[SlotId, tuple[SlotId, ...]]]:
    """Each slot's section and neighbours, computed once per layout."""
    section_of = {slot: name for name, slots in layout.sections for slot in slots}
    return section_of, {slot: layout.neighbors(slot) for slot in layout.slots}


def _sums(
    state: StellarState, player: int, section_of: dict[SlotId, SectionName]
) -> dict[SectionName, int]:
    """Section sums as ``section_sums`` gives them (0/6 counts 6, a face-down card 3)."""
    sums = dict.fromkeys(section_of.values(), 0)
    by_id = state.rules.deck.by_id
    for slot, placed in state.areas[player].telescope:
        name = section_of.get(slot)
        if name is not None:
            sums[name] += (
                FACE_DOWN_NUMBER if placed.face_down else by_id[placed.card].telescope_number
            )
    return sums


class _View:
    """What a player's score would be if the game ended now, and how cards would change it.

    Only visible things are read: both telescopes (section sums), the player's notebook.
    Without satellites in the notebook the types score independently, so a card's effect is
    worked out on its own type only; with them, ``_type_points`` shares them out.
    """

    __slots__ = (
        "base",
        "by_id",
        "cards_memo",
        "free",
        "groups",
        "kinds",
        "neighbours",
        "occupied",
        "parts",
        "points",
        "satellites",
        "section_of",
        "section_total",
        "sections",
        "slot_memo",
        "solo",
        "stars",
        "theirs",
        "tie_bonus",
        "type_total",
        "zero_sixes",
    )

    def __init__(self, state: StellarState, player: int) -> None:
        rules = state.rules
        by_id = rules.deck.by_id
        stars = [0] * len(TYPES)
        kinds: set[int] = set()
        for _, placed in state.areas[player].telescope:
            card = by_id[placed.card]
            if not placed.face_down and card.kind is not None:
                k = _KIND_INDEX[card.kind]
                stars[k] += card.stars
                kinds.add(k)
        groups = [0] * len(TYPES)
        zero_sixes = [0] * len(TYPES)
        free: list[tuple[int, int]] = []
        satellites = False
        for card_id in state.areas[player].notebook:
            card = by_id[card_id]
            k = -1 if card.kind is None else _KIND_INDEX[card.kind]
            if k < 0 or card.number == ZERO_SIX:
                free.append((k, card.number))
                satellites = satellites or k < 0
                zero_sixes[k] += k >= 0
            else:
                groups[k] |= 1 << card.number
        self.by_id = by_id
        self.stars = tuple(stars)
        self.groups = tuple(groups)
        self.zero_sixes = tuple(zero_sixes)
        self.free = tuple(sorted(free))
        self.satellites = satellites
        self.kinds = frozenset(kinds)
        self.parts = [
            s * _run_with_zero_six(m, z) for s, m, z in zip(stars, groups, zero_sixes, strict=True)
        ]
        self.type_total = (
            _type_points(self.stars, self.groups, self.free) if satellites else sum(self.parts)
        )
        self.occupied = frozenset(slot for slot, _ in state.areas[player].telescope)
        self.section_of, self.neighbours = _layout_facts(rules.layout)
        self.cards_memo: dict[tuple[CardId | None, CardId | None], int] = {}
        self.slot_memo: dict[
            tuple[int, int, bool], tuple[tuple[SlotId, ...], tuple[int, SlotId]]
        ] = {}
        self.solo = rules.solo_targets is not None
        self.tie_bonus = rules.section_tie_bonus
        self.sections = _sums(state, player, self.section_of)
        self.theirs: dict[SectionName, int] = (
            dict(rules.solo_targets)
            if rules.solo_targets is not None
            else _sums(state, 1 - player, self.section_of)
        )
        self.points = {name: self.section_points(name, s) for name, s in self.sections.items()}
        self.section_total = sum(self.points.values())
        diversity = DIVERSITY_BONUS if len(kinds) == len(TYPES) else 0
        self.base = self.type_total + diversity + self.section_total

    def section_points(self, name: SectionName, mine: int) -> int:
        """The section's worth: the player's bonus minus the opponent's (10, 0 or -10), or
        in a solo game the bonus for beating the target (rules S3 for ties)."""
        theirs = self.theirs.get(name, 0)
        if self.solo:
            return SECTION_BONUS if wins_section(mine, theirs, self.tie_bonus) else 0
        return SECTION_BONUS * ((mine > theirs) - (theirs > mine))

    def sections_value(self, slot: SlotId, number: int) -> int:
        """All sections' worth after a card counting ``number`` goes to ``slot``."""
        name = self.section_of.get(slot)
        if name is None:
            return self.section_total
        after = self.section_points(name, self.sections[name] + number)
        return self.section_total - self.points[name] + after

    def cards_value(self, placed: StellarCard | None, face_down: bool, noted: CardId | None) -> int:
        """Type and diversity points with ``placed`` in the telescope (face down or not) and
        the card ``noted`` added to the notebook."""
        kind_placed = -1
        if placed is not None and not face_down and placed.kind is not None:
            kind_placed = _KIND_INDEX[placed.kind]
        card = None if noted is None else self.by_id[noted]
        count = len(self.kinds) + (kind_placed >= 0 and kind_placed not in self.kinds)
        diversity = DIVERSITY_BONUS if count == len(TYPES) else 0
        if self.satellites or (card is not None and card.kind is None):
            return self._shared_value(placed if kind_placed >= 0 else None, card) + diversity
        # The types score independently: redo the one or two types the cards touch.
        total = self.type_total
        kind_noted = -1 if card is None or card.kind is None else _KIND_INDEX[card.kind]
        for k in (kind_placed, kind_noted) if kind_placed != kind_noted else (kind_placed,):
            if k < 0:
                continue
            stars, mask, zero_sixes = self.stars[k], self.groups[k], self.zero_sixes[k]
            if k == kind_placed and placed is not None:
                stars += placed.stars
            if k == kind_noted and card is not None:
                if card.number == ZERO_SIX:
                    zero_sixes += 1
                else:
                    mask |= 1 << card.number
            total += stars * _run_with_zero_six(mask, zero_sixes) - self.parts[k]
        return total + diversity

    def _shared_value(self, placed: StellarCard | None, card: StellarCard | None) -> int:
        """Type points when satellites must be shared out among the types."""
        key = (None if placed is None else placed.id, None if card is None else card.id)
        value = self.cards_memo.get(key)
        if value is None:
            stars, groups, free = self.stars, self.groups, self.free
            if placed is not None and placed.kind is not None:
                k = _KIND_INDEX[placed.kind]
                stars = (*stars[:k], stars[k] + placed.stars, *stars[k + 1 :])
            if card is not None:
                k = -1 if card.kind is None else _KIND_INDEX[card.kind]
                if k < 0 or card.number == ZERO_SIX:
                    free = tuple(sorted((*free, (k, card.number))))
                else:
                    groups = (*groups[:k], groups[k] | 1 << card.number, *groups[k + 1 :])
            value = _type_points(stars, groups, free)
            self.cards_memo[key] = value
        return value

    def room(self, slot: SlotId) -> int:
        """Empty neighbours of ``slot``: room for a type to grow."""
        return sum(1 for n in self.neighbours[slot] if n not in self.occupied)

    def best_slot(
        self, slots: tuple[SlotId, ...], number: int, face_down: bool
    ) -> tuple[int, SlotId]:
        """The sections' worth at the best of ``slots`` for a card counting ``number``, and
        that slot: then the most (face up) or fewest (face down) empty neighbours, then the
        first."""
        key = (id(slots), number, face_down)
        known = self.slot_memo.get(key)
        if known is not None and known[0] is slots:  # the memo holds ``slots``: ids stay unique
            return known[1]
        best: tuple[int, int] | None = None
        best_slot = slots[0]
        for slot in slots:
            room = self.room(slot)
            rank = (self.sections_value(slot, number), -room if face_down else room)
            if best is None or rank > best:
                best, best_slot = rank, slot
        assert best is not None
        self.slot_memo[key] = (slots, (best[0], best_slot))
        return best[0], best_slot


# -- legal turns, fast ---------------------------------------------------------------------------


class _Shape(NamedTuple):
    """A turn without its slots: take, play to ``to``; ``placed`` goes to the telescope (on
    one of ``slots``, face down if ``face_down``), ``noted`` to the notebook. ``hidden``
    marks a second card drawn from the deck, unknown when the turn is chosen."""

    take: int
    play: CardId
    to: Literal["telescope", "notebook"]
    placed: CardId | None
    noted: CardId | None
    hidden: bool
    slots: tuple[SlotId, ...]
    face_down: bool


def _turns_of(shape: _Shape) -> Iterator[Turn]:
    if shape.to == "telescope":
        for slot in shape.slots:
            yield Turn(shape.take, shape.play, "telescope", slot)
    elif shape.placed is None:
        yield Turn(shape.take, shape.play, "notebook")
    else:
        for slot in shape.slots:
            yield Turn(shape.take, shape.play, "notebook", None, slot)


_Placements = Callable[[StellarCard], tuple[tuple[SlotId, ...], bool]]


def _placements(state: StellarState, player: int) -> _Placements:
    """Where a card may go in ``player``'s telescope: ``(slots, face_down)``, as the engine's
    ``telescope_placements`` says (rules/stellar.md, "Placement"), with the telescope read
    once: a satellite or a new type on any empty slot, a type already there next to one of
    its cards, and a card with no such slot face down on any empty slot."""
    layout = state.rules.layout
    _, neighbours = _layout_facts(layout)
    telescope = state.areas[player].telescope
    occupied = {slot for slot, _ in telescope}
    empty = tuple(slot for slot in layout.slots if slot not in occupied)
    by_kind: dict[CelestialType, set[SlotId]] = {}
    for slot, placed in telescope:
        kind = state.card(placed.card).kind
        if kind is not None and not placed.face_down:
            by_kind.setdefault(kind, set()).add(slot)
    known: dict[CelestialType | None, tuple[tuple[SlotId, ...], bool]] = {None: (empty, False)}

    def where(card: StellarCard) -> tuple[tuple[SlotId, ...], bool]:
        kind = card.kind
        if kind not in known:
            same = by_kind.get(kind)  # type: ignore[arg-type]
            if not same:
                known[kind] = (empty, False)
            else:
                legal = tuple(s for s in empty if any(n in same for n in neighbours[s]))
                known[kind] = (legal, False) if legal else (empty, True)
        return known[kind]

    return where


def _shapes(state: StellarState, player: int) -> Iterator[_Shape]:
    """The turns open to ``player`` on this display, grouped by everything but slots; the
    same set, expanded, as the engine's ``legal_moves`` (rules/stellar.md, "Turn")."""
    where = _placements(state, player)
    card = state.rules.deck.by_id.__getitem__
    display = state.display
    takes: list[tuple[int, CardId | None]] = [
        (i, c) for i, c in enumerate(display, start=1) if c is not None
    ] or [(0, None)]
    own_hand = state.areas[player].hand
    top = state.deck[0] if state.deck else None
    for take, taken in takes:
        hand = own_hand if taken is None else (*own_hand, taken)
        for play in dict.fromkeys(hand):
            # Step 3's source: the display card under the played number, or the deck's top.
            position = card(play).number
            if 1 <= position <= DISPLAY_SIZE and position != take and display[position - 1]:
                second, hidden = display[position - 1], False
            else:
                second, hidden = top, top is not None
            slots, face_down = where(card(play))
            if slots:
                yield _Shape(take, play, "telescope", play, second, hidden, slots, face_down)
            if second is None:
                yield _Shape(take, play, "notebook", None, play, False, (), False)
            else:
                slots, face_down = where(card(second))
                if slots:
                    yield _Shape(take, play, "notebook", second, play, hidden, slots, face_down)


def legal_turns(state: StellarState, player: int | None = None) -> list[Turn]:
    """The turns open to ``player`` (default: the active player) on the current display,
    in the engine's order (take, played card, area, slots). In the turn phase this is the
    engine's ``legal_moves`` (``[]`` where it has only ``Pass``); the policies use the
    shapes it expands, one per take, card and area.

    >>> from asterion.models.stellar import StellarState
    >>> state = StellarState.new_game(seed=1)
    >>> set(legal_turns(state)) == set(legal_moves(state))
    True
    """
    who = state.active if player is None else player
    return [turn for shape in _shapes(state, who) for turn in _turns_of(shape)]


# -- policies -------------------------------------------------------------------------------------


class Policy(ABC):
    """A way to choose moves from what the player to move can see."""

    name: str = "policy"

    def choose(self, state: StellarState, rng: random.Random) -> Move:
        """A legal move for :func:`mover` in ``state`` (which must not be over)."""
        return self.choose_from(state, _all_moves(state), rng)

    @abstractmethod
    def choose_from(self, state: StellarState, moves: Sequence[Move], rng: random.Random) -> Move:
        """One of ``moves`` (legal in ``state``, not empty)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _all_moves(state: StellarState) -> list[Move]:
    if state.phase == "turn":
        return [*legal_turns(state)] or [Pass()]
    moves = list(legal_moves(state))
    if not moves:
        raise InputError("the game is over: there is no move to choose")
    return moves


@dataclass(frozen=True)
class RandomPolicy(Policy):
    """A legal move uniformly at random."""

    name = "random"

    def choose(self, state: StellarState, rng: random.Random) -> Move:
        if state.phase != "turn":
            return super().choose(state, rng)
        # Uniform over the turns without building them all: pick a shape by its turn count.
        shapes = list(_shapes(state, state.active))
        counts = [1 if s.to == "notebook" and s.placed is None else len(s.slots) for s in shapes]
        if not shapes:
            return Pass()
        index = rng.randrange(sum(counts))
        for shape, count in zip(shapes, counts, strict=True):
            if index < count:
                return next(islice(_turns_of(shape), index, None))
            index -= count
        raise AssertionError("unreachable")

    def choose_from(self, state: StellarState, moves: Sequence[Move], rng: random.Random) -> Move:
        return moves[rng.randrange(len(moves))]


@dataclass(frozen=True)
class GreedyPolicy(Policy):
    """One-ply lookahead on the score if the game ended after the move, the mover's minus
    the opponent's (see the module docstring for ties, drawn cards and resets)."""

    name = "greedy"

    def choose(self, state: StellarState, rng: random.Random) -> Move:
        if state.phase == "turn":
            best = _best_turn(state, state.active, rng)
            return Pass() if best is None else best[1]
        if state.phase == "reset":
            return ResetDisplay(_wants_reset(state, mover(state), rng))
        return super().choose(state, rng)

    def choose_from(self, state: StellarState, moves: Sequence[Move], rng: random.Random) -> Move:
        """The move :meth:`rank` rates highest, ties broken at random. When the moves are one
        turn differing only in where the second card goes, that card is seen (it has been
        drawn: the slot is chosen after the draw)."""
        drawn_seen = len({(m.take, m.play, m.to) if isinstance(m, Turn) else m for m in moves}) == 1
        ranks = [self.rank(state, move, drawn_seen=drawn_seen) for move in moves]
        best = max(ranks)
        return rng.choice([m for m, r in zip(moves, ranks, strict=True) if r == best])

    def value(self, state: StellarState, move: Move, *, drawn_seen: bool = False) -> int:
        """How the greedy valuation rates ``move``: the mover's score minus the opponent's
        if the game ended after it (the mover's score alone in a solo game). A card the
        turn draws from the deck counts for nothing unless ``drawn_seen``."""
        return self.rank(state, move, drawn_seen=drawn_seen)[0]

    def rank(self, state: StellarState, move: Move, *, drawn_seen: bool = False) -> tuple[int, int]:
        """:meth:`value`, then the slot tie-break: the placed card's empty neighbours (more
        for a face-up card, fewer for a face-down one)."""
        player = mover(state)
        if not isinstance(move, Turn):
            return (_View(apply_unchecked(state, move), player).base, 0)
        view = _View(state, player)
        played = view.by_id[move.play]
        position = played.number
        display = state.display
        second: CardId | None
        if 1 <= position <= DISPLAY_SIZE and position != move.take and display[position - 1]:
            second = display[position - 1]
        else:
            second = state.deck[0] if drawn_seen and state.deck else None
        placed: StellarCard | None
        if move.to == "telescope":
            placed, noted, slot = played, second, move.slot
        else:
            placed = None if second is None else view.by_id[second]
            noted, slot = move.play, move.second_slot
        if placed is None or slot is None:
            return (view.cards_value(None, False, noted) + view.section_total, 0)
        face_down = not legal_slots(state, player, placed)
        number = FACE_DOWN_NUMBER if face_down else placed.telescope_number
        room = view.room(slot)
        value = view.cards_value(placed, face_down, noted) + view.sections_value(slot, number)
        return (value, -room if face_down else room)


def _best_slot(
    view: _View, placed: StellarCard, shape: _Shape, noted: CardId | None
) -> tuple[int, SlotId]:
    """The slot among ``shape.slots`` valued best, then with the most (face up) or fewest
    (face down) empty neighbours; the first such slot (deterministic)."""
    number = FACE_DOWN_NUMBER if shape.face_down else placed.telescope_number
    section_value, slot = view.best_slot(shape.slots, number, shape.face_down)
    return view.cards_value(placed, shape.face_down, noted) + section_value, slot


def _best_turn(state: StellarState, player: int, rng: random.Random) -> tuple[int, Turn] | None:
    """The greedy turn and its valuation, or ``None`` when no turn is open."""
    view = _View(state, player)
    by_id = view.by_id
    candidates: list[tuple[_Shape, SlotId | None]] = []
    best_value: int | None = None
    for shape in _shapes(state, player):
        # A card drawn from the deck is unknown when the turn is chosen: it adds nothing.
        noted = None if shape.hidden and shape.to == "telescope" else shape.noted
        slot: SlotId | None = None
        if shape.placed is None or (shape.hidden and shape.to == "notebook"):
            value = view.cards_value(None, False, noted) + view.section_total
        else:
            value, slot = _best_slot(view, by_id[shape.placed], shape, noted)
        if best_value is None or value > best_value:
            best_value, candidates = value, []
        if value == best_value:
            candidates.append((shape, slot))
    if best_value is None:
        return None
    shape, slot = candidates[rng.randrange(len(candidates))]
    if shape.to == "telescope":
        return best_value, Turn(shape.take, shape.play, "telescope", slot)
    if shape.placed is None:
        return best_value, Turn(shape.take, shape.play, "notebook")
    if shape.hidden:  # the drawn card is seen now: choose its slot
        _, slot = _best_slot(view, by_id[shape.placed], shape, shape.play)
    return best_value, Turn(shape.take, shape.play, "notebook", None, slot)


def _wants_reset(state: StellarState, player: int, rng: random.Random) -> bool:
    """Reset only when no turn on the current display gains anything."""
    best = _best_turn(state, player, rng)
    return best is None or best[0] <= _View(state, player).base


@dataclass(frozen=True)
class AdvicePolicy(Policy):
    """Plays the best move found by :func:`advise`, sampling only the ``width`` moves the
    greedy valuation rates highest (all of them when ``width`` is ``None``), with
    ``samples`` deals per finalist and greedy rollouts."""

    samples: int = ADVICE_POLICY_SAMPLES
    width: int | None = ADVICE_POLICY_WIDTH
    rollout_policy: Policy = field(default_factory=lambda: GreedyPolicy())
    name: str = "advice"

    def choose_from(self, state: StellarState, moves: Sequence[Move], rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        seed = rng.getrandbits(32)
        ranked = _advise(
            state,
            moves,
            samples=self.samples,
            seed=seed,
            rollout_policy=self.rollout_policy,
            objective="score",
            halving=True,
            width=self.width,
            progress=None,
        )
        top = ranked[0]
        if not top.alternatives:
            return top.move
        # The best entry's drawn card is known now: place it as the rollout policy would.
        return self.rollout_policy.choose_from(state, [top.move, *top.alternatives], rng)

    def __repr__(self) -> str:
        return f"AdvicePolicy(samples={self.samples}, width={self.width})"


POLICY_NAMES = ("random", "greedy", "advice")


def make_policy(name: str) -> Policy:
    """A policy by name: ``random``, ``greedy``, ``advice`` or ``advice:N`` (N samples per
    finalist).

    >>> make_policy("advice:8")
    AdvicePolicy(samples=8, width=10)

    :raises InputError: for an unknown name or a bad sample count.
    """
    text = name.strip().lower()
    if text == "random":
        return RandomPolicy()
    if text == "greedy":
        return GreedyPolicy()
    if text == "advice" or text.startswith("advice:"):
        count = text.partition(":")[2]
        if text == "advice":
            return AdvicePolicy()
        if not plain_digits(count) or len(count) > 9 or not 2 <= int(count) <= MAX_SAMPLES:
            raise InputError(
                f"bad policy {name!r}: advice:N needs N from 2 to {MAX_SAMPLES}",
                field="policies",
            )
        return AdvicePolicy(samples=int(count), name=f"advice:{int(count)}")
    raise InputError(
        f"unknown policy {name!r} (expected one of {', '.join(POLICY_NAMES)}, advice:N)",
        field="policies",
    )


# -- playing out ----------------------------------------------------------------------------------


def play_out(
    state: StellarState,
    policies: tuple[Policy, Policy],
    rng: random.Random | tuple[random.Random, random.Random],
    *,
    checked: bool = True,
    moves: list[Move] | None = None,
) -> StellarState:
    """The finished game after seat ``i`` plays ``policies[i]`` from ``state`` on.

    ``rng`` is shared or one per seat; ``checked`` applies every move through the engine's
    legality check (:func:`~asterion.models.stellar.apply`), else unchecked (rollouts). The
    moves are appended to ``moves`` if given.
    """
    rngs = rng if isinstance(rng, tuple) else (rng, rng)
    step = apply if checked else apply_unchecked
    while state.phase != "over":
        who = mover(state)
        move = policies[who].choose(state, rngs[who])
        if moves is not None:
            moves.append(move)
        state = step(state, move)
    return state


def greedy_game(rules: StellarRules | None = None, seed: int = 0) -> StellarState:
    """The end of the game dealt from ``seed`` (:meth:`StellarState.new_game`) when both
    seats play greedily, their ties broken by one generator of that seed."""
    greedy = GreedyPolicy()
    return play_out(StellarState.new_game(rules, seed), (greedy, greedy), random.Random(seed))


def final_totals(state: StellarState) -> tuple[int, int]:
    """Both players' score totals, as :func:`~asterion.models.stellar.score` gives them
    (the tests compare the two), found quickly for rollouts: the free notebook readings by
    ``_type_points`` instead of enumeration. In a solo game the second total is 0.

    >>> from asterion.models.stellar import StellarState
    >>> state = StellarState.new_game(seed=4)
    >>> final_totals(state) == tuple(s.total for s in score(state))
    True
    """
    rules = state.rules
    sums = [section_sums(state, p) for p in range(2)]
    if rules.solo_targets is not None:
        sums[1] = dict(rules.solo_targets)
    totals = []
    for player in range(1 if rules.is_solo else 2):
        view = _View(state, player)
        sections = sum(
            SECTION_BONUS
            for name, mine in sums[player].items()
            if wins_section(mine, sums[1 - player].get(name, 0), rules.section_tie_bonus)
        )
        totals.append(view.cards_value(None, False, None) + sections)
    return (totals[0], totals[1] if len(totals) > 1 else 0)


def _final_value(state: StellarState, player: int, objective: Objective) -> int:
    totals = final_totals(state)
    return totals[player] - totals[1 - player] if objective == "margin" else totals[player]


# -- move advice ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveAdvice:
    """One move's estimated value: the mean over ``samples`` sampled deals and its 95%
    confidence interval ``[ci_low, ci_high]``.

    ``alternatives`` are the other legal moves this entry stands for: moves leading to the
    same position, or (``slot_after_draw``) the same turn with another slot for a card drawn
    from the deck, chosen once the card is seen. ``move`` is the first of them in the
    engine's order.
    """

    move: Move
    mean: float
    ci_low: float
    ci_high: float
    samples: int
    alternatives: tuple[Move, ...] = ()
    slot_after_draw: bool = False

    @property
    def moves(self) -> tuple[Move, ...]:
        return (self.move, *self.alternatives)

    def describe(self) -> str:
        """The move in words (a drawn card's slot as "chosen after the draw").

        >>> entry = MoveAdvice(Turn(2, "P3s", "notebook", None, 4), 50.0, 48.0, 52.0, 10,
        ...                    slot_after_draw=True)
        >>> print(entry.describe())  # doctest: +NORMALIZE_WHITESPACE
        take 2, play P3s to notebook, second card (drawn) to the telescope,
        slot chosen after the draw
        """
        if self.slot_after_draw and isinstance(self.move, Turn):
            move = replace(self.move, second_slot=None)
            return f"{move}, second card (drawn) to the telescope, slot chosen after the draw"
        return str(self.move)

    def to_data(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {
            "move": move_to_data(self.move),
            "description": self.describe(),
            "mean": round(self.mean, 4),
            "ci95": [round(self.ci_low, 4), round(self.ci_high, 4)],
            "samples": self.samples,
            "slot_after_draw": self.slot_after_draw,
            "alternatives": [move_to_data(m) for m in self.alternatives],
        }


def move_to_data(move: Move) -> dict[str, object]:
    """A move as a JSON-ready dictionary.

    >>> move_to_data(Turn(1, "M3a", "telescope", 5))
    {'kind': 'turn', 'take': 1, 'play': 'M3a', 'to': 'telescope', 'slot': 5, 'second_slot': None}
    """
    if isinstance(move, Turn):
        return {
            "kind": "turn",
            "take": move.take,
            "play": move.play,
            "to": move.to,
            "slot": move.slot,
            "second_slot": move.second_slot,
        }
    if isinstance(move, ResetDisplay):
        return {"kind": "reset", "reset": move.reset}
    if isinstance(move, FinalNote):
        return {"kind": "final_note", "card": move.card}
    return {"kind": "pass"}


def advise(
    state: StellarState,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    rollout_policy: Policy | None = None,
    objective: Objective = "score",
    halving: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> list[MoveAdvice]:
    """Every legal move of the player to move, ranked by expected final score over sampled
    deals (see the module docstring for the sampling, the grouping and the interval).

    Parameters
    ----------
    state:
        A position that is not over (two-player; in a solo position the deck order is
        known, so only the rollouts' own randomness is sampled).
    samples:
        Sampled deals per finalist move (every move, with ``halving=False``); at least 2.
    seed:
        Seeds the deals and the rollouts: the same seed, the same advice.
    rollout_policy:
        Plays both seats after the move; :class:`GreedyPolicy` by default.
    objective:
        ``"score"``: the mover's final score; ``"margin"``: it minus the opponent's.
    halving:
        Sequential halving (the default) or the full sample count for every move.
    progress:
        Called as ``progress(done, total)`` with rollouts done and planned so far.

    Returns
    -------
    list of MoveAdvice
        One entry per legal move or group of equivalent moves (every legal move is in
        exactly one), best first: by the halving round reached, then by mean, then in the
        engine's order.

    :raises InputError: when the game is over, ``samples`` is out of range, or ``margin``
        is asked of a solo position.

    >>> from asterion.models.stellar import StellarState
    >>> state = StellarState.new_game(seed=2)
    >>> advice = advise(state, samples=2, seed=0, rollout_policy=RandomPolicy())
    >>> advice[0].samples, advice[0].ci_low <= advice[0].mean <= advice[0].ci_high
    (2, True)
    """
    if state.phase == "over":
        raise InputError("the game is over: there is no move to advise")
    moves = _all_moves(state)
    return _advise(
        state,
        moves,
        samples=samples,
        seed=seed,
        rollout_policy=rollout_policy or GreedyPolicy(),
        objective=objective,
        halving=halving,
        width=None,
        progress=progress,
    )


@dataclass
class _Entry:
    """A move group being sampled: its moves (engine order) and the values so far."""

    moves: list[Move]
    slot_after_draw: bool
    values: list[int] = field(default_factory=list)
    round: int = 0

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values)


def _groups(state: StellarState, moves: Sequence[Move]) -> list[_Entry]:
    """``moves`` in entries, in engine order. Moves that lead to the same position (in the
    real deal and in a re-dealt one: the same cards to the same places) are one entry, and
    so are turns that differ only in the slot of a card drawn from the deck for the
    telescope (chosen after the draw)."""
    player = mover(state)
    hidden: set[tuple[int, CardId]] = set()
    if state.phase == "turn":
        hidden = {
            (s.take, s.play) for s in _shapes(state, player) if s.hidden and s.to == "notebook"
        }
    other_deal = _determinize(state, player, random.Random("stellar-equivalence"))
    entries: dict[object, _Entry] = {}
    for move in moves:
        key: object
        if isinstance(move, Turn) and move.to == "notebook" and (move.take, move.play) in hidden:
            key, drawn = (move.take, move.play), True
        else:
            key = (apply_unchecked(state, move), apply_unchecked(other_deal, move))
            drawn = False
        if key not in entries:
            entries[key] = _Entry([], drawn)
        entries[key].moves.append(move)
    return list(entries.values())


def _advise(
    state: StellarState,
    moves: Sequence[Move],
    *,
    samples: int,
    seed: int,
    rollout_policy: Policy,
    objective: Objective,
    halving: bool,
    width: int | None,
    progress: Callable[[int, int], None] | None,
) -> list[MoveAdvice]:
    if not 2 <= samples <= MAX_SAMPLES:
        if samples > MAX_SAMPLES:
            raise TooLargeError(f"at most {MAX_SAMPLES} samples", field="samples")
        raise InputError(f"samples must be at least 2, not {samples}", field="samples")
    if objective == "margin" and state.rules.is_solo:
        raise InputError("a solo position has no opponent: use the score objective")
    entries = _groups(state, moves)
    if width is not None and len(entries) > width:
        entries = _widest(state, entries, width)
    sample = _Sampler(state, seed, rollout_policy, objective)

    # -- sequential halving: a round doubles the samples of the better half ------------------
    target = min(samples, FIRST_ROUND_SAMPLES) if halving else samples
    alive = entries
    done, planned = 0, len(entries) * target
    round_number = 0
    while True:
        for entry in alive:
            for j in range(len(entry.values), target):
                entry.values.append(sample(entry, j))
                done += 1
                if progress is not None:
                    progress(done, planned)
            entry.round = round_number
        if target >= samples:
            break
        keep = max(FINALISTS, math.ceil(len(alive) / 2))
        alive = sorted(alive, key=lambda e: -e.mean)[:keep]
        previous, target = target, min(samples, 2 * target)
        planned += len(alive) * (target - previous)
        round_number += 1

    # -- ranking: the round reached, then the mean; ties in engine order ---------------------
    order = {id(entry): i for i, entry in enumerate(entries)}
    ranked = sorted(entries, key=lambda e: (-e.round, -e.mean, order[id(e)]))
    return [_advice(entry) for entry in ranked]


class _Sampler:
    """``sampler(entry, j)``: the value of ``entry``'s move in sampled deal ``j`` of
    ``state``, rolled out to the end. Deal ``j`` and its rollout's random stream are the same
    for every entry (common random numbers)."""

    def __init__(
        self, state: StellarState, seed: int, rollout_policy: Policy, objective: Objective
    ) -> None:
        self.state, self.seed = state, seed
        self.policy, self.objective = rollout_policy, objective
        self.player = mover(state)
        self.deals: list[StellarState] = []

    def deal(self, j: int) -> StellarState:
        while len(self.deals) <= j:
            rng = random.Random(f"stellar-deal:{self.seed}:{len(self.deals)}")
            self.deals.append(_determinize(self.state, self.player, rng))
        return self.deals[j]

    def __call__(self, entry: _Entry, j: int) -> int:
        rng = random.Random(f"stellar-rollout:{self.seed}:{j}")
        world = self.deal(j)
        move = entry.moves[0]
        if entry.slot_after_draw:
            move = self.policy.choose_from(world, _drawn_turns(world, self.player, move), rng)
        after = apply_unchecked(world, move)
        final = play_out(after, (self.policy, self.policy), rng, checked=False)
        return _final_value(final, self.player, self.objective)


@dataclass(frozen=True)
class PlayedComparison:
    """A played move weighed against the moves the greedy valuation rates highest, all on the
    same sampled deals: ``values[i][j]`` is candidate ``i``'s value in deal ``j``."""

    candidates: tuple[MoveAdvice, ...]
    """The entries compared, in the engine's order; the played move's is among them."""
    values: tuple[tuple[int, ...], ...]
    played: int
    """The index of the played move's entry."""


def compare_played(
    state: StellarState,
    played: Move,
    *,
    width: int,
    samples: int,
    seed: int = 0,
    rollout_policy: Policy | None = None,
    objective: Objective = "score",
    deadline: float | None = None,
) -> PlayedComparison | None:
    """``played`` (a legal move of ``state``) against the ``width`` entries of :func:`advise`
    the greedy valuation rates highest, each on the same ``samples`` sampled deals (no
    halving). None if the clock passes ``deadline`` (``time.perf_counter()``) first.

    :raises InputError: for an illegal move or an out-of-range sample count.
    """
    if not 2 <= samples <= MAX_SAMPLES:
        raise InputError(f"samples must be 2 to {MAX_SAMPLES}, not {samples}", field="samples")
    entries = _groups(state, _all_moves(state))
    mine = next((e for e in entries if played in e.moves), None)
    if mine is None:
        raise InputError(f"{played} is not a legal move here")
    chosen = {id(e) for e in (_widest(state, entries, width) if len(entries) > width else entries)}
    candidates = [e for e in entries if e is mine or id(e) in chosen]
    sample = _Sampler(state, seed, rollout_policy or GreedyPolicy(), objective)
    for j in range(samples):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        for entry in candidates:
            entry.values.append(sample(entry, j))
    return PlayedComparison(
        tuple(_advice(e) for e in candidates),
        tuple(tuple(e.values) for e in candidates),
        candidates.index(mine),
    )


def distinct_moves(state: StellarState) -> int:
    """How many entries :func:`advise` would rank: legal moves, those reaching the same
    position counted once."""
    return len(_groups(state, _all_moves(state)))


def _widest(state: StellarState, entries: list[_Entry], width: int) -> list[_Entry]:
    """The ``width`` entries the greedy valuation rates highest (drawn cards unseen; ties in
    engine order), in engine order."""
    greedy = GreedyPolicy()
    rated = [(greedy.value(state, entry.moves[0]), i) for i, entry in enumerate(entries)]
    keep = sorted(rated, key=lambda r: (-r[0], r[1]))[:width]
    return [entries[i] for _, i in sorted(keep, key=lambda r: r[1])]


def _drawn_turns(world: StellarState, player: int, move: Move) -> list[Move]:
    """In a sampled deal, the turns like ``move`` with the drawn card on each legal slot."""
    assert isinstance(move, Turn)
    card = world.card(world.deck[0])
    slots = [s for s, _ in telescope_placements(world, player, card)]
    return [Turn(move.take, move.play, "notebook", None, s) for s in slots]


def _determinize(state: StellarState, player: int, rng: random.Random) -> StellarState:
    """One possible world: the opponent's hand and the deck shuffled together and dealt back
    (sizes kept). They are sorted first, so that two positions the player cannot tell apart
    (the same unseen cards, in another order) get the same worlds. A solo deck is known, so it
    is kept."""
    if state.rules.is_solo:
        return state
    opponent = 1 - player
    hand = state.areas[opponent].hand
    unseen = sorted([*hand, *state.deck])  # what the player sees alike is sampled alike
    rng.shuffle(unseen)
    area = replace(state.areas[opponent], hand=tuple(unseen[: len(hand)]))
    areas = (area, state.areas[1]) if opponent == 0 else (state.areas[0], area)
    return replace(state, areas=areas, deck=tuple(unseen[len(hand) :]))


def _advice(entry: _Entry) -> MoveAdvice:
    mean = entry.mean
    low, high = confidence_interval(entry.values)
    return MoveAdvice(
        move=entry.moves[0],
        mean=mean,
        ci_low=low,
        ci_high=high,
        samples=len(entry.values),
        alternatives=tuple(entry.moves[1:]),
        slot_after_draw=entry.slot_after_draw,
    )


# -- self-play ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One self-play game: the deal's seed, the seat of policy A (0 = moved first) and both
    policies' final scores."""

    deal: int
    a_seat: int
    score_a: int
    score_b: int

    @property
    def winner(self) -> Literal["a", "b"] | None:
        if self.score_a == self.score_b:
            return None
        return "a" if self.score_a > self.score_b else "b"


@dataclass(frozen=True)
class SelfPlayReport:
    """Self-play statistics of policy A (``names[0]``) against policy B (``names[1]``)."""

    names: tuple[str, str]
    seed: int
    records: tuple[GameRecord, ...]

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> tuple[int, int]:
        return (
            sum(1 for r in self.records if r.winner == "a"),
            sum(1 for r in self.records if r.winner == "b"),
        )

    @property
    def ties(self) -> int:
        return sum(1 for r in self.records if r.winner is None)

    @property
    def win_rates(self) -> tuple[float, float]:
        """Wins per game of A and of B (ties count for neither)."""
        a, b = self.wins
        return (a / self.games, b / self.games) if self.games else (0.0, 0.0)

    @property
    def tie_rate(self) -> float:
        return self.ties / self.games if self.games else 0.0

    @property
    def scores(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Final scores of A and of B, game by game."""
        return (
            tuple(r.score_a for r in self.records),
            tuple(r.score_b for r in self.records),
        )

    @property
    def mean_scores(self) -> tuple[float, float]:
        a, b = self.scores
        return (statistics.fmean(a), statistics.fmean(b)) if self.games else (0.0, 0.0)

    @property
    def labels(self) -> tuple[str, str]:
        """The names, made distinct when both policies have the same one."""
        a, b = self.names
        return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)

    @property
    def distributions(self) -> dict[str, tuple[int, ...]]:
        """Final scores by policy label (what
        :func:`asterion.render.stellar_svg.score_distribution_svg` draws)."""
        a, b = self.scores
        return {self.labels[0]: a, self.labels[1]: b}

    def to_data(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {
            "policies": list(self.names),
            "seed": self.seed,
            "games": self.games,
            "wins": list(self.wins),
            "ties": self.ties,
            "win_rates": [round(r, 4) for r in self.win_rates],
            "mean_scores": [round(m, 4) for m in self.mean_scores],
            "scores": [list(s) for s in self.scores],
            "a_seats": [r.a_seat for r in self.records],
            "deals": [r.deal for r in self.records],
        }


def selfplay(
    policy_a: Policy,
    policy_b: Policy,
    games: int,
    seed: int = 0,
    *,
    rules: StellarRules | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SelfPlayReport:
    """``games`` games of ``policy_a`` against ``policy_b``, the same for the same seed.

    Games ``2k`` and ``2k+1`` are the same deal with the seats swapped (A moves first in the
    even game). Every move is checked by the rules engine. ``progress(done, games)`` is called
    after each game.

    :raises InputError: for fewer than 1 game, or more than the limit.

    >>> report = selfplay(GreedyPolicy(), RandomPolicy(), 2, seed=0)
    >>> report.games, sum(report.wins) + report.ties
    (2, 2)
    """
    if games < 1:
        raise InputError(f"games must be at least 1, not {games}", field="games")
    if games > MAX_GAMES:
        raise TooLargeError(f"at most {MAX_GAMES} games", field="games")
    rules = rules or StellarRules()
    if rules.is_solo:
        raise InputError("self-play needs two players, not a solo game")
    records = []
    for g in range(games):
        records.append(selfplay_game(policy_a, policy_b, seed, g, rules))
        if progress is not None:
            progress(g + 1, games)
    return SelfPlayReport((policy_a.name, policy_b.name), seed, tuple(records))


def selfplay_game(
    policy_a: Policy,
    policy_b: Policy,
    seed: int,
    game: int,
    rules: StellarRules,
    moves: list[Move] | None = None,
) -> GameRecord:
    """Game ``game`` of :func:`selfplay`; its moves are appended to ``moves`` if given."""
    deal = random.Random(f"stellar-selfplay-deal:{seed}:{game // 2}").getrandbits(32)
    a_seat = game % 2
    seats = (policy_a, policy_b) if a_seat == 0 else (policy_b, policy_a)
    rngs = (
        random.Random(f"stellar-selfplay:{seed}:{game}:0"),
        random.Random(f"stellar-selfplay:{seed}:{game}:1"),
    )
    final = play_out(StellarState.new_game(rules, seed=deal), seats, rngs, moves=moves)
    totals = [s.total for s in score(final)]
    return GameRecord(deal, a_seat, totals[a_seat], totals[1 - a_seat])
