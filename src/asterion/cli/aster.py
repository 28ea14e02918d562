"""``asterion aster …``: the board, the cards, positions, placements and perft."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from asterion.cli._common import (
    NO,
    UNKNOWN,
    YES,
    JsonOpt,
    SvgOpt,
    console,
    finish,
    parse_json_option,
    print_json,
    progress_bar,
    record_argument,
    reports_input_errors,
    save_svg,
    solver_seed_option,
    time_limit_option,
)
from asterion.errors import InputError
from asterion.models.aster import HOME_DIRECTIONS, AsterRules, AsterState
from asterion.models.aster_board import DEFAULT_RINGS, MAX_RINGS, MIN_RINGS, Board
from asterion.models.aster_cards import Card, Catalog, catalog_to_data, load_catalog
from asterion.models.aster_files import load_state, state_to_data
from asterion.models.aster_patterns import (
    DEFAULT_TRANSFORMS,
    Pattern,
    Placement,
    check_pattern,
    parse_transforms,
    placements,
)
from asterion.models.aster_record import DEMO_GAME, demo_record, load_record, typed
from asterion.models.sky import default_sky
from asterion.render.aster_svg import board_svg
from asterion.render.aster_text import board_text
from asterion.render.sky_svg import card_sheet_svg
from asterion.render.words import counted
from asterion.solver.aster_best_turn import best_turn
from asterion.solver.aster_catalog import CatalogReport, check_catalog
from asterion.solver.aster_perft import DEFAULT_MAX_STATES, MAX_STATES, perft
from asterion.solver.aster_perft import DEFAULT_TIME_LIMIT as PERFT_TIME_LIMIT
from asterion.solver.aster_place import ScoredPlacement, best_placement, score_placement
from asterion.solver.aster_reach import MAX_TURNS, Certificate, ReachAnswer, ReachQuestion
from asterion.solver.aster_reach_portfolio import Engine
from asterion.solver.aster_reach_portfolio import reach as reach_answer
from asterion.solver.aster_review import GameReview, TurnReview, review_game
from asterion.solver.result import DEFAULT_TIME_LIMIT, OutOfTime, Status

app = typer.Typer(
    help="Aster: stars generated, moved and destroyed on concentric squares to form "
    "constellations.",
    no_args_is_help=True,
)

# -- shared options -------------------------------------------------------------------------

RingsOpt = Annotated[
    int,
    typer.Option(
        "--rings", min=MIN_RINGS, max=MAX_RINGS, help="Concentric squares on the board (R, 2-9)."
    ),
]
CatalogOpt = Annotated[
    Path | None,
    typer.Option("--catalog", metavar="FILE", help="A card catalog JSON file (default: shipped)."),
]
StateOpt = Annotated[
    Path | None,
    typer.Option(
        "--state",
        metavar="STATE",
        help="The position, a STATE file (default: the opening of a 2-player game).",
    ),
]
TimeLimitOpt = Annotated[float, time_limit_option("Seconds before answering 'unknown'.")]
SeedOpt = Annotated[int, solver_seed_option("Solver seed (same seed, same answer).")]
StateArg = Annotated[
    Path | None,
    typer.Argument(
        metavar="STATE",
        help="A STATE JSON file (default: the opening of a 2-player game). "
        'Example: {"stars": {"2NE": "red", "C": "blue"}, "player": "red", '
        '"actions": ["generate", "move_ring"]}',
    ),
]


def _state_or_opening(path: Path | None, catalog: Catalog | None = None) -> AsterState:
    if path is None:
        return AsterState.new_game()
    return load_state(path, catalog)


# -- board ----------------------------------------------------------------------------------


def board_to_data(board: Board) -> dict[str, Any]:
    graph = board.graph
    return {
        "rings": board.rings,
        "points": [{"name": p, **graph.nodes[p]} for p in board.points],
        "edges": [{"a": a, "b": b, "kind": kind} for a, b, kind in graph.edges(data="kind")],
        "lines": [list(line) for line in board.lines],
        "generation_points": list(board.generation_points),
        "starting_points": (
            {c.value: list(board.starting_points(d)) for c, d in HOME_DIRECTIONS.items()}
            if board.rings >= 3
            else {}
        ),
    }


@app.command()
@reports_input_errors
def board(
    rings: RingsOpt = DEFAULT_RINGS,
    sides_are_lines: Annotated[
        bool, typer.Option(help="A1: count the sides of the squares as straight lines.")
    ] = False,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """The board as a graph: points, ring and line connections, straight lines."""
    the_board = Board(rings=rings, sides_are_lines=sides_are_lines)
    save_svg(svg, lambda: board_svg(the_board, title=f"Aster board, {rings} rings"), quiet=json_out)
    if json_out:
        print_json(board_to_data(the_board))
    else:
        ring_edges = sum(1 for *_, k in the_board.graph.edges(data="kind") if k == "ring")
        console.print(board_text(the_board))
        console.print(
            f"{the_board.rings} rings, {len(the_board.points)} points, "
            f"{the_board.graph.number_of_edges()} connections "
            f"({ring_edges} ring, {the_board.graph.number_of_edges() - ring_edges} line), "
            f"{len(the_board.lines)} straight lines for movement."
        )
        console.print(f"generation points: {' '.join(the_board.generation_points)}")


# -- catalog --------------------------------------------------------------------------------


@app.command()
@reports_input_errors
def catalog(catalog_file: CatalogOpt = None, json_out: JsonOpt = False, svg: SvgOpt = None) -> None:
    """The constellation cards: deck, points, actions, links, scoring effect (asymmetric
    variant), and each Big and Bang copy's astronomer side; --svg draws each pattern on a
    small board beside the real star figure it came from."""
    cards = load_catalog(catalog_file)
    save_svg(
        svg,
        lambda: card_sheet_svg(
            cards.cards, default_sky(), Board(), title=f"{len(cards.cards)} cards"
        ),
        quiet=True,
    )
    if json_out:
        print_json(catalog_to_data(cards))
        return
    table = Table(title=f"{len(cards.cards)} cards")
    for column in ("abbr", "name", "deck", "points", "actions", "links", "scoring", "astronomer"):
        table.add_column(column)
    for card in cards.cards:
        links = "".join(
            mark
            for mark, on in zip(
                "LRUD",
                (card.links.left, card.links.right, card.links.up, card.links.down),
                strict=True,
            )
            if on
        )
        table.add_row(
            card.abbr,
            card.name,
            card.deck.value,
            str(card.points),
            ", ".join(a.value for a in card.actions),
            links or "-",
            str(card.scoring) if card.scoring else "-",
            _astronomer_text(card),
        )
    console.print(table)
    if cards.provenance:
        console.print(f"source: {cards.provenance}")
    if svg is not None:
        console.print(f"picture: {svg}")


def _astronomer_text(card: Card) -> str:
    side = card.astronomer
    if side is None:
        return "-"
    return f"copy {side.copy}: {', '.join(a.value for a in side.actions)}"


# -- verify ---------------------------------------------------------------------------------


@app.command()
@reports_input_errors
def verify(
    catalog_file: CatalogOpt = None,
    rings: RingsOpt = DEFAULT_RINGS,
    transforms: Annotated[
        str,
        typer.Option(help="exact, translate, translate+rotate or translate+rotate+reflect (A8)."),
    ] = DEFAULT_TRANSFORMS.value,
    turns: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_TURNS,
            help="Also ask the reach solver, for each constellation, the fewest actions that "
            "form it from the opening within this many turns (1-3).",
        ),
    ] = None,
    time_limit: Annotated[
        float, time_limit_option("Seconds for each constellation's reach question.")
    ] = DEFAULT_TIME_LIMIT,
    json_out: JsonOpt = False,
) -> None:
    """Is the card catalog ready to print? Every constellation fits the board, and one player
    alone can form it (a plan replayed by the rules engine); base cards and decks as the
    setup needs them; cards of one shape named.

    Exit status 0 sound, 1 not (each problem listed), 2 bad input.

    Examples: `asterion aster verify`; `asterion aster verify --catalog cards.json --json`;
    `asterion aster verify --turns 2` (slower: a reach question per card).
    """

    cards = load_catalog(catalog_file)
    rules = AsterRules(
        board=Board(rings=rings), catalog=cards, transforms=parse_transforms(transforms)
    )
    with progress_bar("reach questions", quiet=json_out or turns is None) as progress:
        report = check_catalog(rules, reach_turns=turns, time_limit=time_limit, progress=progress)
    if json_out:
        print_json(report.to_json())
    else:
        _print_catalog_report(report, catalog_file, rules)
    finish(YES if report.sound else NO)


def _print_catalog_report(report: CatalogReport, source: Path | None, rules: AsterRules) -> None:
    checks = report.cards
    alone = [c.witness_turns for c in checks if c.witness_turns is not None]
    console.print(
        f"{source or 'the shipped catalog'}: {counted(len(checks), 'constellation')} on a board "
        f"of {rules.board.rings} rings, transforms {rules.transforms.value}"
    )
    verdict = "SOUND" if report.sound else "NOT SOUND"
    within = f" within {max(alone)} turns" if alone else ""
    console.print(
        f"{verdict}: {len(alone)} of {len(checks)} formed by one player alone{within}, "
        "each plan replayed by the rules engine"
    )
    for kind, findings in (("problem", report.problems), ("warning", report.warnings)):
        for finding in findings:
            console.print(f"  {kind} [{finding.code}] {finding.message}")
    table = Table()
    for column in ("abbr", "deck", "stars", "placements", "formed alone within"):
        table.add_column(column)
    if report.reach_turns is not None:
        table.add_column(f"fewest actions in {counted(report.reach_turns, 'turn')}")
    for check in checks:
        row = [check.card.abbr, check.card.deck.value, str(check.card.stars)]
        row += [str(check.placements), _turns_text(check.witness_turns)]
        if report.reach_turns is not None:
            row.append(_reach_text(check.reach))
        table.add_row(*row)
    console.print(table)


def _turns_text(turns: int | None) -> str:
    if turns is None:
        return "-"
    return "present" if turns == 0 else counted(turns, "turn")


def _reach_text(answer: ReachAnswer | None) -> str:
    if answer is None:
        return "-"
    if answer.min_actions is not None:
        return str(answer.min_actions)
    return "not within" if answer.status is Status.INFEASIBLE else answer.status.value


# -- show -----------------------------------------------------------------------------------


@app.command()
@reports_input_errors
def show(state_file: StateArg = None, json_out: JsonOpt = False, svg: SvgOpt = None) -> None:
    """A position: the board with its stars, reserves, VP and the action list."""
    state = _state_or_opening(state_file)
    save_svg(
        svg,
        lambda: board_svg(
            state.board, stars=state.star_map(), title=f"{state.player.value} to play"
        ),
        quiet=json_out,
    )
    if json_out:
        print_json(state_to_data(state))
    else:
        console.print(board_text(state.board, state.star_map()))
        for color in state.players:
            marker = "*" if color is state.player else " "
            console.print(
                f"{marker} {color.value:<6} stars {len(state.stars_of(color)):>2}  "
                f"reserve {state.reserve_of(color):>2}  VP {state.vp_of(color):>3}  "
                f"row {' '.join(state.row_of(color)) or '-'}"
            )
        slots = [
            f"[{a.value}]" if i == state.next_slot else a.value for i, a in enumerate(state.actions)
        ]
        console.print(f"actions: {' '.join(slots) or '(none)'}")
        if state.offer:
            console.print(f"offer: {' '.join(state.offer)}")


# -- place ----------------------------------------------------------------------------------


def _resolve_pattern(
    abbr: str | None,
    pattern_json: str | None,
    cards: Catalog,
    board: Board,
    named_by: str | None = None,
    *,
    any_size: bool = False,
) -> tuple[str, Pattern]:
    """The pattern to place: a card's, or a JSON one; ``named_by``, the option that names the
    card (errors say it); ``any_size`` as :func:`check_pattern` takes it."""
    if (abbr is None) == (pattern_json is None):
        by_name = f"{named_by} ABBR" if named_by else "a card's ABBR"
        raise InputError(f"give either {by_name} or --pattern JSON, not both or neither")
    if pattern_json is not None:
        data = parse_json_option(pattern_json, "--pattern")
        if not isinstance(data, list):
            raise InputError("expected a JSON list of [x, y] points", source="--pattern")
        try:
            return "pattern", check_pattern(data, board, any_size=any_size)
        except InputError as error:
            raise error.located("--pattern") from None
    assert abbr is not None
    try:
        card = cards[abbr]
    except InputError as error:
        raise (error.located(named_by) if named_by else error) from None
    if not card.pattern:
        raise InputError(f"{abbr} is a base card: it has no pattern to place", source=named_by)
    try:
        return f"{card.abbr} ({card.name})", check_pattern(card.pattern, board, any_size=any_size)
    except InputError as error:
        raise InputError(f"{abbr}: {error.problem}") from None


def _placement_row(
    board: Board, placement: Placement, scored: ScoredPlacement | None
) -> dict[str, Any]:
    return {
        "points": sorted(placement),
        "present": None if scored is None else not scored.missing,
        "missing": [] if scored is None else sorted(scored.missing),
    }


@app.command()
@reports_input_errors
def place(
    abbr: Annotated[
        str | None, typer.Argument(metavar="ABBR", help="A card's abbreviation, e.g. Cru.")
    ] = None,
    pattern: Annotated[
        str | None,
        typer.Option(
            metavar="JSON",
            help="A pattern as a JSON list of \\[x, y] lattice points, e.g. '\\[\\[0,0],\\[1,0]]'.",
        ),
    ] = None,
    state_file: Annotated[
        Path | None,
        typer.Option("--state", metavar="STATE", help="Say which placements are present here."),
    ] = None,
    transforms: Annotated[
        str | None,
        typer.Option(
            help="exact, translate, translate+rotate or translate+rotate+reflect "
            "(default: the state's, else translate+rotate+reflect: A8).",
        ),
    ] = None,
    rings: Annotated[
        int | None,
        typer.Option(
            "--rings",
            min=MIN_RINGS,
            max=MAX_RINGS,
            help=f"Concentric squares on the board (R, 2-9; default: the state's, else "
            f"{DEFAULT_RINGS}).",
        ),
    ] = None,
    catalog_file: CatalogOpt = None,
    time_limit: Annotated[
        float, time_limit_option("Seconds for the CP-SAT best placement.")
    ] = DEFAULT_TIME_LIMIT,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """Every placement of a constellation; with --state, which are present and what each lacks.

    Exit status 0 if the pattern fits the board (with --state: if it is present), else 1.

    Examples: `asterion aster place Cru`;
    `asterion aster place --pattern '[[0,0],[1,0]]' --transforms translate --json`;
    `asterion aster place Ori --state position.json --svg orion.svg`.
    """
    cards = load_catalog(catalog_file)
    state = load_state(state_file, cards) if state_file is not None else None
    if state is not None and rings is not None and rings != state.board.rings:
        raise InputError(
            f"{rings} rings, but the state's board has {state.board.rings}", source="--rings"
        )
    board_ = state.board if state is not None else Board(rings=rings or DEFAULT_RINGS)
    group = parse_transforms(transforms) if transforms else None
    if group is None:
        group = (
            state.rules.transforms
            if state is not None
            else parse_transforms("translate+rotate+reflect")
        )
    # a pattern larger than the board is answered (no placement: exit 1), not refused
    label, shape = _resolve_pattern(abbr, pattern, cards, board_, any_size=True)
    found = placements(board_, shape, group)
    scored = {pl: score_placement(state, pl) for pl in found} if state is not None else {}
    if state is not None:
        found.sort(key=lambda pl: scored[pl].sort_key(board_))
    rows = [_placement_row(board_, pl, scored.get(pl)) for pl in found]
    best = best_placement(state, shape, group, time_limit=time_limit) if state and found else None
    highlight = best.value if best is not None and best.value is not None else None
    first = found[0] if found else frozenset()
    save_svg(
        svg,
        lambda: board_svg(
            board_,
            stars=state.star_map() if state else {},
            highlight=highlight.points if highlight else first,
            missing=highlight.missing if highlight else (),
            title=f"{label}: {counted(len(found), 'placement')}",
        ),
        quiet=json_out,
    )
    if json_out:
        print_json({"count": len(found), "placements": rows})
    else:
        _print_placements(label, group.value, rows, best)
    answered_yes = any(row["present"] for row in rows) if state is not None else bool(found)
    finish(YES if answered_yes else NO)


def _print_placements(label: str, group: str, rows: list[dict[str, Any]], best: Any) -> None:
    console.print(f"{label}: {counted(len(rows), 'placement')} under {group}")
    shown = rows[:20]
    for row in shown:
        status = ""
        if row["present"] is not None:
            status = "present" if row["present"] else f"missing {' '.join(row['missing'])}"
        console.print(f"  {' '.join(row['points']):<40} {status}")
    if len(rows) > len(shown):
        console.print(f"  … and {len(rows) - len(shown)} more (--json lists all)")
    if best is not None:
        if best.value is None:
            console.print(f"best placement: {best.status.value} within the time limit")
        else:
            value = best.value
            console.print(
                f"best placement ({best.status.value}, CP-SAT, {best.wall_time * 1000:.0f} ms, "
                f"checked against the enumeration): {' '.join(sorted(value.points))}: "
                f"{len(value.missing)} missing, {counted(value.own, 'own star')}"
            )


# -- perft ----------------------------------------------------------------------------------


@app.command("perft")
@reports_input_errors
def perft_command(
    state_file: StateArg = None,
    max_states: Annotated[
        int,
        typer.Option(
            min=1,
            max=MAX_STATES,
            help="Refuse positions that need more search states than this (some 13,000 a second).",
        ),
    ] = DEFAULT_MAX_STATES,
    time_limit: Annotated[
        float, time_limit_option("Seconds of counting before giving up (exit 3).")
    ] = PERFT_TIME_LIMIT,
    json_out: JsonOpt = False,
) -> None:
    """Count the distinct boards the active player's action list can reach this turn.

    Each slot is used or skipped, in order; a board reached with different numbers of actions
    counts under the smallest. Exit status 0 counted, 3 not done within the time limit (one
    line on stderr; with --json, both fields null), 2 bad input or too many states.

    Example: `asterion aster perft position.json --json` prints
    {"boards": N, "by_actions": {"0": 1, "1": n1, ...}}.
    """
    state = _state_or_opening(state_file)
    with console.status("perft: counting boards …") as status:
        try:
            result = perft(
                state,
                max_states=max_states,
                time_limit=time_limit,
                on_layer=lambda used, boards: status.update(
                    f"perft: {boards} boards within {used} actions …"
                ),
            )
        except InputError as error:  # (too many states for the file's action list)
            raise error.located(str(state_file)) if state_file else error from None
        except OutOfTime:
            print(
                f"asterion: perft: not done within --time-limit {time_limit:g} s; a longer"
                " limit or a shorter action list may do",
                file=sys.stderr,
            )
            if json_out:  # the same keys, unknown: never a count that looks like an answer
                print_json({"boards": None, "by_actions": None})
            raise typer.Exit(UNKNOWN) from None
    if json_out:
        print_json(result.to_json())
        return
    actions = " ".join(a.value for a in state.actions[state.next_slot :]) or "(none)"
    console.print(f"{state.player.value} with {actions}: {result.boards} distinct boards")
    for used, count in result.by_actions.items():
        console.print(f"  {used} action{'s' if used != 1 else ' '}: {count}")


# -- reach and best-turn ---------------------------------------------------------------------


ENGINES: dict[str, Engine] = {"auto": "auto", "cp-sat": "cp-sat", "search": "search"}
POSITION_FIELDS = ("actions", "over", "offer")
"""Fields of a state file that a question can find unfit to ask (errors then name the file)."""


def _plan_picture(certificate: Certificate, title: str) -> str:
    from asterion.render.aster_plan import plan_frames
    from asterion.render.aster_svg import plan_svg

    return plan_svg(certificate.final.board, plan_frames(certificate), title=title)


def describe_plan_item(item: dict[str, object]) -> str:
    """``generate at C (destroys blue)``, ``move_line 2NE -> 4NE``, ``supernova``."""
    text = str(item["action"])
    if "point" in item:
        text += f" at {item['point']}"
        if item.get("destroyed"):
            text += f" (destroys {item['destroyed']})"
    if "from" in item:
        text += f" {item['from']} -> {item['to']}"
    return text


def _print_plan(certificate: Certificate) -> None:
    for number, item in enumerate(certificate.plan_json(), start=1):
        console.print(f"  {number}. turn {item['turn']}: {describe_plan_item(item)}")
    console.print(f"  target formed on {' '.join(sorted(certificate.placement))}")


@app.command()
@reports_input_errors
def reach(
    state_file: StateOpt = None,
    target: Annotated[str | None, typer.Option(metavar="ABBR", help="A card to form.")] = None,
    pattern: Annotated[
        str | None, typer.Option(metavar="JSON", help="Or a pattern: a JSON list of \\[x, y].")
    ] = None,
    turns: Annotated[
        int, typer.Option(help=f"Turns of the same action list, others passing (1-{MAX_TURNS}).")
    ] = 1,
    own_stars_only: Annotated[
        bool, typer.Option(help="Form it with the player's own stars only (obsolete variant).")
    ] = False,
    engine: Annotated[
        str, typer.Option(help="auto (picks per instance), cp-sat or search.")
    ] = "auto",
    time_limit: TimeLimitOpt = DEFAULT_TIME_LIMIT,
    seed: SeedOpt = 0,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """Can the active player form a constellation, and in how few actions?

    The plan is replayed by the rules engine before it is printed. Exit status 0 reachable,
    1 proved unreachable, 3 unknown within the time limit.

    Example: `asterion aster reach --state position.json --target Cru --turns 2 --json`.
    """
    state = _state_or_opening(state_file)
    if engine not in ENGINES:
        raise InputError(
            f"unknown engine {engine!r} (expected auto, cp-sat or search)", source="--engine"
        )
    label, shape = _resolve_pattern(target, pattern, state.rules.catalog, state.board, "--target")
    try:
        question = ReachQuestion.build(state, shape, turns=turns, own_stars_only=own_stars_only)
    except InputError as error:  # the position's (its action list, a game over) or --turns
        raise _blamed(error, state_file, "--turns") from None
    answer = reach_answer(question, engine=ENGINES[engine], time_limit=time_limit, seed=seed)
    certificate = answer.certificate
    title = f"{label}: plan"
    picture = None if certificate is None else (lambda: _plan_picture(certificate, title))
    save_svg(svg, picture, quiet=json_out, nothing="no plan to draw")
    if json_out:
        print_json(answer.to_json())
    else:
        slots = len(question.slots)
        console.print(
            f"{label} for {state.player.value}, {slots} slots in {counted(turns, 'turn')}: "
            f"{answer.status.value} ({answer.engine}, {answer.wall_time:.2f} s)"
        )
        if answer.certificate is not None:
            exact = "minimum" if answer.min_actions is not None else "not proved minimal"
            console.print(
                f"  {counted(len(answer.certificate.steps), 'action')} ({exact}), certified:"
            )
            _print_plan(answer.certificate)
        elif answer.reachable is False:
            console.print("  not reachable with this action list")
        else:
            console.print("  no answer within the time limit (not a no)")
    finish({True: YES, False: NO, None: UNKNOWN}[answer.reachable])


def _blamed(error: InputError, state_file: Path | None, option: str) -> InputError:
    """An error about the question asked: the state file's where it is about the position
    (its field named), else the option's."""
    if state_file is not None and error.field in POSITION_FIELDS:
        return error.located(str(state_file))
    return error if error.source else InputError(error.problem, source=option)


