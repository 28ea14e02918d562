"""The Aster rules engine: immutable states, legal actions, and ``apply``.

Everything follows rules/aster.md; assumptions are the named parameters of :class:`Board`
(A1, A2, A4) and :class:`AsterRules` (A5–A9, the quick variant).

A turn has two phases (rules/aster.md, "Turn"): the active player uses the symbols of the
action list in order, each slot at most once and any of them skipped (:class:`Action`),
then may claim one face-up constellation present on the board (:class:`Claim`), then ends
the turn (:class:`EndTurn`), which scores the hourglass and passes to the next player.

>>> state = AsterState.new_game(players=(Color.RED, Color.BLUE))
>>> state.player, state.actions
(<Color.RED: 'red'>, (<ActionKind.GENERATE: 'generate'>, <ActionKind.MOVE_RING: 'move_ring'>, \
<ActionKind.MOVE_LINE: 'move_line'>, <ActionKind.NUDGE: 'nudge'>))
>>> after = apply(state, Action(ActionKind.GENERATE, slot=0, point="C"))
>>> after.star_at("C"), after.reserve_of(Color.RED)
(<Color.RED: 'red'>, 7)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache

from asterion.errors import IllegalActionError, InputError
from asterion.models.aster_board import Board, Direction, Point
from asterion.models.aster_cards import (
    ActionKind,
    Card,
    Catalog,
    Deck,
    ScoringKind,
    default_catalog,
)
from asterion.models.aster_patterns import (
    DEFAULT_TRANSFORMS,
    Placement,
    Transforms,
    placements,
)


class Color(StrEnum):
    """The four star colors, in seating order; each is also a player."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"

    @property
    def number(self) -> int:
        """Position in :data:`COLORS`: the index into per-color tuples of a state."""
        return COLORS.index(self)


COLORS: tuple[Color, ...] = tuple(Color)

HOME_DIRECTIONS: dict[Color, Direction] = {
    Color.RED: Direction.NE,
    Color.BLUE: Direction.NW,
    Color.GREEN: Direction.SW,
    Color.YELLOW: Direction.SE,
}
"""A3: each color starts on ``2D`` and ``3D`` for its direction ``D``."""


def parse_color(name: str) -> Color:
    """:raises InputError: naming the known colors."""
    try:
        return Color(name)
    except ValueError:
        known = ", ".join(c.value for c in Color)
        raise InputError(f"unknown color {name!r} (expected one of: {known})") from None


@dataclass(frozen=True)
class AsterRules:
    """The rule parameters of a game beyond the board's geometry.

    Parameters
    ----------
    board:
        The geometry and its parameters (A1, A2, A4).
    catalog:
        The cards: constellations and the Big and Bang base cards.
    transforms:
        A8: which transforms of a pattern count as present.
    base_cards:
        A6: the two cards every row starts with (standard side: ``Big``, ``Bang``).
    row_limit:
        The row length that ends the game: 8 (Big and Bang count); 6 in the quick variant.
    row_bonus:
        VP for the player who completes the row (10).
    stars_per_color:
        Stars each color owns (10).
    hourglass_start, hourglass_end:
        The hourglass track runs from +3 (start of every turn) to −3.
    offer_per_deck:
        Face-up cards dealt from each deck (3, so 6 claimable constellations).
    asymmetric:
        The asymmetric variant (off by default): each player's Big and Bang show the
        astronomer side of the player's copy (copy k for the k-th color of :data:`COLORS`),
        and the cards' scoring effects count at the final score.
    """

    board: Board = field(default_factory=Board)
    catalog: Catalog = field(default_factory=default_catalog)
    transforms: Transforms = DEFAULT_TRANSFORMS
    base_cards: tuple[str, str] = ("Big", "Bang")
    row_limit: int = 8
    row_bonus: int = 10
    stars_per_color: int = 10
    hourglass_start: int = 3
    hourglass_end: int = -3
    offer_per_deck: int = 3
    asymmetric: bool = False

    @classmethod
    def quick(cls, **kwargs: object) -> AsterRules:
        """The quick variant: the game ends when a row reaches 6 cards."""
        return cls(row_limit=6, **kwargs)  # type: ignore[arg-type]

    def placements_of(self, card: Card) -> list[Placement]:
        return _cached_placements(self.board, card.pattern, self.transforms)

    def card_actions(self, abbr: str, owner: Color) -> tuple[ActionKind, ...]:
        """The actions card ``abbr`` gives ``owner``: in the asymmetric variant a base card
        shows the astronomer side of the owner's copy.

        :raises InputError: if the catalog lacks that astronomer side.
        """
        card = self.catalog[abbr]
        if self.asymmetric and card.deck is Deck.BASE:
            return self.catalog.astronomer_actions(abbr, owner.number + 1)
        return card.actions


