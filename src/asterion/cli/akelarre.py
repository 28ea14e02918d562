"""``asterion akelarre …``: turn equilibria, objective plans, balance reports, one game.

Every command takes the shipped tables unless given the user's own files (``--payouts``,
``--supply``, ``--objectives``, ``--powers``); see ``models/akelarre_files.py`` for the
formats.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from asterion.cli._common import (
    NO,
    UNKNOWN,
    YES,
    SvgOpt,
    console,
    finish,
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
from asterion.models.akelarre import (
    ELEMENTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    AkelarreRules,
    AkelarreState,
    Decider,
    Destination,
    Message,
    TurnReport,
    destination_name,
    first_chooser,
    outcome,
    parse_destination,
)
from asterion.models.akelarre_files import (
    MAX_AMOUNT,
    build_rules,
    check_players,
    load_objectives,
    load_payouts,
    load_powers,
    load_supply,
    state_from_data,
)
from asterion.models.akelarre_record import record_data, record_players
from asterion.models.files import read_json_file
from asterion.render.akelarre_svg import bars_svg
from asterion.render.svg import write_svg
from asterion.render.words import counted
from asterion.solver.akelarre_balance import (
    METRIC_DEFINITIONS,
    BalanceReport,
    deal_seed,
    make_policy,
    play_game,
    selfplay,
)
from asterion.solver.akelarre_equilibria import (
    advise,
    mixed_equilibria_2p,
    mixed_equilibria_3p,
    pure_equilibria,
    turn_game,
)
from asterion.solver.akelarre_plan import PlanInstance, plan_cp_sat, plan_search
from asterion.solver.akelarre_review import AkelarreReview

app = typer.Typer(
    help="Akelarre: message chains, rites and objectives for 2-5 Sorginak.", no_args_is_help=True
)

JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document instead of a summary.")
]
PlayersOpt = Annotated[
    int, typer.Option("--players", min=MIN_PLAYERS, max=MAX_PLAYERS, help="Players, 2-5.")
]
DEFAULT_PLAYERS = 3
PositionPlayersOpt = Annotated[
    int | None,
    typer.Option(
        "--players",
        min=MIN_PLAYERS,
        max=MAX_PLAYERS,
        show_default=False,
        help="Players, 2-5 [default: the position file's, else 3].",
    ),
]
StateOpt = Annotated[
    Path | None,
    typer.Option("--state", metavar="FILE", help="A position file (default: a seeded deal)."),
]
PayoutsOpt = Annotated[
    Path | None,
    typer.Option("--payouts", metavar="FILE", help="A payout table file (default: the seed's)."),
]
SupplyOpt = Annotated[
    Path | None,
    typer.Option("--supply", metavar="FILE", help="Resources per location by player count (K2)."),
]
ObjectivesOpt = Annotated[
    Path | None, typer.Option("--objectives", metavar="FILE", help="Objective cards (K3).")
]
PowersOpt = Annotated[
    Path | None, typer.Option("--powers", metavar="FILE", help="Power cards (K3).")
]
SabbaOpt = Annotated[
    int,
    typer.Option("--sabba-bonus", min=0, max=MAX_AMOUNT, help="K4: extra resources when alone."),
]
SeedOpt = Annotated[int, typer.Option(help="Seed: the same seed, the same answer.")]


def _rules(
    players: int,
    payouts: Path | None,
    supply: Path | None,
    objectives: Path | None,
    powers: Path | None,
    sabba_bonus: int,
) -> AkelarreRules:
    return build_rules(
        players,
        payouts=load_payouts(payouts) if payouts else None,
        supply=load_supply(supply) if supply else None,
        objectives=load_objectives(objectives) if objectives else None,
        powers=load_powers(powers) if powers else None,
        sabba_bonus=sabba_bonus,
        source=str(payouts) if payouts else "payouts",
        supply_source=str(supply) if supply else "supply",
    )


@contextmanager
def _blaming(path: Path | None, field: str) -> Iterator[None]:
    """Errors about ``field`` found later (a deal short of objective cards, a position in the
    middle of a turn) name the user's file it came from."""
    try:
        yield
    except InputError as error:
        if path is None or error.field != field:
            raise
        raise error.located(str(path)) from None


