"""``asterion nacht simulate | best-play | advise``: playing Nacht der Sterne.

Registered on the ``nacht`` command group by the last line of :mod:`asterion.cli.nacht`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from asterion.cli._common import (
    UNKNOWN,
    YES,
    JsonOpt,
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
)
from asterion.cli.nacht import app
from asterion.errors import InputError
from asterion.render.words import counted
from asterion.solver.nacht_play_defaults import (
    DEFAULT_EXACT_TIME_LIMIT,
    DEFAULT_SAMPLES,
    STRATEGY_NAMES,
)

if TYPE_CHECKING:  # the game and its analyses load on use (see asterion.cli.GROUPS)
    from asterion.models.nacht_game import Sky
    from asterion.models.nacht_game_files import OrderSpec
    from asterion.solver.nacht_review import NachtReview


def _tileset_option(default: str) -> Any:
    return typer.Option(
        "--tileset", metavar="FILE", help=f"The tile set played (default: {default})."
    )


def _sky(option: Path | None, named: Path | None = None, referrer: Path | None = None) -> Sky:
    """The sky of ``--tileset``, else the tile set ``named`` by the file ``referrer``, else
    the shipped one."""
    from asterion.models.nacht_files import default_tileset, load_tileset
    from asterion.solver.nacht_play import solved_sky

    path = option if option is not None else named
    if path is None:
        return solved_sky(default_tileset())
    try:
        tileset = load_tileset(path)
    except InputError as error:
        if option is None and error.source == str(path) and error.field is None:
            # a file that cannot be read: the referrer's mistake (a wrong name in it)
            problem = f"{path}: {error.problem}"  # (InputError cuts a long path short)
            raise InputError(problem, source=str(referrer), field="tileset") from None
        raise
    try:
        return solved_sky(tileset)
    except InputError as error:  # an inconsistent set: the file's fault
        raise error.located(str(path)) from None


def _order_sky(spec: OrderSpec, path: Path | None, tileset: Path | None) -> tuple[Sky, Path | None]:
    """The sky an order file (or a game record) plays on: ``--tileset``, else its practice
    sky, else the tile set it names, else the shipped one; and the tile set file it comes
    from, if any."""
    from asterion.models.nacht_game_files import practice_tileset, tileset_path
    from asterion.solver.nacht_play import solved_sky

    if spec.practice is not None and tileset is None:
        practice = spec.practice
        return solved_sky(practice_tileset(practice.width, practice.height, practice.seed)), None
    named = None if path is None else tileset_path(spec.tileset, path)
    return _sky(tileset, named, path), tileset if tileset is not None else named


EXAMPLE_ORDER: dict[str, Any] = {"practice": {"width": 3, "height": 4, "seed": 1}, "deal": 7}
"""With no ``--order``: docs/nacht.md's example, deal 7 on the 3x4 practice sky of seed 1
(or on ``--tileset``)."""
EXAMPLE_POSITION: dict[str, Any] = {
    "laid": ["T17", "T14", "T11"],
    "displays": [[], ["T06"], []],
    "coins": [16, 15, 15],
    "declines_in_a_row": [0, 0, 0],
    "active": 0,
    "drawn": "T16",
}
"""With no STATE: docs/nacht.md's example on the shipped sky, after one round of 3 players."""


def _default_strategies(players: int) -> str:
    return ",".join(STRATEGY_NAMES[p % len(STRATEGY_NAMES)] for p in range(players))


