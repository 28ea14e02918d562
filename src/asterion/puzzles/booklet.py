"""A printable booklet: a folder of puzzles as one HTML page, solutions at the back.

Every puzzle file in the folder (Aster or Nacht, told apart by ``format``) is read and
validated; its picture is the ``ID.svg`` written next to it (drawn afresh if missing), and its
solution the ``ID.solution.json`` and ``ID.solution.svg`` (re-proved if missing). Pictures are
embedded as data URIs, so the page stands alone; print styles keep each puzzle on one page,
about two to a page.
"""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asterion.errors import InputError
from asterion.models.files import read_json_file
from asterion.puzzles import aster, nacht

STYLE = """
body { font-family: Georgia, 'Times New Roman', serif; color: #1d2233; margin: 0 auto;
       max-width: 52rem; padding: 1.5rem; line-height: 1.4; }
h1 { font-size: 2rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.5rem; border-bottom: 2px solid #1d2233; padding-bottom: 0.2rem;
     margin-top: 2.5rem; }
.intro { color: #4a5068; }
.puzzle, .solution { break-inside: avoid; page-break-inside: avoid; margin: 1.6rem 0;
     padding: 1rem 1.2rem; border: 1px solid #c9cde0; border-radius: 8px; }
.puzzle h3, .solution h3 { margin: 0 0 0.4rem 0; font-size: 1.15rem; }
.badge { display: inline-block; font: bold 0.75rem sans-serif; text-transform: uppercase;
         letter-spacing: 0.05em; padding: 0.15rem 0.5rem; border-radius: 1rem;
         margin-left: 0.5rem; vertical-align: middle; color: white; }
.easy { background: #3c8d4f; } .medium { background: #2f6db3; }
.hard { background: #c26a1b; } .expert { background: #a3243b; }
.task { margin: 0.3rem 0 0.8rem 0; }
.task b { font-variant: small-caps; }
.figure { display: flex; gap: 1rem; align-items: flex-start; flex-wrap: wrap; }
.figure .board { flex: 1 1 20rem; max-width: 26rem; }
.figure img { width: 100%; height: auto; }
.shape { flex: 0 0 7rem; text-align: center; font: 0.8rem sans-serif; color: #4a5068; }
.shape img { width: 6rem; height: 6rem; }
.solution img { width: 100%; height: auto; }
.solution .board { max-width: 100%; }
ol.plan { margin: 0.3rem 0 0.6rem 1.2rem; }
table.grid { border-collapse: collapse; margin: 0.4rem 0; font: 0.85rem monospace; }
table.grid td { border: 1px solid #c9cde0; padding: 0.15rem 0.4rem; text-align: center; }
@media print {
  body { max-width: none; padding: 0; }
  h2 { page-break-before: always; }
  h2.first { page-break-before: avoid; }
  .puzzle, .solution { border: none; }
}
"""


@dataclass(frozen=True)
class Entry:
    """One puzzle of the booklet: its HTML for the front and for the back."""

    id: str
    front: str
    back: str


def _svg(text: str, alt: str) -> str:
    """An SVG document as an image with a data URI: standalone, and its styles and ids stay
    its own (inline SVG styles would apply to the whole page)."""
    data = base64.b64encode(text.strip().encode("utf-8")).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/svg+xml;base64,{data}">'


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def pattern_svg(pattern: tuple[tuple[int, int], ...]) -> str:
    """The target's shape: its stars as dots on a lattice, for the puzzle card."""
    xs, ys = [p[0] for p in pattern], [p[1] for p in pattern]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1)
    step = 80 / span
    dots = []
    for x, y in pattern:
        cx = 10 + (x - min(xs)) * step + (80 - (max(xs) - min(xs)) * step) / 2
        cy = 10 + (max(ys) - y) * step + (80 - (max(ys) - min(ys)) * step) / 2
        dots.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="6" fill="#f2c94c" stroke="#1d2233"/>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        '<rect width="100" height="100" rx="8" fill="#101a3a"/>' + "".join(dots) + "</svg>"
    )


def plan_words(item: dict[str, Any]) -> str:
    """A solution step in words: ``turn 1: move_line 2NE → 4NE``."""
    where = item.get("point") or f"{item.get('from')} → {item.get('to')}"
    if item["action"] == "supernova":
        where = ""
    return f"turn {item['turn']}: {item['action'].replace('_', ' ')} {where}".rstrip()


def _badge(difficulty: str | None) -> str:
    if not difficulty:
        return ""
    return f'<span class="badge {html.escape(difficulty)}">{html.escape(difficulty)}</span>'


