"""The Akelarre rules engine: immutable states for 2–5 players, the message chain, ``apply``.

Everything follows rules/akelarre.md (from the Italian prototype rules in the seed). A turn is
the message chain, one :class:`Message` per seat: the first chooser (the first player; in a
two-player game the virtual third player) picks a destination and hands the card to an
opponent of their choice, who looks at it, picks, and hands theirs on; the last places theirs
directly (``to=None``). One player per turn may go to the Well instead, publicly. When the last
message is placed the rest of the turn has no choices left and :func:`resolve_turn` plays it:
reveal, the Well transfer, the rites in turn order (with exhaustion and objectives completed),
the end of the turn.

Conventions: elements and locations are the indices 0–3 of :data:`ELEMENTS` (K1: location
``i`` produces element ``i``); destination 4 is the Well (:data:`WELL`). Resources are 4-tuples
of counts by element. Seats are 0 … n−1; a two-player game has a third seat, the virtual player
(:attr:`AkelarreState.virtual_seat`), which is a chance node: it picks its destination at
random (:func:`is_chance_node`), never the Well, never uses a Sabba power, and is not ranked.

Assumptions beyond rules/akelarre.md, each a parameter of :class:`AkelarreRules` or a data
file (K1–K3 are named there):

- K4 ``sabba_bonus``: the seed does not describe the unique Sabba powers, so being alone at a
  location gives ``1 + sabba_bonus`` resources of its element (default 1), still limited by
  what is left there.
- K5: Power cards are drawn (one per completed objective, if any are left) and held; they
  count in the tie-break. Their effects are not played.
- K6: a player completes every objective they can at their rite, private before public,
  again after each replacement; sacrificed resources return to their element's location at
  once (the players after them in the rite order may take them).
- K7: the game ends after the last turn, or at the end of a turn in which a completed
  objective could not be replaced because the objective deck was empty.
- K8: the virtual player collects resources and completes objectives (its face-up private
  one, and the public one, drawing replacements and Power cards) like a Sorginak; it sends
  its message to the first Sorginak (seat 0) on odd turns, to the second (seat 1) on even
  turns, whoever is the first player; in every phase it goes first.

>>> rules = AkelarreRules.default(4)
>>> state = AkelarreState.new_game(rules, seed=1)
>>> state.holder == state.first
True
>>> len(list(legal_actions(state)))  # 5 destinations × 3 opponents to hand the card to
15
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Literal

from asterion.errors import IllegalActionError, InputError

Seat = int
Destination = int
"""0–3: a location (producing the element with that index), 4: the Well."""
ObjectiveId = str
PowerId = str
Resources = tuple[int, int, int, int]

ELEMENTS: tuple[str, str, str, str] = ("earth", "water", "air", "fire")
"""K1: one element per location, location ``i`` produces ``ELEMENTS[i]``."""
LOCATIONS: tuple[Destination, ...] = (0, 1, 2, 3)
WELL: Destination = 4
DESTINATIONS: tuple[Destination, ...] = (*LOCATIONS, WELL)
ABSENT: Destination = -1
"""Not a legal message: the analysis uses it for a seat that sits a turn out (no rite)."""
NO_RESOURCES: Resources = (0, 0, 0, 0)
MIN_PLAYERS, MAX_PLAYERS = 2, 5
DEFAULT_TURNS = 13


def destination_name(destination: Destination) -> str:
    if destination == ABSENT:
        return "absent"
    return "well" if destination == WELL else ELEMENTS[destination]


def parse_destination(name: str) -> Destination:
    """``"earth"`` … ``"fire"`` or ``"well"``. :raises InputError: for any other name."""
    names = [destination_name(d) for d in DESTINATIONS]
    if name not in names:
        raise InputError(f"unknown destination {name!r} (expected {', '.join(names)})")
    return names.index(name)


def add(first: Resources, second: Resources) -> Resources:
    return (first[0] + second[0], first[1] + second[1], first[2] + second[2], first[3] + second[3])


def subtract(first: Resources, second: Resources) -> Resources:
    return (first[0] - second[0], first[1] - second[1], first[2] - second[2], first[3] - second[3])


def covers(held: Resources, needs: Resources) -> bool:
    return all(h >= n for h, n in zip(held, needs, strict=True))


def single(element: int, count: int) -> Resources:
    counts = [0, 0, 0, 0]
    counts[element] = count
    return (counts[0], counts[1], counts[2], counts[3])


# -- components --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Objective:
    """An Objective card: the resources (by element) it asks for."""

    id: ObjectiveId
    needs: Resources

    def __str__(self) -> str:
        parts = [f"{n} {ELEMENTS[e]}" for e, n in enumerate(self.needs) if n]
        return f"{self.id} ({', '.join(parts)})"


@dataclass(frozen=True)
class PowerCard:
    """A Power card (K3 guesses): a name, the phase it is played in, its effect in words."""

    id: PowerId
    name: str
    phase: str
    effect: str


@dataclass(frozen=True)
class PayoutTable:
    """Resources each player at a location takes, by how many players are there (the seed's
    table, rules/akelarre.md step 4), for one player count. ``amounts[k - 1]`` is for crowd
    size ``k``; crowd size 1 also gets the Sabba power (K4)."""

    amounts: tuple[int, ...]

    def __call__(self, crowd: int) -> int:
        return self.amounts[crowd - 1]


@dataclass(frozen=True)
class AkelarreRules:
    """One game's parameters: the player count, the payout table and the starting resources
    per location for that count (K2), the objective and power cards (K3), K4 ``sabba_bonus``,
    and the number of turns."""

    players: int
    payouts: PayoutTable
    supply: Resources
    objectives: tuple[Objective, ...]
    powers: tuple[PowerCard, ...]
    sabba_bonus: int = 1
    turns: int = DEFAULT_TURNS

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InputError(f"players must be 2 to 5, not {self.players}", field="players")
        if len(self.payouts.amounts) < self.seats:
            raise InputError(
                f"the payout table for {self.players} players needs crowd sizes 1-{self.seats}",
                field="payouts",
            )
        if self.sabba_bonus < 0 or self.turns < 1:
            raise InputError("sabba_bonus must be at least 0 and turns at least 1")

    @classmethod
    def default(cls, players: int = 4, **changes: object) -> AkelarreRules:
        """The shipped tables (``data/akelarre_*.json``) for ``players`` players."""
        from asterion.models.akelarre_files import default_rules

        return default_rules(players, **changes)

    @property
    def seats(self) -> int:
        """Seats in play: the players, plus the virtual player in a two-player game."""
        return 3 if self.players == 2 else self.players

    @property
    def has_virtual(self) -> bool:
        return self.players == 2

    @cached_property
    def objective_by_id(self) -> dict[ObjectiveId, Objective]:
        return {objective.id: objective for objective in self.objectives}

    def objective(self, objective_id: ObjectiveId) -> Objective:
        try:
            return self.objective_by_id[objective_id]
        except KeyError:
            raise InputError(f"unknown objective {objective_id!r}") from None

    def rite_amount(self, crowd: int, sabba: bool) -> int:
        """What one player at a location with ``crowd`` players is entitled to take."""
        return self.payouts(crowd) + (self.sabba_bonus if sabba else 0)


# -- actions and records -----------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """A seat's destination, and the opponent it hands the card to (``None``: the last seat
    places it directly). A Well message is public."""

    destination: Destination
    to: Seat | None = None

    def __str__(self) -> str:
        where = destination_name(self.destination)
        return where if self.to is None else f"{where}, to seat {self.to}"


@dataclass(frozen=True)
class Rite:
    """What one seat did in one turn's rites."""

    seat: Seat
    destination: Destination
    crowd: int
    sabba: bool
    taken: Resources
    completed: tuple[ObjectiveId, ...]


