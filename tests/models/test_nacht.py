"""Nacht der Sterne tiles: chamfer roles, fragments read clockwise, and the edge-matching
encoding with mates, against hand-worked tiles and the rules page (rules/nacht.md)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nacht_charts import unit_viewport, woven_chart

from asterion.models import nacht
from asterion.models.edges import BORDER, Arrangement, EdgeProblem, Placement, check_arrangement
from asterion.models.nacht import (
    BLANK,
    CORNERS,
    TOLERANCE,
    Role,
    Segment,
    Star,
    Tile,
    TileSet,
    chamfers_for,
    clockwise_offset,
    close,
    derived_chamfers,
    edge_problem,
    mirror,
    misfits,
    shape,
    turn_chamfers,
)
from asterion.models.nacht_cut import Chart, ChartConstellation, cut
from asterion.solver.edge_cpsat import cp_arrangements
from asterion.solver.nacht_solve import run_engine, solve_tileset
from asterion.solver.nacht_verify import verify
from asterion.solver.result import Status

# -- chamfers -------------------------------------------------------------------------------------

# Written out from rules/nacht.md: 1 chamfer = corner tile, 2 on one side = border tile (the
# opposite side is the picture's edge), 4 = interior; anything else no grid cell has.
ROLES = {
    frozenset({"NE"}): Role.CORNER,
    frozenset({"NW"}): Role.CORNER,
    frozenset({"SW"}): Role.CORNER,
    frozenset({"SE"}): Role.CORNER,
    frozenset({"NE", "NW"}): Role.BORDER,
    frozenset({"NE", "SE"}): Role.BORDER,
    frozenset({"SE", "SW"}): Role.BORDER,
    frozenset({"SW", "NW"}): Role.BORDER,
    frozenset(CORNERS): Role.INTERIOR,
}
BORDER_SIDES = {
    frozenset({"NE"}): ("S", "W"),
    frozenset({"NW"}): ("E", "S"),
    frozenset({"SW"}): ("N", "E"),
    frozenset({"SE"}): ("N", "W"),
    frozenset({"NE", "NW"}): ("S",),
    frozenset({"NE", "SE"}): ("W",),
    frozenset({"SE", "SW"}): ("N",),
    frozenset({"SW", "NW"}): ("E",),
    frozenset(CORNERS): (),
}


@pytest.mark.parametrize("size", range(5))
def test_every_chamfer_pattern_has_its_role(size: int) -> None:
    for pattern in map(frozenset, itertools.combinations(CORNERS, size)):
        tile = Tile("t", pattern)
        assert tile.role() is ROLES.get(pattern, Role.INVALID), sorted(pattern)
        if pattern in BORDER_SIDES:
            assert tile.border_sides() == BORDER_SIDES[pattern]


def vertex_is_interior(width: int, height: int, row: int, col: int) -> bool:
    """Vertex (row, col) of the grid's lattice: rows 0..height, columns 0..width."""
    return 0 < row < height and 0 < col < width


def expected_chamfers(width: int, height: int, row: int, col: int) -> frozenset[str]:
    """A corner is chamfered exactly when its vertex is interior (rules/nacht.md)."""
    vertices = {"NW": (row, col), "NE": (row, col + 1), "SW": (row + 1, col)}
    vertices["SE"] = (row + 1, col + 1)
    return frozenset(k for k, (r, c) in vertices.items() if vertex_is_interior(width, height, r, c))


@pytest.mark.parametrize(("width", "height"), [(2, 2), (5, 5), (3, 7), (32, 2)])
def test_chamfers_for_each_cell_follow_the_interior_vertices(width: int, height: int) -> None:
    roles: dict[Role, int] = dict.fromkeys(Role, 0)
    for r in range(height):
        for c in range(width):
            pattern = chamfers_for(width, height, r, c)
            assert pattern == expected_chamfers(width, height, r, c), (r, c)
            roles[Tile("t", pattern).role()] += 1
    assert roles[Role.CORNER] == 4
    assert roles[Role.BORDER] == 2 * (width - 2) + 2 * (height - 2)
    assert roles[Role.INTERIOR] == (width - 2) * (height - 2)
    assert roles[Role.INVALID] == 0