@app.command("best-turn")
@reports_input_errors
def best_turn_command(
    state_file: StateOpt = None,
    offer: Annotated[
        str | None,
        typer.Option(metavar="ABBR,ABBR", help="Cards to consider (default: the face-up offer)."),
    ] = None,
    time_limit: TimeLimitOpt = DEFAULT_TIME_LIMIT,
    seed: SeedOpt = 0,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """The turn that claims the most: card points plus own stars used, then fewest actions.

    Exit status 0 if some constellation can be claimed this turn, 1 if none, 3 unknown.
    """
    state = _state_or_opening(state_file)
    cards = None if offer is None else [abbr.strip() for abbr in offer.split(",") if abbr.strip()]
    for abbr in cards or ():
        try:
            state.rules.catalog[abbr]
        except InputError as error:
            raise error.located("--offer") from None
    try:
        answer = best_turn(state, cards, time_limit=time_limit, seed=seed)
    except InputError as error:  # no card to claim: the position's offer, or --offer's
        raise _blamed(error, None if cards is not None else state_file, "--offer") from None
    best = answer.best
    picture = None if best is None else (lambda: _plan_picture(best.certificate, "best turn"))
    save_svg(svg, picture, quiet=json_out, nothing="no claim to draw")
    if json_out:
        print_json(answer.to_json())
    elif best is not None:
        console.print(
            f"best turn for {state.player.value} "
            f"({answer.status.value}, {answer.wall_time:.2f} s): "
            f"claim {best.abbr} for {best.value} ({best.points} card points + "
            f"{best.own_stars} own stars) in {counted(len(best.certificate.steps), 'action')}, "
            "certified:"
        )
        _print_plan(best.certificate)
    else:
        console.print(f"no claim this turn: {answer.status.value}")
    codes = {Status.OPTIMAL: YES, Status.FEASIBLE: YES, Status.INFEASIBLE: NO}
    finish(codes.get(answer.status, UNKNOWN))


# -- review ---------------------------------------------------------------------------------


@app.command()
@reports_input_errors
def review(
    game: Annotated[
        Path | None,
        record_argument(
            "A GAME record, asterion.aster-game/1 (default: the shipped example, four "
            "turns of a 2-player game)."
        ),
    ] = None,
    time_limit: Annotated[
        float, time_limit_option("Seconds for each turn's best-turn solve.")
    ] = DEFAULT_TIME_LIMIT,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """A post-mortem: each turn of a played game against the best turn from its start (card
    points plus own stars claimed, as best-turn weighs them), and what it lost; --svg
    draws the best plan of the turn that lost the most.

    Exit status 0 when every loss is known, 3 when some best turn was not proven within
    the time limit. Example: `asterion aster review game.json --json --svg worst.svg`.
    """
    record = demo_record() if game is None else load_record(game)
    with progress_bar("turns reviewed", quiet=json_out) as progress:
        answer = review_game(record, time_limit=time_limit, progress=progress)
    worst = answer.costliest
    picture = None
    if worst is not None and worst.best is not None and worst.best.best is not None:
        plan, number = worst.best.best.certificate, worst.number
        picture = lambda: _plan_picture(plan, f"turn {number}: the best turn")  # noqa: E731
    save_svg(svg, picture, quiet=json_out, nothing="no turn lost anything")
    if json_out:
        print_json(answer.to_json())
    else:
        _print_review(answer, str(game) if game is not None else DEMO_GAME)
    finish(YES if answer.decided else UNKNOWN)


def _print_review(answer: GameReview, source: str) -> None:
    players = ", ".join(dict.fromkeys(t.player.value for t in answer.turns))
    console.print(
        f"{source}: {counted(len(answer.turns), 'turn')} ({players}), each against the best "
        "turn from its start (card points + own stars claimed; plans replayed)"
    )
    table = Table()
    for column in ("turn", "player", "played", "value", "best", "lost"):
        table.add_column(column)
    for turn in answer.turns:
        shortfall = "?" if turn.lost is None else str(turn.lost)
        row = [str(turn.number), turn.player.value, ", ".join(turn.words) or "(pass)"]
        table.add_row(*row, str(turn.value), _best_text(turn), shortfall)
    console.print(table)
    for turn in answer.turns:
        best = turn.best.best if turn.best is not None else None
        if turn.lost and best is not None:
            plan = ", ".join(typed(step.action) for step in best.certificate.steps)
            console.print(f"turn {turn.number}: best was {plan}, claim {best.abbr}")
    for player in dict.fromkeys(t.player for t in answer.turns):
        lost, unknown = answer.lost_by(player)
        open_ = f" ({counted(unknown, 'turn')} unknown)" if unknown else ""
        console.print(f"{player.value} lost {counted(lost, 'point')}{open_}")


def _best_text(turn: TurnReview) -> str:
    answer = turn.best
    if answer is None or answer.status is Status.INFEASIBLE:
        return "no claim possible"
    best = answer.best
    if best is None or answer.status is not Status.OPTIMAL:
        return answer.status.value
    return f"{best.abbr} for {best.value} ({counted(len(best.certificate.steps), 'action')})"


from asterion.cli.puzzles import aster_app as _puzzles_app  # noqa: E402

app.add_typer(_puzzles_app, name="puzzles")
