"""Nacht tile puzzles: uniqueness re-proved by brute force on tiny sets, grading, files,
and batches that do not depend on the worker count."""

from __future__ import annotations

import itertools

import pytest

from asterion.errors import InputError
from asterion.models.edges import (
    Arrangement,
    EdgeProblem,
    Placement,
    canonical,
    check_arrangement,
    turn,
)
from asterion.models.nacht import Segment, Tile, TileSet, chamfers_for, edge_problem
from asterion.puzzles import nacht as nacht_puzzles
from asterion.puzzles.aster import Difficulty
from asterion.puzzles.batch import run_batch
from asterion.puzzles.nacht import (
    PUZZLE_FORMAT,
    edge_tileset,
    generate_puzzle,
    label_of,
    prove,
    puzzle_from_data,
    puzzle_to_data,
)


def brute_force_count(problem: EdgeProblem) -> int:
    """Every permutation and turn of the pieces, checked side by side; classes under turns
    of the whole picture (models/edges.py)."""
    cells = problem.cells()
    found: set[Arrangement] = set()
    for order in itertools.permutations(range(len(cells))):
        # Each piece's turns with its border sides (color 0) facing out, and only those.
        choices = [
            _outward_turns(problem, piece, cell) for piece, cell in zip(order, cells, strict=True)
        ]
        for turns in itertools.product(*choices):
            flat = [Placement(p, t) for p, t in zip(order, turns, strict=True)]
            arrangement = tuple(
                tuple(flat[r * problem.width : (r + 1) * problem.width])
                for r in range(problem.height)
            )
            if not check_arrangement(problem, arrangement):
                found.add(canonical(problem, arrangement))
    return len(found)


def _outward_turns(problem: EdgeProblem, piece: int, cell: tuple[int, int]) -> list[int]:
    r, c = cell
    outside = (r == 0, c == problem.width - 1, r == problem.height - 1, c == 0)
    return [
        t
        for t in (range(4) if problem.rotations else (0,))
        if all(
            (color == 0) == out
            for color, out in zip(turn(problem.pieces[piece], t), outside, strict=True)
        )
    ]


def test_uniqueness_agrees_with_brute_force_on_2x2() -> None:
    verdicts = []
    for seed in range(8):
        tileset = edge_tileset(2, 2, 2 + seed % 3, 1, seed, "tiny")
        unique = prove(tileset).unique
        assert unique == (brute_force_count(edge_problem(tileset).problem) == 1)
        verdicts.append(unique)
    assert True in verdicts and False in verdicts


def test_generated_puzzle_fits_and_is_reproved_unique() -> None:
    made = generate_puzzle(4, 0, Difficulty.EASY)
    assert made.puzzle is not None and made.solution is not None
    problem = edge_problem(made.puzzle.tileset).problem
    assert check_arrangement(problem, made.solution) == []
    assert prove(made.puzzle.tileset).unique is True
    assert label_of(made.puzzle.nodes or 0) is Difficulty.EASY


def test_sky_puzzle_round_trip() -> None:
    made = generate_puzzle(1, 0, Difficulty.EASY, source="sky")
    assert made.puzzle is not None
    data = puzzle_to_data(made.puzzle)
    again = puzzle_from_data(data, "p.json")
    assert puzzle_to_data(again) == data
    assert prove(again.tileset).unique is True


def test_wrong_format_and_broken_tileset_are_refused() -> None:
    made = generate_puzzle(4, 0, Difficulty.EASY)
    assert made.puzzle is not None
    data = puzzle_to_data(made.puzzle)
    with pytest.raises(InputError, match="format"):
        puzzle_from_data({**data, "format": "asterion.nacht-puzzle/7"}, "p.json")
    broken = {**data, "tileset": {**data["tileset"], "tiles": data["tileset"]["tiles"][:-1]}}
    with pytest.raises(InputError, match=r"tileset\.tiles"):
        puzzle_from_data(broken, "p.json")
    assert data["format"] == PUZZLE_FORMAT


def test_batches_do_not_depend_on_the_worker_count() -> None:
    one = run_batch("nacht", 3, "medium", 9, workers=1)
    two = run_batch("nacht", 3, "medium", 9, workers=2)
    assert [m.files for m in one.made] == [m.files for m in two.made]
    assert [m.index for m in one.made] == [0, 1, 2]


def chained_tileset() -> TileSet:
    """2 x 2: lines end, read clockwise, at 0.70 on NW's east side (NE's west end meets it
    exactly), 0.685 on NW's south side and, seen from NW, 0.67 on SW's north side: each
    within N1 of the next, 0.70 not of 0.67, a chain of near misses."""

    def tile(tile_id: str, cell: tuple[int, int], ends: list[tuple[float, float]]) -> Tile:
        lines = tuple(Segment("A", (0.5, 0.5), end) for end in ends)
        return Tile(tile_id, chamfers_for(2, 2, *cell), (), lines)

    tiles = (
        tile("NW", (0, 0), [(1.0, 0.30), (0.315, 0.0)]),
        tile("NE", (0, 1), [(0.0, 0.30)]),
        tile("SW", (1, 0), [(0.33, 1.0)]),
        tile("SE", (1, 1), []),
    )
    return TileSet("chain", 2, 2, tiles)