@app.command("simulate")
@reports_input_errors
def simulate_command(
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 300,
    players: Annotated[
        int, typer.Option(min=1, max=5, help="Players, 1 to 5 (the game is for 3-4).")
    ] = 3,
    strategies: Annotated[
        str | None,
        typer.Option(
            help="One per seat, comma-separated: always, greedy, denial, lookahead, random "
            "(default: the first P of always, greedy, denial, lookahead)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed: the same seed, the same games.")] = 0,
    tileset: Annotated[Path | None, _tileset_option("the shipped sky")] = None,
    plot: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="SVG of the coin distributions.", callback=picture_path),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Seeded games between strategies, seats rotated over the same deals: mean and spread
    of final coins, wins, and win rates by seat.

    Example: `asterion nacht simulate --games 300 --players 3 --strategies
    greedy,denial,lookahead --plot coins.svg`.
    """
    from asterion.solver.nacht_play import make_policy, simulate

    names = [n.strip() for n in (strategies or _default_strategies(players)).split(",")]
    with typed_as("--strategies"):
        for name in names:
            make_policy(name)
    sky = _sky(tileset)
    with (
        progress_bar("playing", quiet=json_out) as progress,
        typed_as("--strategies", "strategies"),
    ):
        report = simulate(sky, names, games, players, seed, progress=progress)
    if plot is not None:
        from asterion.render.stellar_svg import score_distribution_svg

        count = f"{counted(players, 'player')}, {counted(report.games, 'game')}"
        title = f"Nacht der Sterne: final coins, {count}"
        save_svg(
            plot,
            lambda: score_distribution_svg(report, title=title, quantity="final coins"),
            quiet=json_out,
        )
    if json_out:
        print_json(report.to_data())
        return
    console.print(
        f"{counted(report.games, 'game')}, {counted(players, 'player')}, "
        f"{sky.width}x{sky.height} sky "
        f"({report.games / max(report.seconds, 1e-9):.0f} games/s)"
    )
    for row in report.summary():
        console.print(
            f"{row['strategy']:<14} mean {row['mean']:6.2f}  sd {row['stdev']:5.2f}  "
            f"range {row['min']}-{row['max']}  wins {row['wins']:7.1f} ({row['win_rate']:.1%})"
        )
    rates = ", ".join(f"seat {p + 1} {r:.1%}" for p, r in enumerate(report.seat_win_rates()))
    console.print(f"win rates by seat: {rates}")


@app.command("best-play")
@reports_input_errors
def best_play(
    order: Annotated[
        Path | None,
        typer.Option(
            "--order",
            metavar="FILE",
            help="A draw order (nacht-order/1; default: deal 7 on the 3x4 practice sky of seed "
            "1, or on --tileset).",
        ),
    ] = None,
    players: Annotated[int, typer.Option(help="Players: the exact search takes 2.")] = 2,
    tileset: Annotated[
        Path | None,
        _tileset_option(
            "the order file's tile set or practice sky, else the shipped sky, which is over "
            "the 24 tiles taken; with no --order, the example's practice sky"
        ),
    ] = None,
    time_limit: Annotated[
        float,
        time_limit_option("Seconds for the value and the shortfalls together before 'unknown'."),
    ] = DEFAULT_EXACT_TIME_LIMIT,
    shortfall: Annotated[
        bool,
        typer.Option(help="Also: how far each heuristic falls short against perfect play."),
    ] = True,
    json_out: JsonOpt = False,
) -> None:
    """Two players, the draw order known to both: the game's value (seat 1's coins minus
    seat 2's under optimal play), an optimal line, and each heuristic's shortfall.

    Grids up to 24 tiles (4x6). Exit status 0 solved, 3 unknown within the time limit.
    Example: `asterion nacht best-play --order order.json --json`.
    """
    from asterion.models.nacht_game import describe
    from asterion.models.nacht_game_files import (
        OrderSpec,
        order_state,
        read_order,
    )
    from asterion.solver.nacht_play import (
        heuristic_shortfall,
        make_policy,
        solve_known_order,
    )
    from asterion.solver.result import Status

    if players != 2:
        raise InputError(f"the exact search takes 2 players, not {players}", source="--players")
    # no order: the example's deal, on --tileset if given, else on its practice sky
    spec = OrderSpec.model_validate(EXAMPLE_ORDER) if order is None else read_order(order)
    sky, sky_file = _order_sky(spec, order, tileset)
    state = order_state(spec, sky, str(order or "--order"), players)
    try:
        with progress_bar("searching", quiet=json_out):
            answer = solve_known_order(state, time_limit=time_limit)
    except InputError as error:  # a sky too large for the exact search: its tile set's
        # file, else (a practice sky, or the shipped one) the order file's
        raise error.located(str(sky_file or order)) from None
    shortfalls, unsettled = [], []
    if shortfall and answer.value is not None:
        # The shortfall searches share what is left of the time limit.
        deadline = time.perf_counter() + max(time_limit - answer.seconds, 0.01)
        for name in STRATEGY_NAMES:
            for seat in (0, 1):
                left = max(deadline - time.perf_counter(), 0.01)
                policy = make_policy(name)
                found = heuristic_shortfall(
                    state, policy, seat, optimal=answer.value, time_limit=left
                )
                if found is not None:
                    shortfalls.append(found)
                else:
                    unsettled.append(f"{name} in seat {seat + 1}")
    if json_out:
        document = answer.to_data()
        document["shortfalls"] = [s.to_data() for s in shortfalls]
        document["shortfalls_unsettled"] = unsettled
        print_json(document)
    else:
        console.print(
            f"{sky.width}x{sky.height} sky, 2 players, known order: {answer.status.value} "
            f"({answer.seconds:.2f} s, {answer.nodes} nodes, {answer.table_size} positions)"
        )
        if answer.value is not None and answer.final_coins is not None:
            first, second = answer.final_coins
            console.print(f"value {answer.value:+d}: final coins {first} to {second}")
            console.print("an optimal line (player: move):")
            for player, move in answer.line:
                console.print(f"  {player + 1}: {describe(move, sky)}")
        for s in shortfalls:
            console.print(
                f"{s.name:<10} in seat {s.seat + 1}: guarantees {s.guaranteed:+d}, optimal "
                f"{s.optimal:+d}, short by {s.shortfall}"
            )
        if unsettled:
            console.print(f"shortfall not settled within the time limit: {', '.join(unsettled)}")
    finish(YES if answer.status is Status.OPTIMAL else UNKNOWN)


@app.command("review")
@reports_input_errors
def review_command(
    game: Annotated[
        Path | None,
        record_argument(
            "A played game (nacht-game/1: a draw order file's fields and the moves; "
            "default: greedy against denial on best-play's example deal)."
        ),
    ] = None,
    tileset: Annotated[
        Path | None, _tileset_option("the record's tile set or practice sky, else the shipped sky")
    ] = None,
    time_limit: Annotated[
        float, time_limit_option("Seconds for the whole review before 'unknown'.")
    ] = DEFAULT_EXACT_TIME_LIMIT,
    json_out: JsonOpt = False,
) -> None:
    """A post-mortem of a two-player game, the draw order known once it is over: each
    move's loss against perfect play (best-play's exact search) and the best move there.

    Grids up to 24 tiles (4x6). Exit status 0 when every loss is known, 3 when the time
    limit struck first. Example: `asterion nacht review game.json --json`.
    """
    from asterion.models.nacht_game_files import order_state
    from asterion.models.nacht_record import DEMO_GAME, demo_game, read_game, replay
    from asterion.solver.nacht_review import review_known_order

    source = str(game) if game is not None else DEMO_GAME
    spec = demo_game() if game is None else read_game(game)
    sky, sky_file = _order_sky(spec, game, tileset)
    states, moves = replay(order_state(spec, sky, source), spec.moves, source)
    try:
        with progress_bar("positions searched", quiet=json_out) as progress:
            answer = review_known_order(states, moves, time_limit=time_limit, progress=progress)
    except InputError as error:  # a sky too large for the exact search
        raise error.located(str(sky_file or source)) from None
    if json_out:
        print_json(answer.to_json())
    else:
        _print_nacht_review(answer, source)
    finish(YES if answer.decided else UNKNOWN)


def _print_nacht_review(answer: NachtReview, source: str) -> None:
    console.print(
        f"{source}: {counted(len(answer.moves), 'move')}, each against perfect play with the "
        "draw order known (hindsight: the players did not know it)"
    )
    for m in answer.moves:
        shortfall = "?" if m.lost is None else str(m.lost)
        better = f"; best: {m.best}" if m.lost and m.best else ""
        who = f"player {m.player + 1}"
        console.print(f"  {m.index + 1:>3}. {who}: {m.played:<12} lost {shortfall}{better}")
    first, last = answer.moves[0] if answer.moves else None, answer.final_coins
    if first is not None and first.value_before is not None:
        console.print(f"perfect play from the start: {first.value_before:+d} (seat 1 minus seat 2)")
    console.print(f"played: final coins {' to '.join(str(c) for c in last)}")
    for player in (0, 1):
        lost, unknown = answer.lost_by(player)
        open_ = f" ({counted(unknown, 'move')} unknown)" if unknown else ""
        console.print(f"player {player + 1} lost {counted(lost, 'coin')} of margin{open_}")


@app.command("advise")
@reports_input_errors
def advise_command(
    state_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="STATE",
            help="A position (nacht-state/1; default: docs/nacht.md's example on the shipped "
            "sky, player 1 to lay or decline T16).",
        ),
    ] = None,
    samples: Annotated[int, typer.Option(min=2, help="Reshuffled piles per move.")] = (
        DEFAULT_SAMPLES
    ),
    seed: Annotated[int, typer.Option(help="Seed of the reshuffled piles.")] = 0,
    rollout: Annotated[str, typer.Option(help="Strategy playing every seat after.")] = "greedy",
    tileset: Annotated[
        Path | None, _tileset_option("the state file's own, else the shipped sky")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Each legal move's expected final coins and margin over reshuffled piles, with 95%
    intervals; for a fitting drawn tile, what declining is worth against laying it.
    """
    from asterion.models.nacht_game import describe
    from asterion.models.nacht_game_files import (
        StateSpec,
        read_state,
        spec_state,
        tileset_path,
    )
    from asterion.solver.nacht_play import advise, make_policy

    with typed_as("--rollout"):
        make_policy(rollout)
    if state_file is None:
        if tileset is not None:
            problem = "give a STATE too: the default position is on the shipped sky"
            raise InputError(problem, source="--tileset")
        spec = StateSpec.model_validate(EXAMPLE_POSITION)
        sky = _sky(None)
    else:
        spec = read_state(state_file)
        sky = _sky(tileset, tileset_path(spec.tileset, state_file), state_file)
    state = spec_state(spec, sky, str(state_file or "STATE"))
    with progress_bar("sampling", quiet=json_out) as progress:
        advice = advise(state, samples=samples, seed=seed, rollout=rollout, progress=progress)
    if json_out:
        print_json(advice.to_data())
        return
    console.print(
        f"player {advice.player + 1} to move; {samples} reshuffled piles, {rollout} rollouts; "
        "final coins and margin over the best opponent (95% intervals):"
    )
    for m in advice.moves:
        console.print(
            f"  {describe(m.move, sky):<22} coins {m.coins:6.2f} "
            f"[{m.coins_ci[0]:6.2f}, {m.coins_ci[1]:6.2f}]  margin {m.margin:+6.2f} "
            f"[{m.margin_ci[0]:+6.2f}, {m.margin_ci[1]:+6.2f}]"
        )
    if advice.decline_minus_lay is not None:
        mean, low, high = advice.decline_minus_lay
        console.print(f"declining instead of laying: {mean:+.2f} margin [{low:+.2f}, {high:+.2f}]")
