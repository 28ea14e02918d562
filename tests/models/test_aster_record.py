"""Game records (``asterion.aster-game/1``): moves in words, replayed by the rules engine;
mistakes named by turn and move."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import InputError
from asterion.models.aster import (
    AsterState,
    Claim,
    Color,
    EndTurn,
    apply,
    claims,
    slot_actions,
)
from asterion.models.aster_cards import provisional_catalog
from asterion.models.aster_files import state_from_data
from asterion.models.aster_record import (
    MAX_TURN_MOVES,
    demo_record,
    parse_move,
    record_from_data,
    typed,
)


def test_the_shipped_record_replays_and_blue_claims_triangulum_with_three_own_stars() -> None:
    record = demo_record()
    assert len(record.turns) == 4
    second = record.turns[1]
    assert second.before.player is Color.BLUE
    made = second.claim
    assert made is not None
    claim, before = made
    # Worked from the record: blue generated on 1SE and moved its stars to 3E and 4SE,
    # Triangulum's three points, all blue.
    assert claim.abbr == "Tri" and claim.points == {"1SE", "3E", "4SE"}
    assert all(before.star_at(p) is Color.BLUE for p in claim.points)
    # rules/aster.md: every player gains 1 VP per star of their color used
    assert second.after.vp_of(Color.BLUE) == before.vp_of(Color.BLUE) + 3
    # each turn starts with the next player, the record's turns alternating
    assert [t.before.player for t in record.turns] == [Color.RED, Color.BLUE] * 2


def record(turns: list[list[str]], **fields: Any) -> dict[str, Any]:
    return {"format": "asterion.aster-game/1", "turns": turns, **fields}


@pytest.mark.parametrize(
    ("data", "field", "problem"),
    [
        (record([["teleport C"]]), "turns.0.0", "unknown move 'teleport'"),
        (record([["generate C", "generate 1NE"]]), "turns.0.1", "no slot left this turn"),
        (record([["move_line C 2N"]]), "turns.0.0", "no slot left this turn"),  # C is empty
        (record([["claim Ori"]]), "turns.0.0", "Ori is not face up"),
        (record([["claim Tri"]]), "turns.0.0", "Tri is not present"),
        (record([["claim"]]), "turns.0.0", "claim what?"),
        (record([[""]]), "turns.0.0", "an empty move"),
        (record([], players=["red"], start={}), "players", "not both"),
        (record([], players=["red", "red"]), "players", "distinct colors"),
        (record([["generate C"] * (MAX_TURN_MOVES + 1)]), "turns.0", "the limit is"),
        (record([], format="asterion.aster-game/2"), "format", ""),
    ],
)
def test_mistakes_name_the_turn_and_the_move(data: Any, field: str, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        record_from_data(data, "game.json")
    assert caught.value.source == "game.json"
    assert caught.value.field == field and problem in caught.value.problem


def test_a_claim_after_the_actions_and_nothing_after_it() -> None:
    turn = ["generate 1NE", "move_ring 3NE 3N", "move_line 2NE 4NE", "claim Tri"]
    assert record_from_data(record([turn]), "g").turns[0].claim is not None
    with pytest.raises(InputError, match="no slot left"):
        record_from_data(record([[*turn, "nudge 3N 3NE"]]), "g")


def test_a_claim_without_points_takes_the_placement_with_most_own_stars() -> None:
    # A9, worked by hand: the diagonal pair (CMi in the provisional catalog) is present three
    # times on the NE diagonal: 3NE-4NE (both red), 2NE-3NE and 4NE-C (one red star each).
    state = state_from_data(
        {
            "stars": {"2NE": "blue", "3NE": "red", "4NE": "red", "C": "blue"},
            "player": "red",
            "offer": ["CMi"],
        },
        "s",
        provisional_catalog(),
    )
    assert sorted(sorted(c.points) for c in claims(state)) == [
        ["2NE", "3NE"],
        ["3NE", "4NE"],
        ["4NE", "C"],
    ]
    chosen = parse_move(state, "claim CMi")
    assert isinstance(chosen, Claim) and chosen.points == {"3NE", "4NE"}
    named = parse_move(state, "claim CMi 4ne c")
    assert isinstance(named, Claim) and named.points == {"4NE", "C"}
    with pytest.raises(InputError, match="not present on 1N 2N"):
        parse_move(state, "claim CMi 1N 2N")


def test_a_game_over_takes_no_more_turns() -> None:
    # A position in its last turn (final_turns_left 1): after it, the game is over.
    start = {"players": ["red"], "final_turns_left": 1}
    with pytest.raises(InputError) as caught:
        record_from_data(record([[], []], start=start), "g")
    assert caught.value.field == "turns.1" and "the game is over" in caught.value.problem


def test_plain_symbols_and_gravity_are_written_as_the_module_says() -> None:
    state = state_from_data(
        {"player": "red", "actions": ["victory_point", "gravity"], "decks": {"small": ["Tri"]}},
        "s",
    )
    # (Big has no vertical link in the shipped catalog: gravity has no host there)
    assert typed(parse_move(state, "victory_point")) == "victory_point"  # type: ignore[arg-type]
    with pytest.raises(InputError, match="no slot left"):
        parse_move(state, "gravity small 0")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_what_typed_writes_parse_move_reads_back(seed: int) -> None:
    # Random play from the opening: every legal action, written and read back, is an action
    # of the same kind doing the same thing (perhaps from an earlier slot of that kind).
    rng = random.Random(seed)
    state = AsterState.new_game()
    for _ in range(rng.randint(0, 6)):
        legal = [a for slot in state.remaining_slots() for a in slot_actions(state, slot)]
        if not legal:
            state = apply(state, EndTurn())
            continue
        action = rng.choice(legal)
        read = parse_move(state, typed(action))
        assert typed(read) == typed(action)  # type: ignore[arg-type]
        assert apply(state, read).stars == apply(state, action).stars
        state = apply(state, action)


# -- fuzz ----------------------------------------------------------------------------------------

MOVE_WORDS = ["generate", "move_line", "move_ring", "nudge", "claim", "gravity", "supernova"]
MOVE_WORDS += ["C", "2N", "3NE", "1se", "4SW", "9N", "Tri", "Crv", "small", "0", "-1", "", "é"]
moves = st.lists(st.sampled_from(MOVE_WORDS), max_size=4).map(" ".join)
record_like = st.fixed_dictionaries(
    {"turns": st.lists(st.lists(moves, max_size=5), max_size=6)},
    optional={
        "players": st.lists(st.sampled_from(["red", "blue", "green", "pink"]), max_size=5),
        "seed": st.integers(-2, 2**32),
        "start": st.dictionaries(st.sampled_from(["player", "stars", "offer"]), st.text()),
        "format": st.sampled_from(["asterion.aster-game/1", "asterion.aster-game/2", 1]),
    },
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.one_of(record_like, json_values))
def test_fuzz_a_record_is_read_or_refused_as_input(data: Any) -> None:
    # Anything at all: a record, or an InputError naming the file (never another exception).
    try:
        record_from_data(data, "game.json")
    except InputError as error:
        assert error.source == "game.json" and "\n" not in str(error)


@pytest.mark.parametrize(
    ("move", "problem"),
    [
        ("generate 9ZZ", "unknown point '9ZZ'"),
        ("generate", "generate is written 'generate POINT'"),
        ("generate C extra", "generate is written 'generate POINT'"),
        ("move_line C", "move_line is written 'move_line FROM TO'"),
        ("supernova now", "supernova is written 'supernova'"),
    ],
)
def test_words_that_name_no_action_are_refused_as_what_is_wrong(move: str, problem: str) -> None:
    # (an outside audit: these read "no slot left this turn can do ...")
    with pytest.raises(InputError) as caught:
        record_from_data(record([[move]]), "g")
    assert caught.value.field == "turns.0.0" and problem in caught.value.problem


def test_a_record_of_four_players_is_read() -> None:
    # rules/aster.md A3: four colors (red, blue, green, yellow), one a player: up to four.
    colors = ["red", "blue", "green", "yellow"]
    start = record_from_data(record([], players=colors), "game.json").start
    assert start.players == (Color.RED, Color.BLUE, Color.GREEN, Color.YELLOW)


def test_a_turn_knows_its_first_state_and_a_turn_without_a_claim_has_none() -> None:
    # The shipped record's first turn is red's "generate C", "move_line C 2N": no claim.
    record = demo_record()
    first = record.turns[0]
    assert first.before == record.start and len(first.states) == 3
    assert first.claim is None
    assert first.after.star_at("2N") is Color.RED and first.after.star_at("C") is None


def test_the_limits_of_a_record_are_named_at_the_door() -> None:
    # MAX_RECORD_TURNS = 400 turns a record, MAX_TURN_MOVES = 60 moves a turn (the constants'
    # documented limits): one more is refused naming the limit; exactly the limit is not.
    assert len(record_from_data(record([[]] * 400), "game.json").turns) == 400
    with pytest.raises(InputError) as caught:
        record_from_data(record([[]] * 401), "game.json")
    assert caught.value.field == "turns" and "400" in caught.value.problem
    with pytest.raises(InputError) as caught:
        record_from_data(record([["generate C"] * 61]), "game.json")
    assert caught.value.field == "turns.0" and "the limit is 60" in caught.value.problem
    # 60 moves pass the count; the second "generate C" is then refused by the rules (one
    # generate slot in Big and Bang's actions).
    with pytest.raises(InputError) as caught:
        record_from_data(record([["generate C"] * 60]), "game.json")
    assert caught.value.field == "turns.0.1"


def test_an_unknown_point_is_the_first_one_written() -> None:
    with pytest.raises(InputError) as caught:
        record_from_data(record([["move_line 9X 8Y"]]), "game.json")
    assert caught.value.field == "turns.0.0" and "unknown point '9X'" in caught.value.problem
