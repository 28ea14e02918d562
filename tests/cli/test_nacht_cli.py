"""``asterion nacht``: verify, solve, cut, convert, schema, and bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from clirun import puzzle_text, run, write
from rich.console import Console

from asterion.models.edge_puzzles import generate
from asterion.models.edges import EdgeProblem, Placement, check_arrangement
from asterion.models.nacht import edge_problem
from asterion.models.nacht_files import default_tileset, load_tileset
from asterion.solver.nacht_solve import run_engine

# A 2x2 puzzle worked by hand: the solved grid is
#   (0,1,2,0) (0,0,3,1)
#   (2,4,0,0) (3,0,0,4)
# every inner color is used by exactly one pair of sides, so the cyclic order of the four
# corners is forced: one arrangement up to turning the picture. Pieces listed turned.
FORCED = "2 2\n0 0 3 1\n1 2 0 0\n0 2 4 0\n0 4 3 0\n"

# Four copies of one corner piece: any order works (4! = 24 arrangements, each piece's turn
# forced by its corner), and each class under quarter turns of the picture has 4 members.
ALIKE = "2 2\n0 1 1 0\n1 0 0 1\n0 0 1 1\n1 1 0 0\n"


def test_shipped_sky_is_consistent_and_unique() -> None:
    code, out, _ = run("nacht", "verify", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["consistent"] is True
    assert report["solutions"] == 1
    assert report["problems"] == []
    assert len(report["constellations"]) == default_tileset().expected_constellations == 14


def test_solve_json_grid_passes_an_independent_recheck(tmp_path: Path) -> None:
    path = write(tmp_path, FORCED, "forced.txt")
    code, out, _ = run("nacht", "solve", path, "--json", "--count-limit", "10")
    answer = json.loads(out)
    assert code == 0
    assert list(answer) == ["status", "solutions", "grid", "rotations"]
    assert answer["solutions"] == 1
    pieces = [(0, 0, 3, 1), (1, 2, 0, 0), (0, 2, 4, 0), (0, 4, 3, 0)]
    problem = EdgeProblem(tuple(pieces), 2, 2, rotations=True)
    arrangement = tuple(
        tuple(Placement(int(tile), turns) for tile, turns in zip(ids, row, strict=True))
        for ids, row in zip(answer["grid"], answer["rotations"], strict=True)
    )
    assert check_arrangement(problem, arrangement) == []


def test_solve_out_of_time_is_unknown_never_no(tmp_path: Path) -> None:
    # 8x8 3/8: no arrangement found in 45 minutes of search (docs/benchmarks.md), though
    # the generator planted one; a fraction of a second can only answer unknown.
    problem = generate(8, 8, 3, 8, seed=0)
    path = write(tmp_path, puzzle_text(problem), "hard.txt")
    code, out, _ = run("nacht", "solve", path, "--time-limit", "0.3", "--json")
    assert code == 3
    assert json.loads(out) == {"status": "unknown", "solutions": 0, "grid": None, "rotations": None}
    code, out, _ = run("nacht", "solve", path, "--time-limit", "0.3")
    assert code == 3
    assert out.startswith("unknown: no arrangement found within the time limit")
    assert "--time-limit" in out


def test_solve_summary_counts_in_words(tmp_path: Path) -> None:
    # FORCED has one arrangement: "exactly 1 arrangement", not "arrangement(s)"
    code, out, _ = run(
        "nacht", "solve", write(tmp_path, FORCED, "forced.txt"), "--count-limit", "10"
    )
    assert code == 0 and out.startswith("exactly 1 arrangement, up to turning")


@pytest.mark.parametrize("engine", ["cp-sat", "search"])
@pytest.mark.parametrize("limit", ["100", str(10**18)])
def test_alike_pieces_count_six_classes(tmp_path: Path, engine: str, limit: str) -> None:
    path = write(tmp_path, ALIKE, "alike.txt")
    code, out, _ = run("nacht", "solve", path, "--json", "--count-limit", limit, "--engine", engine)
    assert code == 0
    assert json.loads(out)["solutions"] == 24 // 4


def test_count_limit_beyond_the_maximum_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, ALIKE, "alike.txt")
    code, _, err = run("nacht", "solve", path, "--count-limit", str(10**18 + 1))
    assert code == 2
    assert "--count-limit" in err


def test_verify_reports_interchangeable_pieces_and_exits_1(tmp_path: Path) -> None:
    path = write(tmp_path, ALIKE, "alike.txt")
    code, out, _ = run("nacht", "verify", path, "--json")
    report = json.loads(out)
    assert code == 1
    assert report["consistent"] is False
    codes = {p["code"] for p in report["problems"]}
    assert {"duplicate-tile", "not-unique"} <= codes


def _printed_arrangements(out: str, width: int) -> list[tuple[tuple[Placement, ...], ...]]:
    """The arrangements a text report prints, side by side, in the lines after its key line
    (cells ``id`` or ``id+k``)."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if "row 0 = north" in line) + 1
    grids: list[list[tuple[Placement, ...]]] = []
    for line in lines[start:]:
        for g, part in enumerate(line.split("|")):
            cells = part.split()
            assert len(cells) == width
            row = tuple(
                Placement(int(c.partition("+")[0]), int(c.partition("+")[2] or 0)) for c in cells
            )
            grids.extend([] for _ in range(g + 1 - len(grids)))
            grids[g].append(row)
    return [tuple(grid) for grid in grids]


