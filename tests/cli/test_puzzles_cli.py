"""``asterion aster puzzles``, ``asterion nacht puzzles`` and ``asterion puzzles booklet``:
generation (same seed, same bytes, whatever the worker count), check, play, booklet, bad input."""

from __future__ import annotations

import base64
import contextlib
import json
import re
import sys
import zlib
from pathlib import Path

import pytest
from clirun import run, runner, write

from asterion.cli import app


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def aster_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("aster")
    code, stdout, _ = run(
        "aster", "puzzles", "generate", "--count", "2", "--difficulty", "medium",
        "--seed", "3", "--out", str(out), "--workers", "1", "--json",
    )  # fmt: skip
    assert code == 0
    summary = json.loads(stdout)
    assert summary["count"] == 2 and len(summary["puzzles"]) == 2
    return out


def test_same_seed_same_bytes_with_two_workers(aster_dir: Path, tmp_path: Path) -> None:
    code, _, _ = run(
        "aster", "puzzles", "generate", "--count", "2", "--difficulty", "medium",
        "--seed", "3", "--out", str(tmp_path), "--workers", "2", "--json",
    )  # fmt: skip
    assert code == 0
    assert _files(tmp_path) == _files(aster_dir)
    assert len(_files(tmp_path)) == 8  # puzzle, solution, two pictures each


def test_check_reproves_and_shows_the_solution(aster_dir: Path) -> None:
    puzzle = sorted(aster_dir.glob("aster-3-*[0-9].json"))[0]
    code, out, _ = run("aster", "puzzles", "check", str(puzzle), "--show-solution", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["unique"] is True and document["shortest_plans"] == 1
    solution = json.loads(puzzle.with_name(puzzle.stem + ".solution.json").read_text())
    assert document["plan"] == solution["plan"]
    code, out, _ = run("aster", "puzzles", "check", str(puzzle), "--show-solution")
    assert code == 0 and "unique" in out and "1." in out


def _moves(solution: dict[str, object]) -> str:
    lines = []
    for item in solution["plan"]:  # type: ignore[attr-defined]
        if "point" in item:
            lines.append(f"{item['action']} {item['point']}")
        else:
            lines.append(f"{item['action']} {item['from']} {item['to']}")
    return "\n".join(lines) + "\n"


def test_play_the_solution_reaches_the_target(aster_dir: Path) -> None:
    puzzle = sorted(aster_dir.glob("aster-3-*[0-9].json"))[0]
    solution = json.loads(puzzle.with_name(puzzle.stem + ".solution.json").read_text())
    result = runner.invoke(app, ["aster", "puzzles", "play", str(puzzle)], input=_moves(solution))
    assert result.exit_code == 0, result.stdout
    assert "shortest plan. Solved!" in result.stdout


def test_play_nonsense_then_quit(aster_dir: Path) -> None:
    puzzle = sorted(aster_dir.glob("aster-3-*[0-9].json"))[0]
    typed = "fly away\nC 9Z\nundo\nhelp\nquit\n"
    result = runner.invoke(app, ["aster", "puzzles", "play", str(puzzle)], input=typed)
    assert result.exit_code == 1
    assert "not understood" in result.stdout and "nothing to undo" in result.stdout


def test_play_a_file_whose_target_already_stands(tmp_path: Path) -> None:
    # 4N and C hold red stars: the pair [[0, 0], [0, 1]] stands before any move.
    standing = {
        **NOT_UNIQUE,
        "position": {**NOT_UNIQUE["position"], "stars": {"4N": "red", "C": "red"}},
    }
    path = write(tmp_path, standing, "standing.json")
    result = runner.invoke(app, ["aster", "puzzles", "play", path], input="quit\n")
    assert result.exit_code == 0 and "the target already stands: solved" in result.stdout


NOT_UNIQUE = {
    "format": "asterion.aster-puzzle/1",
    "id": "three-ways",
    "position": {
        "stars": {"4N": "red", "4S": "blue"},
        "player": "red",
        "players": ["red", "blue"],
        "actions": ["nudge", "move_line"],
    },
    "target": {"pattern": [[0, 0], [0, 1]]},
}


def test_check_says_not_unique(tmp_path: Path) -> None:
    code, out, _ = run("aster", "puzzles", "check", write(tmp_path, NOT_UNIQUE))
    assert code == 1 and "NOT unique: 3" in out


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "asterion.aster-puzzle/0"}, "format"),
        ({"position": {"stars": {"4N": "red", "C": "purple"}}}, "position.stars.C"),
        ({"target": {"pattern": [[0, 0], [8, 8], [1, 0]]}}, "cannot fit"),
    ],
)
def test_bad_puzzle_is_one_line_exit_2(
    tmp_path: Path, change: dict[str, object], words: str
) -> None:
    code, _, err = run("aster", "puzzles", "check", write(tmp_path, {**NOT_UNIQUE, **change}))
    assert code == 2
    assert err.count("\n") == 1 and words in err