def test_turn_chamfers_moves_corners_clockwise() -> None:
    assert turn_chamfers(frozenset({"NE"}), 1) == {"SE"}
    assert turn_chamfers(frozenset({"NE", "NW"}), 1) == {"NE", "SE"}
    assert turn_chamfers(frozenset({"SW"}), 1) == {"NW"}
    assert turn_chamfers(frozenset({"SW"}), 3) == {"SE"}
    for pattern in ROLES:
        assert turn_chamfers(pattern, 4) == pattern
        # A corner cell turned a quarter clockwise is the next corner clockwise.
        assert Tile("t", turn_chamfers(pattern, 1)).role() is ROLES[pattern]
    assert turn_chamfers(chamfers_for(4, 4, 0, 0), 1) == chamfers_for(4, 4, 0, 3)
    assert turn_chamfers(chamfers_for(4, 4, 0, 1), 2) == chamfers_for(4, 4, 3, 2)


def test_derived_chamfers_of_labelled_sides() -> None:
    assert derived_chamfers(("0", "a", "b", "0")) == {"SE"}
    assert derived_chamfers(("0", "a", "b", "c")) == {"SE", "SW"}
    assert derived_chamfers(("x", "a", "b", "c")) == set(CORNERS)
    assert derived_chamfers(("x", "0", "0", "c")) == {"NW"}


# -- fragments ------------------------------------------------------------------------------------


def test_clockwise_offsets_on_each_side() -> None:
    # N west to east, E north to south, S east to west, W south to north.
    assert clockwise_offset("N", (0.3, 1.0)) == pytest.approx(0.3)
    assert clockwise_offset("E", (1.0, 0.2)) == pytest.approx(0.8)
    assert clockwise_offset("S", (0.4, 0.0)) == pytest.approx(0.6)
    assert clockwise_offset("W", (0.0, 0.6)) == pytest.approx(0.6)
    assert clockwise_offset("N", (0.3, 0.99)) is None
    assert clockwise_offset("E", (0.5, 0.5)) is None


def test_fragments_of_a_hand_worked_tile() -> None:
    tile = Tile(
        "t",
        frozenset(CORNERS),
        stars=(Star(0.5, 0.5, 1.0, "A"),),
        segments=(
            Segment("A", (0.3, 1.0), (1.0, 0.2)),
            Segment("B", (0.0, 0.6), (0.4, 0.0)),
            Segment("B", (0.5, 0.5), (0.9, 1.0)),
            Segment("A", (0.5, 0.5), (1.0, 1.0)),  # ends in the NE corner: no side shows it
            Segment("A", (0.2, 0.2), (0.4, 0.4)),  # inside
        ),
    )
    assert tile.fragments("N") == ((0.3, "A"), (0.9, "B"))
    assert tile.fragments("E") == ((pytest.approx(0.8), "A"),)
    assert tile.fragments("S") == ((pytest.approx(0.6), "B"),)
    assert tile.fragments("W") == ((0.6, "B"),)


def test_mirror_and_close() -> None:
    assert mirror(((0.3, "A"), (0.6, "B"))) == ((pytest.approx(0.4), "B"), (0.7, "A"))
    assert mirror(mirror(((0.25, "A"), (0.5, "B")))) == ((0.25, "A"), (0.5, "B"))
    assert close(((0.3, "A"),), ((0.319, "A"),))
    assert not close(((0.3, "A"),), ((0.33, "A"),))
    assert not close(((0.3, "A"),), ((0.3, "B"),))
    assert not close(((0.3, "A"),), ((0.3, "A"), (0.5, "A")))
    assert close((), ())


_signatures = st.lists(st.tuples(st.floats(0, 1), st.sampled_from("ABC")), max_size=4).map(
    lambda fragments: tuple(sorted(fragments))
)