@pytest.mark.parametrize("command", ["solve", "verify"])
def test_printed_arrangements_show_turns_that_fit(tmp_path: Path, command: str) -> None:
    # Pieces turned at random by the generator: a grid printed without its turns would not
    # fit, so each printed arrangement is checked side by side, independently of the report.
    problem = generate(4, 4, 2, 3, seed=0)
    code, out, _ = run("nacht", command, write(tmp_path, puzzle_text(problem), "turned.txt"))
    assert code in (0, 1)
    printed = _printed_arrangements(out, 4)
    assert len(printed) == (1 if command == "solve" else 2)  # verify shows two when not unique
    assert any(p.turns for grid in printed for row in grid for p in row)
    for arrangement in printed:
        assert check_arrangement(problem, arrangement) == []


def test_no_arrangement_exits_1(tmp_path: Path) -> None:
    # FORCED with one 3 made a 5: colors 3 and 5 have no partner, so no arrangement fits.
    path = write(tmp_path, "2 2\n0 0 5 1\n1 2 0 0\n0 2 4 0\n0 4 3 0\n", "broken.txt")
    picture = tmp_path / "sky.svg"
    code, out, err = run("nacht", "solve", path, "--json", "--svg", str(picture))
    assert code == 1
    assert json.loads(out)["status"] == "infeasible"
    assert json.loads(out)["grid"] is None
    # no picture, and the user asking for one is told so (on stderr: the JSON stays clean)
    assert not picture.exists() and f"no picture written to {picture}" in err


def test_convert_then_solve_gives_the_same_count(tmp_path: Path) -> None:
    source = write(tmp_path, ALIKE, "alike.txt")
    target = tmp_path / "alike.json"
    assert run("nacht", "convert", source, str(target))[0] == 0
    converted = load_tileset(target)
    assert converted.rotations and converted.generic
    assert [t.id for t in converted.tiles] == ["0", "1", "2", "3"]
    _, out, _ = run("nacht", "solve", str(target), "--json", "--count-limit", "100")
    assert json.loads(out)["solutions"] == 6


def test_convert_without_out_prints_what_it_would_write(tmp_path: Path) -> None:
    source = write(tmp_path, ALIKE, "alike.txt")
    target = tmp_path / "alike.json"
    assert run("nacht", "convert", source, str(target))[0] == 0
    code, out, _ = run("nacht", "convert", source)
    assert code == 0 and out == target.read_text()  # the document alone, no summary line


