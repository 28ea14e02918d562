"""The ``asterion stellar`` commands: JSON shapes, exit statuses, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run, write

from asterion.models.stellar_cards import deck_to_data, default_deck

# Cards of the shipped deck (tools/build_stellar_deck.py): M4a moon 4 (1 star), M5a moon 5
# (2 stars), M0a moon 0/6 (3 stars), P1a planet 1 (2 stars).
NOTEBOOK_14 = ["M4a", "M5a", "M0a", "P1a", "M5b", "M3a", *[f"A{n}a" for n in range(1, 6)]]
NOTEBOOK_14 += ["B1a", "B2a", "B3a"]
SEED_EXAMPLE = {
    "players": [
        {"telescope": {"1": "M0a", "3": "M5a"}, "notebook": ["M4a", "M5b", "M3a"]},
        {"telescope": {"1": "P1a"}, "notebook": []},
    ]
}


def test_score_json_worked_example(tmp_path: Path) -> None:
    # Player 1: moons with 3 + 2 = 5 stars in the telescope, notebook moons 4, 5, 3: run of 3:
    # 5 x 3 = 15 (the seed's example). Sections: top holds slots 1 and 3: 6 (0/6 counts 6) + 5
    # = 11 against the opponent's 1: +10; middle and bottom empty on both sides: a tie, no one
    # gains (S3). No diversity. Total 25. Player 2: planet with 2 stars, empty notebook: 0;
    # sections 0. Winner: player 1 (index 0).
    code, out, _ = run("stellar", "score", write(tmp_path, SEED_EXAMPLE, "game.json"), "--json")
    document = json.loads(out)
    assert code == 0
    first, second = document["players"]
    assert first["types"]["moon"] == 15
    assert first["sections"] == {"top": 10, "middle": 0, "bottom": 0}
    assert first["total"] == 25 and second["total"] == 0
    assert document["winner"] == 0


@pytest.mark.parametrize(
    ("document", "names"),
    [
        ({"players": [{"telescope": {"1": "XX"}}, {}]}, "players.0.telescope.1"),
        ({"players": [{"telescope": {"13": "M4a"}}, {}]}, "players.0.telescope.13"),
        ({"players": [{"telescope": {"1": "M4a", "9": "M5a"}}, {}]}, "illegal placement"),
        ({"players": [{"notebook": ["M4a"]}, {"hand": ["M4a"]}]}, "players.1.hand.0"),
        ('{"players": [', "not valid JSON"),
        ({"players": ["P1a", {}]}, "players.0: should be a JSON object, not a string"),
        # what play cannot reach: a notebook holds 12 cards and the final one, a hand 2 and
        # the card just taken, a player 0-11 turns; a reset has a player who may ask for it
        ({"players": [{"notebook": NOTEBOOK_14}, {}]}, "players.0.notebook: 14 cards"),
        ({"players": [{}, {"hand": ["M4a", "M5a", "M0a", "P1a"]}]}, "players.1.hand: 4 cards"),
        ({"players": [{}, {}], "turns_taken": [-3, 0]}, "turns_taken: player 0 has taken -3"),
        ({"players": [{}, {}], "turns_taken": [0, 12]}, "turns_taken: player 1 has taken 12"),
        # a key of 4,301 digits: past what int() converts (it was a traceback)
        ({"players": [{"telescope": {"9" * 4301: "P1a"}}, {}]}, "is not a telescope slot"),
        ({"players": [{}, {}], "phase": "reset"}, "resetter: a reset needs the player"),
    ],
)
def test_bad_game_is_one_line_exit_2(tmp_path: Path, document: object, names: str) -> None:
    path = write(tmp_path, document)
    code, out, err = run("stellar", "score", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and path in err and names in err


def test_the_documented_game_file_is_accepted(tmp_path: Path) -> None:
    # docs/stellar.md shows a GAME file (its deck elided as "..."): a user copies it first.
    page = (Path(__file__).parents[2] / "docs" / "stellar.md").read_text(encoding="utf-8")
    example = page.split("```json")[1].split("```")[0].replace('"..."', '"A5a"')
    code, out, err = run("stellar", "score", write(tmp_path, example, "doc.json"), "--json")
    assert code == 0, err
    assert json.loads(out)["players"][0]["types"]["moon"] == 15  # the seed's example again


def test_the_active_player_has_a_slot_to_fill(tmp_path: Path) -> None:
    # Player 0's telescope is full, player 1's is not: in the turn phase it is player 1's turn.
    deck = [card.id for card in default_deck().cards]
    clouds = [card for card in deck if card[0] in "CB"][:12]  # no card of NOTEBOOK_14
    # Clouds on slots 1-11 (side by side in one group), a black hole on 12.
    telescope = {str(slot): card for slot, card in zip(range(1, 13), clouds, strict=True)}
    position = {"players": [{"telescope": telescope}, {"telescope": {"1": deck[-1]}}]}
    path = write(tmp_path, position)
    code, _, err = run("stellar", "advise", path, "--json")
    assert code == 2 and "active: player 0's telescope is full" in err
    position["active"] = 1
    code, _, _ = run("stellar", "advise", write(tmp_path, position), "--samples", "2")
    assert code == 0


@pytest.mark.parametrize("command", ["solve", "selfplay"])
def test_a_deck_without_starters_is_named(tmp_path: Path, command: str) -> None:
    cards = [c for c in deck_to_data(default_deck())["cards"] if not c.get("starter")]
    path = write(tmp_path, {"cards": cards}, "deck.json")
    code, out, err = run("stellar", command, "--deck", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"{path}: cards: the deck needs" in err


def test_a_card_missing_from_a_given_deck_names_that_deck(tmp_path: Path) -> None:
    # M0a renamed in the deck file: the position's M0a is refused, and the message names the
    # deck it was looked up in (the mistake may be the deck's), not just "the deck"
    data = deck_to_data(default_deck())
    for card in data["cards"]:
        if card["id"] == "M0a":
            card["id"] = "M0z"
    deck = write(tmp_path, data, "renamed.json")
    game = write(tmp_path, SEED_EXAMPLE, "game.json")
    code, out, err = run("stellar", "score", game, "--deck", deck)
    assert code == 2 and out == ""
    assert f"{game}: players.0.telescope.1: unknown card 'M0a' (not in the deck {deck})" in err
    missing = dict(SEED_EXAMPLE, players=[{"telescope": {"1": "M0z"}}, SEED_EXAMPLE["players"][1]])
    code, _, err = run("stellar", "score", write(tmp_path, missing, "missing.json"))
    assert code == 2 and "unknown card 'M0z' (not in the shipped deck)" in err


def test_selfplay_json_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "scores.svg"
    code, out, _ = run(
        "stellar",
        "selfplay",
        "--games",
        "4",
        "--policies",
        "greedy,random",
        "--plot",
        str(plot),
        "--json",
    )
    report = json.loads(out)
    assert code == 0
    assert report["games"] == 4 and sum(report["wins"]) + report["ties"] == 4
    assert plot.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_selfplay_bad_policy() -> None:
    code, _, err = run("stellar", "selfplay", "--games", "2", "--policies", "greedy,psychic")
    assert code == 2 and err.startswith("asterion: error: --policies: unknown policy 'psychic'")


def test_advise_lists_every_entry(tmp_path: Path) -> None:
    from asterion.models.stellar import StellarState
    from asterion.models.stellar_files import game_to_data

    path = write(tmp_path, game_to_data(StellarState.new_game(seed=1)))
    code, out, _ = run("stellar", "advise", path, "--samples", "2", "--json")
    document = json.loads(out)
    assert code == 0 and document["moves"]
    means = [m["mean"] for m in document["moves"]]
    assert all(
        low <= mean <= high
        for (low, high), mean in zip((m["ci95"] for m in document["moves"]), means, strict=True)
    )


def test_solve_small_deal_json(tmp_path: Path) -> None:
    from asterion.models.stellar_solo import deal_solo_puzzle, solo_puzzle_to_data

    puzzle = write(tmp_path, solo_puzzle_to_data(deal_solo_puzzle(seed=2, turns=2)), "solo.json")
    code, out, _ = run("stellar", "solve", puzzle, "--method", "search", "--json")
    document = json.loads(out)
    assert code == 0 and document["status"] == "optimal"
    assert document["best_score"] == document["bound"]


def test_solve_bad_method() -> None:
    code, out, err = run("stellar", "solve", "--method", "guess")
    assert code == 2 and out == "" and "--method: unknown method 'guess'" in err


def test_advising_a_finished_game_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, {**SEED_EXAMPLE, "phase": "over"}, "game.json")
    code, out, err = run("stellar", "advise", path)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{path}: the game is over" in err


def test_score_without_a_game_scores_a_greedy_game_of_the_deal(tmp_path: Path) -> None:
    import random

    from asterion.models.stellar import StellarState, apply, score
    from asterion.models.stellar_files import game_to_data
    from asterion.solver.stellar_play import make_policy

    # the help's words, played move by move: both seats greedy from deal 2, one generator
    state, rng, greedy = StellarState.new_game(seed=2), random.Random(2), make_policy("greedy")
    while not state.is_over:
        state = apply(state, greedy.choose(state, rng))
    code, out, _ = run("stellar", "score", "--deal", "2", "--json")
    assert code == 0
    assert out == run("stellar", "score", write(tmp_path, game_to_data(state)), "--json")[1]
    # and the rules engine's own scoring (enumeration, not CP-SAT) agrees on the totals
    totals = [player["total"] for player in json.loads(out)["players"]]
    assert totals == [result.total for result in score(state)]


def test_advise_without_a_game_advises_the_first_turn_of_the_deal(tmp_path: Path) -> None:
    from asterion.models.stellar import StellarState
    from asterion.models.stellar_files import game_to_data

    path = write(tmp_path, game_to_data(StellarState.new_game(seed=1)))
    code, out, _ = run("stellar", "advise", "--samples", "2", "--json")
    assert code == 0
    assert out == run("stellar", "advise", path, "--samples", "2", "--json")[1]


def test_selfplay_record_then_review(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out, _ = run(
        "stellar", "selfplay", "--games", "1", "--policies", "greedy,random",
        "--record", str(record), "--json",
    )  # fmt: skip
    played = json.loads(out)
    assert code == 0
    code, out, _ = run("stellar", "review", str(record), "--samples", "4", "--width", "1", "--json")
    review = json.loads(out)
    assert code == 0
    # the record replays to the game self-play scored (greedy moved first)
    assert review["final_scores"] == [played["scores"][0][0], played["scores"][1][0]]
    moves = review["moves"]
    assert sum(m["played"].startswith("take") for m in moves) == 22  # 11 turns each
    for m in moves:
        if not m["forced"]:
            assert m["best_mean"] >= m["played_mean"]
            assert m["loss_ci95"][0] <= m["loss"] <= m["loss_ci95"][1]
    assert [p["moves"] for p in review["players"]] == [
        sum(m["player"] == p for m in moves) for p in (0, 1)
    ]


def test_review_out_of_time_is_exit_3(tmp_path: Path) -> None:
    code, out, _ = run("stellar", "review", "--time-limit", "0.01", "--json")
    review = json.loads(out)
    assert code == 3
    assert any(m["loss"] is None for m in review["moves"])
    assert all((m["loss"] is None) == (not m["forced"]) for m in review["moves"])


def test_review_of_a_bad_record_is_one_line(tmp_path: Path) -> None:
    game = write(tmp_path, {"deal": 1, "moves": ["take 9, play nothing"]}, "game.json")
    code, out, err = run("stellar", "review", game)
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    assert "game.json: moves.0: not a legal move here" in err
