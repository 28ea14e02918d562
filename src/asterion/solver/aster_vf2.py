"""Aster placements by subgraph matching: the networkx VF2 peer of ``placements``.

A second, independent encoding of A8 presence (rules/aster.md, "Constellations"), used to
cross-check :func:`asterion.models.aster_patterns.placements` in tests and as the peer it is
benchmarked against (``benchmarks/bench_aster_place.py``). It is not meant to be fast.

The idea
--------
Give every ordered pair of points an edge labelled with its *displacement*, the vector from the
first point to the second. On the board that is a complete digraph: ``n (n - 1)`` edges for
``n`` points, each labelled ``(dx, dy)``. On the pattern, after applying one symmetry of the
square, it is the same construction over the image points. A map ``f`` from pattern points to
board points that keeps every displacement, ``f(q) - f(p) = q - p``, is exactly a translation
``f(p) = p + t``; and a translation whose image lands on board points is exactly a placement.
So the placements of one symmetry image are the point sets of the subgraph *monomorphisms*
(injective, edge-preserving, not necessarily induced) from the pattern digraph into the board
digraph, with an ``edge_match`` comparing displacements. One VF2 search per symmetry; the point
sets of all of them, without repeats, are the placements.

Any set of pattern edges that connects all its points fixes the shape up to translation (the
displacement from the first point to any other is a sum along a path), so a *star* from the
first point would do. The default uses *all pairs*: it is the plain statement of the idea and,
with networkx's VF2, it was also the faster of the two (about a quarter less time on the shipped
catalog; ``benchmarks/bench_aster_place.py --edges star``).

``exact`` (no translation) labels the nodes too: each board node carries its coordinates, each
pattern node its own, and a ``node_match`` requires them to be equal.

>>> from asterion.models.aster_board import Board
>>> len(vf2_placements(Board(), [(0, 0), (1, 0)]))
24
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Literal

import networkx as nx
from networkx.algorithms.isomorphism import DiGraphMatcher

from asterion.errors import InputError
from asterion.models.aster_board import Board, Vector
from asterion.models.aster_patterns import (
    DEFAULT_TRANSFORMS,
    Matrix,
    Placement,
    Transforms,
    sort_placements,
    symmetries,
    transform,
)

__all__ = ["PatternEdges", "displacement_digraph", "pattern_digraph", "vf2_placements"]

PatternEdges = Literal["pairs", "star"]
"""Which pattern edges the search matches: every ordered pair, or first point to each other."""

DISPLACEMENT = "displacement"
"""Edge attribute: the vector from the edge's tail point to its head point."""

POSITION = "xy"
"""Node attribute: the lattice point (used by ``exact``, where positions are absolute)."""


@cache
def displacement_digraph(board: Board) -> nx.DiGraph:
    """The board as a complete digraph whose edges carry displacement vectors.

    Parameters
    ----------
    board : Board
        The board; boards are hashable, so the digraph is built once per distinct board.

    Returns
    -------
    networkx.DiGraph
        Nodes are the board's points in board order, with attribute ``xy`` (the point's lattice
        coordinates). There is an edge ``(a, b)`` for every ordered pair of distinct points,
        with attribute ``displacement`` = ``xy(b) - xy(a)``. Do not modify it: it is cached.

    Examples
    --------
    >>> digraph = displacement_digraph(Board())
    >>> digraph.number_of_nodes(), digraph.number_of_edges()
    (33, 1056)
    >>> digraph.edges["C", "2NE"]["displacement"]
    (3, 3)
    """
    digraph = nx.DiGraph(name=f"aster-{board.rings}-displacements")
    for point in board.points:
        digraph.add_node(point, **{POSITION: board.coords[point]})
    for tail, (tx, ty) in board.coords.items():
        for head, (hx, hy) in board.coords.items():
            if head != tail:
                digraph.add_edge(tail, head, **{DISPLACEMENT: (hx - tx, hy - ty)})
    return digraph


def pattern_digraph(image: Sequence[Vector], edges: PatternEdges = "pairs") -> nx.DiGraph:
    """One symmetry image of a pattern as a digraph whose edges carry displacement vectors.

    Parameters
    ----------
    image : sequence of (int, int)
        The pattern's points after the symmetry, distinct.
    edges : {"pairs", "star"}, default "pairs"
        ``"pairs"``: an edge for every ordered pair of distinct points. ``"star"``: an edge from
        the first point to each other point. Both fix the image up to translation.

    Returns
    -------
    networkx.DiGraph
        Nodes ``0 … k-1`` in pattern order, with attribute ``xy``; edges with attribute
        ``displacement``, as in :func:`displacement_digraph`.

    Examples
    --------
    >>> sorted(pattern_digraph([(0, 0), (1, 0), (1, 1)], "star").edges(data="displacement"))
    [(0, 1, (1, 0)), (0, 2, (1, 1))]
    """
    digraph = nx.DiGraph()
    for node, xy in enumerate(image):
        digraph.add_node(node, **{POSITION: xy})
    if edges == "pairs":
        pairs = [(i, j) for i in range(len(image)) for j in range(len(image)) if i != j]
    else:
        pairs = [(0, j) for j in range(1, len(image))]
    for i, j in pairs:
        (ix, iy), (jx, jy) = image[i], image[j]
        digraph.add_edge(i, j, **{DISPLACEMENT: (jx - ix, jy - iy)})
    return digraph