def test_solve_without_a_file_arranges_the_shipped_sky() -> None:
    code, out, _ = run("nacht", "solve", "--json", "--count-limit", "2")
    assert code == 0
    assert out == run("nacht", "solve", str(_shipped_path()), "--json", "--count-limit", "2")[1]
    answer = json.loads(out)
    assert answer["solutions"] == 1  # the shipped sky is unique (its verify test above)
    ids = {t.id for t in default_tileset().tiles}
    assert sorted(i for row in answer["grid"] for i in row) == sorted(ids)


def test_cut_without_a_chart_reproduces_the_shipped_sky() -> None:
    # docs/nacht.md: the shipped tiles are the shipped chart cut with this viewport and seed.
    code, out, _ = run("nacht", "cut", "--viewport", "0,0,5,5", "--shuffle", "1")
    assert code == 0
    cut_sky = json.loads(out)  # stdout holds the tile set alone
    shipped = json.loads(_shipped_path().read_text())
    # tools/build_nacht_sky.py adds a name in words and the count of constellations
    assert cut_sky["tiles"] == shipped["tiles"] and cut_sky["grid"] == shipped["grid"]
    assert cut_sky["constellations"] == shipped["constellations"]


def test_cut_writes_a_set_the_verifier_accepts(tmp_path: Path) -> None:
    # Tiles of side 2: H stays in the southern row (crossing x = 2 at y = 0.95), V in the
    # western column (crossing y = 2 at x = 1.1); without rotations each tile's chamfers
    # name its corner, so one arrangement, and each line spans two tiles.
    chart = {
        "format": "asterion.chart/1",
        "constellations": [
            {
                "abbr": "H",
                "stars": [{"x": 0.5, "y": 1.3, "mag": 1}, {"x": 3.5, "y": 0.6, "mag": 2}],
                "lines": [[0, 1]],
            },
            {
                "abbr": "V",
                "stars": [{"x": 1.4, "y": 3.6, "mag": 1}, {"x": 0.7, "y": 0.2, "mag": 3}],
                "lines": [[0, 1]],
            },
        ],
    }
    chart_path = write(tmp_path, chart, "chart.json")
    out_path = tmp_path / "set.json"
    code, _, err = run(
        "nacht",
        "cut",
        chart_path,
        "--grid",
        "2x2",
        "--viewport",
        "0,0,4,4",
        "--shuffle",
        "3",
        "--out",
        str(out_path),
    )
    assert code == 0, err
    code, out, _ = run("nacht", "verify", str(out_path), "--json")
    report = json.loads(out)
    assert report["consistent"] is True, report["problems"]
    assert {c["abbr"]: c["tiles"] for c in report["constellations"]} == {"H": 2, "V": 2}


def _one_line_exit_2(code: int, out_path: Path, err: str, *needles: str) -> None:
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert all(needle in err for needle in needles), err
    assert not out_path.exists()


HUGE_CHART = {
    "format": "asterion.chart/1",
    "constellations": [
        {
            "abbr": "A",
            "stars": [{"x": -1e308, "y": 0, "mag": 1}, {"x": 1e308, "y": 1e308, "mag": 1}],
            "lines": [[0, 1]],
        }
    ],
}


@pytest.mark.parametrize(
    ("grid", "viewport", "needle"),
    [
        ("3x2", "0,0,3,nan", "y1 is nan"),  # used to exit 0 with NaN in the file
        ("3x2", "0,0,inf,2", "x1 is inf"),  # the rest used to be tracebacks
        ("3x2", "nan,nan,nan,nan", "x0 is nan"),
        ("2x2", "0,0,1e-320,1e-320", "the least is 0.001"),  # denormal tiles
        ("3x2", "0,0,1e-320,1e-320", "the least is 0.001"),
        ("3x2", "0,0,3e-320,2e-320", "the least is 0.001"),
        ("3x2", "-1e308,-1e308,1e308,1e308", "1e+06"),
        ("2x2", "0,0,2e6,2e6", "x1 is 2000000.0"),
    ],
)
def test_cut_refuses_a_non_finite_or_huge_viewport(
    tmp_path: Path, grid: str, viewport: str, needle: str
) -> None:
    chart_path = str(_shipped_chart_path())
    out_path = tmp_path / "t.json"
    args = ("nacht", "cut", chart_path, "--grid", grid, f"--viewport={viewport}")
    code, _, err = run(*args, "--out", str(out_path))
    _one_line_exit_2(code, out_path, err, "--viewport: ", needle)