@given(_signatures, _signatures, st.sampled_from([0.0, 0.02, 0.5]))
def test_close_signatures_have_one_shape(
    a: tuple[tuple[float, str], ...], b: tuple[tuple[float, str], ...], tolerance: float
) -> None:
    # The verifier and the encoding compare only signatures of one shape (the fragments per
    # constellation): that must lose no pair that close() would match.
    if close(a, b, tolerance):
        assert shape(a) == shape(b)
    same_shape = tuple(sorted((min(o + 0.001, 1.0), name) for o, name in a))
    assert close(a, same_shape, 0.02) and shape(same_shape) == shape(a)


# -- the encoding ---------------------------------------------------------------------------------


def hand_set(*, ne_offset: float = 0.3, north_end: bool = False, **options: object) -> TileSet:
    """2 x 2 by hand: line A runs from the NW tile east into the NE tile (E offset 0.7 read
    clockwise, W offset 0.3 on the other side), line B from the NW tile south into the SW tile
    (S offset 0.4, N offset 0.6). The SE tile is blank."""
    nw_segments = [
        Segment("A", (0.5, 0.5), (1.0, 0.3)),
        Segment("B", (0.5, 0.5), (0.6, 0.0)),
    ]
    if north_end:
        nw_segments.append(Segment("A", (0.5, 0.5), (0.5, 1.0)))
    tiles = (
        Tile("NW", chamfers_for(2, 2, 0, 0), (Star(0.5, 0.5, 1.0, "A"),), tuple(nw_segments)),
        Tile("NE", chamfers_for(2, 2, 0, 1), (), (Segment("A", (0.0, ne_offset), (0.5, 0.5)),)),
        Tile("SW", chamfers_for(2, 2, 1, 0), (), (Segment("B", (0.6, 1.0), (0.5, 0.5)),)),
        Tile("SE", chamfers_for(2, 2, 1, 1)),
    )
    return TileSet("hand", 2, 2, tiles, **options)  # type: ignore[arg-type]


AS_LAID = ((Placement(0), Placement(1)), (Placement(2), Placement(3)))


def test_encoding_of_the_hand_set() -> None:
    problem = edge_problem(hand_set()).problem
    nw, ne, sw, se = problem.pieces
    # Border sides 0, blank inner sides BLANK, the rest colors of their own.
    assert (nw[0], nw[3], ne[0], ne[1], sw[2], sw[3], se[1], se[2]) == (BORDER,) * 8
    assert (ne[2], sw[1], se[0], se[3]) == (BLANK,) * 4
    assert problem.mate_of(BLANK) == BLANK
    colors = {nw[1], nw[2], ne[3], sw[0]}
    assert len(colors) == 4 and not colors & {BORDER, BLANK}
    assert problem.mate_of(nw[1]) == ne[3] and problem.mate_of(ne[3]) == nw[1]
    assert problem.mate_of(nw[2]) == sw[0] and problem.mate_of(sw[0]) == nw[2]
    assert problem.mate_of(nw[1]) != nw[1]
    assert check_arrangement(problem, AS_LAID) == []
    # Swapping NE and SW breaks the corners' border sides.
    assert check_arrangement(problem, ((Placement(0), Placement(2)), (Placement(1), Placement(3))))


# Offsets exact in binary (1 - (1 - t) == t): see the next test for the others.
@pytest.mark.parametrize(("offset", "fits"), [(0.3125, True), (0.28125, True), (0.328125, False)])
def test_sides_fit_within_the_tolerance(offset: float, fits: bool) -> None:
    problem = edge_problem(hand_set(ne_offset=offset)).problem
    assert (check_arrangement(problem, AS_LAID) == []) is fits
    result = cp_arrangements(problem, count_limit=2)
    assert result.status is (Status.OPTIMAL if fits else Status.INFEASIBLE)
    assert result.count == (1 if fits else 0)


