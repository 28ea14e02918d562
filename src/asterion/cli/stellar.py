"""``asterion stellar …``: scoring, solo puzzles, move advice and self-play."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from asterion.cli._common import (
    SEARCH_TIME_HELP,
    UNKNOWN,
    YES,
    JsonOpt,
    SvgOpt,
    console,
    finish,
    picture_path,
    print_json,
    progress_bar,
    record_argument,
    reports_input_errors,
    save_svg,
    time_limit_option,
    typed_as,
    write_json,
)
from asterion.errors import InputError
from asterion.models.files import read_json_file
from asterion.models.stellar import Move, Score, StellarRules, StellarState
from asterion.models.stellar_cards import Deck, load_deck
from asterion.models.stellar_files import load_game
from asterion.models.stellar_record import record_data
from asterion.models.stellar_solo import deal_solo_puzzle, load_solo_puzzle
from asterion.render.stellar_svg import score_distribution_svg, telescope_svg
from asterion.render.words import counted
from asterion.solver.stellar_play import advise as advise_moves
from asterion.solver.stellar_play import greedy_game, make_policy, selfplay, selfplay_game
from asterion.solver.stellar_review import (
    DEFAULT_REVIEW_SAMPLES,
    DEFAULT_REVIEW_TIME_LIMIT,
    DEFAULT_REVIEW_WIDTH,
    StellarReview,
)
from asterion.solver.stellar_score import score_position
from asterion.solver.stellar_solo import METHODS, solve_solo

app = typer.Typer(
    help="Stellar: a two-player telescope and notebook card game.", no_args_is_help=True
)

DeckOpt = Annotated[
    Path | None,
    typer.Option(
        "--deck", metavar="FILE", help="A deck JSON file (default: the shipped deck, S2)."
    ),
]


def score_to_data(result: Score) -> dict[str, Any]:
    return {
        "total": result.total,
        "types": {kind.value: points for kind, points in result.types.items()},
        "sections": dict(result.sections),
        "diversity": result.diversity,
        "choices": {
            card: {"type": kind.value, "number": number}
            for card, (kind, number) in sorted(result.choices.items())
        },
    }


def _winner(scores: tuple[Score, Score]) -> int | None:
    first, second = scores[0].total, scores[1].total
    return None if first == second else (0 if first > second else 1)


DealOpt = Annotated[int, typer.Option(help="Seed of the deal when no GAME is given.")]


def _load(
    game: Path | None,
    deck_file: Path | None,
    deal: int,
    dealt: Callable[[StellarRules | None, int], StellarState],
) -> StellarState:
    """The GAME file's position, else ``dealt(rules, deal)`` (with --deck's rules if given)."""
    deck: Deck | None = load_deck(deck_file) if deck_file is not None else None
    if game is not None:
        return load_game(game, deck)
    return dealt(None if deck is None else StellarRules(deck=deck), deal)


@app.command()
@reports_input_errors
def score(
    game: Annotated[
        Path | None,
        typer.Argument(
            metavar="GAME",
            help="A GAME JSON file (default: the end of a game both seats play greedily "
            "from deal --deal).",
        ),
    ] = None,
    deal: DealOpt = 1,
    deck_file: DeckOpt = None,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """Score a position exactly: the free choices (0/6 as 0 or 6, each satellite's type) are
    made by CP-SAT, checked by re-scoring.

    Example: `asterion stellar score game.json --json`.
    """
    state = _load(game, deck_file, deal, greedy_game)
    scores = score_position(state)
    seats = 1 if state.rules.is_solo else 2
    save_svg(svg, lambda: telescope_svg(state, 0, title="player 1"), quiet=json_out)
    if json_out:
        document: dict[str, Any] = {"players": [score_to_data(s) for s in scores[:seats]]}
        if seats == 2:
            document["winner"] = _winner(scores)
        print_json(document)
        return
    for player, result in enumerate(scores[:seats]):
        types = ", ".join(
            f"{kind.value} {points}" for kind, points in result.types.items() if points
        )
        sections = ", ".join(f"{name} {points}" for name, points in result.sections.items())
        console.print(f"player {player + 1}: {result.total}")
        console.print(f"  types: {types or 'none'}")
        console.print(f"  sections: {sections}; diversity {result.diversity}")
        for card, (kind, number) in sorted(result.choices.items()):
            console.print(f"  {card} read as {kind.value} {number}")
    if seats == 2:
        winner = _winner(scores)
        console.print("a tie: the win is shared" if winner is None else f"player {winner + 1} wins")


@app.command()
@reports_input_errors
def advise(
    game: Annotated[
        Path | None,
        typer.Argument(
            metavar="GAME",
            help="A GAME JSON file, a turn to play (default: the first turn of deal --deal).",
        ),
    ] = None,
    deal: DealOpt = 1,
    samples: Annotated[int, typer.Option(min=2, help="Sampled deals per finalist move.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the sampled deals.")] = 0,
    top: Annotated[int, typer.Option(min=1, help="Moves to print (--json lists all).")] = 10,
    deck_file: DeckOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Rank the legal moves by expected final score over sampled deals of the hidden cards
    (the opponent's hand and the deck), with 95% confidence intervals.

    Moves reaching the same position are one entry; weak moves are dropped early by
    sequential halving, so each entry shows its own sample count.
    """
    state = _load(game, deck_file, deal, StellarState.new_game)
    if state.is_over:  # (advise_moves says so too, but not which file)
        raise InputError("the game is over: there is no move to advise", source=str(game))
    with progress_bar("sampling deals", quiet=json_out) as progress:
        ranked = advise_moves(state, samples=samples, seed=seed, progress=progress)
    if json_out:
        print_json({"samples": samples, "seed": seed, "moves": [a.to_data() for a in ranked]})
        return
    console.print(f"{len(ranked)} distinct moves; expected final score (95% interval, samples):")
    for rank, entry in enumerate(ranked[:top], start=1):
        console.print(
            f"{rank:>3}. {entry.mean:6.1f}  [{entry.ci_low:5.1f}, {entry.ci_high:5.1f}]  "
            f"n={entry.samples:<4} {entry.describe()}"
        )


@app.command("selfplay")
@reports_input_errors
def selfplay_command(
    games: Annotated[int, typer.Option(min=1, help="Games to play (seats alternate).")] = 100,
    policies: Annotated[
        str, typer.Option(help="Two policies: random, greedy, advice or advice:N.")
    ] = "greedy,random",
    seed: Annotated[int, typer.Option(help="Seed: the same seed, the same games.")] = 0,
    plot: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="SVG of the score distributions.", callback=picture_path),
    ] = None,
    deck_file: DeckOpt = None,
    json_out: JsonOpt = False,
    record_out: Annotated[
        Path | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Also write the first game (the first policy moving first) as a record "
            "(stellar-record/1) for `stellar review`.",
        ),
    ] = None,
) -> None:
    """Two policies play many seeded games: win rates and score distributions."""
    names = [name.strip() for name in policies.split(",")]
    if len(names) != 2:
        raise InputError(
            f"takes two names separated by a comma, not {policies!r}", source="--policies"
        )
    with typed_as("--policies"):
        first, second = (make_policy(name) for name in names)
    with progress_bar("playing", quiet=json_out) as progress:
        rules = StellarRules(deck=load_deck(deck_file)) if deck_file is not None else None
        report = selfplay(first, second, games, seed, rules=rules, progress=progress)
    if record_out is not None:
        moves: list[Move] = []
        game = selfplay_game(first, second, seed, 0, rules or StellarRules(), moves)
        write_json(record_out, record_data(game.deal, moves))
    save_svg(
        plot, lambda: score_distribution_svg(report, title="Stellar self-play"), quiet=json_out
    )
    if json_out:
        print_json(report.to_data())
        return
    for name, wins, rate, mean in zip(
        report.labels, report.wins, report.win_rates, report.mean_scores, strict=True
    ):
        console.print(f"{name:<16} wins {wins:>5} ({rate:6.1%})  mean score {mean:6.1f}")
    console.print(f"ties {report.ties} ({report.tie_rate:.1%}) over {report.games} games")