@pytest.mark.parametrize(("axis", "value"), [("x", -1e308), ("y", 1e308), ("x", 1000000.5)])
def test_cut_refuses_a_chart_with_huge_coordinates(tmp_path: Path, axis: str, value: float) -> None:
    stars: list[dict[str, float]] = [{"x": 0, "y": 0, "mag": 1}, {"x": 1, "y": 1, "mag": 1}]
    stars[1][axis] = value
    chart = {"format": "asterion.chart/1", "constellations": [{"abbr": "A", "stars": stars}]}
    chart_path = write(tmp_path, chart, "chart.json")
    out_path = tmp_path / "t.json"
    code, _, err = run("nacht", "cut", chart_path, "--grid", "2x2", "--out", str(out_path))
    _one_line_exit_2(
        code, out_path, err, f"chart.json: constellations.0.stars.1.{axis}: ", "1000000"
    )


def test_cut_refuses_the_testers_huge_chart(tmp_path: Path) -> None:
    chart_path = write(tmp_path, HUGE_CHART, "huge.json")
    out_path = tmp_path / "t.json"
    code, _, err = run("nacht", "cut", chart_path, "--grid", "2x2", "--out", str(out_path))
    _one_line_exit_2(code, out_path, err, "huge.json: constellations.0.stars.0.x: ", "1000000")


def test_cut_of_a_one_star_chart_gives_finite_tiles_the_verifier_reads(tmp_path: Path) -> None:
    # No extent: the default viewport falls back to the least tile side, not to zero.
    chart = {
        "format": "asterion.chart/1",
        "constellations": [{"abbr": "A", "stars": [{"x": 1e6, "y": -1e6, "mag": 1}]}],
    }
    out_path = tmp_path / "t.json"
    code, _, err = run(
        "nacht", "cut", write(tmp_path, chart, "one.json"), "--grid", "2x2", "--out", str(out_path)
    )
    assert code == 0, err
    json.loads(out_path.read_text(), parse_constant=pytest.fail)  # NaN/Infinity would call it
    code, _, err = run("nacht", "verify", str(out_path), "--json")
    assert code != 2, err


def test_a_chart_built_in_code_with_huge_coordinates_is_refused_by_the_cutter() -> None:
    from asterion.errors import InputError
    from asterion.models.nacht_cut import Chart, ChartConstellation, cut

    for value in (float("nan"), float("inf"), 1e308):
        star = ChartConstellation("A", "", ((0.0, 0.0, 1.0), (value, 1.0, 1.0), (1, 1, 1)), ())
        with pytest.raises(InputError) as caught:
            cut(Chart("c", (star,)), 2, 2)
        assert caught.value.field == "constellations"
        assert "1e+06" in str(caught.value)


def _shipped_chart_path() -> Path:
    from importlib import resources

    return Path(str(resources.files("asterion.data").joinpath("nacht_chart.json")))


def test_schema_documents_the_tile_fields() -> None:
    code, out, _ = run("nacht", "schema")
    schema = json.loads(out)
    assert code == 0
    assert {"grid", "tiles", "rotations", "constellations"} <= set(schema["properties"])