@cache
def _cached_placements(
    board: Board, pattern: tuple[tuple[int, int], ...], transforms: Transforms
) -> list[Placement]:
    return placements(board, pattern, transforms)


# -- moves ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One use of the action symbol in ``slot`` of the active player's action list.

    ``point`` is where a star is generated; ``origin`` and ``target`` are the two ends of a
    move; ``deck`` and ``host`` (row index) say which card ``gravity`` aggregates where.
    """

    kind: ActionKind
    slot: int
    point: Point | None = None
    origin: Point | None = None
    target: Point | None = None
    deck: Deck | None = None
    host: int | None = None

    def __str__(self) -> str:
        details = [f"slot {self.slot}"]
        if self.point is not None:
            details.append(f"at {self.point}")
        if self.origin is not None:
            details.append(f"{self.origin}->{self.target}")
        if self.deck is not None:
            details.append(f"top of {self.deck.value} deck under card {self.host}")
        return f"{self.kind.value} ({', '.join(details)})"


@dataclass(frozen=True)
class Claim:
    """Claim the face-up card ``abbr`` with the placement ``points`` (A9: the claimant chooses)."""

    abbr: str
    points: frozenset[Point]

    def __str__(self) -> str:
        return f"claim {self.abbr} on {' '.join(sorted(self.points))}"


@dataclass(frozen=True)
class EndTurn:
    """End the turn after ``minutes`` on the hourglass (time is a per-turn parameter)."""

    minutes: int = 0

    def __str__(self) -> str:
        return f"end turn after {self.minutes} min"


Move = Action | Claim | EndTurn


# -- the state ------------------------------------------------------------------------------


PerColor = tuple[int, int, int, int]


@dataclass(frozen=True)
class AsterState:
    """A complete, immutable, hashable Aster position.

    Per-color tuples (``reserve``, ``vp``, ``rows``, ``aside``, ``aggregated``) are indexed
    by :attr:`Color.number`; ``stars`` by the board's point index. ``rules`` does not take
    part in equality or hashing: compare states of one game only.
    """

    stars: tuple[Color | None, ...]
    reserve: PerColor
    players: tuple[Color, ...]
    active: int = 0
    actions: tuple[ActionKind, ...] = ()
    next_slot: int = 0
    claimed: bool = False
    black_holes: int = 0
    vp: PerColor = (0, 0, 0, 0)
    rows: tuple[tuple[str, ...], ...] = ((), (), (), ())
    aside: tuple[tuple[str, ...], ...] = ((), (), (), ())
    aggregated: tuple[tuple[tuple[int, str], ...], ...] = ((), (), (), ())
    offer: tuple[str, ...] = ()
    decks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    final_turns_left: int | None = None
    is_over: bool = False
    rules: AsterRules = field(default_factory=AsterRules, compare=False, hash=False, repr=False)

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def new_game(
        cls,
        players: Iterable[Color] = (Color.RED, Color.BLUE),
        rules: AsterRules | None = None,
        seed: int = 0,
    ) -> AsterState:
        """The setup of rules/aster.md: starting stars (A3), Big and Bang rows, shuffled decks
        (by ``seed``) with 3 face-up cards from each."""
        rules = rules or AsterRules()
        players = tuple(players)
        if not 1 <= len(players) <= len(COLORS) or len(set(players)) != len(players):
            raise InputError("players must be 1 to 4 distinct colors", field="players")
        board = rules.board
        stars: list[Color | None] = [None] * len(board.points)
        reserve = [rules.stars_per_color] * len(COLORS)
        for color in players:
            for point in board.starting_points(HOME_DIRECTIONS[color]):
                stars[board.index[point]] = color
                reserve[color.number] -= 1
        rng = random.Random(seed)
        decks = []
        for deck in (Deck.SMALL, Deck.LARGE):
            abbrs = [card.abbr for card in rules.catalog.deck(deck)]
            rng.shuffle(abbrs)
            decks.append(abbrs)
        offer = [abbr for d in decks for abbr in d[: rules.offer_per_deck]]
        small, large = (tuple(d[rules.offer_per_deck :]) for d in decks)
        rows = tuple(rules.base_cards if c in players else () for c in COLORS)
        state = cls(
            stars=tuple(stars),
            reserve=_per_color(reserve),
            players=players,
            rows=rows,
            offer=tuple(offer),
            decks=(small, large),
            rules=rules,
        )
        return replace(state, actions=state.action_list_of(players[0]))

    # -- queries -------------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self.rules.board

    @property
    def player(self) -> Color:
        """The active player's color."""
        return self.players[self.active]

    def star_at(self, point: Point) -> Color | None:
        return self.stars[self.board.index[point]]

    def is_empty(self, point: Point) -> bool:
        return self.stars[self.board.index[point]] is None

    def stars_of(self, color: Color) -> list[Point]:
        """The points holding ``color``'s stars, in board order."""
        return [p for p, c in zip(self.board.points, self.stars, strict=True) if c is color]

    def star_map(self) -> dict[Point, Color]:
        """Occupied points and their colors, in board order."""
        return {p: c for p, c in zip(self.board.points, self.stars, strict=True) if c is not None}

    def reserve_of(self, color: Color) -> int:
        return self.reserve[color.number]

    def vp_of(self, color: Color) -> int:
        return self.vp[color.number]

    def row_of(self, color: Color) -> tuple[str, ...]:
        return self.rows[color.number]

    def action_list_of(self, color: Color) -> tuple[ActionKind, ...]:
        """The concatenated actions of ``color``'s row; aggregated cards follow their host (A5)."""
        extra: dict[int, list[str]] = {}
        for host, abbr in self.aggregated[color.number]:
            extra.setdefault(host, []).append(abbr)
        result: list[ActionKind] = []
        for i, abbr in enumerate(self.rows[color.number]):
            for card_abbr in (abbr, *extra.get(i, ())):
                result.extend(self.rules.card_actions(card_abbr, color))
        return tuple(result)

    def hourglass(self, minutes: int = 0) -> int:
        """The hourglass value the turn would score if it ended after ``minutes``."""
        return hourglass_value(self.rules, minutes, self.black_holes)

    def remaining_slots(self) -> range:
        """The slots of the action list the active player may still use this turn."""
        if self.is_over or self.claimed:
            return range(0)
        return range(self.next_slot, len(self.actions))

    def is_present(self, placement: Iterable[Point]) -> bool:
        """Whether every point of ``placement`` holds a star (of any color)."""
        return all(self.star_at(p) is not None for p in placement)

    def present_placements(self, card: Card) -> list[Placement]:
        """The placements of ``card`` present on the board (A8)."""
        return [pl for pl in self.rules.placements_of(card) if self.is_present(pl)]

    def board_key(self) -> tuple[Color | None, ...]:
        """The stars by point: what perft counts as a distinct board."""
        return self.stars


