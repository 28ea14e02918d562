"""``asterion nacht simulate | best-play | advise``, in-process.

Expected numbers: the solo invariant on the shipped sky (15 + 16 holes + the verifier's
constellation spans, for a player who never declines; a decline costs exactly 1), and plain
minimax for the value of a tiny known-order game.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from clirun import run, write

from asterion.models.nacht_files import default_tileset, tileset_to_data
from asterion.models.nacht_game import Lay, NachtState, apply, deal_order, legal_moves
from asterion.models.nacht_game_files import (
    order_document,
    practice_tileset,
    read_state,
    spec_state,
)
from asterion.solver.nacht_play import minimax_value, solved_sky
from asterion.solver.nacht_verify import verify

# The shipped sky as the verifier arranges it (row 0 north): the start tile at (2, 2), its
# northern neighbour, a corner tile (not next to the start), and a never-declining solo total.
_REPORT = verify(default_tileset())
_GRID = _REPORT.arrangements[0]
SHIPPED_START, NORTH_OF_START, CORNER = _GRID[2][2], _GRID[1][2], _GRID[0][0]
SOLO = 15 + 16 + sum(len(s.tiles) for s in _REPORT.constellations if s.tiles != (SHIPPED_START,))


def practice_files(tmp_path: Path, width: int = 2, height: int = 3, seed: int = 0) -> str:
    """A practice tile set and a seeded draw order beside it; returns the order file."""
    tileset = practice_tileset(width, height, seed)
    write(tmp_path, tileset_to_data(tileset), "sky.json")
    sky = solved_sky(tileset)
    return write(tmp_path, order_document(sky, deal_order(sky, seed), "sky.json"), "order.json")


def solo_state(**changes: object) -> dict[str, object]:
    document: dict[str, object] = {
        "format": "asterion.nacht-state/1",
        "laid": [SHIPPED_START],
        "displays": [[]],
        "coins": [15],
        "active": 0,
        "drawn": NORTH_OF_START,
    }
    document.update(changes)
    return document


def docs_example(section: str) -> object:
    """The first JSON block of docs/nacht.md's section ``section``."""
    docs = (Path(__file__).parents[2] / "docs" / "nacht.md").read_text()
    return json.loads(docs[docs.index(section) :].split("```json\n", 1)[1].split("```", 1)[0])


# -- simulate -------------------------------------------------------------------------------------