def test_schema_bounds_the_coordinates_as_the_loader_does(tmp_path: Path) -> None:
    # A checker that trusts the schema must not pass a star the loader refuses (x = 1.2).
    definitions = json.loads(run("nacht", "schema")[1])["$defs"]
    star, segment = (
        definitions["_StarSpec"]["properties"],
        definitions["_SegmentSpec"]["properties"],
    )
    bounds = [star["x"], star["y"], *segment["a"]["prefixItems"], *segment["b"]["prefixItems"]]
    assert all((b["minimum"], b["maximum"]) == (0, 1) for b in bounds)
    tiles = json.loads(_shipped_path().read_text())
    tiles["tiles"][0]["stars"] = [{"x": 1.2, "y": 0.5, "mag": 1.0}]
    code, _, err = run("nacht", "verify", write(tmp_path, tiles, "far.json"))
    assert code == 2 and "outside [0, 1]" in err


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("2 2\n0 0 3 1\n", "1 pieces for a 2x2 grid"),
        ("40 40\n", "32x32"),
        ('{"grid": {"width": 2, "height": 2}, "tiles": [', "not valid JSON"),
        ("2 2\n0 0 3\n0 2 0 0\n4 0 0 3\n1 2 0 0\n", "line 2"),
        ("2 2\n0 0 x 1\n0 2 0 0\n4 0 0 3\n1 2 0 0\n", "integers"),
        # what Python's int() would take but a file of plain integers does not hold
        ("2 2\n0 0 3 1\n0 2 0 0\n4 0 0 3\n1 2 0 4_0\n", "integers"),
        ("2 2\n0 0 3 1\n0 2 0 0\n4 0 0 3\n1 2 0 \u0664\n", "integers"),
        ("2 2\n0 0 3 1\n0 2 0 0\n4 0 0 3\n1 2 0 +4\n", "integers"),
        # more digits than Python's int() converts (4,300), in a color and in the header
        ("2 2\n0 0 3 1\n0 2 0 0\n4 0 0 3\n1 2 0 " + "9" * 5000 + "\n", "0..1000000"),
        ("1" * 5000 + " 2\n", "0..1000000"),
        # a line that is no piece is named, not counted as a fifth piece (# starts a comment)
        ("2 2\nfour pieces:\n0 0 3 1\n0 2 0 0\n4 0 0 3\n1 2 0 0\n", "line 2"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, text: str, needle: str) -> None:
    path = write(tmp_path, text, "bad.txt")
    code, _, err = run("nacht", "solve", path)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1


def chained_document() -> dict[str, object]:
    """A 2 x 2 set whose lines end, read clockwise, at 0.70 on NW's east side (NE's west end
    meets it exactly), 0.685 on NW's south side and, seen from NW, 0.67 on SW's north side:
    0.70 is within N1 of 0.685, 0.685 of 0.67, but 0.70 not of 0.67. A chain of near misses,
    so only the engines that read near colors take it."""

    def tile(tile_id: str, corner: str, ends: list[list[float]]) -> dict[str, object]:
        chamfers = dict.fromkeys(("NE", "NW", "SW", "SE"), False) | {corner: True}
        segments = [{"constellation": "A", "a": [0.5, 0.5], "b": end} for end in ends]
        return {"id": tile_id, "chamfers": chamfers, "stars": [], "segments": segments}

    return {
        "format": "asterion.tileset/1",
        "name": "chain",
        "grid": {"width": 2, "height": 2},
        "constellations": [{"abbr": "A", "name": "A"}],
        "tiles": [
            tile("NW", "SE", [[1.0, 0.30], [0.315, 0.0]]),
            tile("NE", "SW", [[0.0, 0.30]]),
            tile("SW", "NE", [[0.33, 1.0]]),
            tile("SE", "NW", []),
        ],
    }


@pytest.mark.parametrize("engine", ["auto", "propagate", "cp-sat"])
def test_a_chain_of_near_misses_is_solved_as_the_rule_says(tmp_path: Path, engine: str) -> None:
    path = write(tmp_path, chained_document(), "chain.json")
    code, out, _ = run("nacht", "solve", path, "--json", "--count-limit", "5", "--engine", engine)
    assert code == 0
    answer = json.loads(out)
    assert (answer["status"], answer["solutions"]) == ("optimal", 1)
    assert answer["grid"] == [["NW", "NE"], ["SW", "SE"]]


def test_the_search_refuses_a_chain_of_near_misses(tmp_path: Path) -> None:
    path = write(tmp_path, chained_document(), "chain.json")
    code, out, err = run("nacht", "solve", path, "--engine", "search")
    assert code == 2 and out == ""
    assert "--engine" in err and "tolerance" in err
    assert len(err.strip().splitlines()) == 1


