"""The Nacht der Sterne rules engine: immutable states, legal moves, ``apply``, rewards.

Everything follows rules/nacht.md, "Play". A game is played on a solved tile set: each tile's
*cell* is its place in the unique arrangement (the verifier finds it), so a tile fits when its
cell is orthogonally next to a laid tile. Conventions:

- A tile is named by its cell number ``row * width + col``, row 0 north (:data:`Cell`);
  :attr:`Sky.tile_ids` gives its printed id. Sets of tiles are bit masks over cells.
- A *hole* is an interior vertex; it closes (a marker goes in) when its four cells are laid.
- A constellation *spans* the tiles its stars and lines lie on; it is complete when all of
  them are laid. A constellation lying wholly on the start tile is complete at setup and pays
  nobody.

A turn, as a sequence of moves by the active player:

1. The top tile of the pile is drawn when the turn begins. If it does not fit, it goes face
   up to the player's display; if it fits, the player must first :class:`Lay` it or
   :class:`Decline` it (pay 1 coin; the tile goes to the display, not to be laid in the same
   turn). At most ``max_declines`` (5) declines in a row: a player's streak counts their own
   consecutive turns with a decline, and any turn of theirs without one resets it (G1). A
   decline needs a coin to pay with (G2).
2. Then tiles from the own display that fit may be laid, at most ``lays_per_turn`` (2) in the
   turn, the drawn tile included.
3. :class:`Pass` ends the turn. If the player laid nothing and paid nothing while a tile of
   their display fits, the other players, in seat order from the next one (G3), may
   :class:`Knock`: the first who does lays that tile and takes 1 coin from the bank; holes and
   constellations it completes pay nobody (R: no constellation reward for the knocker; G4 for
   holes, ``knocker_collects_holes``). :class:`NoKnock` hands the choice to the next player.
4. Once the pile is empty nobody draws; a player with a fitting tile must lay at least one
   per turn (G5: "players lay their remaining tiles as they fit"), so the game ends.

Rewards for laying: +1 coin per hole it closes and +k for each constellation spanning k tiles
it completes. The game ends when every tile is laid; most coins wins (ties share the win).
Coins are scores: the bank never runs out (G6; with four players the box's 60 coins are all
dealt at the start).

Review variants (parameters of :class:`NachtRules`): ``set_aside_declines`` (declined coins
are set aside and paid only when that player next lays; a coin still set aside at the end
stays with the player), ``empty_display_bonus`` (once the pile is empty, the first player
whose display runs empty gains 1 coin at the start of each later turn of theirs).

>>> sky = Sky.grid(3, 3, {"A": (0, 1), "B": (4, 5)})
>>> state = NachtState.new_game(sky, players=2, seed=1)
>>> state.active, len(state.pile), sky.start
(0, 7, 4)
>>> isinstance(next(legal_moves(state)), (Lay, Pass))
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from asterion.errors import IllegalActionError, InputError
from asterion.models.edges import Arrangement
from asterion.models.nacht import TileSet

Cell = int
"""A tile, named by its cell in the finished picture: ``row * width + col``, row 0 north."""
Mask = int
"""A set of cells as bits (bit ``c`` for cell ``c``)."""

START_COINS = 15
"""R: each player's coins at the start."""
MAX_DECLINES = 5
LAYS_PER_TURN = 2
MIN_PLAYERS, MAX_PLAYERS = 1, 5
"""3-4 as published; 2 and 5 as options; 1 for the solo invariant."""

Phase = Literal["turn", "knock", "over"]
FRONTIER_CACHE = 1 << 18
"""Laid sets whose frontier a sky remembers before starting afresh."""