def test_simulate_solo_on_the_shipped_sky_collects_every_coin() -> None:
    code, out, _ = run(
        "nacht", "simulate", "--games", "2", "--players", "1", "--strategies", "greedy", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["coins"] == [[SOLO], [SOLO]]
    assert data["strategies"][0]["mean"] == SOLO


def test_simulate_three_strategies_with_a_plot(tmp_path: Path) -> None:
    plot = tmp_path / "coins.svg"
    code, out, _ = run(
        "nacht",
        "simulate",
        "--games",
        "3",
        "--players",
        "3",
        "--strategies",
        "always,greedy,denial",
        "--plot",
        str(plot),
    )
    assert code == 0
    assert "win rates by seat" in out and "denial" in out
    picture = plot.read_text()
    assert picture.lstrip().startswith(("<svg", "<?xml"))
    assert ">final coins<" in picture and "final score" not in picture  # Nacht scores coins


def test_simulate_rejects_a_strategy_count_that_does_not_match() -> None:
    code, out, err = run(
        "nacht", "simulate", "--games", "1", "--players", "3", "--strategies", "always,greedy"
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("asterion: error: --strategies: 2 strategies for 3 players")


def test_simulate_rejects_an_unknown_strategy() -> None:
    code, _, err = run("nacht", "simulate", "--players", "2", "--strategies", "always,oracle")
    assert code == 2 and err.startswith("asterion: error: --strategies: unknown strategy 'oracle'")


# -- best-play ------------------------------------------------------------------------------------


def test_best_play_value_matches_plain_minimax(tmp_path: Path) -> None:
    order = practice_files(tmp_path)
    code, out, _ = run("nacht", "best-play", "--order", order, "--json")
    assert code == 0
    data = json.loads(out)
    sky = solved_sky(practice_tileset(2, 3, 0))
    expected = minimax_value(NachtState.new_game(sky, players=2, seed=0))
    assert data["status"] == "optimal" and data["value"] == expected
    assert data["final_coins"][0] - data["final_coins"][1] == expected
    assert len(data["shortfalls"]) == 8
    assert all(s["shortfall"] >= 0 for s in data["shortfalls"])


def test_best_play_on_a_practice_sky_by_deal(tmp_path: Path) -> None:
    document = {
        "format": "asterion.nacht-order/1",
        "practice": {"width": 3, "height": 2, "seed": 2},
        "deal": 2,
    }
    code, out, _ = run("nacht", "best-play", "--order", write(tmp_path, document), "--json")
    assert code == 0
    sky = solved_sky(practice_tileset(3, 2, 2))
    assert json.loads(out)["value"] == minimax_value(NachtState.new_game(sky, 2, seed=2))


def test_best_play_wants_an_order_or_a_deal(tmp_path: Path) -> None:
    document = {"format": "asterion.nacht-order/1", "order": ["T1"], "deal": 2}
    code, _, err = run("nacht", "best-play", "--order", write(tmp_path, document))
    assert code == 2 and "either an order" in err and err.count("\n") == 1


def test_best_play_prints_a_line(tmp_path: Path) -> None:
    code, out, _ = run("nacht", "best-play", "--order", practice_files(tmp_path), "--no-shortfall")
    assert code == 0 and "an optimal line" in out and "value" in out


def test_best_play_refuses_the_full_sky_and_other_player_counts(tmp_path: Path) -> None:
    # No tile set named: the shipped 5x5 sky, over the exact search's 24 tiles.
    ids = [f"T{i:02d}" for i in range(1, 26) if f"T{i:02d}" != SHIPPED_START]
    full = write(tmp_path, {"format": "asterion.nacht-order/1", "order": ids}, "full.json")
    code, _, err = run("nacht", "best-play", "--order", full)
    assert code == 2 and "at most 24" in err
    code, _, err = run("nacht", "best-play", "--order", full, "--players", "3")
    assert code == 2 and "2 players" in err


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (lambda ids: [*ids[:-1], ids[0]], "appears twice"),
        (lambda ids: [*ids[:-1], "T99"], "no tile 'T99'"),
        (lambda ids: ids[:-1], "the order needs all 5"),
    ],
)
def test_best_play_rejects_bad_orders(tmp_path: Path, order: object, message: str) -> None:
    path = practice_files(tmp_path)
    document = json.loads(Path(path).read_text())
    document["order"] = order(document["order"])  # type: ignore[operator]
    Path(path).write_text(json.dumps(document))
    code, out, err = run("nacht", "best-play", "--order", path)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def _best_play(*args: str) -> dict[str, object]:
    """``best-play --json``'s answer without its time."""
    code, out, err = run("nacht", "best-play", *args, "--json")
    assert code == 0, err
    answer: dict[str, object] = json.loads(out)
    del answer["seconds"]
    return answer


def test_best_play_without_an_order_plays_the_docs_example(tmp_path: Path) -> None:
    example = write(tmp_path, docs_example("### best-play"), "order.json")
    assert _best_play() == _best_play("--order", example)
    # with a tile set: the same deal on it
    order = practice_files(tmp_path, 3, 2, 1)
    document = json.loads(Path(order).read_text())
    del document["order"]
    by_deal = write(tmp_path, {**document, "deal": 7}, "by-deal.json")
    sky = str(tmp_path / "sky.json")
    assert _best_play("--tileset", sky) == _best_play("--order", by_deal)


def test_best_play_rejects_a_file_of_the_wrong_format(tmp_path: Path) -> None:
    path = write(tmp_path, {"format": "asterion.tileset/1", "order": []}, "o.json")
    code, _, err = run("nacht", "best-play", "--order", path)
    assert code == 2 and "format" in err


# -- advise ---------------------------------------------------------------------------------------