def _per_color(values: Iterable[int]) -> PerColor:
    a, b, c, d = values
    return (a, b, c, d)


def _with(values: PerColor, color: Color, delta: int) -> PerColor:
    as_list = list(values)
    as_list[color.number] += delta
    return _per_color(as_list)


def _with_item(
    items: tuple[tuple[str, ...], ...], color: Color, abbr: str
) -> tuple[tuple[str, ...], ...]:
    return tuple((*row, abbr) if i == color.number else row for i, row in enumerate(items))


# -- legal actions ----------------------------------------------------------------------------


def legal_actions(state: AsterState) -> Iterator[Move]:
    """Every legal move: slot actions (every remaining slot, in order), claims, end of turn.

    A symbol may be used from any remaining slot, skipping those before it; using an earlier
    slot of the same kind is never worse, but both are legal.
    """
    if state.is_over:
        return
    for slot in state.remaining_slots():
        yield from slot_actions(state, slot)
    if not state.claimed:
        yield from claims(state)
    yield EndTurn()


def slot_actions(state: AsterState, slot: int) -> Iterator[Action]:
    """The legal uses of the symbol in ``slot`` (assumed to be a remaining slot)."""
    kind = state.actions[slot]
    yield from _GENERATORS[kind](state, kind, slot)


def _gen_generate(state: AsterState, kind: ActionKind, slot: int) -> Iterator[Action]:
    if state.reserve_of(state.player) > 0:
        for point in state.board.generation_points:
            yield Action(kind, slot, point=point)