@pytest.mark.parametrize(("offset", "fits"), [(0.31, True), (0.33, False)])
def test_sides_fit_within_the_tolerance_for_any_decimal_offset(offset: float, fits: bool) -> None:
    problem = edge_problem(hand_set(ne_offset=offset)).problem
    assert (check_arrangement(problem, AS_LAID) == []) is fits


def chained_set() -> TileSet:
    """2 x 2 by hand, both lines A's: NW's east end reads 0.70 and NE's west end 0.305 (0.695
    facing, within N1); NW's south end and SW's north end meet exactly at 0.678 facing. So
    0.70, 0.695 and 0.678 chain within 0.02, though 0.70 and 0.678 are 0.022 apart."""
    tiles = (
        Tile(
            "NW",
            chamfers_for(2, 2, 0, 0),
            (Star(0.5, 0.5, 1.0, "A"),),
            (Segment("A", (0.5, 0.5), (1.0, 0.3)), Segment("A", (0.5, 0.5), (0.678, 0.0))),
        ),
        Tile("NE", chamfers_for(2, 2, 0, 1), (), (Segment("A", (0.0, 0.305), (0.5, 0.5)),)),
        Tile("SW", chamfers_for(2, 2, 1, 0), (), (Segment("A", (0.678, 1.0), (0.5, 0.5)),)),
        Tile("SE", chamfers_for(2, 2, 1, 1)),
    )
    return TileSet("chain", 2, 2, tiles)


def test_a_fit_within_the_tolerance_stands_beside_a_chain_of_near_misses() -> None:
    # Cut to single signatures, the chain let only exact fits through: no arrangement.
    tileset = chained_set()
    tiles = tileset.tiles
    east, south = tiles[0].fragments("E"), tiles[0].fragments("S")
    facing_east, facing_south = mirror(tiles[1].fragments("W")), mirror(tiles[2].fragments("N"))
    assert close(east, facing_east) and facing_south == south  # a near fit and an exact one
    chain = (east, facing_east, mirror(south))  # 0.70, 0.695, 0.678 read from NW's east side
    assert close(chain[1], chain[2]) and not close(chain[0], chain[2])
    problem = edge_problem(tileset).problem
    assert check_arrangement(problem, AS_LAID) == []
    result = cp_arrangements(problem, count_limit=2)
    assert (result.status, result.count) == (Status.OPTIMAL, 1)
    nw, ne, sw, _ = problem.pieces
    assert problem.fits(nw[1], ne[3]) and problem.fits(nw[2], sw[0])
    # NW's east side (0.70) would not fit a side that NW's south side (0.678) fits.
    assert not problem.fits(nw[1], problem.mate_of(nw[2]))


@given(st.lists(st.tuples(st.integers(0, 60), st.sampled_from("AB")), min_size=1, max_size=12))
def test_colors_fit_exactly_when_the_signatures_do(ends: list[tuple[int, str]]) -> None:
    # Offsets in steps of 0.005 over 0.35-0.65: chains within N1 abound, some around the middle
    # (mirroring onto themselves). Whatever they are, two sides' colors fit (as mates or as
    # near colors) exactly when one side's signature is within N1 of the other's mirror (the
    # rule), and the near relation is symmetric, as fitting is.
    signatures = [((round(0.35 + step * 0.005, 9), name),) for step, name in ends]
    colors = nacht._SignatureColors(signatures, TOLERANCE)
    problem = EdgeProblem((), 2, 2, mate=tuple(colors.mate), near=colors.near_table())
    sides = [variant for s in signatures for variant in (s, mirror(s))]
    for a in sides:
        assert colors.mate[colors.color(a)] == colors.color(mirror(a))
        for b in sides:
            fits = problem.fits(colors.color(a), colors.color(b))
            assert fits is close(a, mirror(b))
            assert fits is problem.fits(colors.color(b), colors.color(a))


