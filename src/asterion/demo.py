"""``asterion demo``: a short tour over the shipped data, writing pictures to a folder.

Each step calls the same library functions as the commands, so the tour doubles as a smoke
test of the whole stack on a fresh install.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from importlib import resources
from pathlib import Path

from asterion.errors import InputError
from asterion.models.aster import AsterRules, AsterState
from asterion.models.aster_board import Board
from asterion.models.aster_cards import Deck, default_catalog
from asterion.models.aster_files import parse_state
from asterion.models.sky import default_sky
from asterion.models.stellar_solo import deal_solo_puzzle
from asterion.render.aster_plan import plan_frames
from asterion.render.aster_svg import board_svg, plan_svg
from asterion.render.sky_svg import card_sheet_svg
from asterion.render.stellar_svg import telescope_svg
from asterion.render.svg import write_svg
from asterion.render.words import counted
from asterion.solver.aster_best_turn import best_turn
from asterion.solver.aster_catalog import check_catalog
from asterion.solver.aster_perft import perft
from asterion.solver.aster_place import best_placement
from asterion.solver.aster_reach import ReachQuestion
from asterion.solver.aster_reach_portfolio import reach
from asterion.solver.stellar_play import greedy_game, make_policy, selfplay
from asterion.solver.stellar_score import score_position
from asterion.solver.stellar_solo import solve_solo
from asterion.solver.stellar_solo_flow import flow_search_ready

DEMO_STATE = "aster_demo_state.json"


def _demo_state() -> AsterState:
    text = resources.files("asterion.data").joinpath(DEMO_STATE).read_text("utf-8")
    return parse_state(text, DEMO_STATE)


def run_demo(out: Path) -> Iterator[str]:
    """Run the tour, yielding the lines to print; pictures are written under ``out``."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create the folder: {error.strerror}", source=str(out)) from None

    yield "Aster"
    board = Board()
    edges = board.graph.number_of_edges()
    write_svg(out / "aster-board.svg", board_svg(board, title="Aster board, 4 rings"))
    yield (
        f"  board: {len(board.points)} points, {edges} connections, "
        f"{len(board.lines)} straight lines -> {out / 'aster-board.svg'}"
    )

    catalog = default_catalog()
    sizes = {deck: len(catalog.deck(deck)) for deck in (Deck.SMALL, Deck.LARGE, Deck.OBSOLETE)}
    sheet = out / "aster-cards.svg"
    shown = [catalog[abbr] for abbr in ("Ori", "UMa", "Cas", "Cru", "Cnc", "Arg")]
    write_svg(sheet, card_sheet_svg(shown, default_sky(), board, title="a few real cards"))
    yield (
        f"  catalog: {sizes[Deck.SMALL]} small, {sizes[Deck.LARGE]} large and "
        f"{sizes[Deck.OBSOLETE]} obsolete constellation cards from real star figures -> {sheet}"
    )

    check = check_catalog(AsterRules(catalog=catalog))
    alone = [c.witness_turns for c in check.cards if c.witness_turns is not None]
    shapes = sum(1 for f in check.warnings if f.code == "same-shape")
    yield (
        f"  catalog check: {'sound' if check.sound else 'NOT sound'}; {len(alone)} of the "
        f"{len(check.cards)} constellations formed by one player alone "
        f"within {max(alone, default=0)} turns (plans replayed); "
        f"{counted(shapes, 'pair')} of one shape"
    )

    opening = AsterState.new_game()
    reached = perft(opening)
    yield (
        f"  opening, red's first turn ({', '.join(a.value for a in opening.actions)}): "
        f"{reached.boards} distinct boards reachable (perft)"
    )

    state = _demo_state()
    for abbr in ("Cru", "Ori"):
        card = catalog[abbr]
        result = best_placement(state, card.pattern, time_limit=10)
        if result.value is None:
            yield f"  {card.name}: best placement {result.status.value}"
            continue
        best = result.value
        picture = out / f"aster-place-{abbr}.svg"
        write_svg(
            picture,
            board_svg(
                board,
                stars=state.star_map(),
                highlight=best.points,
                missing=best.missing,
                title=f"{card.name}: best placement",
            ),
        )
        lacking = " ".join(best.missing) or "nothing"
        yield (
            f"  {card.name} in the demo position: best placement lacks {lacking} "
            f"({counted(best.own, 'red star')} used; CP-SAT {result.status.value}, certified) "
            f"-> {picture}"
        )
    answer = best_turn(state, time_limit=10)
    if answer.best is not None:
        turn = answer.best
        picture = out / "aster-best-turn.svg"
        write_svg(picture, plan_svg(board, plan_frames(turn.certificate), title="best turn"))
        yield (
            f"  best turn in the demo position: claim {turn.abbr} for {turn.value} "
            f"({turn.points} card points + {turn.own_stars} own stars) in "
            f"{counted(len(turn.certificate.steps), 'action')}, "
            f"replayed by the rules engine -> {picture}"
        )

    opening_reach = reach(ReachQuestion.build(opening, catalog["Cnc"].pattern, turns=2))
    yield (
        f"  from the opening, Cancer in 2 turns: {opening_reach.status.value}, "
        f"{opening_reach.min_actions} actions ({opening_reach.engine}, certified)"
    )
    yield from _stellar_tour(out)
    yield from _nacht_tour(out)
    yield from _akelarre_tour()
    yield f"pictures written to {out}/"


