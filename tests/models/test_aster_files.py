"""The STATE file: an Aster position as JSON, validated at the door.

Every bad file must give an InputError whose one-line message names the file and the field.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from asterion.errors import InputError
from asterion.models.aster import (
    Action,
    AsterRules,
    AsterState,
    Claim,
    Color,
    EndTurn,
    apply,
    legal_actions,
)
from asterion.models.aster_board import Board
from asterion.models.aster_cards import ActionKind, Card, Catalog, Deck, Links
from asterion.models.aster_files import load_state, parse_state, state_from_data, state_to_data
from asterion.models.aster_patterns import Transforms

RED, BLUE, GREEN, YELLOW = Color.RED, Color.BLUE, Color.GREEN, Color.YELLOW
SOURCE = "puzzle.json"

ISSUE_EXAMPLE = {
    "rings": 4,
    "stars": {"2NE": "red", "C": "blue"},
    "reserve": {"red": 8},
    "player": "red",
    "actions": ["generate", "move_ring"],
}


def error_for(data: object) -> InputError:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(InputError) as caught:
        parse_state(text, SOURCE)
    return caught.value


# -- good files ----------------------------------------------------------------------------------


def test_the_example_from_the_issue(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(ISSUE_EXAMPLE), encoding="utf-8")
    state = load_state(path)
    assert state.board.rings == 4
    assert state.star_map() == {"2NE": RED, "C": BLUE}
    # red: 1 on the board + 8 in reserve = 9 <= 10 (a lower reserve is valid);
    # blue: defaults to 10 minus its 1 star on the board.
    assert state.reserve_of(RED) == 8
    assert state.reserve_of(BLUE) == 9
    # The colors named in the file, in the order red, blue, green, yellow.
    assert state.players == (RED, BLUE)
    assert state.player is RED
    assert state.actions == (ActionKind.GENERATE, ActionKind.MOVE_RING)
    assert state.next_slot == 0
    # Defaults: A1, A2, A4, A8.
    assert state.board == Board()
    assert state.rules.transforms is Transforms.TRANSLATE_ROTATE_REFLECT
    # And it plays: generate on C destroys blue's star (A2), which returns to blue.
    after = apply(state, Action(ActionKind.GENERATE, 0, point="C"))
    assert after.star_at("C") is RED
    assert (after.reserve_of(RED), after.reserve_of(BLUE)) == (7, 10)


def test_reserve_defaults_to_ten_minus_the_stars_on_the_board() -> None:
    state = parse_state(
        json.dumps({"stars": {"1N": "green", "2N": "green", "3N": "green", "C": "yellow"}})
    )
    assert state.reserve_of(GREEN) == 7
    assert state.reserve_of(YELLOW) == 9
    assert state.players == (GREEN, YELLOW)
    # Colors not on the board and not in play still own 10.
    assert state.reserve_of(RED) == 10


def test_a_lower_reserve_is_valid() -> None:
    state = parse_state(json.dumps({"stars": {"1N": "red"}, "reserve": {"red": 0, "blue": 3}}))
    assert (state.reserve_of(RED), state.reserve_of(BLUE)) == (0, 3)
    # Exactly 10 in all is fine too.
    state = parse_state(json.dumps({"stars": {"1N": "red"}, "reserve": {"red": 9}}))
    assert state.reserve_of(RED) == 9


def test_an_empty_file_is_a_default_position() -> None:
    state = parse_state("{}")
    assert state.star_map() == {}
    assert state.players == (RED,)
    # Actions default to the player's row: Big + Bang (A6).
    assert state.actions == (
        ActionKind.GENERATE,
        ActionKind.MOVE_RING,
        ActionKind.MOVE_LINE,
        ActionKind.NUDGE,
    )


def test_board_parameters() -> None:
    state = parse_state(
        json.dumps(
            {
                "rings": 3,
                "sides_are_lines": True,
                "line_blocking": True,
                "generation_points": ["3N"],
                "transforms": "translate",
                "stars": {"3NE": "red"},
            }
        )
    )
    assert state.board == Board(
        rings=3, sides_are_lines=True, line_blocking=True, generation_points=("3N",)
    )
    assert state.rules.transforms is Transforms.TRANSLATE
    assert len(state.board.points) == 25  # 8 * 3 + 1


# -- bad files -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [
        # More than 10 of a color in all: 1 on the board + 10 in reserve.
        ({"stars": {"2NE": "red"}, "reserve": {"red": 10}}, "reserve.red"),
        ({"reserve": {"blue": 11}}, "reserve.blue"),
        ({"reserve": {"red": -1}}, "reserve.red"),
        # 11 red stars on the board.
        (
            {
                "stars": {
                    f"{r}{d}": "red" for r in (1, 2) for d in ("N", "NE", "E", "SE", "S", "SW")
                }
            },
            "stars",
        ),
        # Unknown point: not a name at all, a ring beyond the board.
        ({"stars": {"2XX": "red"}}, "stars.2XX"),
        ({"stars": {"5NE": "red"}}, "stars.5NE"),
        ({"rings": 2, "stars": {"3N": "red"}}, "stars.3N"),
        # Unknown color, action, transforms, card.
        ({"stars": {"C": "purple"}}, "stars.C"),
        ({"player": "purple"}, "player"),
        ({"reserve": {"purple": 1}}, "reserve.purple"),
        ({"actions": ["generate", "teleport"]}, "actions.1"),
        ({"transforms": "rotate"}, "transforms"),
        ({"offer": ["CMi", "Nope"]}, "offer.1"),
        ({"rows": {"red": ["Big", "Bang", "Nope"]}}, "rows.red.2"),
        # Unknown fields, at the top and nested.
        ({"colour": "red"}, "colour"),
        ({"decks": {"small": [], "huge": []}}, "decks.huge"),
        # Out of range or inconsistent.
        ({"rings": 1}, "rings"),
        ({"rings": 10}, "rings"),
        ({"rings": "four"}, "rings"),
        ({"generation_points": ["5N"]}, "generation_points"),
        ({"player": "blue", "players": ["red"]}, "player"),
        ({"players": ["red", "red"]}, "players"),
        ({"players": []}, "players"),
        ({"actions": ["generate"], "slot": 2}, "slot"),
        ({"slot": -1}, "slot"),
        ({"stars": ["2NE", "red"]}, "stars"),
    ],
)
def test_bad_fields_name_the_file_and_the_field(data: object, field: str) -> None:
    error = error_for(data)
    assert error.source == SOURCE
    # The field's dotted path (pydantic may add a suffix such as ".[key]" for a bad dict key).
    assert error.field is not None
    assert error.field == field or error.field.startswith(f"{field}.")
    message = str(error)
    assert message.startswith(f"{SOURCE}: {error.field}: ")
    assert "\n" not in message


def test_the_documented_message_for_an_unknown_point() -> None:
    # docs/aster.md: "bad.json: stars.2XX: unknown point '2XX' (expected a name like '2NE',
    # '4S' or 'C')" -- the problem says what is wrong, with no more appended.
    with pytest.raises(InputError) as caught:
        parse_state('{"stars": {"2XX": "red"}}', "bad.json")
    assert str(caught.value) == (
        "bad.json: stars.2XX: unknown point '2XX' (expected a name like '2NE', '4S' or 'C')"
    )


def test_two_stars_on_one_point() -> None:
    # JSON with a repeated key: the second star would silently replace the first.
    error = error_for('{"stars": {"C": "red", "C": "blue"}}')
    assert SOURCE in str(error)
    assert "'C'" in str(error)
    assert "twice" in str(error)


def test_malformed_json() -> None:
    for text in ('{"stars": {"C": "red"}', "", "not json", "{'rings': 4}", "[1, 2,]"):
        error = error_for(text)
        assert str(error).startswith(f"{SOURCE}: ")
        assert "JSON" in str(error)


def test_not_an_object() -> None:
    for data in ([], 4, "state", None):
        error = error_for(json.dumps(data))
        assert str(error).startswith(f"{SOURCE}: ")


def test_files_too_large(tmp_path: Path) -> None:
    # A valid JSON document over the 1 MB limit: refused before parsing.
    text = json.dumps({"stars": {}, "offer": [], "x": "a" * 1_100_000})
    path = tmp_path / "big.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_state(path)
    assert str(path) in str(caught.value)
    assert "limit" in str(caught.value)
    with pytest.raises(InputError) as caught:
        parse_state(text, SOURCE)
    assert str(caught.value).startswith(f"{SOURCE}: ")


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        with pytest.raises(InputError) as caught:
            load_state(path)
        assert str(path) in str(caught.value)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"player": "r\xe9d"}')
    with pytest.raises(InputError) as caught:
        load_state(latin)
    assert str(latin) in str(caught.value)


def test_huge_integer_is_an_input_error() -> None:
    with pytest.raises(InputError) as caught:
        parse_state('{"slot": ' + "1" * 5000 + "}", SOURCE)
    # The problem for the user ("too many digits"), not Python's advice to programmers
    # (call sys.set_int_max_str_digits) that its own message carries.
    assert "too many digits" in caught.value.problem
    assert "set_int_max_str_digits" not in str(caught.value)


def test_a_file_of_exactly_1_mb_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    # docs/aster.md: "files over 1 MB" are refused; 1 MB is 1,000,000 bytes, so a file of
    # exactly that size is not over it. (An object padded with spaces is a default position.)
    exact = "{}" + " " * (1_000_000 - 2)
    path = tmp_path / "exact.json"
    path.write_bytes(exact.encode())
    assert load_state(path).star_map() == {}
    assert parse_state(exact, SOURCE).star_map() == {}
    path.write_bytes((exact + " ").encode())
    with pytest.raises(InputError) as caught:
        load_state(path)
    assert caught.value.source == str(path) and "1000000 bytes" in caught.value.problem
    with pytest.raises(InputError) as caught:
        parse_state(exact + " ", SOURCE)
    assert caught.value.source == SOURCE and "1000000 bytes" in caught.value.problem
    # Bytes, not characters: an e-acute is 2 bytes in UTF-8, so this text of 999,999
    # characters is 1,000,001 bytes, over the limit.
    accented = '{"name": "' + "\u00e9" * 2 + '"}' + " " * (1_000_000 - 15)
    assert (len(accented), len(accented.encode())) == (999_999, 1_000_001)
    with pytest.raises(InputError, match="1000000 bytes"):
        parse_state(accented, SOURCE)


@pytest.mark.parametrize(
    ("rings", "shown"),
    [
        ("4", '"4"'),  # a string, shown with its quotes: JSON wrote a string, not a number
        ("é", '"é"'),  # as the file wrote it, not as the escape \u00e9
        ("x" * 58, '"' + "x" * 58 + '"'),  # 60 characters, short enough to show whole
    ],
)
def test_a_value_of_the_wrong_kind_is_shown_as_the_file_wrote_it(rings: str, shown: str) -> None:
    # "rings" is a whole number (docs/aster.md: {"rings": 4, ...}); the message says what
    # was asked and shows what came.
    error = error_for({"rings": rings})
    assert error.field == "rings"
    assert error.problem == f"Input should be a valid integer (got {shown})"


# -- fuzz ----------------------------------------------------------------------------------------

FIELDS = [
    "rings",
    "sides_are_lines",
    "line_blocking",
    "generation_points",
    "transforms",
    "stars",
    "reserve",
    "player",
    "players",
    "actions",
    "slot",
    "vp",
    "rows",
    "aside",
    "offer",
    "decks",
]
WORD_COLORS = ["red", "blue", "green", "yellow", "purple"]
WORD_POINTS = ["C", "2NE", "4S", "1W", "5N", "9N", "2XX"]
WORD_OTHERS = ["generate", "move_line", "gravity", "teleport", "Big", "Bang", "CMi", "Leo"]
WORD_MORE = ["small", "large", "exact", "translate", "left", ""]
WORDS = WORD_COLORS + WORD_POINTS + WORD_OTHERS + WORD_MORE

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(WORDS)
    | st.text(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=5), children, max_size=5)
    ),
    max_leaves=15,
)
state_like = st.dictionaries(st.sampled_from([*FIELDS, "colour"]), json_values, max_size=6)


def parse_or_input_error(text: str) -> None:
    try:
        state = parse_state(text, SOURCE)
    except InputError as error:
        assert str(error).startswith(f"{SOURCE}")
        return
    assert isinstance(state, AsterState)


@settings(max_examples=150, deadline=None)
@given(data=state_like)
def test_fuzz_state_like_objects(data: dict[str, object]) -> None:
    parse_or_input_error(json.dumps(data))


@settings(max_examples=100, deadline=None)
@given(data=json_values)
def test_fuzz_any_json_value(data: object) -> None:
    parse_or_input_error(json.dumps(data))


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=60))
@example('{"stars": {"C": "red", "C": "red"}}')
@example('{"player": ' + "[" * 900 + "]" * 900 + "}")
@example("[" * 5000)
@example('{"vp": {"red": 1e999}}')
@example('{"rings": NaN}')
def test_fuzz_any_text(text: str) -> None:
    parse_or_input_error(text)


# -- round trip ----------------------------------------------------------------------------------


def random_game(seed: int, moves: int, rules: AsterRules) -> AsterState:
    """A game after ``moves`` random legal moves (often in the middle of a turn)."""
    rng = random.Random(seed)
    state = AsterState.new_game(players=(RED, BLUE, GREEN), rules=rules, seed=seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


def same_position(a: AsterState, b: AsterState) -> None:
    assert a.stars == b.stars
    assert a.reserve == b.reserve
    assert a.players == b.players
    assert a.player is b.player
    assert a.actions == b.actions
    assert a.next_slot == b.next_slot
    assert a.vp == b.vp
    assert a.rows == b.rows
    assert a.aside == b.aside
    assert a.offer == b.offer
    assert a.decks == b.decks
    assert a.board == b.board
    assert a.rules.transforms is b.rules.transforms


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 40),
    board=st.sampled_from(
        [
            Board(),
            Board(rings=3, sides_are_lines=True),
            Board(rings=6, line_blocking=True, generation_points=("C", "2N")),
        ]
    ),
    transforms=st.sampled_from(list(Transforms)),
)
def test_round_trip(seed: int, moves: int, board: Board, transforms: Transforms) -> None:
    rules = AsterRules(board=board, transforms=transforms)
    state = random_game(seed, moves, rules)
    data = state_to_data(state)
    # Through real JSON text, as a file would go.
    again = state_from_data(json.loads(json.dumps(data)), SOURCE)
    same_position(state, again)
    assert again == state
    assert state_to_data(again) == data


def test_round_trip_of_the_issue_example() -> None:
    state = parse_state(json.dumps(ISSUE_EXAMPLE))
    again = state_from_data(state_to_data(state), SOURCE)
    same_position(state, again)


TINY = Catalog(
    (
        Card("Big", "Big", Deck.BASE, 0, (), (ActionKind.GENERATE,), Links(right=True)),
        Card("Bang", "Bang", Deck.BASE, 0, (), (ActionKind.NUDGE,), Links(left=True, right=True)),
        Card(
            "Hst",
            "Host",
            Deck.SMALL,
            2,
            ((0, 0), (1, 1)),
            (ActionKind.GRAVITY,),
            Links(left=True, right=True, up=True),
        ),
        Card(
            "Agg", "Aggregated", Deck.SMALL, 2, ((0, 0), (1, 0)), (ActionKind.SUPERNOVA,), Links()
        ),
    )
)


def tiny_state(actions: tuple[ActionKind, ...]) -> AsterState:
    rules = AsterRules(catalog=TINY)
    return AsterState(
        stars=(None,) * 33,
        reserve=(10, 10, 10, 10),
        players=(RED, BLUE),
        actions=actions,
        rows=(("Big", "Bang", "Hst"), ("Big", "Bang"), (), ()),
        decks=(("Agg",), ()),
        rules=rules,
    )


def reloaded(state: AsterState) -> AsterState:
    return state_from_data(json.loads(json.dumps(state_to_data(state))), SOURCE, TINY)


def test_round_trip_with_a_custom_catalog() -> None:
    state = tiny_state((ActionKind.GENERATE, ActionKind.NUDGE, ActionKind.GRAVITY))
    same_position(state, reloaded(state))


def test_round_trip_keeps_aggregated_cards() -> None:
    state = tiny_state((ActionKind.GRAVITY,))
    state = apply(state, Action(ActionKind.GRAVITY, 0, deck=Deck.SMALL, host=2))
    # Red's next list: Big (generate), Bang (nudge), Hst (gravity), then Agg (supernova).
    assert state.action_list_of(RED)[-1] is ActionKind.SUPERNOVA
    again = reloaded(state)
    assert again.action_list_of(RED) == state.action_list_of(RED)


def test_round_trip_keeps_black_holes() -> None:
    state = tiny_state((ActionKind.BLACK_HOLE,))
    state = apply(state, Action(ActionKind.BLACK_HOLE, 0))
    # 6 minutes: -3, back one: -2.
    assert apply(state, EndTurn(6)).vp_of(RED) == -2
    assert apply(reloaded(state), EndTurn(6)).vp_of(RED) == -2


def test_round_trip_keeps_the_claim_of_this_turn() -> None:
    state = tiny_state(())
    stars = [None] * 33
    for point in ("2NE", "3NE", "4N", "4NE"):
        stars[state.board.index[point]] = RED
    state = AsterState(
        stars=tuple(stars),
        reserve=(6, 10, 10, 10),
        players=(RED, BLUE),
        rows=state.rows,
        offer=("Hst",),
        decks=(("Agg",), ()),
        rules=state.rules,
    )
    state = apply(state, Claim("Hst", frozenset({"2NE", "3NE"})))
    # Hst was replaced by Agg, present on 4N-4NE; but only one claim a turn.
    assert state.offer == ("Agg",)
    assert [m for m in legal_actions(state) if isinstance(m, Claim)] == []
    again = reloaded(state)
    assert [m for m in legal_actions(again) if isinstance(m, Claim)] == []


def test_round_trip_keeps_the_end_of_the_game() -> None:
    # Red completed its row; blue is playing the one more turn it has.
    base = tiny_state(())
    state = AsterState(
        stars=base.stars,
        reserve=base.reserve,
        players=(RED, BLUE),
        active=1,
        rows=base.rows,
        decks=base.decks,
        final_turns_left=1,
        rules=base.rules,
    )
    assert apply(state, EndTurn(0)).is_over
    assert apply(reloaded(state), EndTurn(0)).is_over


def test_the_asymmetric_variant_is_read_and_written() -> None:
    # docs/data.md, astronomer sides: red plays copy 1, Big = generate, move_line and
    # Bang = move_ring, victory_point; the standard side (A6) is generate, move_ring,
    # move_line, nudge.
    text = '{"stars": {"C": "red"}, "player": "red", "asymmetric": true}'
    state = parse_state(text)
    assert state.rules.asymmetric
    assert [a.value for a in state.actions] == [
        "generate",
        "move_line",
        "move_ring",
        "victory_point",
    ]
    assert state_to_data(state)["asymmetric"] is True
    standard = parse_state('{"stars": {"C": "red"}, "player": "red"}')
    assert [a.value for a in standard.actions] == ["generate", "move_ring", "move_line", "nudge"]
    assert "asymmetric" not in state_to_data(standard)


def test_ten_stars_of_a_color_on_the_board_are_all_its_stars() -> None:
    # docs/aster.md: reserve "defaults to 10 minus the color's stars on the board"; more than
    # 10 of a color in all is not valid, so 10 on the board is, with 0 in reserve.
    points = [f"{r}{d}" for r in (1, 2) for d in ("N", "NE", "E", "SE", "S")]
    state = parse_state(json.dumps({"stars": dict.fromkeys(points, "red")}))
    assert len(state.star_map()) == 10 and state.reserve_of(RED) == 0


def test_the_players_default_to_the_colors_named_and_the_first_plays() -> None:
    # aster_files: players default to "the colors named anywhere in the file, in the order
    # red, blue, green, yellow" -- the player field names one too.
    state = parse_state(json.dumps({"stars": {"C": "red"}, "player": "blue"}))
    assert state.players == (RED, BLUE) and state.player is BLUE
    state = parse_state(json.dumps({"stars": {"C": "blue", "1N": "red"}}))
    assert state.players == (RED, BLUE) and state.player is RED


def test_four_players_are_read() -> None:
    # rules/aster.md A3: four colors, so up to four players.
    state = parse_state(json.dumps({"players": ["red", "blue", "green", "yellow"]}))
    assert state.players == (RED, BLUE, GREEN, YELLOW)


def test_a_gravity_host_is_a_card_of_the_row() -> None:
    # aggregated maps a color to [host row index, card] pairs; the default row is Big and
    # Bang (two cards: indexes 0 and 1).
    state = parse_state(json.dumps({"aggregated": {"red": [[0, "Tri"], [1, "Tri"]]}}))
    assert state.aggregated[RED.number] == ((0, "Tri"), (1, "Tri"))
    for host in (2, -1):
        error = error_for({"aggregated": {"red": [[host, "Tri"]]}})
        assert error.field == "aggregated.red.0" and f"host {host}" in error.problem


def test_a_finished_game_is_written_as_over_and_read_back() -> None:
    state = replace(parse_state("{}"), is_over=True)
    data = state_to_data(state)
    assert data["over"] is True
    assert state_from_data(data, SOURCE).is_over


def test_explicit_zero_black_holes_and_final_turns_are_read() -> None:
    # A turn with no black hole played, and the last final turn used up (rules: after the
    # row of seven "every other player has one more turn"; 0 left when they are all played):
    # both are states a game passes through, so a file may say 0 for them.
    state = parse_state('{"black_holes": 0, "final_turns_left": 0}', SOURCE)
    assert (state.black_holes, state.final_turns_left) == (0, 0)
    assert state_from_data(state_to_data(state), SOURCE).final_turns_left == 0