@app.command()
@reports_input_errors
def solve(
    puzzle_file: Annotated[
        Path | None,
        typer.Argument(metavar="PUZZLE", help="A solo puzzle JSON file (default: a seeded deal)."),
    ] = None,
    method: Annotated[
        str,
        typer.Option(
            help="auto (deterministic, one core), search, cp-sat, split, or portfolio (two "
            "split loops on two processes: faster on long deals when two cores are free; an "
            "optimal plan, not always the same one)."
        ),
    ] = "auto",
    deal: Annotated[int, typer.Option(help="Seed of the deal when no PUZZLE is given.")] = 1,
    time_limit: Annotated[float, time_limit_option(SEARCH_TIME_HELP)] = 10.0,
    deck_file: DeckOpt = None,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """Solo puzzle with a known deck order: the maximum final score and a plan, proven
    optimal; the plan is replayed and scored by the rules engine.

    Exit status 0 solved (optimal or a plan found), 3 unknown within the time limit.
    """
    if method not in METHODS:
        raise InputError(
            f"unknown method {method!r} (expected {', '.join(METHODS)})", source="--method"
        )
    deck: Deck | None = load_deck(deck_file) if deck_file is not None else None
    puzzle = (
        deal_solo_puzzle(deal, deck=deck)
        if puzzle_file is None
        else load_solo_puzzle(puzzle_file, deck)
    )
    chosen = next(m for m in METHODS if m == method)
    answer = solve_solo(puzzle, method=chosen, time_limit=time_limit)
    final = answer.final
    picture = None if final is None else (lambda: telescope_svg(final, 0, title="solo: best play"))
    save_svg(svg, picture, quiet=json_out, nothing="no plan within the time limit")
    if json_out:
        print_json(answer.to_json())
    else:
        console.print(
            f"{answer.status.value} ({answer.method}, {answer.wall_time:.2f} s): "
            + (
                "no plan found"
                if answer.best_score is None
                else f"best score {answer.best_score}, bound {answer.bound}"
            )
        )
        for number, move in enumerate(answer.plan, start=1):
            console.print(f"  {number:>2}. {move}")
    finish(YES if answer.best_score is not None else UNKNOWN)


@app.command()
@reports_input_errors
def review(
    game: Annotated[
        Path | None,
        record_argument(
            "A played game (stellar-record/1: the deal and every move in words; "
            "default: greedy, player 1, against random)."
        ),
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            min=4,
            max=10_000,
            help="Sampled deals per move: the first half chooses the best, the second "
            "measures the loss.",
        ),
    ] = DEFAULT_REVIEW_SAMPLES,
    width: Annotated[
        int,
        typer.Option(
            min=1, max=1_000, help="Moves the greedy valuation rates highest, each compared."
        ),
    ] = DEFAULT_REVIEW_WIDTH,
    seed: Annotated[int, typer.Option(help="Seed of the sampled deals.")] = 0,
    time_limit: Annotated[
        float, time_limit_option("Seconds for the whole review before 'unknown'.")
    ] = DEFAULT_REVIEW_TIME_LIMIT,
    deck_file: DeckOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A post-mortem as each player saw the game: every move against the moves the greedy
    valuation rates highest, by expected final score over sampled deals of the cards the
    mover could not see (paired, with a 95% interval of the loss).

    `stellar selfplay --record FILE` writes a record. Exit status 0 when every move was
    weighed, 3 when the time limit struck first. Example: `asterion stellar review game.json`.
    """
    from asterion.models.stellar_record import DEMO_GAME, demo_data, record_from_data
    from asterion.solver.stellar_review import review_game

    deck = load_deck(deck_file) if deck_file is not None else None
    source = str(game) if game is not None else DEMO_GAME
    data = demo_data() if game is None else read_json_file(game)
    record = record_from_data(data, source, deck)
    with progress_bar("moves weighed", quiet=json_out) as progress:
        answer = review_game(
            record.states,
            record.moves,
            samples=samples,
            width=width,
            seed=seed,
            time_limit=time_limit,
            progress=progress,
        )
    if json_out:
        print_json(answer.to_json())
    else:
        _print_review(answer, source)
    finish(YES if answer.decided else UNKNOWN)


def _print_review(answer: StellarReview, source: str) -> None:
    console.print(
        f"{source}: {counted(len(answer.moves), 'move')}, each against the "
        f"{answer.width} the greedy valuation rates highest, by expected final score over "
        f"{answer.samples} sampled deals of what the mover could not see"
    )
    for m in answer.moves:
        interval = m.loss_interval
        if m.forced:
            verdict = "forced"
        elif m.loss is None or interval is None:
            verdict = "unknown (time limit)"
        else:
            verdict = f"lost {m.loss:.1f} [{interval[0]:.1f}, {interval[1]:.1f}]"
            verdict += " (clear)" if m.clear else ""
            if m.loss > 0 and m.best != m.played:  # (the evidence favours another move)
                verdict += f"; best: {m.best}"
        console.print(f"  {m.index + 1:>3}. player {m.player + 1}: {m.played}: {verdict}")
    for player in (0, 1):
        summary = answer.player_summary(player)
        unknown = f", {summary.unknown} unknown" if summary.unknown else ""
        low, high = summary.loss_interval
        console.print(
            f"player {player + 1}: lost {summary.loss:.1f} [{low:.1f}, {high:.1f}] in all "
            f"over {summary.moves} moves, {summary.clear} of them clear{unknown}"
        )
    if answer.final is not None:
        console.print(f"final scores: {answer.final[0]} to {answer.final[1]}")