def test_verify_takes_a_chain_of_near_misses_as_the_rule_says() -> None:
    # A chain is no defect in itself (rules/nacht.md lists none): the set fits one way only.
    report = verify(chained_set(), time_limit=60)
    assert report.consistent and report.solutions == 1 and report.problems == ()


def test_a_border_fragment_gets_a_color_nothing_mates() -> None:
    tileset = hand_set(north_end=True)
    problem = edge_problem(tileset).problem
    color = problem.pieces[0][0]
    assert color != BORDER
    others = [c for i, piece in enumerate(problem.pieces) for c in piece if (i, c) != (0, color)]
    assert all(problem.mate_of(c) != color for c in others)
    assert check_arrangement(problem, AS_LAID)
    # Allowed by the set (N3) or by the caller: it is plain border again.
    for fits in (
        edge_problem(replace(tileset, allow_border_fragments=True)).problem,
        edge_problem(tileset, border_fragments_fit=True).problem,
    ):
        assert fits.pieces[0][0] == BORDER
        assert check_arrangement(fits, AS_LAID) == []


def test_generic_sets_use_their_labels() -> None:
    tiles = tuple(
        Tile(str(i), derived_chamfers(edges), edges=edges)
        for i, edges in enumerate(
            [("0", "x", "y", "0"), ("0", "0", "z", "x"), ("y", "w", "0", "0"), ("z", "0", "0", "w")]
        )
    )
    problem = edge_problem(TileSet("g", 2, 2, tiles, generic=True)).problem
    assert problem.mate is None  # labels match themselves (the Eternity II family)
    label_of = {}
    for tile, piece in zip(tiles, problem.pieces, strict=True):
        assert tile.edges is not None
        for label, color in zip(tile.edges, piece, strict=True):
            assert (color == BORDER) == (label == "0")
            assert label_of.setdefault(color, label) == label
    assert len(label_of) == 5
    assert check_arrangement(problem, AS_LAID) == []


@pytest.mark.parametrize("seed", range(4))
def test_woven_sets_encode_with_an_involution(seed: int) -> None:
    tileset = cut(woven_chart(4, 3, seed), 4, 3, unit_viewport(4, 3))
    problem = edge_problem(tileset).problem
    assert problem.mate is not None
    assert all(problem.mate[problem.mate[c]] == c for c in range(len(problem.mate)))
    # Every inner side carries a line, so no blank sides, and each color is used once.
    colors = [c for piece in problem.pieces for c in piece if c != BORDER]
    assert BLANK not in colors
    assert len(colors) == len(set(colors)) == 2 * (3 * 3 + 4 * 2)
    laid = tuple(tuple(Placement(r * 4 + c) for c in range(4)) for r in range(3))
    assert check_arrangement(problem, laid) == []


def crossing_lines_chart() -> Chart:
    """3 x 2, row 0 only: lines A and B cross the boundary x = 1 both at height 0.5 (an X),
    and the boundary x = 2 at heights 0.49 (A) and 0.5 (B). The cut sides are exact mirrors of
    each other, so the tiles fit as cut; the bottom row is blank and every tile's chamfers are
    its own, so that arrangement is the only one."""
    a_stars = ((0.5, 1.3, 1.0), (1.5, 1.7, 1.0), (2.5, 1.28, 1.0))
    b_stars = ((0.5, 1.7, 1.0), (1.5, 1.3, 1.0), (2.5, 1.7, 1.0))
    lines = ((0, 1), (1, 2))
    return Chart(
        "x",
        (
            ChartConstellation("A", "A", a_stars, lines),
            ChartConstellation("B", "B", b_stars, lines),
        ),
    )


def test_two_lines_crossing_one_side_close_together_still_fit() -> None:
    tileset = cut(crossing_lines_chart(), 3, 2, unit_viewport(3, 2))
    assert tileset.tiles[0].fragments("E") == ((0.5, "A"), (0.5, "B"))
    assert tileset.tiles[2].fragments("W") == ((pytest.approx(0.49), "A"), (0.5, "B"))
    problem = edge_problem(tileset).problem
    laid = tuple(tuple(Placement(r * 3 + c) for c in range(3)) for r in range(2))
    assert check_arrangement(problem, laid) == []