@contextmanager
def _plan_options() -> Iterator[None]:
    """Errors about :meth:`PlanInstance.start`'s arguments name the options they came from."""
    with (
        typed_as("--goals", "objectives"),
        typed_as("--seat", "seat"),
        typed_as("--first", "first"),
        typed_as("--others", "others"),
    ):
        yield


def _or_default(players: int | None) -> int:
    """``--players`` as given, else the default (when no position file says otherwise)."""
    return DEFAULT_PLAYERS if players is None else players


def _position(
    state_file: Path | None, players: int | None, seed: int, tables: tuple[Any, ...]
) -> AkelarreState:
    """The position file's, or a seeded deal; ``--players``, if given, must agree with the
    file's count."""
    if state_file is None:
        with _blaming(tables[2], "objectives"):
            return AkelarreState.new_game(_rules(_or_default(players), *tables), seed=seed, first=0)
    data = read_json_file(state_file)
    counted = data.get("players") if isinstance(data, dict) else None
    if isinstance(counted, int) and 2 <= counted <= 5:
        state = state_from_data(data, str(state_file), _rules(counted, *tables))
    else:
        state = state_from_data(data, str(state_file))
    if players is not None and players != state.rules.players:
        raise InputError(
            f"{players} players, but the position in {state_file} has {state.rules.players}",
            source="--players",
        )
    return state


# -- equilibria ----------------------------------------------------------------------------------


@app.command()
@reports_input_errors
def equilibria(
    players: PositionPlayersOpt = None,
    state_file: StateOpt = None,
    seed: SeedOpt = 0,
    time_limit: Annotated[
        float, time_limit_option("Seconds for the 3-player mixed search.")
    ] = 20.0,
    max_support: Annotated[
        int, typer.Option(min=1, max=5, help="3 players: largest support searched per player.")
    ] = 2,
    payouts: PayoutsOpt = None,
    supply: SupplyOpt = None,
    objectives: ObjectivesOpt = None,
    powers: PowersOpt = None,
    sabba_bonus: SabbaOpt = 1,
    json_out: JsonOpt = False,
) -> None:
    """One turn's destination choice as a game: exact payoffs (gain in objective progress),
    every pure Nash equilibrium, and mixed equilibria for 2 players (support enumeration)
    and 3 players (supports of up to --max-support destinations each). When the position file has a
    chain in progress, also the best responses of the seat choosing now, given what it was
    told (the rest equally likely).

    Exit status 0; 3 when the 3-player mixed search ran out of time and found nothing.
    """
    tables = (payouts, supply, objectives, powers, sabba_bonus)
    state = _position(state_file, players, seed, tables)
    advice = None if not state.chain or state.is_virtual(state.holder) else advise(state)
    game = turn_game(replace(state, chain=(), holder=first_chooser(state)))
    pure = pure_equilibria(game)
    mixed: list[dict[str, Any]] = []
    search_status = "not attempted (4 or more players)"
    if len(game.players) == 2:
        mixed = [_mixed_data(e) for e in mixed_equilibria_2p(game) if not e.is_pure]
        search_status = "complete (every pair of equal-size supports solved)"
    elif len(game.players) == 3:
        search = mixed_equilibria_3p(game, max_support=max_support, time_limit=time_limit)
        mixed = [_mixed_data(e) for e in search.equilibria if not e.is_pure]
        search_status = (
            f"complete (supports of up to {max_support})"
            if search.status.value == "optimal"
            else f"time limit: {search.supports_examined} of {search.supports_total} supports"
        )
    document: dict[str, Any] = {
        "players": state.rules.players,
        "turn": state.turn,
        "pure": [
            {
                "destinations": [destination_name(d) for d in profile],
                "payoffs": [str(v) for v in game.payoff(profile)],
            }
            for profile in pure
        ],
        "mixed": mixed,
        "mixed_search": search_status,
    }
    if advice is not None:
        document["advice"] = {
            "seat": advice.seat,
            "told": {str(s): destination_name(d) for s, d in sorted(advice.known.items())},
            "expected": {destination_name(d): str(v) for d, v in advice.values.items()},
            "best": [destination_name(d) for d in advice.best],
        }
    incomplete = search_status.startswith("time limit")
    if json_out:
        print_json(document)
    else:
        console.print(
            f"turn {state.turn}, {state.rules.players} players: {len(game.profiles)} profiles, "
            f"{counted(len(pure), 'pure equilibrium', 'pure equilibria')}"
        )
        for entry in document["pure"]:
            console.print(
                f"  {' '.join(f'{d:<6}' for d in entry['destinations'])}  payoffs "
                f"{', '.join(entry['payoffs'])}"
            )
        console.print(f"mixed (not pure): {len(mixed)}; search {search_status}")
        for entry in mixed:
            for seat, strategy in enumerate(entry["strategies"]):
                mix = ", ".join(f"{d} {p}" for d, p in strategy.items() if p != "0")
                console.print(f"  seat {seat}: {mix}")
            console.print(f"  payoffs {', '.join(entry['payoffs'])}")
        if advice is not None:
            told = ", ".join(
                f"seat {s} {destination_name(d)}" for s, d in sorted(advice.known.items())
            )
            console.print(f"seat {advice.seat} to choose, told: {told or 'nothing'}")
            for d, value in advice.values.items():
                mark = "  best" if d in advice.best else ""
                console.print(f"  {destination_name(d):<6} expected gain {value}{mark}")
    finish(UNKNOWN if incomplete and not pure and not mixed else YES)


