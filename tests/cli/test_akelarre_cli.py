"""The ``asterion akelarre`` commands: JSON shapes, exit statuses, one-line errors."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from clirun import run, write

from asterion.models.akelarre import ELEMENTS

FIRE_ONLY = {
    "objectives": [{"id": f"F{k}", "needs": {"fire": 8}} for k in range(6)],
}


def test_equilibria_fire_only_objectives(tmp_path: Path) -> None:
    # Every objective asks for 8 fire only, so only fire has value: with 3 players the one
    # pure equilibrium is everyone at fire (3 each). 3 fire cover 3/8 of both the private
    # and the public objective, each weighted ½: payoff 3/8.
    objectives = write(tmp_path, FIRE_ONLY, "objectives.json")
    code, out, _ = run(
        "akelarre", "equilibria", "--players", "3", "--objectives", objectives, "--json"
    )
    document = json.loads(out)
    assert code == 0
    assert document["pure"] == [
        {"destinations": ["fire", "fire", "fire"], "payoffs": ["3/8", "3/8", "3/8"]}
    ]
    assert document["mixed"] == [] and document["mixed_search"].startswith("complete")


def test_equilibria_summary_on_the_shipped_deal() -> None:
    code, out, _ = run("akelarre", "equilibria", "--players", "2")
    assert code == 0 and re.search(r"\b1 pure equilibrium\b|\b\d+ pure equilibria\b", out)


def test_plan_three_elements_in_three_turns() -> None:
    # O13: 2 earth, 2 water, 2 air; the others always at earth and water: 3 turns (see
    # tests/solver/test_akelarre_plan.py for the hand argument).
    code, out, _ = run(
        "akelarre", "plan", "--players", "3", "--goals", "O13", "--others", "earth,water", "--json"
    )
    document = json.loads(out)
    assert code == 0 and document["status"] == "optimal" and document["turns"] == 3


def test_plan_impossible_is_exit_1(tmp_path: Path) -> None:
    # 99 fire: the board holds 15.
    objectives = write(
        tmp_path, {"objectives": [{"id": "F99", "needs": {"fire": 99}}]}, "objectives.json"
    )
    code, out, _ = run("akelarre", "plan", "--goals", "F99", "--objectives", objectives)
    assert code == 1 and "infeasible" in out


def test_balance_writes_report_and_plots(tmp_path: Path) -> None:
    payouts = write(
        tmp_path,
        {"tables": {"3": {"1": 2, "2": 3, "3": 3}}},
        "flat.json",
    )
    out_dir = tmp_path / "report"
    code, out, _ = run(
        "akelarre",
        "balance",
        "--players",
        "3",
        "--games",
        "3",
        "--policies",
        "random",
        "--payouts",
        payouts,
        "--out",
        str(out_dir),
        "--json",
    )
    document = json.loads(out)
    assert code == 0 and set(document) == {"shipped", "flat.json"}
    for report in document.values():
        assert report["games"] == 3
        assert sum(report["position_win_rates"]) == pytest.approx(1)
        assert set(report["metrics"]) == set(report["definitions"])
    for name in ("report.json", "report.md", "win-rates.svg", "yields.svg"):
        assert (out_dir / name).stat().st_size > 0
    assert (out_dir / "win-rates.svg").read_text().startswith("<svg")


def test_simulate_winner_follows_the_tie_breaks() -> None:
    code, out, _ = run(
        "akelarre", "simulate", "--players", "3", "--policies", "random", "--seed", "4", "--json"
    )
    game = json.loads(out)
    assert code == 0 and 1 <= len(game["turns"]) <= 13
    keys = [
        (len(done), left, powers)
        for done, left, powers in zip(
            game["completed"], game["resources_left"], game["powers"], strict=True
        )
    ]
    best = max(keys)
    assert game["winners"] == [s for s, key in enumerate(keys) if key == best]


@pytest.mark.parametrize(
    ("args", "document", "names"),
    [
        (["--payouts"], {"tables": {"4": {"1": 1, "2": 3, "4": 3}}}, "crowd size 3 is missing"),
        (["--payouts"], {"tables": {"4": {"1": 1, "2": -3, "3": 4, "4": 3}}}, "tables.4.2"),
        (["--supply"], {"tables": {"4": {"aether": 15}}}, "tables.4.aether"),
        (["--objectives"], {"objectives": [{"id": "X", "needs": {"earth": -1}}]}, "needs"),
    ],
)
def test_bad_tables_are_one_line_exit_2(
    tmp_path: Path, args: list[str], document: object, names: str
) -> None:
    path = write(tmp_path, document, "table.json")
    code, out, err = run("akelarre", "equilibria", "--players", "4", *args, path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and path in err and names in err


@pytest.mark.parametrize("command", ["equilibria", "balance", "simulate", "plan"])
@pytest.mark.parametrize("players", ["6", "-3", "99999999999999999999"])
def test_players_outside_2_to_5(command: str, players: str) -> None:
    # (a policy name was once copied --players times before the check: a crash on huge counts)
    code, out, err = run("akelarre", command, "--players", players)
    assert code == 2 and out == ""
    assert "Invalid value for '--players'" in err and "than or equal to" in " ".join(err.split())


@pytest.mark.parametrize(
    ("option", "value", "problem"),
    [
        ("--goals", "O99", "unknown objective 'O99'"),
        ("--goals", "O13,O13", "objective O13 given twice (one card each)"),
        ("--seat", "9", "seat must be 0-2"),
        ("--first", "7", "first must be a seat 0-2"),
        ("--others", "earth", "2 other seats need a schedule, not 1"),
    ],
)
def test_plan_errors_name_the_option(option: str, value: str, problem: str) -> None:
    code, out, err = run("akelarre", "plan", "--players", "3", option, value)
    assert code == 2 and out == ""
    assert err.strip() == f"asterion: error: {option}: {problem}"


def test_plan_refuses_what_play_cannot_have(tmp_path: Path) -> None:
    # One card per objective id; a first player among the seats; a turn not begun yet (the
    # planner's seat already sent fire in the file's chain: planning its turn afresh would
    # drop that message).
    code, _, err = run("akelarre", "plan", "--goals", "O13,O13")
    assert code == 2 and "objective O13 given twice" in err
    code, _, err = run("akelarre", "plan", "--first", "7")
    assert code == 2 and "first: first must be a seat 0-2" in err
    position = {
        "players": 3,
        "seats": [{}, {}, {}],
        "chain": [{"seat": 0, "destination": "fire", "to": 1}],
    }
    state = write(tmp_path, position, "midturn.json")
    code, out, err = run("akelarre", "plan", "--state", state, "--others", "earth,fire")
    assert code == 2 and out == "" and f"{state}: chain: a message chain is under way" in err


def test_table_errors_found_later_name_their_file(tmp_path: Path) -> None:
    missing = write(tmp_path, {"tables": {"3": {"earth": 9, "water": 9, "air": 9}}}, "s.json")
    code, _, err = run("akelarre", "equilibria", "--players", "3", "--supply", missing)
    assert code == 2 and f"{missing}: tables.3: fire is missing" in err
    other = write(tmp_path, {"tables": {"4": {e: 9 for e in ELEMENTS}}}, "s4.json")
    code, _, err = run("akelarre", "equilibria", "--players", "3", "--supply", other)
    assert code == 2 and f"{other}: tables: no supply for 3 players" in err
    one = write(tmp_path, {"objectives": [{"id": "X", "needs": {"fire": 1}}]}, "o.json")
    for command in ("equilibria", "simulate"):
        code, _, err = run("akelarre", command, "--players", "3", "--objectives", one)
        assert code == 2 and f"{one}: objectives: 4 objectives are needed" in err


def test_balance_keeps_both_tables_when_the_file_is_named_shipped(tmp_path: Path) -> None:
    table = {"tables": {"4": {"1": 9, "2": 3, "3": 4, "4": 3, "5": 2}}}
    path = write(tmp_path, table, "shipped")
    code, out, _ = run("akelarre", "balance", "--games", "2", "--payouts", path, "--json")
    assert code == 0 and list(json.loads(out)) == ["shipped", "shipped (file)"]


def test_bad_state_file_and_bad_destination(tmp_path: Path) -> None:
    path = write(tmp_path, {"players": 3, "seats": [{}, {}, {"private": "O99"}]})
    code, _, err = run("akelarre", "equilibria", "--state", path)
    assert code == 2 and "seats.2.private: unknown card 'O99'" in err
    code, _, err = run("akelarre", "plan", "--others", "earth,lava")
    assert code == 2 and "--others: unknown destination 'lava'" in err


def test_equilibria_advises_the_seat_told_in_the_chain(tmp_path: Path) -> None:
    # Private objectives of 8 fire, no public one. Seat 0 went to fire and told seat 1; seat 2
    # is still to choose (5 destinations, equally likely). Fire for seat 1: with seat 2 there
    # (1/5) a crowd of 3 (3 fire), else 2 (4 fire): (3/5 + 16/5) / 16 = 19/80.
    objectives = write(tmp_path, FIRE_ONLY, "objectives.json")
    position = {
        "players": 3,
        "public": None,
        "seats": [{"private": "F0"}, {"private": "F1"}, {"private": "F2"}],
        "chain": [{"seat": 0, "destination": "fire", "to": 1}],
    }
    state = write(tmp_path, position, "state.json")
    code, out, _ = run(
        "akelarre", "equilibria", "--state", state, "--objectives", objectives, "--json"
    )
    advice = json.loads(out)["advice"]
    assert code == 0 and advice["seat"] == 1 and advice["told"] == {"0": "fire"}
    assert advice["expected"]["fire"] == "19/80" and advice["best"] == ["fire"]
    assert all(advice["expected"][d] == "0" for d in ("earth", "water", "air", "well"))


@pytest.mark.parametrize("command", ["equilibria", "plan"])
def test_players_must_agree_with_the_position_file(tmp_path: Path, command: str) -> None:
    # The file's count decides the game; a different --players is a mistake to name, not to
    # drop silently.
    state = write(tmp_path, {"players": 3, "seats": [{}, {}, {}]})
    code, out, err = run("akelarre", command, "--players", "4", "--state", state)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"--players: 4 players, but the position in {state} has 3" in err
    code, _, _ = run("akelarre", command, "--players", "3", "--state", state, "--json")
    assert code in (0, 1)


@pytest.mark.parametrize("command", ["simulate", "balance"])
@pytest.mark.parametrize(
    ("policies", "problem"), [("x", "unknown policy 'x'"), ("random,greedy", "one per player")]
)
def test_bad_policies_name_the_option(command: str, policies: str, problem: str) -> None:
    code, out, err = run("akelarre", command, "--players", "3", "--policies", policies)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("asterion: error: --policies: ") and problem in err


def test_review_of_the_shipped_game() -> None:
    code, out, _ = run("akelarre", "review")
    assert code == 0
    assert "13 turns" in out and "winner: seat" in out
    assert len(re.findall(r"^  turn +\d+ seat \d", out, re.MULTILINE)) == 13 * 3


def test_review_draws_each_seats_loss_by_turn(tmp_path: Path) -> None:
    picture = tmp_path / "losses.svg"
    code, out, _ = run("akelarre", "review", "--svg", str(picture), "--json")
    review = json.loads(out)
    assert code == 0 and review["over"] is True
    svg = picture.read_text()
    # one bar per seat and turn (3 seats, 13 turns), each the loss the JSON gives
    assert svg.count('<rect class="bar') == 3 * 13 and "Loss as told" in svg
    drawn = [(int(t), float(v)) for t, v in re.findall(r"<title>(\d+): ([^<]*)</title>", svg)]
    given = {(t["turn"], d["seat"]): Fraction(d["expected_loss"]) for t in review["turns"]
             for d in t["decisions"]}  # fmt: skip
    wanted = [(t, float(given[t, seat])) for t in range(1, 14) for seat in range(3)]
    assert [t for t, _ in drawn] == [t for t, _ in wanted]
    assert all(
        abs(a - b) <= 1e-3 * max(1.0, b) for (_, a), (_, b) in zip(drawn, wanted, strict=True)
    )


def test_simulate_record_then_review_agree_on_the_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out, _ = run(
        "akelarre", "simulate", "--players", "4", "--seed", "5", "--record", str(record), "--json"
    )
    played = json.loads(out)
    assert code == 0
    code, out, _ = run("akelarre", "review", str(record), "--json")
    review = json.loads(out)
    assert code == 0 and review["over"] is True
    # the record replays to the game simulate played
    assert review["completed"] == played["completed"] and review["winners"] == played["winners"]
    assert [t["destinations"] for t in review["turns"]] == [
        t["destinations"] for t in played["turns"]
    ]
    decisions = [d for t in review["turns"] for d in t["decisions"]]
    assert len(decisions) == 4 * len(played["turns"])
    for d in decisions:
        expected = {k: Fraction(v) for k, v in d["expected"].items()}
        hindsight = {k: Fraction(v) for k, v in d["hindsight"].items()}
        assert Fraction(d["expected_loss"]) == max(expected.values()) - expected[d["played"]]
        assert Fraction(d["hindsight_loss"]) == max(hindsight.values()) - Fraction(d["gain"])
        assert Fraction(d["gain"]) == hindsight[d["played"]]
    for seat in review["seats"]:
        own = [d for d in decisions if d["seat"] == seat["seat"]]
        assert Fraction(seat["expected_loss"]) == sum(Fraction(d["expected_loss"]) for d in own)
        assert seat["off_best"] == sum(d["played"] not in d["best_expected"] for d in own)


def test_review_takes_the_games_tables(tmp_path: Path) -> None:
    objectives = write(tmp_path, FIRE_ONLY, "objectives.json")
    start = {"players": 3, "seats": [{"private": f"F{k}"} for k in range(3)]}
    game = write(tmp_path, {"start": start, "turns": [["fire to 1", "earth to 2", "fire"]]})
    code, out, _ = run("akelarre", "review", game, "--objectives", objectives, "--json")
    assert code == 0
    # seat 1 left fire to seats 0 and 2 (see tests/solver/test_akelarre_review.py)
    assert json.loads(out)["seats"][1]["hindsight_loss"] == "3/16"
    code, _, err = run("akelarre", "review", game)
    assert code == 2 and "start: seats.0.private: unknown card 'F0'" in err


def test_review_says_a_shared_win_in_words(tmp_path: Path) -> None:
    # tests/solver/test_akelarre_review.py's two turns: seats 0 and 2 each complete one
    # objective and hold nothing else; the empty deck ends the game
    objectives = write(tmp_path, FIRE_ONLY, "objectives.json")
    start = {
        "players": 3,
        "seats": [{"private": f"F{k}"} for k in range(3)],
        "objective_deck": [],
        "power_deck": [],
    }
    turns = [["fire to 1", "earth to 2", "fire"], ["well to 0", "fire to 2", "fire"]]
    game = write(tmp_path, {"start": start, "turns": turns})
    code, out, _ = run("akelarre", "review", game, "--objectives", objectives)
    assert code == 0 and "a shared win: seat 0, seat 2" in out


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (
            {"players": 3, "first": 0, "turns": [["fire to 1", "lava", "fire"]]},
            "turns.0.1: unknown",
        ),
        (
            {"players": 3, "turns": [["fire"]]},
            "turns.0: a turn's chain has 3 messages, one per seat, not 1",
        ),
        ("{", "not valid JSON"),
    ],
)
def test_review_of_a_bad_record_is_one_line(tmp_path: Path, record: Any, problem: str) -> None:
    code, out, err = run("akelarre", "review", write(tmp_path, record))
    assert code == 2 and problem in err and len(err.strip().splitlines()) == 1 and not out
