"""The Nacht der Sterne rules engine: hand-worked positions on tiny skies.

Cells are numbered ``row * width + col``, row 0 north; the start tile is the middle cell
(N4). Every expected number below is worked out by hand from rules/nacht.md ("Play") and
written next to the assertion.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import IllegalActionError, InputError
from asterion.models.edges import Placement
from asterion.models.nacht_files import default_tileset
from asterion.models.nacht_game import (
    Decline,
    Knock,
    Lay,
    Move,
    NachtRules,
    NachtState,
    NoKnock,
    Pass,
    Sky,
    apply,
    centre_cell,
    deal_order,
    describe,
    legal_moves,
)
from asterion.solver.nacht_verify import verify


def play(state: NachtState, moves: Sequence[Move]) -> NachtState:
    for move in moves:
        state = apply(state, move)
    return state


def moves(state: NachtState) -> list[Move]:
    return list(legal_moves(state))


# -- rewards ---------------------------------------------------------------------------------------


def test_a_tile_closing_two_holes_at_once() -> None:
    # 3x3, start 4. Holes: (1,1) = cells 0,1,3,4 and (1,2) = 1,2,4,5. Laying 3, 0, 5, 2
    # closes none (each hole still misses cell 1); laying 1 closes both: +2.
    sky = Sky.grid(3, 3, {})
    state = NachtState.start(sky, [3, 0, 5, 2, 1, 6, 7, 8], players=1)
    for cell in (3, 0, 5, 2):
        assert state.drawn == cell
        state = play(state, [Lay(cell), Pass()])
    assert state.coins == (15,) and state.markers == 0
    assert sky.holes_closed(state.laid, 1) == 2
    state = apply(state, Lay(1))
    assert state.coins == (17,) and state.markers == 2


def test_a_tile_completing_two_constellations() -> None:
    # 3x3, start 4, A = {0, 1} (2 tiles), B = {1, 2} (2 tiles). After 3, 0, 5, 2 are laid,
    # tile 1 completes A (+2) and B (+2) and closes holes (1,1) and (1,2) (+2): +6.
    sky = Sky.grid(3, 3, {"A": (0, 1), "B": (1, 2)})
    state = NachtState.start(sky, [3, 0, 5, 2, 1, 6, 7, 8], players=1)
    for cell in (3, 0, 5, 2):
        state = play(state, [Lay(cell), Pass()])
    assert state.coins == (15,)
    assert sky.completed(state.laid, 1) == ("A", "B")
    assert sky.gain(state.laid, 1) == 6
    assert apply(state, Lay(1)).coins == (21,)


def test_constellation_pays_its_span_on_the_last_tile_only() -> None:
    # 5x1 row, start 2, C = {2, 3, 4} (3 tiles). Laying 3 pays 0; laying 4 completes C: +3.
    sky = Sky.grid(5, 1, {"C": (2, 3, 4)})
    state = NachtState.start(sky, [3, 4, 1, 0], players=1)
    state = play(state, [Lay(3), Pass()])
    assert state.coins == (15,)
    state = play(state, [Lay(4), Pass()])
    assert state.coins == (18,)


def test_a_constellation_on_the_start_tile_alone_pays_nobody() -> None:
    # 3x1 row, start 1; S = {1} is complete at setup; T = {0} pays 1 when tile 0 is laid.
    sky = Sky.grid(3, 1, {"S": (1,), "T": (0,)})
    assert sky.solo_total() == 0 + 1  # no holes in one row; only T counts
    state = play(NachtState.start(sky, [0, 2], players=1), [Lay(0), Pass(), Lay(2)])
    assert state.is_over and state.coins == (16,)


# -- declines --------------------------------------------------------------------------------------


def test_at_most_five_declines_in_a_row() -> None:
    # 9x1 row, start 4. Each turn declines the fitting drawn tile and lays last turn's
    # declined one from the display, so the next draw fits again: five declines cost 5 coins.
    sky = Sky.grid(9, 1, {})
    state = NachtState.start(sky, [3, 5, 2, 6, 1, 7, 0, 8], players=1)
    state = play(state, [Decline(), Pass()])  # draw 3
    state = play(state, [Decline(), Lay(3), Pass()])  # draw 5
    state = play(state, [Decline(), Lay(5), Pass()])  # draw 2
    state = play(state, [Decline(), Lay(2), Pass()])  # draw 6
    state = play(state, [Decline(), Lay(6)])  # draw 1
    assert state.streaks == (5,) and state.coins == (10,)
    state = apply(state, Pass())
    # The sixth fitting draw (7) must be laid: no decline is offered.
    assert state.drawn == 7
    assert moves(state) == [Lay(7)]
    with pytest.raises(IllegalActionError, match="5 declines in a row"):
        apply(state, Decline())
    # A turn without a decline resets the streak; the next fitting draw (0) may be declined.
    state = play(state, [Lay(7), Lay(1), Pass()])
    assert state.streaks == (0,) and state.drawn == 0
    assert Decline() in moves(state)


def test_a_declined_tile_cannot_be_laid_in_the_same_turn() -> None:
    sky = Sky.grid(5, 1, {})
    state = apply(NachtState.start(sky, [1, 3, 0, 4], players=1), Decline())
    assert moves(state) == [Pass()]
    with pytest.raises(IllegalActionError, match="declined this turn"):
        apply(state, Lay(1))


def test_declining_needs_a_coin() -> None:
    sky = Sky.grid(5, 1, {})
    state = NachtState.start(sky, [1, 3, 0, 4], players=1, rules=NachtRules(start_coins=0))
    assert moves(state) == [Lay(1)]


def test_set_aside_declines_are_paid_at_the_next_lay() -> None:
    # Variant: the declined coin is set aside (coins stay 15, 1 owed) and paid when the
    # player next lays: 15 - 1 = 14.
    sky = Sky.grid(5, 1, {})
    rules = NachtRules(set_aside_declines=True)
    state = NachtState.start(sky, [1, 3, 0, 4], players=1, rules=rules)
    state = play(state, [Decline(), Pass()])
    assert state.coins == (15,) and state.owed == (1,)
    state = apply(state, Lay(3))
    assert state.coins == (14,) and state.owed == (0,)


# -- two tiles per turn ----------------------------------------------------------------------------


def test_at_most_two_tiles_per_turn() -> None:
    # 7x1 row, start 3. Tiles 0 and 1 do not fit when drawn (display); drawing 2 and laying
    # it makes 1 fit, and laying 1 makes 0 fit, but that would be a third tile.
    sky = Sky.grid(7, 1, {})
    state = NachtState.start(sky, [0, 1, 2, 4, 5, 6], players=1)
    assert state.drawn is None and state.displays == (0b1,)
    state = play(state, [Pass(), Pass()])  # tile 1 to the display too
    assert state.displays == (0b11,) and state.drawn == 2
    state = play(state, [Lay(2), Lay(1)])
    assert sky.fits(state.laid, 0)
    assert moves(state) == [Pass()]
    with pytest.raises(IllegalActionError, match="at most 2 tiles"):
        apply(state, Lay(0))
    # Next turn: draw 4, lay it and then 0.
    state = play(state, [Pass(), Lay(4), Lay(0)])
    assert state.displays == (0,) and moves(state) == [Pass()]


# -- knocking --------------------------------------------------------------------------------------


def knock_position(players: int) -> NachtState:
    """7x1 row, start 3, K = {4, 5}. Player 0 draws 5 (no fit: display); player 1 draws 4
    and lays it, so 5 fits; player 0 draws 0 (no fit) and passes over the fitting 5."""
    sky = Sky.grid(7, 1, {"K": (4, 5)})
    order = [5, 4, 0] if players == 2 else [5, 4, 6, 0]
    state = NachtState.start(sky, [*order, *(c for c in (0, 1, 2, 6) if c not in order)], players)
    state = play(state, [Pass(), Lay(4), Pass()])
    if players == 3:
        state = apply(state, Pass())  # player 2 draws 6, which does not fit
    assert state.active == 0 and state.drawn is None
    return apply(state, Pass())


def test_knocking_lays_the_tile_for_one_coin_and_no_constellation() -> None:
    state = knock_position(2)
    assert state.phase == "knock" and state.decider == 1
    assert moves(state) == [Knock(5), NoKnock()]
    state = apply(state, Knock(5))
    # K = {4, 5} is now complete, but the knocker gets only the knock coin: 15 + 1.
    assert state.coins == (15, 16)
    assert state.laid >> 5 & 1 and not state.displays[0] >> 5 & 1
    # The turn passes to the player after the one who passed (player 1), who draws 1.
    assert state.active == 1 and state.phase == "turn"


@pytest.mark.parametrize(("collects_holes", "coins"), [(False, 16), (True, 17)])
def test_a_knock_that_closes_a_hole(collects_holes: bool, coins: int) -> None:
    # 3x3, start 4, K = {0, 3}. P0 declines 3 (14 coins); P1 lays 1; P0 draws 8 (no fit)
    # and passes over 3: P1 lets it go; P1 lays 0; P0 draws 6 (no fit) and passes over 3
    # again. Knocking 3 closes hole (1,1) = cells 0, 1, 3, 4 and completes K: the knocker
    # gets the knock coin (15 + 1), plus the hole with G4 (+1), never K's 2.
    sky = Sky.grid(3, 3, {"K": (0, 3)})
    rules = NachtRules(knocker_collects_holes=collects_holes)
    state = NachtState.start(sky, [3, 1, 8, 0, 6, 2, 5, 7], players=2, rules=rules)
    state = play(state, [Decline(), Pass(), Lay(1), Pass(), Pass(), NoKnock(), Lay(0), Pass()])
    state = apply(state, Pass())
    assert state.phase == "knock" and moves(state) == [Knock(3), NoKnock()]
    state = apply(state, Knock(3))
    assert state.coins == (14, coins) and state.markers == 1


def test_nobody_knocks_after_a_decline_or_a_lay() -> None:
    sky = Sky.grid(7, 1, {})
    # Player 0 declines the fitting 2 and passes: paid, so no knock window.
    state = play(NachtState.start(sky, [2, 1, 4, 5, 6, 0], players=2), [Decline(), Pass()])
    assert state.phase == "turn" and state.active == 1


def test_knock_window_goes_round_the_other_players() -> None:
    state = knock_position(3)
    assert state.decider == 1
    state = apply(state, NoKnock())
    assert state.decider == 2 and state.phase == "knock"
    state = apply(state, NoKnock())
    assert state.phase == "turn" and state.active == 1 and state.knocker is None


def test_knocking_in_the_wrong_phase_is_illegal() -> None:
    state = NachtState.start(Sky.grid(5, 1, {}), [1, 3, 0, 4], players=2)
    with pytest.raises(IllegalActionError, match="nobody passed"):
        apply(state, NoKnock())


# -- the end ---------------------------------------------------------------------------------------


def test_after_the_pile_the_remaining_tiles_are_laid_and_the_game_ends() -> None:
    # 5x1 row, start 2, two players. P0 draws 0 (no fit), P1 draws 4 (no fit), P0 draws 1:
    # lays 1 then 0 from the display; P1 draws 3, the last: lays 3 then 4, which ends it.
    sky = Sky.grid(5, 1, {"W": (0, 1), "E": (3, 4)})
    state = NachtState.start(sky, [0, 4, 1, 3], players=2)
    state = play(state, [Pass(), Pass(), Lay(1), Lay(0), Pass(), Lay(3)])
    assert not state.pile and not state.is_over
    state = apply(state, Lay(4))
    assert state.is_over and moves(state) == []
    assert state.coins == (17, 17) and state.winners() == (0, 1)


def test_once_the_pile_is_empty_a_fitting_tile_must_be_laid() -> None:
    # 5x1, start 2. P0 draws 3 and lays it; P1 draws 0 (no fit); P0 draws 4 and lays it;
    # P1 draws 1, the last, and declines it: the pile is empty. P0 has nothing; P1 must lay.
    sky = Sky.grid(5, 1, {})
    state = NachtState.start(sky, [3, 0, 4, 1], players=2)
    state = play(state, [Lay(3), Pass(), Pass(), Lay(4), Pass(), Decline(), Pass(), Pass()])
    assert state.active == 1 and not state.pile
    assert moves(state) == [Lay(1)]
    state = play(state, [Lay(1), Lay(0)])
    assert state.is_over and state.coins == (15, 14)


def test_empty_display_bonus_pays_each_later_turn() -> None:
    # Variant. 7x1 row, start 3, two players, order 2, 0, 4, 6, 1, 5. P0 lays 2, 4 and 1 as
    # drawn; P1's 0 and 6 do not fit when drawn; P1 draws 5, the last tile, and lays it only.
    sky = Sky.grid(7, 1, {})
    rules = NachtRules(empty_display_bonus=True)
    state = NachtState.start(sky, [2, 0, 4, 6, 1, 5], players=2, rules=rules)
    state = play(state, [Lay(2), Pass(), Pass(), Lay(4), Pass(), Pass(), Lay(1), Pass()])
    state = play(state, [Lay(5), Pass()])
    # P0's display is empty with the pile empty: first out, no coin this turn.
    assert state.first_out == 0 and state.coins == (15, 15)
    assert moves(state) == [Pass()]
    # P1 must lay (0 and 6 fit) and lays one; P0's later turn pays 1; P1 lays the last.
    state = play(state, [Pass(), Lay(6), Pass()])
    assert state.coins == (16, 15)
    state = play(state, [Pass(), Lay(0)])
    assert state.is_over and state.coins == (16, 15) and state.winners() == (0,)


def test_states_are_immutable_hashable_and_transpose() -> None:
    # 7x1 row, start 3, A = {4, 5}. Tiles 1 and 5 do not fit when drawn; 2 and 4 are laid
    # as drawn (solo, so passing over 1 and 5 is safe); 0 does not fit. Now 1 and 5 fit and
    # laying them in either order makes the same position (A pays 2 either way).
    sky = Sky.grid(7, 1, {"A": (4, 5)})
    state = NachtState.start(sky, [1, 5, 2, 4, 0, 6], players=1)
    state = play(state, [Pass(), Pass(), Lay(2), Pass(), Lay(4), Pass()])
    assert state.drawn is None and moves(state) == [Lay(1), Lay(5), Pass()]
    one = play(state, [Lay(1), Lay(5)])
    two = play(state, [Lay(5), Lay(1)])
    assert one == two and hash(one) == hash(two) and len({one, two, state}) == 2
    assert one.coins == (17,)
    with pytest.raises(AttributeError):
        one.coins = (0,)  # type: ignore[misc]


def test_bad_setups_are_refused() -> None:
    sky = Sky.grid(3, 1, {})
    with pytest.raises(InputError, match="players"):
        NachtState.start(sky, [0, 2], players=6)
    with pytest.raises(InputError, match="draw order"):
        NachtState.start(sky, [0, 1], players=2)


# -- the shipped sky -------------------------------------------------------------------------------


def test_shipped_sky_spans_agree_with_the_verifier() -> None:
    tileset = default_tileset()
    report = verify(tileset)
    sky = Sky.from_arrangement(tileset, report.placements[0])
    assert sky.tile_ids[sky.start] == report.arrangements[0][2][2]
    spans = {
        abbr: {sky.tile_ids[c] for c in range(25) if mask >> c & 1}
        for abbr, mask in sky.constellations
    }
    assert spans == {s.abbr: set(s.tiles) for s in report.constellations}
    # The holes of a 5x5 grid, plus the verifier's spans not wholly on the start tile.
    start = report.arrangements[0][2][2]
    spans = sum(len(s.tiles) for s in report.constellations if s.tiles != (start,))
    assert sky.solo_total() == 4 * 4 + spans


# -- the solo invariant ----------------------------------------------------------------------------


@st.composite
def solo_games(draw: st.DrawFn) -> tuple[Sky, list[int], NachtRules, list[int]]:
    width = draw(st.integers(1, 4))
    height = draw(st.integers(2 if width == 1 else 1, 4))
    cells = width * height
    constellations = {
        f"K{i}": draw(st.sets(st.integers(0, cells - 1), min_size=1, max_size=cells))
        for i in range(draw(st.integers(0, 4)))
    }
    sky = Sky.grid(width, height, constellations)
    order = draw(st.permutations([c for c in range(cells) if c != sky.start]))
    rules = NachtRules(set_aside_declines=draw(st.booleans()))
    choices = draw(st.lists(st.integers(0, 10), min_size=3 * cells, max_size=3 * cells))
    return sky, order, rules, choices


@settings(max_examples=100, deadline=None)
@given(solo_games())
def test_solo_game_totals_every_reward_minus_declines(
    game: tuple[Sky, list[int], NachtRules, list[int]],
) -> None:
    # The invariant: with one player every hole and every constellation not wholly
    # on the start tile is paid exactly once, so the final coins are the start coins plus
    # (W-1)(H-1) plus those spans, minus the coins paid for declines.
    sky, order, rules, choices = game
    state = NachtState.start(sky, order, players=1, rules=rules)
    declines = 0
    step = 0
    while not state.is_over:
        options = moves(state)
        move = options[choices[step % len(choices)] % len(options)]
        declines += isinstance(move, Decline)
        state = apply(state, move)
        step += 1
        assert step < 10 * sky.cells, "the game must end"
    paid = declines - state.owed[0]
    assert state.coins[0] == 15 + sky.solo_total() - paid
    assert state.markers == (sky.width - 1) * (sky.height - 1)


# -- a mutation audit: the sky's geometry, bad skies, turn order, declines owed -----------------


def test_the_start_cell_is_the_middle_north_west_on_even_sides() -> None:
    # N4 (docs/nacht.md): the middle cell, north-west of the middle on even sides.
    assert centre_cell(5, 5) == 2 * 5 + 2
    assert centre_cell(4, 4) == 1 * 4 + 1  # rows 1-2 and columns 1-2 are the middle
    assert centre_cell(4, 2) == 0 * 4 + 1
    assert centre_cell(3, 4) == 1 * 3 + 1
    assert Sky.grid(4, 4, {}).start == 5


def test_neighbours_are_orthogonal_within_the_grid() -> None:
    # 3x3: cell 2 (row 0, column 2) touches 1 and 5, not 3 (row 1, column 0); cell 7 (bottom
    # middle) touches 4, 6 and 8, nothing below the grid.
    sky = Sky.grid(3, 3, {})
    assert sky.frontier(1 << 2) == 1 << 1 | 1 << 5
    assert sky.frontier(1 << 7) == 1 << 4 | 1 << 6 | 1 << 8
    assert not sky.fits(1 << 2, 3)


@pytest.mark.parametrize("start", [-1, 9])
def test_a_start_cell_outside_the_grid_is_refused(start: int) -> None:
    with pytest.raises(InputError, match="start cell"):
        Sky.grid(3, 3, {}, start=start)


def test_a_constellation_on_no_cell_is_refused() -> None:
    # A constellation spans the tiles its stars and lines lie on: none is no constellation.
    with pytest.raises(InputError, match="must lie in the 3x3 grid"):
        Sky.grid(3, 3, {"E": ()})


def test_turns_go_round_the_players_in_seat_order() -> None:
    # 7x1 row, start 3, three players; 0, 6, 1 never fit when drawn, so each turn is a draw
    # to the display and a pass: players 0, 1, 2, then 0 again.
    sky = Sky.grid(7, 1, {})
    state = NachtState.start(sky, [0, 6, 1, 2, 4, 5], players=3)
    seats = []
    for _ in range(3):
        seats.append(state.active)
        state = apply(state, Pass())
    assert seats == [0, 1, 2] and state.active == 0
    assert state.displays == (1 << 0, 1 << 6, 1 << 1)


def test_a_coin_set_aside_cannot_pay_a_second_decline() -> None:
    # Variant set_aside_declines, G2 (a decline needs a coin to pay with). 5x1 row, start 2,
    # one coin: declining 1 sets that coin aside; the next fitting draw (3) must be laid.
    sky = Sky.grid(5, 1, {})
    rules = NachtRules(start_coins=1, set_aside_declines=True)
    state = NachtState.start(sky, [1, 3, 0, 4], players=1, rules=rules)
    state = play(state, [Decline(), Pass()])
    assert state.coins == (1,) and state.owed == (1,) and state.drawn == 3
    assert moves(state) == [Lay(3)]


def test_laying_a_tile_not_in_the_display_is_refused_with_the_reason() -> None:
    # 7x1 row, start 3, two players. Player 0 draws 0 (no fit: display) and passes; player 1
    # draws 2 and lays it. Cell 1 now fits, but its tile is still in the pile.
    sky = Sky.grid(7, 1, {})
    state = NachtState.start(sky, [0, 2, 1, 4, 5, 6], players=2)
    state = play(state, [Pass(), Lay(2)])
    assert sky.fits(state.laid, 1)
    with pytest.raises(IllegalActionError, match="not in the player's display"):
        apply(state, Lay(1))


@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 2)])
def test_markers_are_the_holes_whose_four_cells_are_laid(width: int, height: int) -> None:
    # Brute force over every laid set: a hole is an interior vertex, between rows r - 1, r
    # and columns c - 1, c (0 < r < height, 0 < c < width); its marker is in when all four
    # of those cells are laid.
    sky = Sky.grid(width, height, {})

    def laid(mask: int, row: int, col: int) -> bool:
        return bool(mask >> (row * width + col) & 1)

    for mask in range(1 << (width * height)):
        holes = sum(
            all(laid(mask, row, col) for row in (r - 1, r) for col in (c - 1, c))
            for r in range(1, height)
            for c in range(1, width)
        )
        assert sky.markers(mask) == holes, bin(mask)


def test_the_default_rules_are_the_rules_page() -> None:
    # rules/nacht.md "Play": 15 coins each (R), decline for 1 coin, at most 5 declines in a
    # row, at most 2 tiles per turn, a knock takes 1 coin; the knocker gets no constellation
    # (R) nor hole (G4); the review variants are off.
    rules = NachtRules()
    assert (rules.start_coins, rules.decline_cost, rules.max_declines) == (15, 1, 5)
    assert (rules.lays_per_turn, rules.knock_reward) == (2, 1)
    assert not rules.knocker_collects_holes
    assert not rules.set_aside_declines and not rules.empty_display_bonus


@pytest.mark.parametrize("players", [1, 5])
def test_one_to_five_players_may_play(players: int) -> None:
    # 3-4 as published, 2 and 5 as options, 1 for the solo invariant (module docstring).
    state = NachtState.start(Sky.grid(3, 1, {}), [0, 2], players=players)
    assert state.coins == (15,) * players


def test_a_solo_player_passing_over_a_fitting_tile_is_not_knocked() -> None:
    # "another player may knock": with one player there is none. 5x1 row, start 2: 0 does not
    # fit (display); 1 fits and is declined; 4 does not fit (display). Passing over the
    # fitting 1 starts the next turn, which draws 3.
    state = NachtState.start(Sky.grid(5, 1, {}), [0, 1, 4, 3], players=1)
    state = play(state, [Pass(), Decline(), Pass()])
    assert state.drawn is None and state.displays == (0b10011,)
    state = apply(state, Pass())
    assert (state.phase, state.drawn, state.coins) == ("turn", 3, (14,))


def test_only_constellations_holding_the_tile_are_completed_by_it() -> None:
    # 3x3, A = {0, 1}: laid 0, 1 and the start 4, A is complete already; laying 3 completes
    # nothing (it closes the hole of cells 0, 1, 3, 4: +1 only).
    sky = Sky.grid(3, 3, {"A": (0, 1)})
    laid = 1 << 0 | 1 << 1 | 1 << 4
    assert sky.completed(laid, 3) == ()
    assert sky.gain(laid, 3) == 1


def test_unseen_tiles_are_the_pile() -> None:
    # 5x1 row, start 2, pile 1, 3, 0, 4: 1 is drawn at once; 3, 0 and 4 stay face down.
    state = NachtState.start(Sky.grid(5, 1, {}), [1, 3, 0, 4], players=1)
    assert state.unseen() == 1 << 3 | 1 << 0 | 1 << 4


@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 2)])
def test_holes_closed_by_a_tile_by_brute_force(width: int, height: int) -> None:
    # A tile at (row, col) touches the interior vertices (r, c), r in {row, row + 1}, c in
    # {col, col + 1}, 0 < r < height, 0 < c < width; laying it closes those whose four cells
    # (r - 1 or r, c - 1 or c) are then all laid. With no constellations that is the gain.
    sky = Sky.grid(width, height, {})
    for laid in range(1 << (width * height)):
        for cell in range(width * height):
            if laid >> cell & 1:
                continue
            after = laid | 1 << cell
            row, col = divmod(cell, width)
            closed = sum(
                all(after >> (rr * width + cc) & 1 for rr in (r - 1, r) for cc in (c - 1, c))
                for r in (row, row + 1)
                for c in (col, col + 1)
                if 0 < r < height and 0 < c < width
            )
            assert sky.holes_closed(laid, cell) == closed == sky.gain(laid, cell), (laid, cell)


def test_a_ragged_arrangement_is_refused() -> None:
    # Five rows, one of them a tile short: no 5x5 arrangement.
    tileset = default_tileset()
    rows = [tuple(Placement(r * 5 + c) for c in range(5)) for r in range(5)]
    rows[4] = rows[4][:4]
    with pytest.raises(InputError, match="not 5x5"):
        Sky.from_arrangement(tileset, tuple(rows))


# -- a second mutation sweep: first out, knocks in three-player games, deals, words ---------------


def test_a_move_is_described_by_the_printed_id_of_its_tile() -> None:
    # Moves are shown to players with the tile's printed id (Sky.tile_ids), not its cell:
    # here cell 2 is the tile printed "east" and cell 0 the one printed "west".
    sky = Sky.grid(3, 1, {}, tile_ids=["west", "mid", "east"])
    assert describe(Lay(2), sky) == "lay east"
    assert describe(Knock(0), sky) == "knock and lay west"
    assert describe(Decline(), sky) == "decline (pay 1)"  # rules page: "declines and pays 1 coin"
    assert describe(Pass(), sky) == "pass"
    assert describe(NoKnock(), sky) == "do not knock"


def test_a_game_without_players_is_refused() -> None:
    # 1-5 players (module docstring; 1 only for the solo invariant): none is no game.
    with pytest.raises(InputError, match="players"):
        NachtState.start(Sky.grid(3, 1, {}), [0, 2], players=0)


def test_the_first_out_is_who_lays_their_last_tile_first() -> None:
    # Variant "the first player with no tiles left gains 1 coin each later round". 7x1 row,
    # start 3, three players, order 0, 2, 6, 1, 4, 5. P0: 0 (no fit, display); P1 lays 2;
    # P2: 6 (no fit, display); P0 lays 1 (keeps 0); P1 lays 4; P2 declines 5 (14), the last.
    # P0 must lay 0 and so has no tiles left first; P1 (never a tile in its display) only
    # gets to its next turn after that, so it is not first. P2 lays 5, then later 6.
    sky = Sky.grid(7, 1, {})
    rules = NachtRules(empty_display_bonus=True)
    state = NachtState.start(sky, [0, 2, 6, 1, 4, 5], players=3, rules=rules)
    state = play(state, [Pass(), Lay(2), Pass(), Pass(), Lay(1), Pass()])
    state = play(state, [Lay(4), Pass(), Decline(), Pass()])
    assert not state.pile and state.active == 0 and moves(state) == [Lay(0)]
    state = play(state, [Lay(0), Pass()])  # P0 out first
    state = play(state, [Pass(), Lay(5), Pass()])  # P1 has nothing; P2 lays 5
    assert state.coins == (16, 15, 14)  # P0's later turn pays 1
    state = play(state, [Pass(), Pass(), Lay(6)])  # P1's later turn pays nothing
    assert state.is_over and state.coins == (16, 15, 14)


def test_after_a_knock_play_goes_on_from_the_player_who_passed() -> None:
    # Three players (with two, the seat after and the seat before the passer are the same).
    # knock_position(3): P0 passed over the fitting 5; P1 lets it go, P2 knocks: P2 takes the
    # knock coin (15 + 1), and the turn order goes on after P0, with P1.
    state = play(knock_position(3), [NoKnock(), Knock(5)])
    assert state.coins == (15, 15, 16)
    assert state.phase == "turn" and state.active == 1 and state.knocker is None


def test_a_seeded_deal_is_every_tile_but_the_start_tile_once() -> None:
    # Setup: the start tile (the middle one, cell 4 of 3x3) lies face up; the other eight
    # are shuffled into the pile; the seed fixes the shuffle.
    sky = Sky.grid(3, 3, {})
    for seed in range(5):
        order = deal_order(sky, seed)
        assert sorted(order) == [0, 1, 2, 3, 5, 6, 7, 8]
        assert deal_order(sky, seed) == order
        state = NachtState.new_game(sky, players=2, seed=seed)
        assert state.laid == 1 << 4
        assert list(state.pile) == order[1:]  # player 0 drew the top tile at once


def test_a_knocker_pays_the_coin_set_aside_for_a_decline() -> None:
    # Variant set_aside_declines: "declined coins are set aside and paid only when that player
    # next lays"; a knock is a lay. 7x1 row, start 3, three players, order 5, 2, 4, 0, 1, 6.
    # P0: 5 (no fit); P1 declines 2 (1 set aside); P2 lays 4; P0: 0 (no fit) and passes
    # over the fitting 5. P1 knocks: 15 + 1 (knock) - 1 (set aside) = 15, nothing owed;
    # laying 2 next turn costs nothing more.
    sky = Sky.grid(7, 1, {})
    rules = NachtRules(set_aside_declines=True)
    state = NachtState.start(sky, [5, 2, 4, 0, 1, 6], players=3, rules=rules)
    state = play(state, [Pass(), Decline(), Pass(), Lay(4), Pass()])
    assert state.owed == (0, 1, 0) and state.coins == (15, 15, 15)
    state = apply(state, Pass())
    assert state.phase == "knock" and state.decider == 1
    state = apply(state, Knock(5))
    assert state.coins == (15, 15, 15) and state.owed == (0, 0, 0)
    assert state.active == 1
    state = apply(state, Lay(2))
    assert state.coins == (15, 15, 15)


@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 2)])
def test_a_tile_fits_when_not_laid_and_next_to_a_laid_one_by_brute_force(
    width: int, height: int
) -> None:
    # "It fits when its cell in the finished picture is orthogonally adjacent to a laid
    # tile"; a laid tile is not drawn again, so it never fits.
    sky = Sky.grid(width, height, {})
    for laid in range(1 << (width * height)):
        for cell in range(width * height):
            row, col = divmod(cell, width)
            near = [
                (row + dr) * width + col + dc
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= row + dr < height and 0 <= col + dc < width
            ]
            expected = not laid >> cell & 1 and any(laid >> n & 1 for n in near)
            assert sky.fits(laid, cell) == expected, (laid, cell)


def test_in_the_knock_window_only_a_knock_or_letting_it_go_is_allowed() -> None:
    # knock_position(2): P0 holds 5 (fits) and 0 (does not: cell 1 is empty) and passed over
    # 5; P1 may knock 5 only, or let it go.
    state = knock_position(2)
    with pytest.raises(IllegalActionError, match="not a fitting tile of the player who passed"):
        apply(state, Knock(0))
    with pytest.raises(IllegalActionError, match="may only knock or not knock"):
        apply(state, Pass())