def bits(mask: Mask) -> Iterator[Cell]:
    """The cells of a mask, ascending.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def centre_cell(width: int, height: int) -> Cell:
    """N4: the start tile's cell, the middle one (north-west of the middle on even sides)."""
    return ((height - 1) // 2) * width + (width - 1) // 2


# -- the sky: what the finished picture says about each cell ---------------------------------------


@dataclass(frozen=True)
class Sky:
    """The finished picture as the game needs it: tiles by cell, holes, constellation spans.

    ``constellations`` pairs each constellation with the mask of the cells it spans.
    """

    width: int
    height: int
    tile_ids: tuple[str, ...]
    constellations: tuple[tuple[str, Mask], ...]
    start: Cell
    name: str = ""
    neighbours: tuple[Mask, ...] = field(init=False, repr=False, compare=False)
    holes_at: tuple[tuple[Mask, ...], ...] = field(init=False, repr=False, compare=False)
    spans_at: tuple[tuple[tuple[Mask, int], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    hole_masks: tuple[Mask, ...] = field(init=False, repr=False, compare=False)
    span_sizes: tuple[tuple[Mask, int], ...] = field(init=False, repr=False, compare=False)
    _frontiers: dict[Mask, Mask] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        if len(self.tile_ids) != w * h:
            raise InputError(f"{len(self.tile_ids)} tile ids for a {w}x{h} grid")
        if not 0 <= self.start < w * h:
            raise InputError(f"start cell {self.start} is outside the {w}x{h} grid")
        neighbours = []
        for cell in range(w * h):
            r, c = divmod(cell, w)
            mask = 0
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < h and 0 <= cc < w:
                    mask |= 1 << (rr * w + cc)
            neighbours.append(mask)
        holes: list[list[Mask]] = [[] for _ in range(w * h)]
        for vr in range(1, h):
            for vc in range(1, w):
                cells = ((vr - 1) * w + vc - 1, (vr - 1) * w + vc, vr * w + vc - 1, vr * w + vc)
                mask = sum(1 << cell for cell in cells)
                for cell in cells:
                    holes[cell].append(mask)
        spans: list[list[tuple[Mask, int]]] = [[] for _ in range(w * h)]
        for _, mask in self.constellations:
            if mask <= 0 or mask >> (w * h):
                raise InputError(f"a constellation's cells must lie in the {w}x{h} grid")
            for cell in bits(mask):
                spans[cell].append((mask, mask.bit_count()))
        object.__setattr__(self, "neighbours", tuple(neighbours))
        object.__setattr__(self, "holes_at", tuple(tuple(x) for x in holes))
        object.__setattr__(self, "spans_at", tuple(tuple(x) for x in spans))
        object.__setattr__(self, "hole_masks", tuple(sorted({m for ms in holes for m in ms})))
        object.__setattr__(
            self, "span_sizes", tuple((mask, mask.bit_count()) for _, mask in self.constellations)
        )

    @classmethod
    def grid(
        cls,
        width: int,
        height: int,
        constellations: Mapping[str, Iterable[Cell]],
        *,
        start: Cell | None = None,
        tile_ids: Sequence[str] | None = None,
        name: str = "",
    ) -> Sky:
        """A sky given directly by cells (tests, hand-worked examples); ids ``c0``, ``c1`` …"""
        ids = (
            tuple(tile_ids)
            if tile_ids is not None
            else tuple(f"c{i}" for i in range(width * height))
        )
        spans = tuple(
            (abbr, sum(1 << c for c in set(cells))) for abbr, cells in constellations.items()
        )
        return cls(
            width,
            height,
            ids,
            spans,
            centre_cell(width, height) if start is None else start,
            name,
        )

    @classmethod
    def from_arrangement(
        cls, tileset: TileSet, arrangement: Arrangement, *, start: Cell | None = None
    ) -> Sky:
        """The sky of a solved tile set: ``arrangement`` is the verifier's unique one
        (``verify(tileset).placements[0]``); a constellation spans the tiles carrying one of
        its stars or line pieces (as :func:`asterion.solver.nacht_verify.constellation_spans`
        counts them)."""
        w, h = tileset.width, tileset.height
        if len(arrangement) != h or any(len(row) != w for row in arrangement):
            raise InputError(f"the arrangement is not {w}x{h}")
        ids: list[str] = []
        masks: dict[str, Mask] = {}
        for r, row in enumerate(arrangement):
            for c, placed in enumerate(row):
                tile = tileset.tiles[placed.piece]
                ids.append(tile.id)
                names = {s.constellation for s in tile.stars} | {
                    s.constellation for s in tile.segments
                }
                for abbr in names:
                    if abbr:
                        masks[abbr] = masks.get(abbr, 0) | 1 << (r * w + c)
        order = [c.abbr for c in tileset.constellations]
        ranked = sorted(masks, key=lambda n: (order.index(n) if n in order else len(order), n))
        return cls(
            w,
            h,
            tuple(ids),
            tuple((abbr, masks[abbr]) for abbr in ranked),
            centre_cell(w, h) if start is None else start,
            tileset.name,
        )

    # -- queries -----------------------------------------------------------------------------------

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def full(self) -> Mask:
        return (1 << self.cells) - 1

    def cell_of(self, tile_id: str) -> Cell:
        """:raises InputError: for an id not in the sky."""
        try:
            return self.tile_ids.index(tile_id)
        except ValueError:
            raise InputError(f"no tile {tile_id!r} in the sky") from None

    def fits(self, laid: Mask, cell: Cell) -> bool:
        """The tile is not laid and its cell is orthogonally next to a laid one."""
        return not laid >> cell & 1 and bool(self.neighbours[cell] & laid)

    def fitting(self, laid: Mask, tiles: Mask) -> Mask:
        """The tiles of ``tiles`` that fit."""
        return tiles & self.frontier(laid)

    def frontier(self, laid: Mask) -> Mask:
        """The cells not laid next to a laid one (remembered per ``laid``: a hot path)."""
        cache = self._frontiers
        found = cache.get(laid)
        if found is None:
            found = 0
            for cell in bits(laid):
                found |= self.neighbours[cell]
            found &= ~laid
            if len(cache) >= FRONTIER_CACHE:
                cache.clear()
            cache[laid] = found
        return found

    def holes_closed(self, laid: Mask, cell: Cell) -> int:
        """Holes that laying ``cell`` onto ``laid`` closes."""
        after = laid | 1 << cell
        return sum(1 for hole in self.holes_at[cell] if hole & after == hole)

    def completed(self, laid: Mask, cell: Cell) -> tuple[str, ...]:
        """Constellations that laying ``cell`` onto ``laid`` completes."""
        after = laid | 1 << cell
        return tuple(
            abbr for abbr, mask in self.constellations if mask >> cell & 1 and mask & after == mask
        )

    def gain(self, laid: Mask, cell: Cell) -> int:
        """Coins for laying ``cell`` onto ``laid``: +1 per closed hole, +k per completed
        constellation of k tiles."""
        after = laid | 1 << cell
        coins = 0
        for hole in self.holes_at[cell]:
            if hole & after == hole:
                coins += 1
        for mask, size in self.spans_at[cell]:
            if mask & after == mask:
                coins += size
        return coins

    def markers(self, laid: Mask) -> int:
        """Closed holes (markers placed) in ``laid``."""
        return sum(
            1
            for vr in range(1, self.height)
            for vc in range(1, self.width)
            if all(
                laid >> cell & 1
                for cell in (
                    (vr - 1) * self.width + vc - 1,
                    (vr - 1) * self.width + vc,
                    vr * self.width + vc - 1,
                    vr * self.width + vc,
                )
            )
        )

    def solo_total(self) -> int:
        """Every reward a game pays: the holes, plus the span sizes of the constellations not
        wholly on the start tile (the issue's solo invariant, before declines)."""
        holes = (self.width - 1) * (self.height - 1)
        spans = sum(mask.bit_count() for _, mask in self.constellations if mask != 1 << self.start)
        return holes + spans


# -- rules and moves -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NachtRules:
    """The rules' numbers and the assumptions and review variants as named parameters
    (module docstring; G1-G6 there)."""

    start_coins: int = START_COINS
    max_declines: int = MAX_DECLINES
    decline_cost: int = 1
    lays_per_turn: int = LAYS_PER_TURN
    knock_reward: int = 1
    knocker_collects_holes: bool = False
    """G4: the knocker's lay pays for the holes it closes too."""
    set_aside_declines: bool = False
    """Review variant: declined coins are set aside, paid when that player next lays."""
    empty_display_bonus: bool = False
    """Review variant: the first player whose display runs empty (pile empty) gains 1 coin at
    each later turn."""


@dataclass(frozen=True)
class Lay:
    """Lay a tile: the drawn one or one from the own display."""

    tile: Cell


@dataclass(frozen=True)
class Decline:
    """Do not lay the fitting drawn tile: pay, and it goes to the own display."""


@dataclass(frozen=True)
class Pass:
    """End the turn."""


@dataclass(frozen=True)
class Knock:
    """Lay a fitting tile of the player who just passed over it, for the knock reward."""

    tile: Cell


@dataclass(frozen=True)
class NoKnock:
    """Do not knock; the next player may."""


Move = Lay | Decline | Pass | Knock | NoKnock


def describe(move: Move, sky: Sky) -> str:
    """A move in words, with the tile's printed id."""
    if isinstance(move, Lay):
        return f"lay {sky.tile_ids[move.tile]}"
    if isinstance(move, Knock):
        return f"knock and lay {sky.tile_ids[move.tile]}"
    return {Decline: "decline (pay 1)", Pass: "pass", NoKnock: "do not knock"}[type(move)]


# -- the state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NachtState:
    """A position. ``displays[p]``: the tiles face up in front of player p; ``drawn``: the
    fitting drawn tile awaiting lay or decline; ``lays``: tiles laid this turn; ``declined``:
    the tile declined this turn (it cannot be laid in the same turn);
    ``knocker``: who may knock now (phase "knock"); ``owed``: coins set aside (variant)."""

    sky: Sky = field(compare=False, repr=False)
    laid: Mask
    displays: tuple[Mask, ...]
    pile: tuple[Cell, ...]
    coins: tuple[int, ...]
    streaks: tuple[int, ...]
    owed: tuple[int, ...]
    active: int = 0
    phase: Phase = "turn"
    drawn: Cell | None = None
    lays: int = 0
    declined: Cell | None = None
    knocker: int | None = None
    first_out: int | None = None
    rules: NachtRules = field(default_factory=NachtRules, compare=False, repr=False)

    @classmethod
    def start(
        cls,
        sky: Sky,
        order: Sequence[Cell],
        players: int = 3,
        rules: NachtRules | None = None,
    ) -> NachtState:
        """Setup with a known pile ``order`` (top first: every cell but the start tile's);
        player 0 begins and draws at once.

        :raises InputError: for a player count outside 1-5 or an order that is not the
            other tiles once each.
        """
        rules = rules or NachtRules()
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InputError(
                f"{players} players: the game takes {MIN_PLAYERS}-{MAX_PLAYERS}", field="players"
            )
        if sorted(order) != [c for c in range(sky.cells) if c != sky.start]:
            raise InputError(
                "the draw order must list every tile except the start tile exactly once",
                field="order",
            )
        state = cls(
            sky,
            laid=1 << sky.start,
            displays=(0,) * players,
            pile=tuple(order),
            coins=(rules.start_coins,) * players,
            streaks=(0,) * players,
            owed=(0,) * players,
            active=players - 1,
            rules=rules,
        )
        return _begin_turn(state, 0)

    @classmethod
    def new_game(
        cls, sky: Sky, players: int = 3, seed: int = 0, rules: NachtRules | None = None
    ) -> NachtState:
        """Setup: the start tile laid (N4), the others shuffled with ``seed``
        (:func:`deal_order`)."""
        return cls.start(sky, deal_order(sky, seed), players, rules)

    # -- queries -----------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.coins)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def decider(self) -> int:
        """Who moves now: the knocker in phase "knock", else the active player."""
        return self.knocker if self.knocker is not None else self.active

    @property
    def markers(self) -> int:
        return self.sky.markers(self.laid)

    def fitting_display(self, player: int) -> Mask:
        return self.sky.fitting(self.laid, self.displays[player])

    def can_decline(self) -> bool:
        rules = self.rules
        p = self.active
        return (
            self.drawn is not None
            and self.streaks[p] < rules.max_declines
            and self.coins[p] - self.owed[p] >= rules.decline_cost
        )

    def unseen(self) -> Mask:
        """The tiles in the pile (face down), as a mask."""
        return sum(1 << c for c in self.pile)

    def winners(self) -> tuple[int, ...]:
        best = max(self.coins)
        return tuple(p for p, c in enumerate(self.coins) if c == best)


def deal_order(sky: Sky, seed: int) -> list[Cell]:
    """The pile of a seeded deal, top first: every tile but the start tile, shuffled."""
    order = [c for c in range(sky.cells) if c != sky.start]
    random.Random(f"nacht-deal:{seed}").shuffle(order)
    return order


# -- legal moves -----------------------------------------------------------------------------------


def legal_moves(state: NachtState) -> Iterator[Move]:
    """Every legal move of :attr:`NachtState.decider`, in a fixed order."""
    if state.phase == "over":
        return
    sky = state.sky
    # Knock window: any fitting tile of the player who passed over it, or let it go.
    if state.phase == "knock":
        for cell in bits(state.fitting_display(state.active)):
            yield Knock(cell)
        yield NoKnock()
        return
    # A fitting drawn tile is dealt with first: lay it, or decline and pay.
    if state.drawn is not None:
        yield Lay(state.drawn)
        if state.can_decline():
            yield Decline()
        return
    # Display tiles that fit, while the turn has lays left.
    fitting = sky.fitting(state.laid, state.displays[state.active])
    if state.declined is not None:
        fitting &= ~(1 << state.declined)
    if state.lays < state.rules.lays_per_turn:
        for cell in bits(fitting):
            yield Lay(cell)
    # Ending the turn; once the pile is empty a fitting tile must be laid (G5).
    if state.pile or not fitting or state.lays or state.declined is not None:
        yield Pass()


def is_legal(state: NachtState, move: Move) -> bool:
    return move in set(legal_moves(state))


def apply(state: NachtState, move: Move) -> NachtState:
    """The state after ``move``. :raises IllegalActionError: naming the move and the reason."""
    if not is_legal(state, move):
        raise IllegalActionError(f"illegal move {move}: {why_illegal(state, move)}")
    return apply_unchecked(state, move)


def why_illegal(state: NachtState, move: Move) -> str:
    if state.phase == "over":
        return "the game is over"
    if state.phase == "knock":
        if isinstance(move, Knock):
            return "that tile is not a fitting tile of the player who passed"
        return f"player {state.knocker} may only knock or not knock now"
    if isinstance(move, Knock | NoKnock):
        return "nobody passed over a fitting tile"
    if state.drawn is not None and move != Lay(state.drawn):
        if isinstance(move, Decline):
            if state.streaks[state.active] >= state.rules.max_declines:
                return f"{state.rules.max_declines} declines in a row already"
            return "no coin to pay for declining"
        return "the fitting drawn tile must first be laid or declined"
    if isinstance(move, Decline):
        return "there is no fitting drawn tile to decline"
    if isinstance(move, Lay):
        if state.lays >= state.rules.lays_per_turn:
            return f"at most {state.rules.lays_per_turn} tiles are laid per turn"
        if not state.displays[state.active] >> move.tile & 1:
            return "the tile is not in the player's display"
        if move.tile == state.declined:
            return "the tile was declined this turn"
        return "the tile does not fit (its cell is not next to a laid tile)"
    return "a fitting tile must be laid once the pile is empty"


def apply_unchecked(state: NachtState, move: Move) -> NachtState:
    """:func:`apply` without the legality check (search and rollouts, on legal moves)."""
    if isinstance(move, Lay):
        return _lay(state, move.tile)
    if isinstance(move, Decline):
        return _decline(state)
    if isinstance(move, Pass):
        return _pass(state)
    if isinstance(move, Knock):
        return _knock(state, move.tile)
    return _no_knock(state)


def _evolve(state: NachtState, **changes: object) -> NachtState:
    """``dataclasses.replace`` without re-running ``__init__`` (the fields are plain values;
    this is the engine's hot path)."""
    new = object.__new__(NachtState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _lay(state: NachtState, cell: Cell) -> NachtState:
    sky, p = state.sky, state.active
    coins = state.coins[p] + sky.gain(state.laid, cell) - state.owed[p]
    laid = state.laid | 1 << cell
    display = state.displays[p] & ~(1 << cell)
    first_out = state.first_out
    if first_out is None and not state.pile and not display and state.rules.empty_display_bonus:
        first_out = p
    return _evolve(
        state,
        laid=laid,
        displays=_set(state.displays, p, display),
        coins=_set(state.coins, p, coins),
        owed=_set(state.owed, p, 0),
        drawn=None if state.drawn == cell else state.drawn,
        lays=state.lays + 1,
        first_out=first_out,
        phase="over" if laid == sky.full else "turn",
    )


def _decline(state: NachtState) -> NachtState:
    p, cost, drawn = state.active, state.rules.decline_cost, state.drawn
    assert drawn is not None
    if state.rules.set_aside_declines:
        coins, owed = state.coins, _set(state.owed, p, state.owed[p] + cost)
    else:
        coins, owed = _set(state.coins, p, state.coins[p] - cost), state.owed
    return _evolve(
        state,
        coins=coins,
        owed=owed,
        streaks=_set(state.streaks, p, state.streaks[p] + 1),
        displays=_set(state.displays, p, state.displays[p] | 1 << drawn),
        drawn=None,
        declined=drawn,
    )


def _pass(state: NachtState) -> NachtState:
    p = state.active
    paid = state.declined is not None
    streaks = state.streaks if paid else _set(state.streaks, p, 0)
    state = _evolve(state, streaks=streaks)
    if state.players > 1 and state.lays == 0 and not paid and state.fitting_display(p):
        return _evolve(state, phase="knock", knocker=(p + 1) % state.players)
    return _begin_turn(state, (p + 1) % state.players)


def _knock(state: NachtState, cell: Cell) -> NachtState:
    sky, rules, k, p = state.sky, state.rules, state.decider, state.active
    reward = rules.knock_reward
    if rules.knocker_collects_holes:
        reward += sky.holes_closed(state.laid, cell)
    laid = state.laid | 1 << cell
    state = _evolve(
        state,
        laid=laid,
        displays=_set(state.displays, p, state.displays[p] & ~(1 << cell)),
        coins=_set(state.coins, k, state.coins[k] + reward - state.owed[k]),
        owed=_set(state.owed, k, 0),
        knocker=None,
        phase="turn",
    )
    if laid == sky.full:
        return _evolve(state, phase="over")
    return _begin_turn(state, (p + 1) % state.players)


def _no_knock(state: NachtState) -> NachtState:
    assert state.knocker is not None
    following = (state.knocker + 1) % state.players
    if following == state.active:
        nobody = _evolve(state, knocker=None, phase="turn")
        return _begin_turn(nobody, (state.active + 1) % state.players)
    return _evolve(state, knocker=following)


def _begin_turn(state: NachtState, player: int) -> NachtState:
    """The next turn: draw the top tile, which awaits a decision when it fits and goes to the
    display when it does not; with the pile empty, the empty-display bonus."""
    sky, coins, first_out = state.sky, state.coins, state.first_out
    displays, drawn, pile = state.displays, None, state.pile
    if pile:
        top, pile = pile[0], pile[1:]
        if sky.fits(state.laid, top):
            drawn = top
        else:
            displays = _set(displays, player, displays[player] | 1 << top)
    elif state.rules.empty_display_bonus:
        if first_out == player:
            coins = _set(coins, player, coins[player] + 1)
        elif first_out is None and not displays[player]:
            first_out = player
    return _evolve(
        state,
        active=player,
        phase="turn",
        pile=pile,
        drawn=drawn,
        displays=displays,
        coins=coins,
        lays=0,
        declined=None,
        knocker=None,
        first_out=first_out,
    )
