"""The ``asterion aster`` commands: documented JSON shapes, exit statuses and error lines.

Expected numbers come from the worked examples of rules/aster.md or are worked out by hand
in a comment beside them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from clirun import run, write

from asterion.models import aster_files
from asterion.models.aster_cards import provisional_catalog

# -- board, catalog ---------------------------------------------------------------------------


def test_board_json_counts_from_the_rules_page() -> None:
    code, out, _ = run("aster", "board", "--json")
    board = json.loads(out)
    assert code == 0
    assert len(board["points"]) == 33  # 8R + 1
    kinds = [edge["kind"] for edge in board["edges"]]
    assert kinds.count("ring") == 32 and kinds.count("line") == 32
    assert sorted(board["generation_points"]) == ["1NE", "1NW", "1SE", "1SW", "C"]
    assert board["starting_points"]["red"] == ["2NE", "3NE"]


@pytest.mark.parametrize("rings", [2, 9])
def test_board_other_sizes(rings: int) -> None:
    code, out, _ = run("aster", "board", "--rings", str(rings), "--json")
    assert code == 0 and len(json.loads(out)["points"]) == 8 * rings + 1


def test_board_rings_out_of_range_is_a_usage_error() -> None:
    code, _, _ = run("aster", "board", "--rings", "10")
    assert code == 2


def test_catalog_json_shape() -> None:
    code, out, _ = run("aster", "catalog", "--json")
    cards = json.loads(out)["cards"]
    assert code == 0
    decks = {card["deck"] for card in cards}
    assert {"small", "large", "base"} <= decks
    assert sum(card["deck"] in ("small", "large") for card in cards) >= 12
    for card in cards:
        assert {"abbr", "name", "deck", "points", "pattern", "actions", "links"} <= set(card)
        if card["deck"] != "base":
            assert card["points"] == len(card["pattern"])  # points = number of stars


# -- verify -----------------------------------------------------------------------------------


def test_verify_json_shape_on_the_provisional_catalog(tmp_path: Path) -> None:
    from asterion.models.aster_cards import catalog_to_data

    cards = write(tmp_path, catalog_to_data(provisional_catalog()), "cards.json")
    code, out, _ = run("aster", "verify", "--catalog", cards, "--turns", "1", "--json")
    document = json.loads(out)
    assert code == 0
    assert list(document) == ["sound", "problems", "warnings", "cards"]
    assert document["sound"] is True and document["problems"] == []
    constellations = [c for c in provisional_catalog().cards if c.pattern]
    assert [c["abbr"] for c in document["cards"]] == [c.abbr for c in constellations]
    for entry in document["cards"]:
        assert list(entry) == [
            "abbr",
            "deck",
            "stars",
            "placements",
            "formed_alone_within",
            "reach",
        ]
        assert entry["placements"] >= 1 and entry["formed_alone_within"] is not None
        assert entry["reach"]["turns"] == 1 and entry["reach"]["status"] in (
            "optimal",
            "infeasible",
        )
    # rules/aster.md, worked by hand: [[0, 0], [1, 1]] (CMi here) has 28 placements
    (cmi,) = [c for c in document["cards"] if c["abbr"] == "CMi"]
    assert cmi["stars"] == 2 and cmi["placements"] == 28


def test_verify_names_a_card_that_fits_nowhere_and_exits_one(tmp_path: Path) -> None:
    from asterion.models.aster_cards import catalog_to_data

    data = catalog_to_data(provisional_catalog())
    wide = {"abbr": "Wid", "name": "Wide", "deck": "large", "points": 10, "actions": []}
    data["cards"].append({**wide, "pattern": [[x, 0] for x in range(10)]})  # type: ignore[attr-defined]
    cards = write(tmp_path, data, "cards.json")
    code, out, err = run("aster", "verify", "--catalog", cards)
    assert code == 1 and err == ""
    assert "NOT SOUND" in out and "problem [no-placement] Wid (Wide) fits nowhere" in out
    code, out, _ = run("aster", "verify", "--catalog", cards, "--rings", "5")
    assert code == 0 and "SOUND" in out  # a 5-ring board spans 10 units: it fits


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--turns", "4"], "--turns"),
        (["--transforms", "mirror"], "unknown transforms 'mirror'"),
        (["--rings", "1"], "--rings"),
    ],
)
def test_verify_bad_options(args: list[str], names: str) -> None:
    code, out, err = run("aster", "verify", *args)
    assert code == 2 and out == "" and names in err


# -- review -----------------------------------------------------------------------------------


def test_review_json_shape_on_the_shipped_game() -> None:
    code, out, _ = run("aster", "review", "--json")
    document = json.loads(out)
    assert code == 0
    assert list(document) == ["turns", "players"]
    turns = document["turns"]
    assert [t["turn"] for t in turns] == [1, 2, 3, 4]
    assert [t["player"] for t in turns] == ["red", "blue", "red", "blue"]
    for turn in turns:
        assert list(turn) == ["turn", "player", "moves", "claim", "value", "best", "lost"]
        assert turn["lost"] == turn["best"]["value"] - turn["value"] >= 0
        assert turn["best"]["certified"] is True
    assert document["players"]["red"]["lost"] == turns[0]["lost"] + turns[2]["lost"]


def test_review_draws_the_best_plan_of_the_costliest_turn(tmp_path: Path) -> None:
    picture = tmp_path / "worst.svg"
    code, out, _ = run("aster", "review", "--json", "--svg", str(picture))
    turns = json.loads(out)["turns"]
    worst = max(turns, key=lambda t: t["lost"])  # (the first of the costliest)
    assert code == 0 and worst["lost"] > 0
    svg = picture.read_text()
    assert f"<title>turn {worst['turn']}: the best turn</title>" in svg
    for item in worst["best"]["plan"]:  # each step's points appear in the frames
        assert str(item.get("point", item.get("to"))) in svg


def test_review_with_nothing_lost_draws_nothing(tmp_path: Path) -> None:
    best = ["generate 1NE", "move_ring 3NE 3N", "move_line 2NE 4NE", "claim Tri"]
    game = write(tmp_path, {"turns": [best]}, "game.json")
    picture = tmp_path / "none.svg"
    code, _, err = run("aster", "review", game, "--svg", str(picture))
    assert code == 0 and not picture.exists() and "no turn lost anything" in err


def test_review_names_the_move_the_rules_refuse(tmp_path: Path) -> None:
    game = write(tmp_path, {"turns": [["generate C"], ["move_line C 2N"]]}, "game.json")
    code, out, err = run("aster", "review", game)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"{game}: turns.1.0: no slot left this turn" in err


# -- place ------------------------------------------------------------------------------------


def test_place_pattern_worked_example() -> None:
    # rules page: [[0,0],[1,0]] has 24 placements, 12 under translate alone
    code, out, _ = run("aster", "place", "--pattern", "[[0,0],[1,0]]", "--json")
    document = json.loads(out)
    assert code == 0
    assert set(document) == {"count", "placements"}
    assert document["count"] == 24 == len(document["placements"])
    assert all(p["present"] is None and p["missing"] == [] for p in document["placements"])
    _, out, _ = run(
        "aster", "place", "--pattern", "[[0,0],[1,0]]", "--transforms", "translate", "--json"
    )
    assert json.loads(out)["count"] == 12


def test_place_with_state_reports_present_and_missing(tmp_path: Path) -> None:
    # Stars on 4N, 4S and 4W (the ring-4 midpoints). The pair [[0,0],[0,1]] placed on
    # 4S-C, C-4N are missing C; 4N-3N? (0,1)-(0,2) needs 3N: missing 3N.
    state = write(tmp_path, {"stars": {"4N": "red", "4S": "blue", "4W": "red"}, "player": "red"})
    code, out, _ = run("aster", "place", "--pattern", "[[0,0],[0,1]]", "--state", state, "--json")
    document = json.loads(out)
    assert code == 1  # no placement of two adjacent stars is present
    by_points = {tuple(p["points"]): p for p in document["placements"]}
    assert by_points[("4N", "C")] == {"points": ["4N", "C"], "present": False, "missing": ["C"]}
    # a placement with neither star present lists both
    assert by_points[("1E", "2E")]["missing"] == ["1E", "2E"]
    # ordering: fewest missing first
    missing_counts = [len(p["missing"]) for p in document["placements"]]
    assert missing_counts == sorted(missing_counts)


def test_place_present_exits_zero(tmp_path: Path) -> None:
    state = write(tmp_path, {"stars": {"4N": "red", "C": "blue"}, "player": "red"})
    code, out, _ = run("aster", "place", "--pattern", "[[0,0],[0,1]]", "--state", state, "--json")
    present = [p["points"] for p in json.loads(out)["placements"] if p["present"]]
    assert code == 0 and present == [["4N", "C"]]


def test_place_rings_must_agree_with_the_state(tmp_path: Path) -> None:
    # The state's board has 4 rings (the default); --rings 3 was silently ignored.
    state = write(tmp_path, {"stars": {"4N": "red"}, "player": "red"})
    code, out, err = run("aster", "place", "Cru", "--state", state, "--rings", "3")
    assert code == 2 and out == "" and "--rings: 3 rings, but the state's board has 4" in err
    code, _, _ = run("aster", "place", "Cru", "--state", state, "--rings", "4")
    assert code in (0, 1)


def test_place_card_by_abbreviation_with_picture(tmp_path: Path) -> None:
    picture = tmp_path / "cru.svg"
    code, out, _ = run("aster", "place", "Cru", "--svg", str(picture))
    assert code == 0 and "placements" in out
    assert picture.read_text().lstrip().startswith(("<?xml", "<svg"))


# -- perft ------------------------------------------------------------------------------------


HAND_WORKED = {
    "stars": {"2NE": "red", "C": "blue"},
    "player": "red",
    "actions": ["generate", "move_ring"],
}
"""Worked in tests/solver/test_aster_perft.py: 1 + 12 + 39 boards."""


def test_perft_json_hand_worked(tmp_path: Path) -> None:
    state = write(tmp_path, HAND_WORKED)
    code, out, _ = run("aster", "perft", state, "--json")
    assert code == 0
    assert json.loads(out) == {"boards": 52, "by_actions": {"0": 1, "1": 12, "2": 39}}


def test_perft_empty_action_list(tmp_path: Path) -> None:
    state = write(tmp_path, {"stars": {"C": "red"}, "player": "red", "actions": []})
    _, out, _ = run("aster", "perft", state, "--json")
    assert json.loads(out) == {"boards": 1, "by_actions": {"0": 1}}


def test_perft_over_its_state_limit_names_the_file(tmp_path: Path) -> None:
    state = write(tmp_path, HAND_WORKED)  # 52 boards take more than 5 search states
    code, _, err = run("aster", "perft", state, "--max-states", "5")
    assert code == 2
    assert err.startswith(f"asterion: error: {state}: actions: ") and "5 search states" in err


def test_perft_out_of_time_is_unknown(tmp_path: Path, fast_clock: Callable[[], None]) -> None:
    # A clock that runs a second a reading: the count cannot be done within 5 s. Before,
    # perft read no clock (a 9-ring state with 13 actions ran 156 s).
    state = write(tmp_path, HAND_WORKED)
    fast_clock()
    code, out, err = run("aster", "perft", state, "--time-limit", "5", "--json")
    assert code == 3  # --json: one document still, with no count that could pass for one
    assert json.loads(out) == {"boards": None, "by_actions": None}
    assert err.count("\n") == 1 and "not done within --time-limit 5 s" in err
    code, out, _ = run("aster", "perft", state, "--time-limit", "5")
    assert (code, out) == (3, "")


def test_perft_refuses_a_state_limit_past_its_cap(tmp_path: Path) -> None:
    # 2,000,000 states took 156 s and 2 GB; a limit of 10^18 was accepted.
    state = write(tmp_path, HAND_WORKED)
    code, out, err = run("aster", "perft", state, "--max-states", str(10**18))
    assert (code, out) == (2, "")
    assert "--max-states" in err and "10000000" in err


# -- bad input: one line on stderr, exit 2 ----------------------------------------------------


BAD_STATES = {
    "unknown point": ({"stars": {"5N": "red"}}, "stars.5N"),
    "unknown color": ({"stars": {"2N": "purple"}}, "stars.2N"),
    "two stars on a point": ('{"stars": {"2N": "red", "2N": "blue"}}', "2N"),
    "more than 10 stars": (
        {
            "stars": {
                p: "red"
                for p in ["1N", "1NE", "1E", "1SE", "1S", "1SW", "1W", "1NW", "2N", "2NE", "2E"]
            }
        },
        "stars",
    ),
    "reserve over 10": ({"stars": {"2N": "red"}, "reserve": {"red": 10}}, "reserve.red"),
    "unknown action": ({"actions": ["generate", "teleport"]}, "actions.1"),
    "malformed json": ('{"stars": {"2N": "red",}', "not valid JSON"),
    "unknown field": ({"starz": {}}, "starz"),
}


@pytest.mark.parametrize("case", sorted(BAD_STATES))
@pytest.mark.parametrize("command", ["show", "perft"])
def test_bad_state_is_one_line_exit_2(tmp_path: Path, case: str, command: str) -> None:
    document, names = BAD_STATES[case]
    state = write(tmp_path, document)
    code, out, err = run("aster", command, state)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and state in err and names in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--pattern", "[[0,0],"], "--pattern"),
        (["--pattern", "[[0,0],[0,0]]"], "repeats"),
        (["--pattern", "{}"], "--pattern"),
        (["Xyz"], "Xyz"),
        (["Cru", "--transforms", "shear"], "shear"),
        (["Cru", "--pattern", "[[0,0]]"], "either"),
        (["Cru", "--state", "/no/such/file.json"], "no such file"),
        (["--pattern", "[[" + "1" * 5000 + ",0],[1,0]]"], "--pattern: not valid JSON: a number"),
    ],
)
def test_bad_place_input(args: list[str], names: str) -> None:
    code, out, err = run("aster", "place", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and names in err


@pytest.mark.parametrize(
    "args",
    [
        # 9 lattice units wide; the default 4-ring board spans 8 (its outer square, 4 each way)
        ["--pattern", "[[0,0],[9,0]]"],
        # Orion spans 8 x 4 units; a 2-ring board spans 4 x 4
        ["Ori", "--rings", "2"],
        # 34 points, within 5 x 5 units, on a board of 33 points
        ["--pattern", json.dumps([[x, y] for x in range(6) for y in range(6)][:34])],
    ],
)
def test_a_pattern_larger_than_the_board_is_answered_no(args: list[str]) -> None:
    code, out, err = run("aster", "place", *args, "--json")
    assert (code, err) == (1, "")  # the question "does it fit?" answered: no
    assert json.loads(out) == {"count": 0, "placements": []}


def test_unwritable_picture_is_refused(tmp_path: Path) -> None:
    # Refused as the option is read, a usage error: one line through the console script
    # (test_startup), typer's panel here in-process.
    code, out, err = run("aster", "board", "--svg", str(tmp_path / "missing" / "dir" / "b.svg"))
    assert (code, out) == (2, "") and "does not exist" in " ".join(err.replace("│", " ").split())


# -- demo -------------------------------------------------------------------------------------


def test_demo_writes_pictures(tmp_path: Path) -> None:
    code, out, _ = run("demo", "--out", str(tmp_path))
    assert code == 0
    pictures = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert "aster-board.svg" in pictures and len(pictures) >= 2
    assert "33 points" in out
    # rules/aster.md: 88 IAU constellations and 5 obsolete ones
    assert "catalog check: sound; 93 of the 93 constellations formed by one player" in out
    assert "generated 7x7 edge-matching puzzle (3 frame, 6 inner colors): arranged" in out
    # the shipped record's losses telescope to its fall from perfect play (+15 to 30 - 35);
    # an outside audit's own minimax (session 37) found the same 28 and 8
    assert "final coins 30 to 35; against perfect play seat 1 lost 28 coins" in out
    # the Akelarre post-mortem: the random policy (seat 1) answers what it was told less often
    # than the equilibrium policy (seat 2), which plays best responses
    best = re.search(r"seat 1 (\d+) of 13, seat 2 (\d+) of 13", out)
    assert best is not None and int(best[1]) < int(best[2])


def test_bad_catalog_file_is_one_line(tmp_path: Path) -> None:
    catalog = write(tmp_path, {"cards": [{"abbr": "X"}]}, "cards.json")
    code, out, err = run("aster", "catalog", "--catalog", catalog)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "cards.json: cards.0" in err


def test_show_json_round_trips(tmp_path: Path) -> None:
    state = write(tmp_path, {"stars": {"2NE": "red", "C": "blue"}, "player": "red"})
    code, out, _ = run("aster", "show", state, "--json")
    document = json.loads(out)
    assert code == 0
    assert document["stars"] == {"2NE": "red", "C": "blue"}
    assert document["reserve"] == {"red": 9, "blue": 9}  # 10 minus the star on the board
    assert document["actions"] == ["generate", "move_ring", "move_line", "nudge"]  # Big + Bang


# -- reach and best-turn ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["reach", "--target", "Zzz"], "--target: unknown card 'Zzz'"),
        (["reach", "--target", "Cru", "--engine", "magic"], "--engine: unknown engine"),
        (["best-turn", "--offer", "Cru,Zzz"], "--offer: unknown card 'Zzz'"),
    ],
)
def test_an_unknown_name_in_an_option_names_the_option(args: list[str], names: str) -> None:
    code, out, err = run("aster", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and names in err


def test_reach_one_generation(tmp_path: Path) -> None:
    # Red on 4N; the vertical pair needs a star on C or 3N next to it. generate reaches only
    # the ring-1 corners and C (A2), so the only one-action plan is generate at C.
    state = write(tmp_path, {"stars": {"4N": "red"}, "player": "red", "actions": ["generate"]})
    code, out, _ = run("aster", "reach", "--state", state, "--pattern", "[[0,0],[0,1]]", "--json")
    assert code == 0
    assert json.loads(out) == {
        "reachable": True,
        "status": "optimal",
        "min_actions": 1,
        "plan": [{"turn": 1, "action": "generate", "point": "C", "destroyed": None}],
        "placement": ["4N", "C"],
        "certified": True,
    }


def test_reach_second_turn(tmp_path: Path) -> None:
    # One nudge per turn: red 2N must come down to 4N beside C (red): 2N->3N, then 3N->4N.
    state = write(
        tmp_path, {"stars": {"2N": "red", "C": "red"}, "player": "red", "actions": ["nudge"]}
    )
    args = ["aster", "reach", "--state", state, "--pattern", "[[0,0],[0,1]]", "--json"]
    code, _, _ = run(*args)
    assert code == 1  # one nudge cannot do it
    code, out, _ = run(*args, "--turns", "2", "--engine", "search")
    document = json.loads(out)
    assert code == 0 and document["min_actions"] == 2
    assert [item["turn"] for item in document["plan"]] == [1, 2]


def test_reach_unreachable(tmp_path: Path) -> None:
    state = write(
        tmp_path,
        {"stars": {"4N": "red"}, "player": "red", "actions": ["victory_point", "black_hole"]},
    )
    code, out, _ = run("aster", "reach", "--state", state, "--pattern", "[[0,0],[0,1]]", "--json")
    assert code == 1
    assert json.loads(out) == {
        "reachable": False,
        "status": "infeasible",
        "min_actions": None,
        "plan": [],
        "placement": [],
        "certified": False,
    }


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--target", "Cru", "--turns", "9"], "from 1 to 3"),
        (["--target", "Cru", "--turns", "0"], "from 1 to 3"),
        (["--pattern", "[[0,0],[12,0]]"], "wider than the board"),
        (["--target", "Cru", "--engine", "magic"], "magic"),
        (["--target", "Nope"], "Nope"),
    ],
)
def test_bad_reach_input(args: list[str], names: str) -> None:
    code, out, err = run("aster", "reach", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and names in err


def test_best_turn_hand_worked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Offer: Canis Minor only (a diagonal pair, 2 points). Red on 4NE, one generate:
    # generate at C forms the pair C-4NE with 2 red stars: value 2 + 2 = 4 in 1 action.
    monkeypatch.setattr(aster_files, "default_catalog", provisional_catalog)  # CMi, 2 stars
    state = write(
        tmp_path,
        {"stars": {"4NE": "red"}, "player": "red", "actions": ["generate"], "offer": ["CMi"]},
    )
    code, out, _ = run("aster", "best-turn", "--state", state, "--json")
    document = json.loads(out)
    assert code == 0
    assert (document["claim"], document["value"], document["actions"]) == ("CMi", 4, 1)
    assert document["placement"] == ["4NE", "C"] and document["certified"] is True


def test_best_turn_nothing_to_claim(tmp_path: Path) -> None:
    state = write(
        tmp_path, {"stars": {"4NE": "red"}, "player": "red", "actions": [], "offer": ["CMi"]}
    )
    code, out, _ = run("aster", "best-turn", "--state", state, "--json")
    assert code == 1 and json.loads(out)["claim"] is None


@pytest.mark.parametrize(
    ("command", "position", "names"),
    [
        # The position's own action list is longer than any question takes (40 slots).
        (["reach", "--target", "Cru"], {"actions": ["generate"] * 41}, "actions: 41 action slots"),
        (["reach", "--target", "Cru"], {"over": True}, "over: the game is over"),
        (["best-turn"], {"offer": []}, "offer: no face-up constellation"),
        (["best-turn"], {"offer": ["Big"]}, "offer: Big is a base card"),
    ],
)
def test_a_position_unfit_for_the_question_names_its_file(
    tmp_path: Path, command: list[str], position: dict[str, object], names: str
) -> None:
    state = write(tmp_path, {"stars": {"4N": "red"}, "player": "red", **position})
    code, out, err = run("aster", *command, "--state", state, "--json")
    assert code == 2 and out == ""
    assert err.startswith(f"asterion: error: {state}: {names}") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["reach", "--target", "Big"], "--target: Big is a base card"),
        (["best-turn", "--offer", "Big"], "--offer: Big is a base card"),
        (["reach", "--target", "Cru", "--turns", "3"], "--turns: "),
    ],
)
def test_an_option_unfit_for_the_question_is_named(
    tmp_path: Path, args: list[str], names: str
) -> None:
    actions = {"actions": ["generate"] * 14}  # 3 turns of 14: 42 slots, over the 40
    state = write(tmp_path, {"stars": {"4N": "red"}, "player": "red", **actions})
    code, out, err = run("aster", *args, "--state", state)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"asterion: error: {names}")


def test_an_asked_for_picture_with_nothing_to_draw_is_said_missing(tmp_path: Path) -> None:
    # No actions left and no Crux on the board: unreachable, so no plan to draw.
    state = write(tmp_path, {"stars": {"4N": "red"}, "player": "red", "actions": []})
    picture = tmp_path / "plan.svg"
    code, out, err = run(
        "aster", "reach", "--state", state, "--target", "Cru", "--svg", str(picture), "--json"
    )
    assert code == 1 and json.loads(out)["reachable"] is False
    assert err == f"asterion: no picture written to {picture}: no plan to draw\n"
    assert not picture.exists()


@pytest.mark.parametrize(
    "args",
    [
        # CP-SAT keeps its seed in 32 bits (a larger one was a traceback, then an error that
        # blamed --offer in best-turn)
        ["best-turn", "--seed", str(2**31)],
        ["reach", "--target", "Cru", "--engine", "cp-sat", "--seed", str(2**31)],
        ["reach", "--target", "Cru", "--engine", "cp-sat", "--seed", str(-(2**31) - 1)],
    ],
)
def test_a_seed_too_large_for_cp_sat_is_a_usage_error(args: list[str]) -> None:
    code, out, err = run("aster", *args)
    assert (code, out) == (2, "")
    assert "Invalid value for '--seed'" in err and "offer" not in err