def test_advise_solo_decline_costs_one_coin(tmp_path: Path) -> None:
    path = write(tmp_path, solo_state())
    code, out, _ = run("nacht", "advise", path, "--samples", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["decline_minus_lay"] == {"mean": -1.0, "ci95": [-1.0, -1.0]}
    coins = {m["move"]: m["mean_coins"] for m in data["moves"]}
    assert coins == {f"lay {NORTH_OF_START}": SOLO, "decline (pay 1)": SOLO - 1}


def test_advise_names_the_rollout_option(tmp_path: Path) -> None:
    code, out, err = run("nacht", "advise", write(tmp_path, solo_state()), "--rollout", "bold")
    assert code == 2 and out == "" and err.startswith("asterion: error: --rollout: unknown")


def test_advise_prints_the_decline_difference(tmp_path: Path) -> None:
    code, out, _ = run("nacht", "advise", write(tmp_path, solo_state()), "--samples", "2")
    assert code == 0 and "declining instead of laying: -1.00" in out


def test_advise_example_of_the_docs_is_the_position_its_round_reaches(tmp_path: Path) -> None:
    # docs/nacht.md: player 1 lays T14, player 2 draws T06 (no fit yet), player 3 lays T11,
    # player 1 draws T16. Played by the rules engine, that round must give the file shown.
    path = write(tmp_path, docs_example("### advise"))
    sky = solved_sky(default_tileset())
    drawn = [sky.cell_of(t) for t in ("T14", "T06", "T11", "T16")]
    state = NachtState.start(
        sky, drawn + [c for c in range(sky.cells) if c not in [*drawn, sky.start]]
    )
    while state.drawn != drawn[-1]:
        moves = list(legal_moves(state))
        state = apply(state, Lay(state.drawn) if Lay(state.drawn) in moves else moves[-1])
    shown = spec_state(read_state(path), sky, path)
    assert (shown.laid, shown.displays, shown.coins, shown.streaks, shown.active) == (
        state.laid,
        state.displays,
        state.coins,
        state.streaks,
        state.active,
    )
    code, out, _ = run("nacht", "advise", path, "--samples", "3")
    assert code == 0 and "lay T16" in out


def test_advise_without_a_state_advises_the_docs_example(tmp_path: Path) -> None:
    code, out, _ = run("nacht", "advise", "--samples", "4", "--json")
    assert code == 0
    example = write(tmp_path, docs_example("### advise"))
    assert out == run("nacht", "advise", example, "--samples", "4", "--json")[1]
    sky = write(tmp_path, tileset_to_data(default_tileset()), "sky.json")
    code, out, err = run("nacht", "advise", "--tileset", sky)
    assert code == 2 and out == "" and err.startswith("asterion: error: --tileset: give a STATE")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"laid": [SHIPPED_START, CORNER]}, "not connected"),
        ({"laid": [NORTH_OF_START], "drawn": None}, f"start tile {SHIPPED_START} must be laid"),
        ({"drawn": CORNER}, "does not fit"),
        ({"coins": [15, 15]}, "2 entries for 1 players"),
        ({"displays": [[NORTH_OF_START]]}, "also in"),
        ({"active": 1}, "player 1 of 1"),
        ({"mood": "bold"}, "unknown field"),
    ],
)
def test_advise_rejects_impossible_positions(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    code, out, err = run("nacht", "advise", write(tmp_path, solo_state(**changes)))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_best_play_errors_name_the_order_file(tmp_path: Path) -> None:
    # The shipped 5x5 sky is beyond the exact search; a missing tile set is the order file's.
    order = [tile.id for tile in default_tileset().tiles if tile.id != SHIPPED_START]
    path = write(tmp_path, {"order": order}, "order.json")
    code, out, err = run("nacht", "best-play", "--order", path)
    assert code == 2 and out == "" and err.startswith(f"asterion: error: {path}: grid: a 5x5")
    path = write(tmp_path, {"tileset": "nope.json", "order": []}, "order.json")
    code, out, err = run("nacht", "best-play", "--order", path)
    assert code == 2 and f"{path}: tileset: {tmp_path / 'nope.json'}: no such file" in err
    # a folder, and a name longer than the system takes: still the order file's field
    for named, problem in ((".", "is a directory"), ("a" * 4000, "File name too long")):
        path = write(tmp_path, {"tileset": named, "order": []}, "order.json")
        code, out, err = run("nacht", "best-play", "--order", path)
        assert code == 2 and out == "" and err.count("\n") == 1
        assert err.startswith(f"asterion: error: {path}: tileset: ") and problem in err


def test_an_inconsistent_tile_set_is_named_by_its_file(tmp_path: Path) -> None:
    # Two alike corner pieces and no arrangement: no game can be played on it.
    path = write(tmp_path, "2 2\n0 1 1 0\n0 0 2 2\n1 2 0 0\n2 0 0 1\n", "bad.txt")
    code, out, err = run("nacht", "simulate", "--games", "1", "--tileset", path)
    assert code == 2 and out == "" and err.startswith(f"asterion: error: {path}: the tile set")


@pytest.mark.parametrize("given", ["--tileset", "named by the order"])
def test_a_sky_too_large_for_the_exact_search_names_its_tile_set(
    tmp_path: Path, given: str
) -> None:
    # 5 x 5 = 25 tiles, over the exact search's 24: the tile set's file is at fault, not the
    # order file that only deals it (before, the error named the order file).
    sky = write(tmp_path, tileset_to_data(practice_tileset(5, 5, 0)), "big.json")
    document: dict[str, object] = {"format": "asterion.nacht-order/1", "deal": 1}
    if given == "--tileset":
        extra = ["--tileset", sky]
    else:
        document["tileset"], extra = "big.json", []
    order = write(tmp_path, document, "order.json")
    code, out, err = run("nacht", "best-play", "--order", order, *extra, "--json")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"asterion: error: {sky}: grid: a 5x5 sky has 25 tiles")