def test_a_tile_that_turns_in_place_counts_once_per_picture() -> None:
    # A 3 x 3 sky whose only line lies inside the centre tile: its blank sides fit in every
    # turn, and its four turns are four pictures, so with rotations each arrangement of
    # sides is four arrangements (rule 4: any other arrangement counts). The blank border
    # tiles, told apart by id, lie 4! x 4! ways, 144 up to turning the whole picture.
    line = ChartConstellation("C", "C", ((1.3, 1.4, 1.0), (1.6, 1.7, 1.0)), ((0, 1),))
    tileset = replace(cut(Chart("x", (line,)), 3, 3, unit_viewport(3, 3)), rotations=True)
    encoding = edge_problem(tileset)
    centre = tileset.tile_index("T5")
    assert encoding.turns_in_place[centre] == (1, 2, 3)
    assert not any(turns for i, turns in enumerate(encoding.turns_in_place) if i != centre)
    sides = run_engine(encoding.problem, "cp-sat", count_limit=10**4, keep=1)
    assert (sides.count, sides.complete) == (144, True)
    counted = solve_tileset(tileset, engine="cp-sat", count_limit=10**4, keep=1).result
    assert (counted.status, counted.count) == (Status.OPTIMAL, 4 * 144)
    solved = solve_tileset(tileset, engine="cp-sat", count_limit=1, keep=3).result

    def centre_turn(arrangement: Arrangement) -> int:
        return next(p.turns for row in arrangement for p in row if p.piece == centre)

    def others(arrangement: Arrangement) -> list[Placement]:
        return [p for row in arrangement for p in row if p.piece != centre]

    first = solved.solutions[0]  # the engine's one; then the centre turned in place
    assert [(centre_turn(a) - centre_turn(first)) % 4 for a in solved.solutions] == [0, 1, 2]
    assert all(others(a) == others(first) for a in solved.solutions)
    assert all(check_arrangement(encoding.problem, a) == [] for a in solved.solutions)
    report = verify(tileset, time_limit=60)
    assert not report.consistent and "not-unique" in {f.code for f in report.problems}
    assert edge_problem(replace(tileset, rotations=False)).turns_in_place == ()


def test_edge_problem_keeps_grid_and_rotations() -> None:
    tileset = replace(hand_set(), rotations=True)
    problem = edge_problem(tileset).problem
    assert isinstance(problem, EdgeProblem)
    assert (problem.width, problem.height, problem.rotations) == (2, 2, True)


# -- the re-checks, given what they must catch (only correct arrangements reached them before) --


def test_misfits_names_each_broken_rule() -> None:
    from asterion.models.nacht import misfits

    assert misfits(hand_set(), AS_LAID) == []
    # A line of A ends on the NW tile's north side: it leaves the sky (N3).
    assert misfits(hand_set(north_end=True), AS_LAID) == [
        "tile NW at row 0, column 0: side N: a line leaves the sky"
    ]
    assert misfits(hand_set(north_end=True), AS_LAID, border_fragments_fit=True) == []
    # 0.33 is further than N1 (0.02) from 0.3: the NW/NE pair does not fit.
    assert misfits(hand_set(ne_offset=0.33), AS_LAID) == [
        "tile NW at row 0, column 0: its east side does not fit its neighbour's"
    ]
    turned = ((Placement(0), Placement(1)), (Placement(2), Placement(3, 2)))
    assert "tile SE at row 1, column 1: turned although rotations are off" in misfits(
        hand_set(), turned
    )