def _gen_generate_targeted(state: AsterState, kind: ActionKind, slot: int) -> Iterator[Action]:
    if state.reserve_of(state.player) > 0:
        for point in state.board.points:
            if state.is_empty(point):
                yield Action(kind, slot, point=point)


def line_targets(state: AsterState, origin: Point) -> Iterator[Point]:
    """Empty points reachable from ``origin`` along a straight line (A4 decides blocking)."""
    board = state.board
    for line in board.lines_through(origin):
        for target in line:
            if target == origin or not state.is_empty(target):
                continue
            if board.line_blocking and not all(
                state.is_empty(p) for p in board.between(line, origin, target)
            ):
                continue
            yield target


def ring_targets(state: AsterState, origin: Point) -> Iterator[Point]:
    """Empty points of ``origin``'s ring (none from the center)."""
    return (p for p in state.board.ring_points(origin) if p != origin and state.is_empty(p))


def nudge_targets(state: AsterState, origin: Point) -> Iterator[Point]:
    """Empty points one ``line`` or ``ring`` edge away."""
    return (p for p in state.board.neighbors(origin) if state.is_empty(p))


def _gen_move_line(state: AsterState, kind: ActionKind, slot: int) -> Iterator[Action]:
    for origin in state.stars_of(state.player):
        for target in line_targets(state, origin):
            yield Action(kind, slot, origin=origin, target=target)


def _gen_move_ring(state: AsterState, kind: ActionKind, slot: int) -> Iterator[Action]:
    for origin in state.stars_of(state.player):
        for target in ring_targets(state, origin):
            yield Action(kind, slot, origin=origin, target=target)


def _gen_nudge(state: AsterState, kind: ActionKind, slot: int) -> Iterator[Action]:
    for origin in state.star_map():
        for target in nudge_targets(state, origin):
            yield Action(kind, slot, origin=origin, target=target)


def _gen_plain(state: AsterState, kind: ActionKind, slot: int) -> Iterator[Action]:
    yield Action(kind, slot)


def _gen_gravity(state: AsterState, kind: ActionKind, slot: int) -> Iterator[Action]:
    catalog = state.rules.catalog
    row = state.row_of(state.player)
    hosts = [i for i, abbr in enumerate(row) if catalog[abbr].links.is_vertical]
    for deck, pile in zip((Deck.SMALL, Deck.LARGE), state.decks, strict=True):
        if pile:
            for host in hosts:
                yield Action(kind, slot, deck=deck, host=host)


_GENERATORS = {
    ActionKind.GENERATE: _gen_generate,
    ActionKind.GENERATE_TARGETED: _gen_generate_targeted,
    ActionKind.MOVE_LINE: _gen_move_line,
    ActionKind.MOVE_RING: _gen_move_ring,
    ActionKind.NUDGE: _gen_nudge,
    ActionKind.SUPERNOVA: _gen_plain,
    ActionKind.BLACK_HOLE: _gen_plain,
    ActionKind.VICTORY_POINT: _gen_plain,
    ActionKind.GRAVITY: _gen_gravity,
}


def claims(state: AsterState) -> Iterator[Claim]:
    """Every claim of a face-up card on a placement present now, in offer order."""
    for abbr in state.offer:
        for placement in state.present_placements(state.rules.catalog[abbr]):
            yield Claim(abbr, placement)