def aster_entry(puzzle: aster.AsterPuzzle, folder: Path, number: int) -> Entry:
    state = puzzle.state
    picture = _read(folder / f"{puzzle.id}.svg") or aster.puzzle_svg(puzzle)
    actions = ", ".join(a.value.replace("_", " ") for a in state.actions)
    turns = "one turn" if puzzle.turns == 1 else f"{puzzle.turns} turns (others pass)"
    shortest = ""
    if puzzle.grade is not None:
        shortest = f" in <b>{puzzle.grade.min_actions} actions</b>"
    difficulty = puzzle.difficulty.value if puzzle.difficulty else None
    front = (
        f'<section class="puzzle" id="p{number}"><h3>{number}. {html.escape(puzzle.id)}'
        f"{_badge(difficulty)}</h3>"
        f'<p class="task">{html.escape(state.player.value.title())} to play. Form '
        f"<b>{html.escape(puzzle.target_name)}</b>{shortest}, using the actions "
        f"<b>{html.escape(actions)}</b> in this order (each at most once, any skipped), "
        f"in {turns}. Stars of any color count.</p>"
        f'<div class="figure"><div class="board">{_svg(picture, "the start")}</div>'
        f'<div class="shape">{_svg(pattern_svg(puzzle.pattern), "the target")}<br>the target, '
        "turned or mirrored as you like</div></div></section>"
    )
    solution = _read(folder / f"{puzzle.id}.solution.json")
    plan: list[dict[str, Any]] = []
    if solution is not None:
        plan = json.loads(solution).get("plan", [])
    else:
        count = aster.prove(puzzle).count
        if count.certificate is not None:
            plan = count.certificate.plan_json()
    steps = "".join(f"<li>{html.escape(plan_words(item))}</li>" for item in plan)
    frames = _read(folder / f"{puzzle.id}.solution.svg")
    return Entry(
        puzzle.id, front, _back(puzzle.id, number, f'<ol class="plan">{steps}</ol>', frames)
    )


def nacht_entry(puzzle: nacht.NachtPuzzle, folder: Path, number: int) -> Entry:
    ts = puzzle.tileset
    picture = _read(folder / f"{puzzle.id}.svg") or nacht.puzzle_svg(puzzle)
    turning = "tiles may be turned" if ts.rotations else "every tile keeps its printed up"
    what = "matching colors side to side" if ts.generic else "so that every line runs on"
    difficulty = puzzle.difficulty.value if puzzle.difficulty else None
    front = (
        f'<section class="puzzle" id="p{number}"><h3>{number}. {html.escape(puzzle.id)}'
        f"{_badge(difficulty)}</h3>"
        f'<p class="task">Arrange the {len(ts.tiles)} tiles into a {ts.width} × {ts.height} '
        f"square, {what}; {turning}. There is exactly one way.</p>"
        f'<div class="figure"><div class="board">{_svg(picture, "the tiles")}</div></div>'
        "</section>"
    )
    solution_text = _read(folder / f"{puzzle.id}.solution.json")
    grid: list[list[str]] = []
    turns: list[list[int]] = []
    if solution_text is not None:
        solution = json.loads(solution_text)
        grid, turns = solution.get("grid", []), solution.get("turns", [])
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(t)}{'+' + str(k) if k else ''}</td>"
            for t, k in zip(ids, ks, strict=False)
        )
        + "</tr>"
        for ids, ks in zip(grid, turns, strict=False)
    )
    sky = _read(folder / f"{puzzle.id}.solution.svg")
    return Entry(
        puzzle.id, front, _back(puzzle.id, number, f'<table class="grid">{rows}</table>', sky)
    )


def _back(puzzle_id: str, number: int, words: str, picture: str | None) -> str:
    """A solution's section: its number and id, the solution in words, the picture."""
    return (
        f'<section class="solution"><h3>{number}. {html.escape(puzzle_id)}</h3>{words}'
        + (f'<div class="board">{_svg(picture, "the solution")}</div>' if picture else "")
        + "</section>"
    )


def puzzle_files(folder: Path) -> list[Path]:
    """The puzzle files of a folder (not solutions), by name."""
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".solution.json"))


def entries(folder: Path) -> list[Entry]:
    """Every puzzle of the folder, in name order.

    :raises InputError: for a JSON file that is neither puzzle format.
    """
    found = []
    for number, path in enumerate(puzzle_files(folder), start=1):
        data = read_json_file(path)
        kind = data.get("format") if isinstance(data, dict) else None
        if kind == aster.PUZZLE_FORMAT:
            found.append(aster_entry(aster.puzzle_from_data(data, str(path)), folder, number))
        elif kind == nacht.PUZZLE_FORMAT:
            found.append(nacht_entry(nacht.puzzle_from_data(data, str(path)), folder, number))
        else:
            raise InputError(
                f"format {kind!r} is not a puzzle format "
                f"({aster.PUZZLE_FORMAT} or {nacht.PUZZLE_FORMAT})",
                source=str(path),
                field="format",
            )
    return found


def booklet_html(found: list[Entry], title: str) -> str:
    fronts = "\n".join(e.front for e in found)
    backs = "\n".join(e.back for e in found)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>\n"
        f"<h1>{html.escape(title)}</h1>"
        f'<p class="intro">{len(found)} puzzles, each with exactly one solution '
        "(proven by an exact search). Solutions at the back.</p>\n"
        f'<h2 class="first">Puzzles</h2>\n{fronts}\n<h2>Solutions</h2>\n{backs}\n'
        "</body></html>\n"
    )


def write_booklet(folder: Path, out: Path, *, title: str = "Star puzzles") -> int:
    """Write the booklet of ``folder`` to ``out``; returns the number of puzzles."""
    found = entries(folder)
    try:
        out.write_text(booklet_html(found, title), encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror}", source=str(out)) from None
    return len(found)