def test_bad_options_exit_2(tmp_path: Path) -> None:
    code, _, err = run(
        "aster", "puzzles", "generate", "--difficulty", "fiendish", "--out", str(tmp_path)
    )
    assert code == 2 and "fiendish" in err
    code, _, err = run("aster", "puzzles", "generate", "--backend", "mpi", "--out", str(tmp_path))
    assert code == 2 and "backend" in err


# -- Nacht --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nacht_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("nacht")
    for source in ("edge", "sky"):
        code, _, _ = run(
            "nacht", "puzzles", "generate", "--count", "1", "--difficulty", "medium",
            "--seed", "2", "--source", source, "--out", str(out), "--workers", "1",
        )  # fmt: skip
        assert code == 0
    return out


def _tiles(solution: dict[str, list[list[object]]]) -> str:
    """The lines that lay every tile of a solution (``grid`` and ``turns``) in ``play``."""
    return "".join(
        f"{tile} {r + 1} {c + 1} {turn}\n"
        for r, (ids, turns) in enumerate(zip(solution["grid"], solution["turns"], strict=True))
        for c, (tile, turn) in enumerate(zip(ids, turns, strict=True))
    )


def test_nacht_check_and_play(nacht_dir: Path) -> None:
    for puzzle in sorted(nacht_dir.glob("nacht-*[0-9].json")):
        code, out, _ = run("nacht", "puzzles", "check", str(puzzle), "--json", "--show-solution")
        assert code == 0
        document = json.loads(out)
        assert document["unique"] is True
        typed = _tiles(document)
        result = runner.invoke(app, ["nacht", "puzzles", "play", str(puzzle)], input=typed)
        assert result.exit_code == 0 and "solved" in result.stdout


def test_nacht_play_refuses_turn_counts_outside_0_to_3(nacht_dir: Path) -> None:
    puzzle = sorted(nacht_dir.glob("nacht-*[0-9].json"))[0]
    tile = json.loads(puzzle.read_text())["tileset"]["tiles"][0]["id"]
    typed = f"{tile} 1 1 9999999999999999999999\n{tile} 1 1 -1\nquit\n"
    result = runner.invoke(app, ["nacht", "puzzles", "play", str(puzzle)], input=typed)
    assert result.stdout.count("turns are 0-3 quarter turns clockwise") == 2


ALIKE = "2 2\n0 1 1 0\n1 0 0 1\n0 0 1 1\n1 1 0 0\n"


def test_nacht_check_not_unique(tmp_path: Path) -> None:
    from asterion.models.nacht_files import parse_tileset, tileset_to_data

    tileset = tileset_to_data(parse_tileset(ALIKE, "alike.txt"))
    document = {"format": "asterion.nacht-puzzle/1", "id": "alike", "tileset": tileset}
    code, out, _ = run("nacht", "puzzles", "check", write(tmp_path, document))
    assert code == 1 and "NOT unique" in out
    document["format"] = "asterion.nacht-puzzle/2"
    code, _, err = run("nacht", "puzzles", "check", write(tmp_path, document))
    assert code == 2 and "format" in err


# -- booklet ------------------------------------------------------------------------------------


def _booklet(aster_dir: Path, nacht_dir: Path, out: Path) -> Path:
    """The booklet of the 2 Aster and 2 Nacht puzzles, written to ``out``."""
    for folder in (aster_dir, nacht_dir):
        for path in folder.iterdir():
            (out.parent / path.name).write_bytes(path.read_bytes())
    code, stdout, _ = run("puzzles", "booklet", str(out.parent), "--out", str(out))
    assert code == 0 and "4 puzzles" in stdout
    return out