# -- apply ------------------------------------------------------------------------------------


def apply(state: AsterState, move: Move) -> AsterState:
    """The state after ``move``.

    :raises IllegalActionError: quoting the move and saying why it is not legal.
    """
    reason = why_illegal(state, move)
    if reason is not None:
        raise IllegalActionError(f"illegal move {move}: {reason}")
    return apply_unchecked(state, move)


def is_legal(state: AsterState, move: Move) -> bool:
    return why_illegal(state, move) is None


def why_illegal(state: AsterState, move: Move) -> str | None:
    """``None`` if ``move`` is legal, else the reason. Legality is membership in the generated
    moves, so the generators stay the single source of truth; the checks only explain."""
    if state.is_over:
        return "the game is over"
    if isinstance(move, EndTurn):
        return None if move.minutes >= 0 else "minutes must be 0 or more"
    if isinstance(move, Claim):
        return _why_claim_illegal(state, move)
    if move.slot not in state.remaining_slots():
        if state.claimed:
            return "a constellation was claimed: the action phase is over"
        return f"slot {move.slot} is not available (remaining: {list(state.remaining_slots())})"
    if state.actions[move.slot] is not move.kind:
        return f"slot {move.slot} holds {state.actions[move.slot].value}, not {move.kind.value}"
    if move in slot_actions(state, move.slot):
        return None
    return _explain_action(state, move)


def _why_claim_illegal(state: AsterState, claim: Claim) -> str | None:
    if state.claimed:
        return "a constellation was already claimed this turn"
    if claim.abbr not in state.offer:
        return f"{claim.abbr} is not face up (offer: {', '.join(state.offer)})"
    card = state.rules.catalog[claim.abbr]
    if claim.points not in state.rules.placements_of(card):
        return f"those points are not a placement of {claim.abbr}"
    empty = sorted(p for p in claim.points if state.is_empty(p))
    if empty:
        return f"no star on {', '.join(empty)}"
    return None


def _explain_action(state: AsterState, action: Action) -> str:
    board, kind = state.board, action.kind
    for name in (action.point, action.origin, action.target):
        if name is not None and name not in board.index:
            return f"unknown point {name!r}"
    if kind in (ActionKind.GENERATE, ActionKind.GENERATE_TARGETED):
        if state.reserve_of(state.player) == 0:
            return "no star left in the reserve"
        if kind is ActionKind.GENERATE:
            return f"{action.point} is not a generation point"
        return f"{action.point} is not empty"
    if kind in (ActionKind.MOVE_LINE, ActionKind.MOVE_RING, ActionKind.NUDGE):
        if action.origin is None or action.target is None:
            return "a move needs an origin and a target"
        owner = state.star_at(action.origin)
        if owner is None:
            return f"no star on {action.origin}"
        if kind is not ActionKind.NUDGE and owner is not state.player:
            return f"the star on {action.origin} is {owner.value}'s, not {state.player.value}'s"
        if not state.is_empty(action.target):
            return f"{action.target} is not empty"
        route = {ActionKind.MOVE_LINE: "straight line", ActionKind.MOVE_RING: "ring"}
        return f"{action.target} is not reachable by {route.get(kind, 'one edge')}"
    if kind is ActionKind.GRAVITY:
        return "no such deck card or no host card with a vertical link"
    return "extra details given"


def apply_unchecked(state: AsterState, move: Move) -> AsterState:
    """The state after a move known to be legal (as produced by :func:`legal_actions`)."""
    if isinstance(move, EndTurn):
        return _end_turn(state, move.minutes)
    if isinstance(move, Claim):
        return _claim(state, move)
    after = _EFFECTS[move.kind](state, move)
    return replace(after, next_slot=move.slot + 1)


def _set_star(
    stars: tuple[Color | None, ...], i: int, color: Color | None
) -> tuple[Color | None, ...]:
    return (*stars[:i], color, *stars[i + 1 :])