@dataclass(frozen=True)
class TurnReport:
    """One resolved turn: every seat's destination, the Well transfer and the rites."""

    turn: int
    destinations: tuple[Destination, ...]
    well_transfer: Resources
    rites: tuple[Rite, ...]


@dataclass(frozen=True)
class Sorginak:
    """One seat's board: resources, private objective, completed objectives, Power cards."""

    resources: Resources = NO_RESOURCES
    private: ObjectiveId | None = None
    completed: tuple[ObjectiveId, ...] = ()
    powers: tuple[PowerId, ...] = ()


Phase = Literal["messages", "over"]


class Decider(StrEnum):
    """How a finished game was decided (rules/akelarre.md, end of the game)."""

    OBJECTIVES = "objectives"
    RESOURCES = "resources"
    POWERS = "powers"
    SHARED = "shared"


@dataclass(frozen=True)
class Outcome:
    winners: tuple[Seat, ...]
    decided_by: Decider


# -- the state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class AkelarreState:
    """A position at a decision in the message phase (or the end of the game).

    ``chain`` holds this turn's messages so far as ``(seat, message)`` in the order given;
    ``holder`` is the seat choosing now. ``first`` is the seat holding the first-player token.
    """

    seats: tuple[Sorginak, ...]
    supply: Resources
    well: Resources
    public: ObjectiveId | None
    objective_deck: tuple[ObjectiveId, ...]
    power_deck: tuple[PowerId, ...]
    turn: int = 1
    first: Seat = 0
    chain: tuple[tuple[Seat, Message], ...] = ()
    holder: Seat = 0
    deck_ran_out: bool = False
    phase: Phase = "messages"
    rules: AkelarreRules = field(
        default_factory=lambda: AkelarreRules.default(4), compare=False, hash=False, repr=False
    )

    @classmethod
    def new_game(
        cls, rules: AkelarreRules | None = None, seed: int = 0, first: Seat | None = None
    ) -> AkelarreState:
        """Setup: shuffle the objective and power decks, draw the public objective, then one
        private objective per seat (the virtual player's too); the first player is drawn at
        random unless given."""
        rules = rules or AkelarreRules.default(4)
        rng = random.Random(seed)
        deck = [objective.id for objective in rules.objectives]
        rng.shuffle(deck)
        powers = [power.id for power in rules.powers]
        rng.shuffle(powers)
        if len(deck) < rules.seats + 1:
            raise InputError(
                f"{rules.seats + 1} objectives are needed to start, the deck has {len(deck)}",
                field="objectives",
            )
        drawn = rng.randrange(rules.players) if first is None else first
        if not 0 <= drawn < rules.players:
            raise InputError(f"first player must be a seat 0-{rules.players - 1}", field="first")
        seats = tuple(Sorginak(private=deck[1 + s]) for s in range(rules.seats))
        state = cls(
            seats=seats,
            supply=rules.supply,
            well=NO_RESOURCES,
            public=deck[0],
            objective_deck=tuple(deck[1 + rules.seats :]),
            power_deck=tuple(powers),
            first=drawn,
            rules=rules,
        )
        return replace(state, holder=first_chooser(state))

    # -- queries ---------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def virtual_seat(self) -> Seat | None:
        return 2 if self.rules.has_virtual else None

    @property
    def players(self) -> tuple[Seat, ...]:
        """The ranked seats: every seat but the virtual player."""
        return tuple(range(self.rules.players))

    def is_virtual(self, seat: Seat) -> bool:
        return seat == self.virtual_seat

    def chosen(self) -> dict[Seat, Destination]:
        return {seat: message.destination for seat, message in self.chain}

    @property
    def well_declared_by(self) -> Seat | None:
        """The seat that publicly went to the Well this turn, if any."""
        for seat, message in self.chain:
            if message.destination == WELL:
                return seat
        return None

    def known_to(self, seat: Seat) -> dict[Seat, Destination]:
        """What ``seat`` knows of this turn's other destinations: the message handed to it,
        and a public Well declaration."""
        known = {}
        for sender, message in self.chain:
            if sender != seat and (message.to == seat or message.destination == WELL):
                known[sender] = message.destination
        return known

    def objectives_in_play(self, seat: Seat) -> tuple[Objective, ...]:
        """The objectives ``seat`` may complete: its private one, then the public one."""
        ids = (self.seats[seat].private, self.public)
        return tuple(self.rules.objective(i) for i in ids if i is not None)