def _stellar_tour(out: Path) -> Iterator[str]:
    """Stellar: a seeded greedy-vs-random game, its exact score and telescope, a solo deal."""
    yield "Stellar"
    # Whole-game solos use a compiled loop: numba compiles it meanwhile, on a thread, and
    # caches it for every later run (the process waits for it before it exits).
    flow_search_ready(wait=0)
    report = selfplay(make_policy("greedy"), make_policy("random"), 4, seed=0)
    yield (
        f"  self-play, greedy vs random, 4 games: wins {report.wins[0]}-{report.wins[1]}, "
        f"mean scores {report.mean_scores[0]:.1f} and {report.mean_scores[1]:.1f}"
    )
    state = greedy_game(seed=0)
    first, second = score_position(state)
    picture = out / "stellar-telescope.svg"
    write_svg(picture, telescope_svg(state, 0, title="greedy self-play, player 1"))
    yield (
        f"  one greedy game scored exactly (free choices by CP-SAT): {first.total} to "
        f"{second.total} -> {picture}"
    )
    answer = solve_solo(deal_solo_puzzle(seed=1, turns=4), method="auto", time_limit=10)
    yield (
        f"  a 4-turn solo deal: best score {answer.best_score} ({answer.status.value}, "
        f"{answer.method}, replayed by the rules engine)"
    )


def _nacht_tour(out: Path) -> Iterator[str]:
    """Nacht der Sterne: the shipped sky verified, drawn, and solved with rotations."""
    from asterion.models.nacht_files import default_tileset
    from asterion.render.nacht_svg import sky_svg
    from asterion.solver.nacht_solve import solve_tileset
    from asterion.solver.nacht_verify import verify

    yield "Nacht der Sterne"
    sky = default_tileset()
    report = verify(sky)
    verdict = "consistent and unique" if report.consistent else "NOT consistent"
    picture = out / "nacht-sky.svg"
    if report.placements:
        write_svg(picture, sky_svg(sky, report.placements[0], title=sky.name))
    yield (
        f"  the shipped sky ({sky.name}): {verdict}, {len(report.constellations)} "
        f"constellations, checked in {report.wall_time:.2f} s -> {picture}"
    )
    turned = solve_tileset(sky, rotations=True, count_limit=2)
    yield (
        f"  with tiles allowed to turn: {counted(turned.result.count, 'arrangement')} up to "
        f"turning the picture ({turned.result.engine}, {turned.result.wall_time:.2f} s)"
    )
    yield from _edge_puzzle_tour()
    yield _nacht_review_line()