def _same_displacement(
    board_edge: Mapping[str, object], pattern_edge: Mapping[str, object]
) -> bool:
    return board_edge[DISPLACEMENT] == pattern_edge[DISPLACEMENT]


def _same_position(board_node: Mapping[str, object], pattern_node: Mapping[str, object]) -> bool:
    return board_node[POSITION] == pattern_node[POSITION]


def vf2_placements(
    board: Board,
    pattern: Sequence[Vector],
    transforms: Transforms = DEFAULT_TRANSFORMS,
    *,
    edges: PatternEdges = "pairs",
) -> list[Placement]:
    """Every distinct placement of ``pattern`` on ``board``, found by VF2 subgraph matching.

    For each symmetry allowed by ``transforms``, the pattern's image becomes a digraph whose
    edges carry displacement vectors (:func:`pattern_digraph`), and every subgraph
    monomorphism of it into the board's displacement digraph (:func:`displacement_digraph`)
    under an ``edge_match`` on the displacement is one translation of the image onto board
    points. ``exact`` matches the identity image with a ``node_match`` on absolute positions
    instead of allowing translations.

    Parameters
    ----------
    board : Board
        The board.
    pattern : sequence of (int, int)
        The constellation's lattice points: at least one, no repeats.
    transforms : Transforms, default ``translate+rotate+reflect``
        A8: which transforms of the pattern count (``exact``, ``translate``,
        ``translate+rotate``, ``translate+rotate+reflect``).
    edges : {"pairs", "star"}, default "pairs"
        Which pattern edges are matched (see :func:`pattern_digraph`); the answer is the same.

    Returns
    -------
    list of frozenset of str
        The placements as sets of point names, in the order of
        :func:`asterion.models.aster_patterns.sort_placements`: the same list that
        :func:`asterion.models.aster_patterns.placements` returns.

    Raises
    ------
    InputError
        If the pattern is empty or repeats a point.

    See Also
    --------
    asterion.models.aster_patterns.placements : the enumeration this cross-checks.
    networkx.algorithms.isomorphism.DiGraphMatcher.subgraph_monomorphisms_iter

    Notes
    -----
    The board digraph is complete, so VF2's structural pruning does nothing here: every
    unmapped board point is a candidate for every pattern point, and only the ``edge_match``
    rejects. Each search costs about ``n · k · n`` feasibility checks for ``n`` board points
    and ``k`` pattern points, each walking a candidate's ``n - 1`` neighbours.

    References
    ----------
    .. [1] L. P. Cordella, P. Foggia, C. Sansone, M. Vento, "A (sub)graph isomorphism
       algorithm for matching large graphs", IEEE Transactions on Pattern Analysis and Machine
       Intelligence 26(10), 1367-1372, 2004.

    Examples
    --------
    The worked examples of rules/aster.md:

    >>> board = Board()
    >>> len(vf2_placements(board, [(0, 0), (1, 0)], Transforms.TRANSLATE))
    12
    >>> len(vf2_placements(board, [(0, 0)])), len(vf2_placements(board, [(0, 0), (1, 1)]))
    (33, 28)
    >>> [sorted(placement) for placement in vf2_placements(board, [(0, 0), (3, 3)], "exact")]
    [['2NE', 'C']]
    """
    image = list(pattern)
    if not image:
        raise InputError("the pattern has no points")
    if len(set(image)) != len(image):
        raise InputError("the pattern repeats a point")
    transforms = Transforms(transforms)  # a plain "exact" string must not mean translate
    board_digraph = displacement_digraph(board)
    found: set[Placement] = set()
    if transforms is Transforms.EXACT:
        matcher = DiGraphMatcher(
            board_digraph,
            pattern_digraph(image, edges),
            node_match=_same_position,
            edge_match=_same_displacement,
        )
        found.update(frozenset(mapping) for mapping in matcher.subgraph_monomorphisms_iter())
        return sort_placements(board, found)
    for matrix in symmetries(transforms):
        found.update(_translations(board_digraph, _image(matrix, image), edges))
    return sort_placements(board, found)


def _image(matrix: Matrix, pattern: Sequence[Vector]) -> list[Vector]:
    return [transform(matrix, point) for point in pattern]


def _translations(
    board_digraph: nx.DiGraph, image: Sequence[Vector], edges: PatternEdges
) -> set[Placement]:
    """The point sets of all translations of ``image`` onto the board: one VF2 search."""
    matcher = DiGraphMatcher(
        board_digraph, pattern_digraph(image, edges), edge_match=_same_displacement
    )
    return {frozenset(mapping) for mapping in matcher.subgraph_monomorphisms_iter()}