def rite_order(state: AkelarreState) -> tuple[Seat, ...]:
    """The seats in turn order: the first player, then clockwise; in a two-player game the
    virtual player goes first (K8)."""
    players = state.rules.players
    order = tuple((state.first + k) % players for k in range(players))
    virtual = state.virtual_seat
    return order if virtual is None else (virtual, *order)


def first_chooser(state: AkelarreState) -> Seat:
    return rite_order(state)[0]


def virtual_target(turn: int) -> Seat:
    """K8: the virtual player's message goes to seat 0 on odd turns, seat 1 on even turns."""
    return 0 if turn % 2 == 1 else 1


def is_chance_node(state: AkelarreState) -> bool:
    """The virtual player picks now: its destinations are equally likely."""
    return not state.is_over and state.is_virtual(state.holder)


# -- legal actions -----------------------------------------------------------------------------


def legal_actions(state: AkelarreState) -> Iterator[Message]:
    """Every legal message of the seat choosing now, destinations first, then recipients."""
    if state.is_over:
        return
    holder = state.holder
    if state.is_virtual(holder):
        for location in LOCATIONS:
            yield Message(location, virtual_target(state.turn))
        return
    destinations = DESTINATIONS if state.well_declared_by is None else LOCATIONS
    waiting = waiting_seats(state)
    for destination in destinations:
        if waiting:
            for seat in waiting:
                yield Message(destination, seat)
        else:
            yield Message(destination, None)