def _place_from_reserve(state: AsterState, point: Point) -> AsterState:
    """Put one of the player's reserve stars on ``point``; a star already there is destroyed
    and returns to its owner's reserve."""
    i, player = state.board.index[point], state.player
    reserve = _with(state.reserve, player, -1)
    destroyed = state.stars[i]
    if destroyed is not None:
        reserve = _with(reserve, destroyed, +1)
    return replace(state, stars=_set_star(state.stars, i, player), reserve=reserve)


def _effect_generate(state: AsterState, action: Action) -> AsterState:
    assert action.point is not None
    return _place_from_reserve(state, action.point)


def _effect_move(state: AsterState, action: Action) -> AsterState:
    assert action.origin is not None and action.target is not None
    index = state.board.index
    color = state.stars[index[action.origin]]
    stars = _set_star(state.stars, index[action.origin], None)
    return replace(state, stars=_set_star(stars, index[action.target], color))


def _effect_supernova(state: AsterState, action: Action) -> AsterState:
    player = state.player
    count = sum(1 for c in state.stars if c is player)
    stars = tuple(None if c is player else c for c in state.stars)
    return replace(
        state,
        stars=stars,
        reserve=_with(state.reserve, player, count),
        vp=_with(state.vp, player, count),
    )


def _effect_black_hole(state: AsterState, action: Action) -> AsterState:
    return replace(state, black_holes=state.black_holes + 1)


def _effect_victory_point(state: AsterState, action: Action) -> AsterState:
    return replace(state, vp=_with(state.vp, state.player, 1))


def _effect_gravity(state: AsterState, action: Action) -> AsterState:
    """A5: the deck's top card goes under the host; its actions follow the host's from the
    next turn on (this turn's list was fixed when the turn began)."""
    assert action.deck is not None and action.host is not None
    which = 0 if action.deck is Deck.SMALL else 1
    top, rest = state.decks[which][0], state.decks[which][1:]
    decks = (rest, state.decks[1]) if which == 0 else (state.decks[0], rest)
    number = state.player.number
    aggregated = tuple(
        (*agg, (action.host, top)) if i == number else agg for i, agg in enumerate(state.aggregated)
    )
    return replace(state, decks=decks, aggregated=aggregated)


_EFFECTS = {
    ActionKind.GENERATE: _effect_generate,
    ActionKind.GENERATE_TARGETED: _effect_generate,
    ActionKind.MOVE_LINE: _effect_move,
    ActionKind.MOVE_RING: _effect_move,
    ActionKind.NUDGE: _effect_move,
    ActionKind.SUPERNOVA: _effect_supernova,
    ActionKind.BLACK_HOLE: _effect_black_hole,
    ActionKind.VICTORY_POINT: _effect_victory_point,
    ActionKind.GRAVITY: _effect_gravity,
}


def _claim(state: AsterState, claim: Claim) -> AsterState:
    """Score the stars used, file the card in the row (A7) or aside, refill the offer."""
    rules, player = state.rules, state.player
    card = rules.catalog[claim.abbr]
    vp = state.vp
    for point in claim.points:
        owner = state.star_at(point)
        if owner is not None:
            vp = _with(vp, owner, 1)
    state = replace(state, vp=vp, claimed=True, next_slot=len(state.actions))
    row = state.row_of(player)
    if can_append(rules.catalog, row, card):
        state = replace(state, rows=_with_item(state.rows, player, card.abbr))
        if len(row) + 1 == rules.row_limit:
            state = _complete_row(state)
    else:
        state = replace(state, aside=_with_item(state.aside, player, card.abbr))
    return _refill_offer(state, card)


def can_append(catalog: Catalog, row: tuple[str, ...], card: Card) -> bool:
    """A7: a card joins the row iff the last card links right and the new card links left."""
    return bool(row) and catalog[row[-1]].links.right and card.links.left


def _complete_row(state: AsterState) -> AsterState:
    """The row reached its limit: +10 VP, and every other player has one more turn. A second
    player completing a row during those turns scores the bonus without extending them."""
    vp = _with(state.vp, state.player, state.rules.row_bonus)
    if state.final_turns_left is None:
        return replace(state, vp=vp, final_turns_left=len(state.players))
    return replace(state, vp=vp)