def test_unknown_engine_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, FORCED, "forced.txt")
    code, _, err = run("nacht", "solve", path, "--engine", "magic")
    assert code == 2
    assert "unknown engine" in err


def test_shipped_sky_tiles_fit_edge_by_edge() -> None:
    code, out, _ = run("nacht", "solve", str(_shipped_path()), "--json")
    answer = json.loads(out)
    sky = default_tileset()
    index = {tile.id: i for i, tile in enumerate(sky.tiles)}
    arrangement = tuple(tuple(Placement(index[t]) for t in row) for row in answer["grid"])
    assert code == 0
    assert check_arrangement(edge_problem(sky).problem, arrangement) == []


def _shipped_path() -> Path:
    from importlib import resources

    return Path(str(resources.files("asterion.data").joinpath("nacht_sky.json")))


def test_a_long_count_reports_its_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import asterion.cli._common as common

    screen = io.StringIO()
    monkeypatch.setattr(common, "console", Console(file=screen, force_terminal=True, width=100))
    with common.progress_bar("counting") as progress:
        progress(3, 10, "listing bottoms")
    last = screen.getvalue().split("\r")[-2]  # the bar's final state, before it is cleared
    assert "listing bottoms" in last and "3/10" in last


@pytest.mark.parametrize(
    ("args", "label", "status"),
    [
        (("solve",), "searching", 0),
        (("verify",), "verifying", 1),  # one color: more than one arrangement
        (("solve", "--count-limit", "5"), "counting", 0),
    ],
)
def test_a_terminal_sees_the_time_so_far(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: tuple[str, ...], label: str, status: int
) -> None:
    import asterion.cli._common as common

    screen = io.StringIO()
    monkeypatch.setattr(common, "console", Console(file=screen, force_terminal=True, width=100))
    puzzle = write(tmp_path, "2 2\n0 1 1 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n", "p.txt")
    code, _, _ = run("nacht", args[0], puzzle, *args[1:])
    assert code == status
    shown = screen.getvalue()
    assert label in shown and "0:00:0" in shown  # the bar and its elapsed time
    assert ("0/?" in shown) is (label == "counting")  # no count where none is told


def test_solve_tells_the_search_s_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    # A 6x6 set is counted by subtrees (the frame's); each finished one is told of, the last
    # with done == total. (A long limit: on a fresh machine the loops compile first, some
    # seconds, more on a busy machine; a count cut short by the clock tells of fewer.)
    calls: list[tuple[int, int, str]] = []
    problem = generate(6, 6, 3, 5, seed=2)
    result = run_engine(
        problem,
        "search",
        count_limit=10**9,
        time_limit=600,
        progress=lambda *call: calls.append(call),
    )
    assert result.complete and calls
    done, total, _ = calls[-1]
    assert done == total > 1


@pytest.mark.parametrize("where", ["missing/puzzle.svg", "."])
def test_a_picture_that_cannot_be_written_is_refused_before_the_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # Found out after the search, the refusal would lose its answer: exit 2, no summary.
    import asterion.solver.nacht_solve as nacht_solve

    def search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched before the picture's path was checked")

    monkeypatch.setattr(nacht_solve, "run_engine", search)
    puzzle = write(tmp_path, puzzle_text(generate(4, 4, 2, 3, seed=0)), "puzzle.txt")
    picture = tmp_path / where
    code, out, err = run("nacht", "solve", puzzle, "--svg", str(picture))
    words = " ".join(err.replace("│", " ").split())  # typer's panel here, in-process
    assert (code, out) == (2, "") and "cannot write the picture" in words
    assert not picture.exists() or picture.is_dir()


def test_solve_names_a_seed_too_large_for_cp_sat() -> None:
    code, out, err = run("nacht", "solve", "--engine", "cp-sat", "--seed", str(-(2**31) - 1))
    assert (code, out) == (2, "")
    assert "Invalid value for '--seed'" in err and "offer" not in err