def test_a_practice_sky_too_large_names_the_order_file(tmp_path: Path) -> None:
    practice = {"width": 5, "height": 5, "seed": 0}
    document = {"format": "asterion.nacht-order/1", "practice": practice, "deal": 1}
    order = write(tmp_path, document, "order.json")
    code, _, err = run("nacht", "best-play", "--order", order)
    assert code == 2 and err.startswith(f"asterion: error: {order}: grid: a 5x5 sky")


# -- review ---------------------------------------------------------------------------------------


def test_review_json_on_the_shipped_game() -> None:
    code, out, _ = run("nacht", "review", "--json")
    document = json.loads(out)
    assert code == 0
    assert list(document) == ["moves", "players", "final_coins"]
    moves = document["moves"]
    for move in moves:
        assert list(move) == [
            "move",
            "player",
            "played",
            "best",
            "value_before",
            "value_after",
            "lost",
        ]
        sign = 1 if move["player"] == 0 else -1
        assert move["lost"] == sign * (move["value_before"] - move["value_after"]) >= 0
    for a, b in itertools.pairwise(moves):  # one value, seen from both sides of it
        assert a["value_after"] == b["value_before"]
    first, second = (p["lost"] for p in document["players"])
    coins = document["final_coins"]
    assert moves[0]["value_before"] - (coins[0] - coins[1]) == first - second


def test_review_refuses_a_move_and_a_sky_too_large(tmp_path: Path) -> None:
    game = write(tmp_path, {"format": "asterion.nacht-game/1", "deal": 1, "moves": ["pass"]})
    # no practice sky and no tile set: the shipped 5x5 sky, over the exact search's 24 tiles
    code, out, err = run("nacht", "review", game)
    assert code == 2 and out == "" and "at most 24" in err
    bad = {"format": "asterion.nacht-game/1", "practice": {"width": 3, "height": 3}, "deal": 1}
    game = write(tmp_path, {**bad, "moves": ["knock T1"]}, "bad.json")
    code, out, err = run("nacht", "review", game)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{game}: moves.0: knock T1: nobody passed over a fitting tile" in err