def waiting_seats(state: AkelarreState) -> tuple[Seat, ...]:
    """Seats that have not chosen this turn, other than the holder."""
    done = {seat for seat, _ in state.chain} | {state.holder}
    return tuple(seat for seat in range(state.rules.seats) if seat not in done)


def apply(state: AkelarreState, action: Message) -> AkelarreState:
    """The state after ``action``. :raises IllegalActionError: naming the action and why."""
    if action not in set(legal_actions(state)):
        raise IllegalActionError(f"illegal message {action}: {why_illegal(state, action)}")
    return apply_unchecked(state, action)


def why_illegal(state: AkelarreState, action: Message) -> str:
    if state.is_over:
        return "the game is over"
    if action.destination not in DESTINATIONS:
        return f"destination {action.destination} does not exist (0-4)"
    if action.destination == WELL and state.is_virtual(state.holder):
        return "the virtual player never goes to the Well"
    if action.destination == WELL and state.well_declared_by is not None:
        return f"seat {state.well_declared_by} already declared the Well this turn"
    if state.is_virtual(state.holder):
        target = virtual_target(state.turn)
        return f"the virtual player's card goes to seat {target} on turn {state.turn} (K8)"
    waiting = waiting_seats(state)
    if not waiting:
        return "the last seat places its message itself (to=None)"
    return f"the card must go to a seat still to choose: {', '.join(map(str, waiting))}"


def apply_unchecked(state: AkelarreState, action: Message) -> AkelarreState:
    return apply_with_report(state, action)[0]


def apply_with_report(
    state: AkelarreState, action: Message
) -> tuple[AkelarreState, TurnReport | None]:
    """Like :func:`apply_unchecked`, with the turn's report when ``action`` ends the chain."""
    chain = (*state.chain, (state.holder, action))
    if action.to is not None:
        return replace(state, chain=chain, holder=action.to), None
    destinations = dict(chain)
    profile = tuple(destinations[seat].destination for seat in range(state.rules.seats))
    return resolve_turn(state, profile)


# -- the rest of the turn ----------------------------------------------------------------------