def test_check_arrangement_flags_each_rule() -> None:
    problem = edge_problem(hand_set()).problem
    twice = ((Placement(0), Placement(1)), (Placement(2), Placement(0)))
    assert [m.problem for m in check_arrangement(problem, twice)] == [
        "pieces not used exactly once each"
    ]
    turned = ((Placement(0), Placement(1)), (Placement(2), Placement(3, 2)))
    assert "turned although rotations are off" in [
        m.problem for m in check_arrangement(problem, turned)
    ]
    # All-border pieces: each of the 4 inner side pairs shows the border color on both sides
    blank = EdgeProblem(((0, 0, 0, 0),) * 4, 2, 2)
    assert len(check_arrangement(blank, AS_LAID)) == 8


def test_a_blank_tile_turned_shows_no_new_picture() -> None:
    # A blank sky cut 3x3 with rotations: no tile shows a different picture when turned, so
    # no turn is a new placement (else counts grow fourfold and unique sets look ambiguous).
    tileset = replace(cut(Chart("blank", ()), 3, 3, unit_viewport(3, 3)), rotations=True)
    assert all(turns == () for turns in edge_problem(tileset).turns_in_place)


# -- a second mutation audit ----------------------------------------------------------------------


def test_shape_counts_the_fragments_of_each_constellation() -> None:
    # Two fragments of A and one of B, in any order of offsets.
    assert shape(((0.2, "B"), (0.3, "A"), (0.5, "A"))) == (("A", 2), ("B", 1))
    assert shape(()) == ()


def test_sides_exactly_n1_apart_at_decimal_offsets_fit() -> None:
    # N1: offsets equal within 0.02 of a side. NW's east end at height 0.3 reads 0.7 clockwise;
    # NE's west end at 0.32 reads 0.68 from NW's side: 0.02 apart, within the tolerance
    # (though 0.7 - 0.68 is a hair over 0.02 in floating point). 0.321 is beyond it.
    assert close(((0.7, "A"),), ((0.68, "A"),))
    assert misfits(hand_set(ne_offset=0.32), AS_LAID) == []
    assert check_arrangement(edge_problem(hand_set(ne_offset=0.32)).problem, AS_LAID) == []
    assert misfits(hand_set(ne_offset=0.321), AS_LAID) == [
        "tile NW at row 0, column 0: its east side does not fit its neighbour's"
    ]


def test_a_chain_of_near_misses_is_recorded_once() -> None:
    # chained_set: NW's east side reads 0.70, NE's west side 0.695 from it, NW's south side
    # 0.678 facing: one chain (0.70 and 0.678 are 0.022 apart); its mirror image (0.30, 0.305,
    # 0.322) is the same chain. The hand set has no chain at all.
    (chain,) = edge_problem(chained_set()).chains
    offsets = {round(offset, 6) for signature in chain for offset, _ in signature}
    assert offsets in ({0.7, 0.695, 0.678}, {0.3, 0.305, 0.322})
    assert edge_problem(hand_set()).chains == ()


def test_misfits_needs_a_whole_grid() -> None:
    # Rows of 3 and 1 tile hold the 4 tiles of a 2 x 2, but are no 2 x 2 grid.
    ragged = ((Placement(0), Placement(1), Placement(2)), (Placement(3),))
    assert misfits(hand_set(), ragged) == ["not a 2x2 grid"]


def labelled_set(edges: list[str], chamfers: list[frozenset[str]] | None = None) -> TileSet:
    tiles = tuple(
        Tile(str(i), chamfers[i] if chamfers else derived_chamfers(tuple(e)), edges=tuple(e))  # type: ignore[arg-type]
        for i, e in enumerate(edges)
    )
    return TileSet("g", 2, 2, tiles, generic=True)


def test_misfits_compares_side_labels() -> None:
    # Labels fit when equal: NW's east a meets NE's west a, NW's south b meets SW's north b...
    fine = labelled_set(["0ab0", "00ca", "bd00", "c00d"])
    assert misfits(fine, AS_LAID) == []
    # ... and NE's west side says x, which is not NW's east a.
    wrong = labelled_set(["0ab0", "00cx", "bd00", "c00d"])
    assert misfits(wrong, AS_LAID) == [
        "tile 0 at row 0, column 0: its east side does not fit its neighbour's"
    ]


