"""The Stellar GAME file and the deck file, validated at the door.

Every bad file must give an InputError whose one-line message names the file and the field
(``asterion.errors``): the command line prints it and exits with status 2.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import InputError
from asterion.models.stellar import (
    Placed,
    StellarRules,
    StellarState,
    apply,
    legal_moves,
)
from asterion.models.stellar_cards import (
    CelestialType,
    Deck,
    StellarCard,
    deck_from_data,
    deck_to_data,
    default_deck,
    load_deck,
)
from asterion.models.stellar_files import game_to_data, load_game, parse_game

SOURCE = "game.json"
DECK_SOURCE = "deck.json"
PLANET, MOON, CLOUD = CelestialType.PLANET, CelestialType.MOON, CelestialType.CLOUD

FILE_CARDS = (
    StellarCard("P1", PLANET, 1, 1),
    StellarCard("P2", PLANET, 2, 2),
    StellarCard("P3", PLANET, 3, 0),
    StellarCard("M1", MOON, 1, 1),
    StellarCard("M2", MOON, 2, 0),
    StellarCard("M3", MOON, 3, 1, starter=True),
    StellarCard("A1", CelestialType.ASTEROID, 1, 3),
    StellarCard("S1", None, 1, 0),
    StellarCard("S06", None, 0, 0),
    StellarCard("C06", CLOUD, 0, 3),
    StellarCard("B5", CelestialType.BLACK_HOLE, 5, 2),
    *(StellarCard(f"D{i}", CLOUD, 1 + i % 5, i % 4) for i in range(1, 8)),
)
FILE_DECK = Deck(FILE_CARDS, "file tests")

GOOD: dict[str, Any] = {
    "format": "asterion.stellar-game/1",
    "players": [
        {
            # P2 face down: the only slot beside planet P1 (3) is taken.
            "telescope": {"1": "P1", "3": "M1", "12": {"card": "P2", "face_down": True}},
            "notebook": ["M2", "C06"],
            "hand": ["A1", "S1"],
        },
        {"telescope": {"1": "M3", "2": "S06"}, "notebook": ["P3"], "hand": ["B5", "D1"]},
    ],
    "display": ["D2", None, "D3", "D4", "D5"],
    "deck": ["D6", "D7"],
    "active": 1,
    "phase": "turn",
    "turns_taken": [2, 1],
}


def parse(data: object) -> StellarState:
    text = data if isinstance(data, str) else json.dumps(data)
    return parse_game(text, SOURCE, FILE_DECK)


def error_for(data: object) -> InputError:
    with pytest.raises(InputError) as caught:
        parse(data)
    return caught.value


def check_error(error: InputError, field: str, *words: str) -> None:
    """The error names the file and a field under ``field``, on one line."""
    message = str(error)
    assert error.source == SOURCE, message
    assert error.field is not None, message
    assert error.field.startswith(field), message
    assert message.startswith(f"{SOURCE}: {error.field}: "), message
    assert "\n" not in message
    for word in words:
        assert word in message


def with_player(player: int, **changes: object) -> dict[str, Any]:
    data = json.loads(json.dumps(GOOD))
    data["players"][player].update(changes)
    return data


def with_fields(**changes: object) -> dict[str, Any]:
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return data


# -- good files ----------------------------------------------------------------------------------


def test_a_good_file() -> None:
    state = parse(GOOD)
    assert state.areas[0].telescope == (
        (1, Placed("P1")),
        (3, Placed("M1")),
        (12, Placed("P2", face_down=True)),
    )
    assert state.areas[0].notebook == ("M2", "C06")
    assert state.areas[0].hand == ("A1", "S1")
    assert state.areas[1].telescope == ((1, Placed("M3")), (2, Placed("S06")))
    assert state.display == ("D2", None, "D3", "D4", "D5")
    assert state.deck == ("D6", "D7")
    assert (state.active, state.phase, state.turns_taken) == (1, "turn", (2, 1))
    assert state.rules.deck is FILE_DECK
    assert not state.rules.is_solo


def test_round_trip_of_the_good_file(tmp_path: Path) -> None:
    state = parse(GOOD)
    assert game_to_data(state) == GOOD
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_to_data(state)), encoding="utf-8")
    assert load_game(path, FILE_DECK) == state


def test_defaults() -> None:
    state = parse({"players": [{"telescope": {"1": "P1"}}, {"telescope": {"1": "M3"}}]})
    assert state.display == (None,) * 5
    assert state.deck == ()
    assert state.areas[0].notebook == state.areas[0].hand == ()
    # Not full: the game goes on; turns taken: telescope cards minus the starter.
    assert (state.active, state.phase, state.turns_taken) == (0, "turn", (0, 0))
    assert parse(with_fields(display=["D2"])).display == ("D2", None, None, None, None)


def test_a_solo_file_round_trips() -> None:
    data = {
        "format": "asterion.stellar-game/1",
        "players": [{"telescope": {"1": "P1"}, "notebook": ["M2"], "hand": ["A1", "S1"]}],
        "display": ["D2", "D3", "D4", "D5", "D6"],
        "deck": ["D7", "D1"],
        "active": 0,
        "phase": "turn",
        "turns_taken": [0, 0],
        "targets": {"top": 12, "middle": 10, "bottom": 14},
    }
    state = parse(data)
    assert state.rules.is_solo
    assert dict(state.rules.solo_targets or ()) == {"top": 12, "middle": 10, "bottom": 14}
    assert game_to_data(state) == data
    assert parse(game_to_data(state)) == state


def random_game(seed: int, rules: StellarRules | None = None) -> list[StellarState]:
    rng = random.Random(seed)
    state = StellarState.new_game(rules, seed=seed)
    states = [state]
    while not state.is_over:
        state = apply(state, rng.choice(list(legal_moves(state))))
        states.append(state)
    return states


def test_a_finished_game_defaults_to_over_with_eleven_turns_each() -> None:
    end = random_game(5)[-1]
    data = game_to_data(end)
    del data["phase"], data["turns_taken"]
    state = parse_game(json.dumps(data), SOURCE)
    assert state.phase == "over"
    # 12 telescope cards minus the starter.
    assert state.turns_taken == (11, 11)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_round_trip_of_random_play(seed: int) -> None:
    for state in random_game(seed):
        if state.phase == "reset":
            continue  # see test_round_trip_in_the_reset_phase
        data = game_to_data(state)
        again = parse_game(json.dumps(data), SOURCE)
        assert again == state
        assert game_to_data(again) == data


def test_round_trip_in_the_reset_phase() -> None:
    resets = (s for seed in range(40) for s in random_game(seed) if s.phase == "reset")
    states = [next(resets) for _ in range(3)]
    for state in states:
        again = parse_game(json.dumps(game_to_data(state)), SOURCE)
        assert again.phase == "reset"
        assert set(legal_moves(again)) == set(legal_moves(state))
        assert again.resetter == 1 - state.active
        assert again == state


def solo(**changes: object) -> dict[str, Any]:
    return with_fields(players=[GOOD["players"][0]], **changes)


# -- bad files -----------------------------------------------------------------------------------


def test_malformed_json() -> None:
    error = error_for('{"players": [')
    assert error.source == SOURCE
    assert str(error).startswith(f"{SOURCE}: ")
    assert "not valid JSON" in str(error)
    assert "line 1" in str(error)
    error = error_for('{"players": [], "players": []}')
    assert error.source == SOURCE
    assert "twice" in str(error)


def test_malformed_json_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{,}", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_game(path, FILE_DECK)
    assert caught.value.source == str(path)
    with pytest.raises(InputError) as caught:
        load_game(tmp_path / "missing.json", FILE_DECK)
    assert caught.value.source == str(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (with_player(0, notebook=["M2", "ZZ"]), "players.0.notebook"),
        (with_player(1, hand=["B5", "ZZ"]), "players.1.hand"),
        pytest.param(
            with_player(0, telescope={"1": "P1", "3": "ZZ"}),
            "players.0.telescope",
        ),
        pytest.param(
            with_player(0, telescope={"1": "P1", "3": {"card": "ZZ"}}),
            "players.0.telescope",
        ),
        pytest.param(
            with_fields(display=["D2", "ZZ"]),
            "display",
        ),
        pytest.param(
            with_fields(deck=["D6", "ZZ"]),
            "deck",
        ),
    ],
    ids=["notebook", "hand", "telescope", "telescope-object", "display", "deck"],
)
def test_a_card_not_in_the_deck(data: dict[str, Any], field: str) -> None:
    check_error(error_for(data), field, "ZZ")


@pytest.mark.parametrize("where", ["telescope", "display", "deck"])
def test_a_card_not_in_the_deck_is_refused_and_named(where: str) -> None:
    # The part of the contract that holds wherever the card is: InputError, file, card.
    data = {
        "telescope": with_player(0, telescope={"1": "P1", "3": "ZZ"}),
        "display": with_fields(display=["D2", "ZZ"]),
        "deck": with_fields(deck=["D6", "ZZ"]),
    }[where]
    error = error_for(data)
    assert error.source == SOURCE
    assert str(error).startswith(f"{SOURCE}: ")
    assert "ZZ" in str(error)


TWICE = [
    # (data, the fields where the card appears)
    (with_player(1, hand=["B5", "M2"]), ("players.0.notebook", "players.1.hand")),
    (with_player(0, telescope={"1": "P1", "3": "P2", "6": "P2"}), ("players.0.telescope",)),
    (with_fields(deck=["D6", "D2"]), ("display", "deck")),
    (with_player(1, telescope={"1": "M3", "2": "S06", "3": "P1"}), ("players.",)),
]


@pytest.mark.parametrize(("data", "fields"), TWICE, ids=["hands", "slots", "deck", "players"])
def test_a_card_used_twice_is_refused(data: dict[str, Any], fields: tuple[str, ...]) -> None:
    error = error_for(data)
    assert error.source == SOURCE
    assert str(error).startswith(f"{SOURCE}: ")
    assert "\n" not in str(error)


@pytest.mark.parametrize(("data", "fields"), TWICE, ids=["hands", "slots", "deck", "players"])
def test_a_card_used_twice_names_a_field(data: dict[str, Any], fields: tuple[str, ...]) -> None:
    error = error_for(data)
    assert error.field is not None
    assert error.field.startswith(fields)


def test_slot_thirteen() -> None:
    error = error_for(with_player(0, telescope={"1": "P1", "13": "P2"}))
    check_error(error, "players.0.telescope", "13")
    error = error_for(with_player(1, telescope={"0": "M3"}))
    check_error(error, "players.1.telescope", "0")
    # digits that str.isdigit() takes and int() refuses or reads ("²", the Arabic-Indic "٣")
    for key in ("²", "٣"):
        check_error(
            error_for(with_player(0, telescope={"1": "P1", key: "P2"})), "players.0.telescope"
        )


def test_a_thirteenth_telescope_card() -> None:
    # Thirteen cards on slots 1-13, legal apart from slot 13: the clouds D1-D7 and C06 on
    # 3, 6, 8, 7, 5, 2, 4, 11 touch (3-6, 6-8, 8-7, 7-5, 5-2, 5-4, 8-11); the rest are single
    # cards of other types or satellites.
    order = {1: "S1", 3: "D1", 6: "D2", 8: "D3", 7: "D4", 5: "D5", 2: "D6", 4: "D7", 11: "C06"}
    order.update({9: "P1", 10: "M1", 12: "A1", 13: "S06"})
    assert sorted(order) == list(range(1, 14))
    telescope = {str(slot): card for slot, card in order.items()}
    data = {"players": [{"telescope": telescope}, {"telescope": {"1": "M3"}}]}
    check_error(error_for(data), "players.0.telescope", "13")


def test_a_thirteenth_telescope_card_under_an_alias_key() -> None:
    telescope = {"01": "S1", "1": "S06", "3": "P1", "6": "P2", "8": "P3"}
    data = {"players": [{"telescope": telescope}, {"telescope": {"1": "M3"}}]}
    check_error(error_for(data), "players.0.telescope")


@pytest.mark.parametrize(
    ("telescope", "kind"),
    [
        ({"1": "P1", "12": "P2"}, "planet"),  # far apart
        ({"1": "P1", "2": "P2"}, "planet"),  # 1 (0,2) and 2 (1,1) touch only at a corner
        ({"1": "P1", "3": "S1", "6": "P2"}, "planet"),  # a satellite is no planet
        ({"1": "P1", "3": {"card": "P3", "face_down": True}, "6": "P2"}, "planet"),  # face down
        ({"4": "M1", "5": "P1", "7": "M2"}, "moon"),  # 4 and 7 touch 5, not each other
    ],
)
def test_an_illegal_placement(telescope: dict[str, object], kind: str) -> None:
    error = error_for(with_player(0, telescope=telescope))
    check_error(error, "players.0.telescope", kind)


@pytest.mark.parametrize(
    "telescope",
    [
        {"1": "P1", "12": {"card": "P2", "face_down": True}},  # slot 3, beside P1, was free
        {"1": "P1", "3": "M1", "12": {"card": "S1", "face_down": True}},  # satellites: anywhere
        {"1": "P1", "3": "M1", "12": {"card": "A1", "face_down": True}},  # a new type: anywhere
        {"1": "P1", "3": {"card": "P2", "face_down": True}},  # 3 itself was free beside P1
        # The moons' neighbours 1, 2, 6: slot 6 is never filled.
        {"1": "P1", "3": "M1", "2": "S1", "12": {"card": "M2", "face_down": True}},
    ],
)
def test_a_face_down_card_that_had_a_legal_slot(telescope: dict[str, object]) -> None:
    # rules/stellar.md: a card goes face down only if it has no legal slot; cards never leave
    # the telescope, so a slot free now was free then.
    error = error_for(with_player(0, telescope=telescope))
    check_error(error, "players.0.telescope", "face down")


def test_legal_placements() -> None:
    # Side by side: 1-3-6 (planets), 4-5-7 (moons through 5); face-down cards have no type.
    for telescope in (
        {"1": "P1", "3": "P2", "6": "P3"},
        {"4": "M1", "5": "M2", "7": "S1", "8": "P1"},
        {"1": "P1", "3": "M1", "12": {"card": "P2", "face_down": True}},  # 3 taken first
        # M2 face down once the moon's neighbours 1, 2 and 6 are taken, then cloud D2 beside
        # cloud D1.
        {
            "1": "P1",
            "3": "M1",
            "2": "S1",
            "6": "D1",
            "12": {"card": "M2", "face_down": True},
            "5": "D2",
        },
    ):
        state = parse({"players": [{"telescope": telescope}, {"telescope": {"1": "M3"}}]})
        assert len(state.areas[0].telescope) == len(telescope)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (with_fields(colour="red"), "colour"),
        (with_player(1, score=12), "players.1.score"),
    ],
)
def test_unknown_fields(data: dict[str, Any], field: str) -> None:
    check_error(error_for(data), field, "unknown field")


def test_an_unknown_field_in_a_telescope_card() -> None:
    data = with_player(0, telescope={"1": {"card": "P1", "upside": True}})
    check_error(error_for(data), "players.0.telescope.1")


def test_an_unknown_field_in_a_telescope_card_says_so() -> None:
    data = with_player(0, telescope={"1": {"card": "P1", "upside": True}})
    check_error(error_for(data), "players.0.telescope.1", "unknown field")


@pytest.mark.parametrize("fmt", ["asterion.stellar-game/2", "asterion.stellar-deck/1", "", 1])
def test_a_wrong_format_string(fmt: object) -> None:
    check_error(error_for(with_fields(format=fmt)), "format")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (with_fields(players=[]), "players"),
        (with_fields(players=[GOOD["players"][0]] * 3), "players"),
        (with_fields(players=[GOOD["players"][0]]), "players"),  # one player without targets
        (with_fields(targets={"top": 3, "middle": 3, "bottom": 3}), "players"),  # two with
        (with_fields(active=2), "active"),
        (with_fields(phase="midgame"), "phase"),
        (with_fields(display=["D1", "D2", "D3", "D4", "D5", "D6"]), "display"),
        (with_fields(turns_taken=[1]), "turns_taken"),
        (with_fields(targets={"left": 3}), "targets"),
        (solo(targets={"top": -1, "middle": 3, "bottom": 3}), "targets.top"),  # always beaten
        (solo(targets={"top": 3, "middle": 101, "bottom": 3}), "targets.middle"),  # over 100
        (with_player(0, notebook="M2"), "players.0.notebook"),
        (with_player(0, telescope={"one": "P1"}), "players.0.telescope"),
        (with_player(0, telescope={"1": 5}), "players.0.telescope"),
        (with_player(0, telescope=["P1"]), "players.0.telescope"),
    ],
)
def test_other_bad_fields(data: dict[str, Any], field: str) -> None:
    check_error(error_for(data), field)


def test_not_an_object() -> None:
    for text in ("[]", "3", "null", '"game"'):
        error = error_for(text)
        assert error.source == SOURCE
        assert str(error).startswith(f"{SOURCE}: ")


# -- fuzz ----------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
CARD_IDS = st.sampled_from([card.id for card in FILE_CARDS] + ["ZZ", "", "p1", "P1 "])
SLOT_KEYS = st.sampled_from(["0", "1", "2", "3", "5", "6", "8", "12", "13", "-1", "x", "01", "1.0"])
PLACED = st.one_of(
    CARD_IDS,
    st.fixed_dictionaries(
        {"card": CARD_IDS}, optional={"face_down": st.booleans(), "stars": st.integers()}
    ),
    JSON,
)
PLAYER = st.fixed_dictionaries(
    {},
    optional={
        "telescope": st.dictionaries(SLOT_KEYS, PLACED, max_size=13) | JSON,
        "notebook": st.lists(CARD_IDS, max_size=5) | JSON,
        "hand": st.lists(CARD_IDS, max_size=3),
        "junk": JSON,
    },
)
GAME_LIKE = st.fixed_dictionaries(
    {"players": st.lists(PLAYER, max_size=3) | JSON},
    optional={
        "format": st.sampled_from(["asterion.stellar-game/1", "asterion.stellar-game/0"]),
        "display": st.lists(st.none() | CARD_IDS, max_size=6),
        "deck": st.lists(CARD_IDS, max_size=5),
        "active": st.integers(-1, 2) | JSON,
        "phase": st.sampled_from(["turn", "reset", "final", "over", "end"]),
        "turns_taken": st.lists(st.integers(-2, 12), max_size=3),
        "targets": st.dictionaries(
            st.sampled_from(["top", "middle", "bottom", "left"]), st.integers(-5, 40) | JSON
        ),
    },
)


def only_input_errors(text: str) -> None:
    try:
        state = parse(text)
    except InputError as error:
        assert error.source == SOURCE
        assert str(error).startswith(f"{SOURCE}: ")
        assert "\n" not in str(error)
        return
    # A file that loads writes back to one that loads to the same position.
    assert parse(json.dumps(game_to_data(state))) == state


@settings(max_examples=150, deadline=None)
@given(data=JSON)
def test_fuzz_random_json_gives_only_input_errors(data: object) -> None:
    only_input_errors(json.dumps(data))


@settings(max_examples=300, deadline=None)
@given(data=GAME_LIKE)
def test_fuzz_game_like_json_gives_only_input_errors(data: object) -> None:
    only_input_errors(json.dumps(data))


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=40))
def test_fuzz_random_text_gives_only_input_errors(text: str) -> None:
    only_input_errors(text)


# -- the deck file -------------------------------------------------------------------------------


def deck_error(data: object) -> InputError:
    with pytest.raises(InputError) as caught:
        deck_from_data(data, DECK_SOURCE)
    return caught.value


def card_data(**changes: object) -> dict[str, Any]:
    card = {"id": "P1", "type": "planet", "number": 1, "stars": 1, **changes}
    return {"format": "asterion.stellar-deck/1", "cards": [card]}


def check_deck_error(error: InputError, field: str) -> None:
    message = str(error)
    assert error.source == DECK_SOURCE, message
    assert error.field is not None and error.field.startswith(field), message
    assert message.startswith(f"{DECK_SOURCE}: {error.field}: "), message


def test_the_default_deck() -> None:
    # R: 60 cards, 5 of them starters.
    deck = default_deck()
    assert len(deck.cards) == 60
    assert len(deck.starters) == 5
    assert len({card.id for card in deck.cards}) == 60
    for card in deck.cards:
        assert card.number in range(6)  # 1-5, or 0 for "0/6"
        assert 0 <= card.stars <= 3


def test_deck_round_trip(tmp_path: Path) -> None:
    assert deck_from_data(deck_to_data(FILE_DECK), DECK_SOURCE) == FILE_DECK
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck_to_data(FILE_DECK)), encoding="utf-8")
    assert load_deck(path) == FILE_DECK
    assert load_deck(None) == default_deck()
    zero_six = deck_from_data(card_data(number="0/6", type="satellite"), DECK_SOURCE)
    assert zero_six.cards == (StellarCard("P1", None, 0, 1),)
    assert zero_six["P1"].notebook_numbers == (0, 6)
    assert zero_six["P1"].telescope_number == 6


def test_a_card_reads_as_its_type_and_number() -> None:
    # Components: a card has a type or is a satellite (no type), and a number 1-5 or "0/6"
    # (stored as 0). The words a plan or a picture shows say so.
    assert StellarCard("S0", None, 0, 0).label.startswith("satellite 0/6 ")
    assert StellarCard("M4", MOON, 4, 1).label.startswith("moon 4 ")


@pytest.mark.parametrize("number", [0, 6, 7, -1, "0/7", "6", 2.5, None])
def test_deck_number_out_of_range(number: object) -> None:
    check_deck_error(deck_error(card_data(number=number)), "cards.0.number")


@pytest.mark.parametrize("stars", [4, -1, 1.5, None])
def test_deck_stars_out_of_range(stars: object) -> None:
    check_deck_error(deck_error(card_data(stars=stars)), "cards.0.stars")


def test_deck_duplicate_ids() -> None:
    data = card_data()
    data["cards"].append({"id": "P1", "type": "moon", "number": 2, "stars": 0})
    error = deck_error(data)
    assert error.source == DECK_SOURCE
    assert "P1" in str(error)
    assert str(error).startswith(f"{DECK_SOURCE}: ")


def test_deck_duplicate_ids_name_a_field() -> None:
    data = card_data()
    data["cards"].append({"id": "P1", "type": "moon", "number": 2, "stars": 0})
    check_deck_error(deck_error(data), "cards")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (card_data(type="comet"), "cards.0.type"),
        (card_data(colour="red"), "cards.0.colour"),
        (card_data(id=""), "cards.0.id"),
        ({"format": "asterion.stellar-deck/1", "cards": []}, "cards"),
        ({"format": "asterion.stellar-game/1", "cards": card_data()["cards"]}, "format"),
        ({"cards": card_data()["cards"], "extra": 1}, "extra"),
    ],
)
def test_other_deck_errors(data: object, field: str) -> None:
    check_deck_error(deck_error(data), field)


def test_deck_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{"cards": [', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_deck(path)
    assert caught.value.source == str(path)
    path.write_text(json.dumps(card_data(stars=4)), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_deck(path)
    assert caught.value.source == str(path)
    assert caught.value.field == "cards.0.stars"


def test_a_game_file_against_a_user_deck() -> None:
    # A card of the shipped deck is unknown to the user deck, and the other way round.
    default_id = default_deck().cards[0].id
    assert default_id not in FILE_DECK
    error = error_for(with_player(0, notebook=[default_id]))
    check_error(error, "players.0.notebook", default_id)
    with pytest.raises(InputError):
        parse_game(json.dumps(GOOD), SOURCE)  # P1 ... are not in the shipped deck


def test_a_union_error_shows_the_value_of_the_field_it_names() -> None:
    # Two cards with a bad number (a whole number 1-5, or "0/6"): the message names the first
    # and must show that card's value, not the other card's.
    data = card_data(number="6")
    data["cards"].append({"id": "P2", "type": "moon", "number": "x", "stars": 0})
    error = deck_error(data)
    assert error.field == "cards.0.number"
    assert error.problem.endswith('(got "6")')