def _mixed_data(equilibrium: Any) -> dict[str, Any]:
    return {
        "strategies": [
            {destination_name(d): str(p) for d, p in enumerate(strategy)}
            for strategy in equilibrium.strategies
        ],
        "payoffs": [str(v) for v in equilibrium.values],
    }


# -- plan ----------------------------------------------------------------------------------------


def _schedules(text: str) -> tuple[tuple[Destination, ...], ...]:
    """``earth,water/fire`` → one schedule per other seat, each cycled turn by turn."""
    with typed_as("--others"):
        return tuple(
            tuple(parse_destination(name.strip()) for name in part.split("/"))
            for part in text.split(",")
        )


@app.command()
@reports_input_errors
def plan(
    objectives_list: Annotated[
        str,
        typer.Option("--goals", help="Objective ids to complete in order, comma-separated."),
    ] = "O13",
    others: Annotated[
        str,
        typer.Option(
            help="Destinations of the other seats in seat order, comma-separated; "
            "a seat's list cycles turn by turn, its entries separated by '/'. A seat "
            "scheduled for the Well declares it: the planner goes elsewhere that turn."
        ),
    ] = "earth,water",
    players: PositionPlayersOpt = None,
    seat: Annotated[int, typer.Option(help="The planner's seat.")] = 0,
    first: Annotated[int, typer.Option(help="The first player on the first turn.")] = 0,
    state_file: StateOpt = None,
    method: Annotated[str, typer.Option(help="cp-sat or search.")] = "cp-sat",
    time_limit: Annotated[
        float, time_limit_option("Seconds before answering unknown (exit 3).")
    ] = 10.0,
    payouts: PayoutsOpt = None,
    supply: SupplyOpt = None,
    objectives: ObjectivesOpt = None,
    powers: PowersOpt = None,
    sabba_bonus: SabbaOpt = 1,
    json_out: JsonOpt = False,
) -> None:
    """The fewest turns for one seat to complete objectives in order while the others follow
    a schedule (they collect but complete nothing); the plan is replayed by the rules engine.

    Example: `asterion akelarre plan --players 3 --goals O13,O01 --others earth,water/fire`.
    Exit status 0 planned, 1 impossible within the game's turns, 3 unknown in the time limit.
    """
    if method not in ("cp-sat", "search"):
        raise InputError(
            f"unknown method {method!r} (expected cp-sat or search)", source="--method"
        )
    tables = (payouts, supply, objectives, powers, sabba_bonus)
    base = None if state_file is None else _position(state_file, players, 0, tables)
    rules = base.rules if base is not None else _rules(_or_default(players), *tables)
    with _blaming(state_file, "chain"), _plan_options():
        instance = PlanInstance.start(
            rules,
            seat=seat,
            objectives=[o.strip() for o in objectives_list.split(",") if o.strip()],
            others=_schedules(others),
            first=base.first if base is not None else first,
            base=base,
        )
    answer = (
        plan_cp_sat(instance, time_limit=time_limit)
        if method == "cp-sat"
        else plan_search(instance, time_limit=time_limit)
    )
    if json_out:
        print_json(answer.to_data())
    else:
        goals = ", ".join(str(rules.objective(o)) for o in instance.objectives)
        console.print(f"seat {seat} completes {goals}")
        if answer.turns is None:
            console.print(f"{answer.status.value}: no plan ({answer.method})")
        else:
            console.print(
                f"{answer.status.value} ({answer.method}, {answer.wall_time:.2f} s): "
                f"{answer.turns} turns"
            )
            for t, destination in enumerate(answer.plan):
                console.print(f"  turn {instance.state.turn + t}: {destination_name(destination)}")
    status = answer.status.value
    finish(YES if answer.turns is not None else NO if status == "infeasible" else UNKNOWN)