def test_a_label_against_the_chamfers_fits_no_side() -> None:
    # _generic_problem: a side labelled border whose chamfers put it inside gets a color of its
    # own that fits nothing. Tile 0 (labels of the NW corner) chamfered as an interior tile:
    # its N and W sides are such sides; no side of the set fits them.
    chamfers = [frozenset(CORNERS), *(derived_chamfers(tuple(e)) for e in ("00ca", "bd00", "c00d"))]
    problem = edge_problem(labelled_set(["0ab0", "00ca", "bd00", "c00d"], chamfers)).problem
    north, west = problem.pieces[0][0], problem.pieces[0][3]
    sides = [(i, s) for i in range(4) for s in range(4)]
    for against in (north, west):
        assert against != BORDER
        fitting = [(i, s) for i, s in sides if problem.fits(against, problem.pieces[i][s])]
        assert fitting in ([(0, 0)], [(0, 3)])  # only itself


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_alike_pieces_group_a_piece_with_its_turned_copies(turns: int) -> None:
    from asterion.models.edges import alike_pieces, turn

    # With rotations a piece and a copy turned 1, 2 or 3 quarters show the same sides: one
    # kind, keyed by its lowest-numbered piece (piece 0, the corner, is the anchor: its own
    # kind). Without rotations they are two kinds.
    inner = (1, 2, 3, 4)
    pieces = ((0, 5, 6, 0), inner, turn(inner, turns), (7, 8, 9, 10))
    assert alike_pieces(EdgeProblem(pieces, 2, 2, rotations=True)) == {
        0: (0,),
        1: (1, 2),
        3: (3,),
    }
    assert alike_pieces(EdgeProblem(pieces, 2, 2)) == {0: (0,), 1: (1,), 2: (2,), 3: (3,)}


def test_interior_vertices_are_the_holes_of_the_grid() -> None:
    # Rule 6 / Components: "16 = (5 − 1) × (5 − 1) holes"; counted here as the lattice
    # vertices strictly inside the W × H grid.
    assert TileSet("t", 5, 5, ()).interior_vertices() == 16
    for width, height in [(4, 3), (2, 6), (3, 2), (1, 4)]:
        count = sum(
            vertex_is_interior(width, height, row, col)
            for row in range(height + 1)
            for col in range(width + 1)
        )
        assert TileSet("t", width, height, ()).interior_vertices() == count, (width, height)


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_quarter_turn_carries_a_side_point_to_the_next_side_clockwise(turns: int) -> None:
    # N2, rotations: a quarter turn clockwise brings the north side east, the east side
    # south, and so on; a turn keeps the clockwise reading, so a point at offset t along one
    # side lies at offset t along the side `turns` steps on. Checked for points on each
    # side at offsets 0.25 and 0.6 (read off by hand: N (t, 1), E (1, 1 - t), S (1 - t, 0),
    # W (0, t)).
    sides = ("N", "E", "S", "W")
    for t in (0.25, 0.6):
        points = {"N": (t, 1.0), "E": (1.0, 1 - t), "S": (1 - t, 0.0), "W": (0.0, t)}
        for i, side in enumerate(sides):
            assert clockwise_offset(side, points[side]) == pytest.approx(t)
            after = nacht.turn_point(points[side], turns)
            assert after == pytest.approx(points[sides[(i + turns) % 4]]), (side, t)
    assert nacht.turn_point((0.5, 0.5), turns) == pytest.approx((0.5, 0.5))


def test_misfits_compares_the_south_sides_above_the_last_row() -> None:
    # Rule 3, every adjacent pair fits: NW's south b against SW's north, here x (not b).
    wrong = labelled_set(["0ab0", "00ca", "xd00", "c00d"])
    assert misfits(wrong, AS_LAID) == [
        "tile 0 at row 0, column 0: its south side does not fit its neighbour's"
    ]