def _refill_offer(state: AsterState, claimed: Card) -> AsterState:
    """The claimed card is replaced, in place, by the top card of its deck (if any)."""
    which = 0 if claimed.deck is Deck.SMALL else 1
    pile = state.decks[which]
    offer = list(state.offer)
    position = offer.index(claimed.abbr)
    if pile:
        offer[position] = pile[0]
        decks = (pile[1:], state.decks[1]) if which == 0 else (state.decks[0], pile[1:])
        return replace(state, offer=tuple(offer), decks=decks)
    del offer[position]
    return replace(state, offer=tuple(offer))


def hourglass_value(rules: AsterRules, minutes: int, black_holes: int) -> int:
    """The hourglass at the end of a turn: one step per minute from +3, stopping at −3; each
    black hole then moves it back one step, at most to +3."""
    after_time = max(rules.hourglass_end, rules.hourglass_start - minutes)
    return min(rules.hourglass_start, after_time + black_holes)


def _end_turn(state: AsterState, minutes: int) -> AsterState:
    value = hourglass_value(state.rules, minutes, state.black_holes)
    state = replace(state, vp=_with(state.vp, state.player, value))
    left = state.final_turns_left
    if left is not None:
        left -= 1
        if left == 0:
            return replace(state, final_turns_left=0, is_over=True)
    following = (state.active + 1) % len(state.players)
    state = replace(state, active=following, final_turns_left=left)
    return replace(
        state,
        actions=state.action_list_of(state.players[following]),
        next_slot=0,
        claimed=False,
        black_holes=0,
    )


# -- final scoring ------------------------------------------------------------------------------


def final_scores(state: AsterState) -> dict[Color, int]:
    """VP gained in play + card points of claimed cards (row and aside, not aggregated) +, in
    the asymmetric variant, the scoring effects of those cards."""
    catalog = state.rules.catalog
    scores = {}
    for color in state.players:
        claimed = state.rows[color.number] + state.aside[color.number]
        total = state.vp_of(color) + sum(catalog[abbr].points for abbr in claimed)
        if state.rules.asymmetric:
            total += effects_score(state, color)
        scores[color] = total
    return scores


def effects_score(state: AsterState, color: Color) -> int:
    """The scoring effects of ``color``'s claimed cards (row and aside; an aggregated card's
    effect does not count, as the card scores nothing, A5)."""
    catalog = state.rules.catalog
    row = state.rows[color.number]
    total = 0
    for abbr in row + state.aside[color.number]:
        effect = catalog[abbr].scoring
        if effect is not None:
            total += effect.points * effect_units(state, color, effect.kind, in_row=abbr in row)
    return total


def effect_units(state: AsterState, color: Color, kind: ScoringKind, *, in_row: bool) -> int:
    """How many times an effect of ``kind`` on one of ``color``'s claimed cards pays
    (definitions: :class:`ScoringKind`); ``in_row`` says whether that card is in the row."""
    number, board = color.number, state.board
    match kind:
        case ScoringKind.IN_ROW:
            return int(in_row)
        case ScoringKind.PER_SMALL_CARD:
            return claimed_by_deck(state, color)[Deck.SMALL]
        case ScoringKind.PER_SET:
            decks = claimed_by_deck(state, color)
            return min(decks[Deck.SMALL], decks[Deck.LARGE])
        case ScoringKind.PER_AGGREGATED_CARD:
            return len(state.aggregated[number])
        case ScoringKind.PER_INNER_STAR:
            return sum(1 for p in state.stars_of(color) if board.ring_of(p) == board.rings)
        case ScoringKind.PER_GENERATION_STAR:
            return sum(1 for p in state.stars_of(color) if p in board.generation_points)


def claimed_by_deck(state: AsterState, color: Color) -> Counter[Deck]:
    """How many of ``color``'s claimed cards (row and aside) come from each deck."""
    catalog = state.rules.catalog
    number = color.number
    return Counter(catalog[abbr].deck for abbr in state.rows[number] + state.aside[number])


def winners(state: AsterState) -> list[Color]:
    """The players with the highest final score (ties share the win)."""
    scores = final_scores(state)
    best = max(scores.values())
    return [color for color in state.players if scores[color] == best]