def test_a_chain_of_near_misses_is_proven_by_an_engine_that_reads_near_colors() -> None:
    tileset = chained_tileset()
    assert edge_problem(tileset).problem.near is not None  # the grading search refuses these
    verdict = prove(tileset)
    assert verdict.unique is True and verdict.result.count == 1


def test_sky_candidates_whose_fragments_chain_are_passed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A player could not tell such fragments apart, and the search that grades cannot take
    # them: the candidate is drawn past without a proof.
    monkeypatch.setattr(nacht_puzzles, "sky_tileset", lambda *_: chained_tileset())
    generated = generate_puzzle(0, 0, Difficulty.EASY, source="sky", max_attempts=3)
    assert generated.puzzle is None and generated.attempts == 3 and generated.states == 0


@pytest.mark.parametrize(
    ("source", "nodes", "label"),
    [
        # docs/puzzles.md: edge easy < 30, medium >= 30, hard >= 300, expert >= 5000
        ("edge", 29, Difficulty.EASY),
        ("edge", 30, Difficulty.MEDIUM),
        ("edge", 299, Difficulty.MEDIUM),
        ("edge", 300, Difficulty.HARD),
        ("edge", 4999, Difficulty.HARD),
        ("edge", 5000, Difficulty.EXPERT),
        # sky: easy < 20, medium >= 20, hard >= 30, expert >= 40
        ("sky", 19, Difficulty.EASY),
        ("sky", 20, Difficulty.MEDIUM),
        ("sky", 29, Difficulty.MEDIUM),
        ("sky", 30, Difficulty.HARD),
        ("sky", 39, Difficulty.HARD),
        ("sky", 40, Difficulty.EXPERT),
    ],
)
def test_node_floors_are_the_documented_ones(
    source: nacht_puzzles.Source, nodes: int, label: Difficulty
) -> None:
    assert label_of(nodes, source) is label


def test_a_tile_set_with_no_arrangement_is_not_unique() -> None:
    # One corner given sides 7 that no other tile has: no arrangement at all (brute force),
    # which is not "exactly one".
    from dataclasses import replace

    from asterion.models.nacht import derived_chamfers

    tileset = edge_tileset(2, 2, 2, 1, 0, "tiny")
    edges = ("0", "0", "7", "7")
    odd = Tile(id=tileset.tiles[0].id, chamfers=derived_chamfers(edges), edges=edges)
    broken = replace(tileset, tiles=(odd, *tileset.tiles[1:]))
    assert brute_force_count(edge_problem(broken).problem) == 0
    verdict = prove(broken)
    assert verdict.unique is False and verdict.arrangement is None


def test_generation_counts_its_attempts_and_nodes() -> None:
    # Stream (0, 0, easy) keeps its first draw: attempt 1, and the nodes spent are that one
    # proof's nodes.
    first = generate_puzzle(0, 0, Difficulty.EASY)
    assert first.puzzle is not None and first.puzzle.generator is not None
    assert first.attempts == first.puzzle.generator["attempt"] == 1
    assert first.states == first.puzzle.nodes
    # Stream (2, 0, easy) draws on past candidates: exactly as many tries as it reports find
    # the same puzzle, one fewer gives up.
    made = generate_puzzle(2, 0, Difficulty.EASY)
    assert made.puzzle is not None and made.puzzle.generator is not None
    assert made.puzzle.difficulty is Difficulty.EASY and made.attempts > 1
    assert made.puzzle.generator["attempt"] == made.attempts
    assert made.states > (made.puzzle.nodes or 0) > 0
    exact = generate_puzzle(2, 0, Difficulty.EASY, max_attempts=made.attempts)
    assert exact.puzzle == made.puzzle
    short = generate_puzzle(2, 0, Difficulty.EASY, max_attempts=made.attempts - 1)
    assert short.puzzle is None and short.attempts == made.attempts - 1


def test_a_chained_candidate_is_passed_over_not_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first window drawn has chained fragments; the next one is a real window: the
    # generator must go on to it (attempt 2), not stop at the chain.
    real = nacht_puzzles.sky_tileset
    calls: list[int] = []

    def first_chained(*args: object) -> TileSet:
        calls.append(1)
        return chained_tileset() if len(calls) == 1 else real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(nacht_puzzles, "sky_tileset", first_chained)
    generated = generate_puzzle(0, 0, Difficulty.EASY, source="sky", max_attempts=50)
    assert generated.puzzle is not None and generated.attempts >= 2
    assert prove(generated.puzzle.tileset).unique is True


def test_a_unique_candidate_of_another_label_is_passed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Sky stream (3, 0, medium) proves windows unique that took 40 nodes or more (expert by
    # the documented sky floors) before one of 20 to 29 (medium): the generator goes on.
    proofs: list[tuple[bool | None, int]] = []
    real = nacht_puzzles.prove

    def spy(tileset: TileSet, **options: float) -> nacht_puzzles.NachtVerdict:
        verdict = real(tileset, **options)
        proofs.append((verdict.unique, verdict.result.nodes))
        return verdict

    monkeypatch.setattr(nacht_puzzles, "prove", spy)
    made = generate_puzzle(3, 0, Difficulty.MEDIUM, source="sky")
    assert any(unique and nodes >= 40 for unique, nodes in proofs)
    assert made.puzzle is not None and made.puzzle.difficulty is Difficulty.MEDIUM
    assert 20 <= (made.puzzle.nodes or 0) < 30
    assert real(made.puzzle.tileset).unique is True