def test_booklet_embeds_pictures_with_solutions_at_the_back(
    aster_dir: Path, nacht_dir: Path, tmp_path: Path
) -> None:
    page = _booklet(aster_dir, nacht_dir, tmp_path / "book.html").read_text()
    assert page.count('<section class="puzzle ') == 4
    assert page.count('<section class="solution ') == 4
    assert page.index("<h2>Solutions</h2>") > page.rindex('<section class="puzzle ')
    assert page.count('<a href="#p') == 4 and page.count('<a href="#s') == 4  # contents, links
    marker = 'src="data:image/svg+xml;base64,'
    assert page.count(marker) == 4 + 2 + 4  # starts, the 2 Aster target shapes, solutions
    first = page.split(marker, 1)[1].split('"', 1)[0]
    assert base64.b64decode(first).decode().lstrip().startswith("<svg")


def _pdf_pages(data: bytes) -> int:
    """Pages of a PDF: by pypdfium2 when installed, else by the page objects (WeasyPrint packs
    them into compressed object streams, so those are inflated first)."""
    try:
        import pypdfium2
    except ImportError:
        chunks = [data]
        for stream in re.findall(rb"stream\r?\n(.*?)endstream", data, re.DOTALL):
            with contextlib.suppress(zlib.error):
                chunks.append(zlib.decompress(stream))
        return sum(len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", c)) for c in chunks)
    return len(pypdfium2.PdfDocument(data))


def test_booklet_as_pdf(aster_dir: Path, nacht_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("weasyprint")
    data = _booklet(aster_dir, nacht_dir, tmp_path / "book.pdf").read_bytes()
    assert data.startswith(b"%PDF")
    assert _pdf_pages(data) == 1 + 2 + 2  # the cover, then two puzzles and two solutions a page


def test_booklet_pdf_without_weasyprint(
    aster_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # ``import weasyprint`` fails
    out = tmp_path / "book.pdf"
    code, _, err = run("puzzles", "booklet", str(aster_dir), "--out", str(out))
    assert code == 2 and "asterion[pdf]" in err and err.count("\n") == 1
    assert not out.exists()


def test_booklet_refuses_foreign_json(tmp_path: Path) -> None:
    write(tmp_path, {"format": "something/1"}, "odd.json")
    code, _, err = run("puzzles", "booklet", str(tmp_path), "--out", str(tmp_path / "b.html"))
    assert code == 2 and "odd.json" in err


def test_booklet_of_no_puzzles_says_so_and_writes_nothing(tmp_path: Path) -> None:
    empty, out = tmp_path / "empty", tmp_path / "b.html"
    empty.mkdir()
    code, _, err = run("puzzles", "booklet", str(empty), "--out", str(out))
    assert code == 2 and err == f"asterion: error: {empty}: no puzzle files in this folder\n"
    assert not out.exists()


# -- with no file: the first puzzles `generate` makes with its defaults ------------------------

FIRST = {"aster": "aster-0-0000", "nacht": "nacht-edge-0-0000"}
"""The first puzzle of each game's `generate` with its defaults (the help names it)."""


@pytest.fixture(scope="module")
def defaults_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What `generate --count 2 --seed 0` writes for both games, with the other defaults."""
    out = tmp_path_factory.mktemp("defaults")
    for game in FIRST:
        code, stdout, _ = run(
            game, "puzzles", "generate", "--count", "2", "--seed", "0", "--out", str(out),
            "--workers", "1", "--json",
        )  # fmt: skip
        assert code == 0 and json.loads(stdout)["puzzles"][0]["id"] == FIRST[game]
    return out


@pytest.mark.parametrize("game", FIRST)
def test_check_with_no_file_proves_the_first_generated_puzzle(
    defaults_dir: Path, game: str
) -> None:
    check = (game, "puzzles", "check", "--json", "--show-solution")
    code, out, _ = run(*check)
    assert code == 0
    document = json.loads(out)
    assert document["id"] == FIRST[game] and document["unique"] is True
    assert document == json.loads(run(*check, str(defaults_dir / f"{FIRST[game]}.json"))[1])
    assert FIRST[game] in run(game, "puzzles", "check", "--help")[1]


@pytest.mark.parametrize("game", FIRST)
def test_play_with_no_file_is_solved_by_the_first_generated_solution(
    defaults_dir: Path, game: str
) -> None:
    solution = json.loads((defaults_dir / f"{FIRST[game]}.solution.json").read_text())
    typed = _moves(solution) if game == "aster" else _tiles(solution)
    result = runner.invoke(app, [game, "puzzles", "play"], input=typed)
    assert result.exit_code == 0, result.stdout
    assert result.stdout.startswith(f"{FIRST[game]}:") and "solved" in result.stdout.lower()


@pytest.mark.parametrize("game", FIRST)
def test_no_file_and_no_default_puzzle_is_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    from asterion.puzzles import aster, nacht

    module = aster if game == "aster" else nacht
    failed = module.Generated(0, None, None, 1, 0)
    monkeypatch.setattr(module, "generate_puzzle", lambda *args, **kwargs: failed)
    for command in ("check", "play"):
        code, out, err = run(game, "puzzles", command)
        assert (code, out) == (2, "")
        assert (
            err == "asterion: error: no FILE given, and the default puzzle could not be generated\n"
        )


def test_booklet_with_no_folder_is_the_booklet_of_the_first_generated_puzzles(
    defaults_dir: Path, tmp_path: Path
) -> None:
    made, expected = tmp_path / "made.html", tmp_path / "expected.html"
    code, out, _ = run("puzzles", "booklet", "--out", str(made))
    assert (code, out) == (0, f"{made}: 4 puzzles\n")
    code, _, _ = run("puzzles", "booklet", str(defaults_dir), "--out", str(expected))
    assert code == 0 and made.read_bytes() == expected.read_bytes()
    page = made.read_text()
    assert page.count('<section class="puzzle ') == 4
    ids = ["aster-0-0000", "aster-0-0001", "nacht-edge-0-0000", "nacht-edge-0-0001"]
    assert all(f"{n}. {i}</a>" in page for n, i in enumerate(ids, start=1))  # the contents


def test_sky_puzzles_from_a_chart_file(tmp_path: Path) -> None:
    from importlib import resources

    chart = resources.files("asterion.data").joinpath("nacht_chart.json").read_text()
    path = write(tmp_path, chart, "chart.json")
    code, out, _ = run(
        "nacht", "puzzles", "generate", "--count", "1", "--difficulty", "easy",
        "--chart", path, "--out", str(tmp_path / "p"), "--workers", "1", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["puzzles"][0]["id"].startswith("nacht-sky-")
    bad = write(tmp_path, {"format": "asterion.chart/1", "name": "x"}, "bad.json")
    code, _, err = run("nacht", "puzzles", "generate", "--chart", bad, "--out", str(tmp_path))
    assert code == 2 and "bad.json" in err


def _two_star_chart(span: float) -> dict[str, object]:
    stars = [{"x": 0, "y": 0, "mag": 1}, {"x": span, "y": span, "mag": 1}]
    return {
        "format": "asterion.chart/1",
        "constellations": [{"abbr": "A", "stars": stars, "lines": [[0, 1]]}],
    }


@pytest.mark.parametrize("span", [0.0, 1e-12, 0.0119])
def test_a_chart_too_small_to_cut_windows_from_is_refused_by_name(
    tmp_path: Path, span: float
) -> None:
    # Windows go down to half the stars' extent, cut into up to 6 x 6 tiles of 0.001 at the
    # least (the cutter's floor): 0.012 chart units each way. Before, the cutter refused the
    # first window with a line about "viewport", an option this command does not have.
    path = write(tmp_path, _two_star_chart(span), "small.json")
    code, out, err = run("nacht", "puzzles", "generate", "--chart", path, "--out", str(tmp_path))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(f"asterion: error: {path}: constellations: the stars span")
    assert "0.012" in err and "viewport" not in err


def test_a_chart_just_wide_enough_passes_the_extent_check(tmp_path: Path) -> None:
    from asterion.puzzles.nacht import chart_at

    path = write(tmp_path, _two_star_chart(0.0121), "wide.json")
    assert chart_at(path).bounds() == (0, 0, 0.0121, 0.0121)


def test_a_ray_that_does_not_start_is_one_line_and_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ray's start can time out on a busy machine: a traceback then exited with 1 ("no").
    import sys
    import types

    def init(**kwargs: object) -> None:
        raise RuntimeError("The current node timed out during startup.\nSecond line.")

    fake = types.SimpleNamespace(is_initialized=lambda: False, init=init)
    monkeypatch.setitem(sys.modules, "ray", fake)
    out_dir = str(tmp_path / "p")
    code, out, err = run(
        "aster", "puzzles", "generate", "--count", "1", "--out", out_dir, "--backend", "ray"
    )
    assert (code, out) == (2, "")
    assert err == (
        "asterion: error: --backend: Ray did not start: The current node timed out during"
        " startup.\n"
    )


@pytest.mark.parametrize("game", ["aster", "nacht"])
def test_play_gives_a_hint_to_type(game: str) -> None:
    result = runner.invoke(app, [game, "puzzles", "play"], input="hint\nquit\n")
    assert result.exit_code == 1
    assert re.search(r"> hint: '[^']+'", result.stdout), result.stdout