def _nacht_review_line() -> str:
    """The shipped two-player game reviewed with the draw order known after it."""
    from asterion.models.nacht_game_files import order_state, practice_tileset
    from asterion.models.nacht_record import DEMO_GAME, demo_game, replay
    from asterion.solver.nacht_play import solved_sky
    from asterion.solver.nacht_review import review_known_order

    spec = demo_game()
    assert spec.practice is not None  # (the shipped record plays on a practice sky)
    practice = spec.practice
    sky = solved_sky(practice_tileset(practice.width, practice.height, practice.seed))
    states, moves = replay(order_state(spec, sky, DEMO_GAME), spec.moves, DEMO_GAME)
    review = review_known_order(states, moves, time_limit=30)
    if not review.decided:
        return "  post-mortem of a 3x4 game: not finished within 30 s"
    lost = [review.lost_by(player)[0] for player in (0, 1)]
    coins = " to ".join(str(c) for c in review.final_coins)
    return (
        f"  post-mortem of greedy against denial on a {sky.width}x{sky.height} sky, the order "
        f"known after the game: final coins {coins}; against perfect play seat 1 lost "
        f"{counted(lost[0], 'coin')} of margin, seat 2 {lost[1]} (exact search)"
    )


def _edge_puzzle_tour() -> Iterator[str]:
    """A generated puzzle of the hard family, arranged by the exact search (on a fresh
    machine this also has numba compile the search's loops, for every later solve)."""
    from asterion.models.edge_puzzles import generate
    from asterion.solver.nacht_solve import run_engine

    puzzle = generate(7, 7, 3, 6, seed=0)
    answer = run_engine(puzzle, "auto", time_limit=10)
    found = "arranged" if answer.solutions else answer.status.value
    yield (
        f"  a generated 7x7 edge-matching puzzle (3 frame, 6 inner colors): {found} in "
        f"{answer.wall_time:.2f} s ({answer.engine}, re-checked edge by edge)"
    )


def _akelarre_tour() -> Iterator[str]:
    """Akelarre: one turn's equilibria, and a short balance run."""
    from asterion.models.akelarre import AkelarreState, first_chooser
    from asterion.models.akelarre_files import build_rules
    from asterion.solver.akelarre_balance import selfplay as akelarre_selfplay
    from asterion.solver.akelarre_equilibria import pure_equilibria, turn_game

    yield "Akelarre"
    state = AkelarreState.new_game(build_rules(3), seed=0, first=0)
    game = turn_game(replace(state, holder=first_chooser(state)))
    pure = pure_equilibria(game)
    yield (
        f"  turn 1, 3 players: {len(game.profiles)} destination profiles, "
        f"{counted(len(pure), 'pure Nash equilibrium', 'pure Nash equilibria')} (exact payoffs)"
    )
    report = akelarre_selfplay(build_rules(4), ["greedy"] * 4, 20, seed=0)
    rates = ", ".join(f"{rate:.2f}" for rate in report.position_win_rates)
    yield (
        f"  20 greedy games, 4 players: win rate by turn-order position {rates} "
        f"(balance {report.metrics['balance']:.2f})"
    )
    yield _akelarre_review_line()


def _akelarre_review_line() -> str:
    """The shipped game reviewed: how often each policy chose a best response."""
    from asterion.models.akelarre_record import DEMO_GAME, demo_data, record_from_data
    from asterion.solver.akelarre_review import review_game

    review = review_game(record_from_data(demo_data(), DEMO_GAME))
    best = ", ".join(
        f"seat {s.seat} {s.decisions - s.off_best} of {s.decisions}" for s in review.seats
    )
    return (
        "  post-mortem of a 3-player game (greedy, random, equilibrium): messages that were a "
        f"best response to what the seat was told: {best}"
    )