def resolve_turn(
    state: AkelarreState, destinations: Sequence[Destination]
) -> tuple[AkelarreState, TurnReport]:
    """Reveal ``destinations`` (one per seat), then play steps 2–5 of the turn.

    At most one seat may be at the Well; a seat given :data:`ABSENT` takes no part (it is
    not in any crowd and has no rite). The result is the next turn's first decision (or
    the end of the game) and a report of what happened.

    :raises IllegalActionError: for a wrong number of destinations or two at the Well.
    """
    rules = state.rules
    if (
        len(destinations) != rules.seats
        or destinations.count(WELL) > 1
        or any(d not in DESTINATIONS and d != ABSENT for d in destinations)
    ):
        raise IllegalActionError(f"not a profile of {rules.seats} destinations: {destinations}")
    crowd = [destinations.count(location) for location in LOCATIONS]
    supply, well = list(state.supply), list(state.well)
    # Step 3: nobody at the Well, so every location nobody chose gives it 1 resource.
    transfer = [0, 0, 0, 0]
    if WELL not in destinations:
        for location in LOCATIONS:
            if crowd[location] == 0 and supply[location] > 0:
                supply[location] -= 1
                well[location] += 1
                transfer[location] = 1
    # Step 4: the rites in turn order; takes are limited by what is left.
    seats = list(state.seats)
    public, deck, powers = state.public, list(state.objective_deck), list(state.power_deck)
    ran_out = state.deck_ran_out
    rites = []
    for seat in rite_order(state):
        destination = destinations[seat]
        if destination == ABSENT:
            continue
        if destination == WELL:
            taken = (well[0], well[1], well[2], well[3])
            well = [0, 0, 0, 0]
            rite_crowd, sabba = 1, False
        else:
            rite_crowd = crowd[destination]
            sabba = rite_crowd == 1 and not state.is_virtual(seat)
            amount = min(rules.rite_amount(rite_crowd, sabba), supply[destination])
            supply[destination] -= amount
            taken = single(destination, amount)
        old = seats[seat]
        board = Sorginak(add(old.resources, taken), old.private, old.completed, old.powers)
        # K6: complete whatever can be completed, private first, again after each draw.
        completed: list[ObjectiveId] = []
        while True:
            target = _completable(rules, board, public)
            if target is None:
                break
            objective_id = board.private if target == "private" else public
            assert objective_id is not None
            objective = rules.objective(objective_id)
            supply = [s + n for s, n in zip(supply, objective.needs, strict=True)]
            replacement = deck.pop(0) if deck else None
            ran_out = ran_out or replacement is None
            drawn_power = (powers.pop(0),) if powers else ()
            if target == "public":
                public = replacement
            board = Sorginak(
                subtract(board.resources, objective.needs),
                replacement if target == "private" else board.private,
                (*board.completed, objective.id),
                (*board.powers, *drawn_power),
            )
            completed.append(objective.id)
        seats[seat] = board
        rites.append(Rite(seat, destination, rite_crowd, sabba, taken, tuple(completed)))
    report = TurnReport(
        state.turn,
        tuple(destinations),
        (transfer[0], transfer[1], transfer[2], transfer[3]),
        tuple(rites),
    )
    # Step 5: end of the turn.
    over = state.turn >= rules.turns or ran_out
    first = state.first if over else (state.first + 1) % rules.players
    after = replace(
        state,
        seats=tuple(seats),
        supply=(supply[0], supply[1], supply[2], supply[3]),
        well=(well[0], well[1], well[2], well[3]),
        public=public,
        objective_deck=tuple(deck),
        power_deck=tuple(powers),
        turn=state.turn if over else state.turn + 1,
        first=first,
        chain=(),
        holder=first if state.virtual_seat is None else state.virtual_seat,
        deck_ran_out=ran_out,
        phase="over" if over else "messages",
    )
    return after, report


def _completable(
    rules: AkelarreRules, board: Sorginak, public: ObjectiveId | None
) -> Literal["private", "public"] | None:
    if board.private is not None and covers(board.resources, rules.objective(board.private).needs):
        return "private"
    if public is not None and covers(board.resources, rules.objective(public).needs):
        return "public"
    return None


# -- the end -----------------------------------------------------------------------------------


def outcome(state: AkelarreState) -> Outcome:
    """The winners among the ranked seats: most completed objectives, then most resources
    left, then most Power cards left; a tie on all three is a shared win."""
    seats = state.players
    keys = [
        (len(b.completed), sum(b.resources), len(b.powers)) for b in (state.seats[s] for s in seats)
    ]
    for depth, decider in enumerate((Decider.OBJECTIVES, Decider.RESOURCES, Decider.POWERS)):
        best = max(key[: depth + 1] for key in keys)
        leaders = tuple(s for s, key in zip(seats, keys, strict=True) if key[: depth + 1] == best)
        if len(leaders) == 1:
            return Outcome(leaders, decider)
    return Outcome(leaders, Decider.SHARED)