# -- balance -------------------------------------------------------------------------------------


def _policies(text: str, players: int) -> list[str]:
    check_players(players)  # before a name is copied for each player
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) == 1:
        names *= players
    for name in names:
        try:
            make_policy(name)
        except InputError as error:
            raise error.located("--policies") from None
    if len(names) != players:
        raise InputError(
            f"takes one name for everyone or one per player ({players}), not {len(names)}",
            source="--policies",
        )
    return names


@app.command()
@reports_input_errors
def balance(
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 100,
    players: PlayersOpt = 4,
    policies: Annotated[
        str, typer.Option(help="random, greedy or equilibrium: one for all or one per player.")
    ] = "greedy",
    seed: SeedOpt = 0,
    payouts: PayoutsOpt = None,
    supply: SupplyOpt = None,
    objectives: ObjectivesOpt = None,
    powers: PowersOpt = None,
    sabba_bonus: SabbaOpt = 1,
    out: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Write report.json, report.md and SVG plots here."),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Seeded self-play over many games: win rates by turn-order position and by policy,
    and the playout metrics (each defined in the report). With --payouts the same games are
    also played with the shipped table, side by side.
    """
    names = _policies(policies, players)
    tables = (payouts, supply, objectives, powers, sabba_bonus)
    variants: dict[str, AkelarreRules] = {}
    if payouts is not None:
        variants["shipped"] = _rules(players, None, supply, objectives, powers, sabba_bonus)
    label = "shipped" if payouts is None else payouts.name
    if label in variants:  # a file named "shipped": both tables are still reported, apart
        label += " (file)"
    variants[label] = _rules(players, *tables)
    reports: dict[str, BalanceReport] = {}
    for label, rules in variants.items():
        with (
            progress_bar(f"playing ({label})", quiet=json_out) as progress,
            _blaming(objectives, "objectives"),
        ):
            reports[label] = selfplay(rules, names, games, seed, progress=progress)
    document = {label: report.to_data() for label, report in reports.items()}
    if out is not None:
        _write_balance(out, reports)
    if json_out:
        print_json(document)
        return
    labels = list(reports)
    console.print(f"{games} games, {players} players, policies {', '.join(names)}, seed {seed}")
    console.print(f"{'metric':<24}" + "".join(f"{label:>16}" for label in labels))
    rows = [
        (f"win rate, position {k + 1}", [r.position_win_rates[k] for r in reports.values()])
        for k in range(players)
    ]
    rows += [(name, [r.metrics[name] for r in reports.values()]) for name in METRIC_DEFINITIONS]
    for name, values in rows:
        console.print(f"{name:<24}" + "".join(f"{v:>16.3f}" for v in values))
    for report in reports.values():
        if len(report.policy_win_rates) > 1:
            rates = ", ".join(f"{k} {v:.3f}" for k, v in report.policy_win_rates.items())
            console.print(f"win rate per seat played: {rates}")
    console.print("definitions:")
    for name, definition in METRIC_DEFINITIONS.items():
        console.print(f"  {name}: {definition}")
    if out is not None:
        console.print(f"report and plots: {out}")


def _write_balance(out: Path, reports: dict[str, BalanceReport]) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create the folder: {error.strerror}", source=str(out)) from None
    data = {label: report.to_data() for label, report in reports.items()}
    (out / "report.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    first = next(iter(reports.values()))
    positions = [str(k + 1) for k in range(first.players)]
    write_svg(
        out / "win-rates.svg",
        bars_svg(
            {label: list(r.position_win_rates) for label, r in reports.items()},
            positions,
            title="Win rate by turn-order position",
            y_label="share of games won",
        ),
    )
    shown = ["completion", "well_yield", "alone_yield", "company_yield"]
    write_svg(
        out / "yields.svg",
        bars_svg(
            {label: [r.metrics[m] for m in shown] for label, r in reports.items()},
            shown,
            title="Objectives per player and resources per rite",
        ),
    )
    lines = ["| metric | " + " | ".join(reports) + " |", "|---|" + "---|" * len(reports)]
    for name in METRIC_DEFINITIONS:
        values = " | ".join(f"{r.metrics[name]:.3f}" for r in reports.values())
        lines.append(f"| {name} | {values} |")
    lines.append("")
    lines += [f"- **{name}**: {text}" for name, text in METRIC_DEFINITIONS.items()]
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- simulate ------------------------------------------------------------------------------------


@app.command()
@reports_input_errors
def simulate(
    players: PlayersOpt = 4,
    policies: Annotated[
        str, typer.Option(help="random, greedy or equilibrium: one for all or one per player.")
    ] = "greedy",
    seed: SeedOpt = 0,
    payouts: PayoutsOpt = None,
    supply: SupplyOpt = None,
    objectives: ObjectivesOpt = None,
    powers: PowersOpt = None,
    sabba_bonus: SabbaOpt = 1,
    json_out: JsonOpt = False,
    record_out: Annotated[
        Path | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Also write the game as a record (akelarre-game/1) for `akelarre review`.",
        ),
    ] = None,
) -> None:
    """Play one seeded game and show it turn by turn: destinations, takes, objectives."""
    names = _policies(policies, players)
    rules = _rules(players, payouts, supply, objectives, powers, sabba_bonus)
    made = [make_policy(name) for name in names] + [make_policy("random")] * (rules.seats - players)
    log: list[TurnReport] = []
    chains: list[list[Message]] = []
    with _blaming(objectives, "objectives"):
        record = play_game(rules, made, seed, log=log, chains=chains)
    if record_out is not None:
        start = AkelarreState.new_game(rules, seed=deal_seed(seed))
        write_json(record_out, record_data(start, chains, seed=deal_seed(seed)))
    turns = [
        {
            "turn": report.turn,
            "destinations": [destination_name(d) for d in report.destinations],
            "well_transfer": list(report.well_transfer),
            "rites": [
                {
                    "seat": r.seat,
                    "at": destination_name(r.destination),
                    "crowd": r.crowd,
                    "sabba": r.sabba,
                    "taken": {e: n for e, n in zip(ELEMENTS, r.taken, strict=True) if n},
                    "completed": list(r.completed),
                }
                for r in report.rites
            ],
        }
        for report in log
    ]
    completed: list[list[str]] = [[] for _ in range(rules.seats)]
    for report in log:
        for rite in report.rites:
            completed[rite.seat] += rite.completed
    document: dict[str, Any] = {
        "players": players,
        "policies": names,
        "seed": seed,
        "turns": turns,
        "completed": completed[:players],
        "resources_left": list(record.resources_left),
        "powers": list(record.powers),
        "winners": list(record.winners),
        "decided_by": record.decided_by.value,
    }
    if json_out:
        print_json(document)
        return
    for report in log:
        parts = []
        for rite in report.rites:
            taken = ", ".join(f"{n} {e}" for e, n in zip(ELEMENTS, rite.taken, strict=True) if n)
            done = f" completes {', '.join(rite.completed)}" if rite.completed else ""
            alone = " (alone)" if rite.sabba else ""
            where = destination_name(rite.destination)
            parts.append(f"s{rite.seat} {where}{alone}: {taken or 'nothing'}{done}")
        console.print(f"turn {report.turn:>2}: " + "; ".join(parts))
    for seat in range(players):
        console.print(
            f"seat {seat} ({names[seat]}): "
            f"{counted(len(document['completed'][seat]), 'objective')}, "
            f"{counted(document['resources_left'][seat], 'resource')}, "
            f"{counted(document['powers'][seat], 'power')}"
        )
    winners = ", ".join(f"seat {s}" for s in record.winners)
    console.print(_verdict(winners, record.decided_by))


# -- review --------------------------------------------------------------------------------------


@app.command()
@reports_input_errors
def review(
    game: Annotated[
        Path | None,
        record_argument(
            "A played game (akelarre-game/1: the start and each turn's messages; "
            "default: the shipped example, greedy, random and equilibrium policies)."
        ),
    ] = None,
    payouts: PayoutsOpt = None,
    supply: SupplyOpt = None,
    objectives: ObjectivesOpt = None,
    powers: PowersOpt = None,
    sabba_bonus: SabbaOpt = 1,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """A post-mortem: each Sorginak's message weighed by its gain in objective progress
    (exact), against the best response to what it had been told (the others equally
    likely) and, in hindsight, against where the others really went.

    `akelarre simulate --record FILE` writes a record; a game played with other tables
    than the shipped ones needs them again (--payouts and the rest). Example:
    `asterion akelarre review game.json --json`.
    """
    from asterion.models.akelarre_record import DEMO_GAME, demo_data, record_from_data
    from asterion.solver.akelarre_review import review_game

    source = str(game) if game is not None else DEMO_GAME
    data = demo_data() if game is None else read_json_file(game)
    counted_players = record_players(data)
    tables = (payouts, supply, objectives, powers, sabba_bonus)
    rules = None if counted_players is None else _rules(counted_players, *tables)
    with _blaming(objectives, "objectives"):
        answer = review_game(record_from_data(data, source, rules))
    save_svg(svg, lambda: _losses_svg(answer), quiet=json_out)
    if json_out:
        print_json(answer.to_json())
    else:
        _print_review(answer, source)


def _print_review(answer: AkelarreReview, source: str) -> None:
    console.print(
        f"{source}: {counted(len(answer.record.turns), 'turn')}. Each message's gain in "
        "objective progress this turn, and what it lost against the best response to what "
        "the seat was told (the others equally likely) and in hindsight (the others where "
        "they went); exact values with --json"
    )
    for d in answer.decisions:
        told = ", ".join(f"s{s} {destination_name(t)}" for s, t in sorted(d.told.items()))
        console.print(
            f"  turn {d.turn:>2} seat {d.seat} (told {told or 'nothing'}): "
            f"{destination_name(d.played)}, gain {_decimal(d.gain)}; lost "
            f"{_loss(d.expected_loss, d.best_expected)} as told, "
            f"{_loss(d.hindsight_loss, d.best_hindsight)} in hindsight"
        )
    for s in answer.seats:
        console.print(
            f"seat {s.seat}: lost {_decimal(s.expected_loss)} as told ({s.off_best} of "
            f"{counted(s.decisions, 'message')} not a best response), "
            f"{_decimal(s.hindsight_loss)} in hindsight"
        )
    end = answer.record.end
    if end.is_over:
        result = outcome(end)
        winners = ", ".join(f"seat {w}" for w in result.winners)
        console.print(_verdict(winners, result.decided_by))


def _losses_svg(answer: AkelarreReview) -> str:
    """Each seat's loss as told, turn by turn (grouped bars)."""
    turns = [played.report.turn for played in answer.record.turns]
    series = {
        f"seat {seat}": [
            float(sum(d.expected_loss for d in answer.decisions if (d.turn, d.seat) == (t, seat)))
            for t in turns
        ]
        for seat in answer.record.start.players
    }
    return bars_svg(
        series,
        [str(t) for t in turns],
        title="Loss as told, by turn (objective progress)",
        y_label="loss",
    )


def _decimal(value: Fraction) -> str:
    return f"{float(value):.2f}"


def _loss(value: Fraction, best: tuple[Destination, ...]) -> str:
    """A loss, with the best destinations when it is not zero."""
    if not value:
        return "0"
    return f"{_decimal(value)} (best {'/'.join(destination_name(b) for b in best)})"


def _verdict(winners: str, decided_by: Decider) -> str:
    if decided_by is Decider.SHARED:
        return f"a shared win: {winners} (tied on objectives, resources and powers)"
    return f"winner: {winners} (by {decided_by.value})"
