"""A printable booklet: a folder of puzzles as one HTML page (or PDF), solutions at the back.

Every puzzle file in the folder (Aster or Nacht, told apart by ``format``) is read and
validated; its picture is the ``ID.svg`` written next to it (drawn afresh if missing), and its
solution the ``ID.solution.json`` and ``ID.solution.svg`` (re-proved if missing). Pictures are
embedded as data URIs, so the page stands alone. Printed (A4): a cover with the contents and
page numbers, the puzzles two to a page with the task beside the picture, then the solutions
two to a page in the same order. ``booklet_pdf`` prints it with WeasyPrint (the optional extra
``pdf``), which reads the same print styles.
"""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asterion.errors import InputError
from asterion.models.files import read_json_file
from asterion.puzzles import aster, nacht

STYLE = """
body { font-family: 'DejaVu Serif', Georgia, 'Times New Roman', serif; color: #1d2233;
       line-height: 1.4; }
h1, h2, h3, .badge, .kind, .caption, .legend, table.contents { font-family: 'DejaVu Sans',
       'Helvetica Neue', Arial, sans-serif; }
h1 { font-size: 2.2rem; margin: 0 0 0.3rem 0; }
h2 { font-size: 1.35rem; border-bottom: 2px solid #1d2233; padding-bottom: 0.2rem; }
h3 { margin: 0 0 0.4rem 0; font-size: 1.1rem; }
.intro { color: #4a5068; }
.badge { display: inline-block; font-size: 0.7rem; font-weight: bold; text-transform: uppercase;
         letter-spacing: 0.05em; padding: 0.1rem 0.5rem; border-radius: 1rem;
         margin-left: 0.5rem; vertical-align: middle; color: white; }
.easy { background: #3c8d4f; } .medium { background: #2f6db3; }
.hard { background: #c26a1b; } .expert { background: #a3243b; }
table.contents { border-collapse: collapse; margin-top: 0.6rem; font-size: 0.9rem; }
table.contents td, table.contents th { padding: 0.2rem 1rem 0.2rem 0; text-align: left; }
table.contents th { font-weight: normal; color: #6b7190; font-size: 0.8rem;
                    border-bottom: 1px solid #c9cde0; }
table.contents .page { text-align: right; padding-right: 0; }
table.contents a { color: inherit; text-decoration: none; }
table.contents .badge { margin-left: 0; }
.kind { color: #4a5068; }
.puzzle, .solution { break-inside: avoid; page-break-inside: avoid; }
.figure { display: flex; gap: 1.2rem; align-items: flex-start; }
.figure .board { flex: 0 0 auto; }
.figure .board img { display: block; width: 24rem; max-width: 100%; height: auto; }
.figure .side { flex: 1 1 12rem; }
.task { margin: 0 0 0.8rem 0; }
.task b { font-weight: bold; }
.shape { width: 11rem; text-align: center; }
.shape img { width: 6.5rem; height: 6.5rem; }
.caption, .legend { font-size: 0.8rem; color: #4a5068; }
.see { font-size: 0.85rem; color: #4a5068; }
.see a { color: inherit; }
.solution.aster img { display: block; width: 100%; height: auto; }
.solution.nacht .board img { width: 22rem; }
ol.plan { margin: 0.2rem 0 0.6rem 0; padding-left: 1.4rem; }
table.grid { border-collapse: collapse; margin: 0.2rem 0 0.4rem 0; font: 0.85rem monospace; }
table.grid td { border: 1px solid #c9cde0; padding: 0.15rem 0.4rem; text-align: center; }
@media screen {
  body { max-width: 52rem; margin: 0 auto; padding: 1.5rem; }
  table.contents .page { display: none; }
  .puzzle, .solution { margin: 1.2rem 0; padding: 1rem 1.2rem; border: 1px solid #c9cde0;
                       border-radius: 8px; }
  h2 { margin-top: 2.5rem; }
}
@media print {
  @page { size: A4; margin: 15mm 17mm 17mm 17mm;
    @top-right { content: string(booktitle); font: 8pt 'DejaVu Sans', sans-serif;
                 color: #6b7190; }
    @bottom-center { content: counter(page); font: 9pt 'DejaVu Sans', sans-serif;
                     color: #6b7190; } }
  @page :first { @top-right { content: none; } @bottom-center { content: none; } }
  body { font-size: 10.5pt; margin: 0; }
  h1 { string-set: booktitle content(); font-size: 30pt; margin-top: 50mm;
       padding-bottom: 3mm; border-bottom: 2pt solid #1d2233; }
  .intro { font-size: 11.5pt; margin-bottom: 10mm; }
  table.contents { font-size: 10.5pt; }
  .cover { break-after: page; page-break-after: always; }
  h2 { margin: 0 0 5mm 0; font-size: 15pt; }
  .part { break-before: page; page-break-before: always; }
  /* two to a page: a new page before every odd one but the first */
  .puzzle:nth-of-type(odd), .solution:nth-of-type(odd) { break-before: page;
      page-break-before: always; }
  .puzzle:first-of-type, .solution:first-of-type { break-before: auto;
      page-break-before: auto; }
  .puzzle:nth-of-type(even), .solution:nth-of-type(even) { border-top: 0.6pt solid #c9cde0;
      margin-top: 7mm; padding-top: 6mm; }
  .figure .board img { width: auto; height: 104mm; }
  .solution.aster img { width: auto; max-width: 100%; height: auto; max-height: 85mm; }
  .solution.nacht .board img { width: auto; height: 92mm; }
  table.contents td.page::after { content: target-counter(attr(data-href), page); }
  .see a::after { content: ", page " target-counter(attr(href), page); }
}
"""


@dataclass(frozen=True)
class Entry:
    """One puzzle of the booklet: its HTML for the front and for the back."""

    id: str
    kind: str
    difficulty: str | None
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
        f'<section class="puzzle aster" id="p{number}"><h3>{number}. {html.escape(puzzle.id)}'
        f"{_badge(difficulty)}</h3>"
        f'<div class="figure"><div class="board">{_svg(picture, "the start")}</div>'
        f'<div class="side"><p class="task">{html.escape(state.player.value.title())} to play. '
        f"Form <b>{html.escape(puzzle.target_name)}</b>{shortest}, using the actions "
        f"<b>{html.escape(actions)}</b> in this order (each at most once, any skipped), "
        f"in {turns}. Stars of any color count.</p>"
        f'<div class="shape">{_svg(pattern_svg(puzzle.pattern), "the target")}'
        '<div class="caption">the target, turned or mirrored as you like</div></div>'
        f"{_see(number)}</div></div></section>"
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
    back = _back("aster", puzzle.id, number, f'<ol class="plan">{steps}</ol>', frames)
    return Entry(puzzle.id, "Aster", difficulty, front, back)


def nacht_entry(puzzle: nacht.NachtPuzzle, folder: Path, number: int) -> Entry:
    ts = puzzle.tileset
    picture = _read(folder / f"{puzzle.id}.svg") or nacht.puzzle_svg(puzzle)
    turning = "tiles may be turned" if ts.rotations else "every tile keeps its printed up"
    what = "matching colors side to side" if ts.generic else "so that every line runs on"
    difficulty = puzzle.difficulty.value if puzzle.difficulty else None
    front = (
        f'<section class="puzzle nacht" id="p{number}"><h3>{number}. {html.escape(puzzle.id)}'
        f"{_badge(difficulty)}</h3>"
        f'<div class="figure"><div class="board">{_svg(picture, "the tiles")}</div>'
        f'<div class="side"><p class="task">Arrange the {len(ts.tiles)} tiles into a '
        f"{ts.width} × {ts.height} square, {what}; {turning}. There is exactly one way.</p>"
        f"{_see(number)}</div></div></section>"
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
    legend = "tiles row by row from the north; +k: turned k quarter turns clockwise"
    words = f'<table class="grid">{rows}</table><div class="legend">{legend}</div>'
    sky = _read(folder / f"{puzzle.id}.solution.svg")
    return Entry(
        puzzle.id,
        "Nacht der Sterne",
        difficulty,
        front,
        _back("nacht", puzzle.id, number, words, sky),
    )


def _see(number: int) -> str:
    """Where the puzzle's solution is (a link; the page number in print)."""
    return f'<p class="see"><a href="#s{number}">Solution {number}</a></p>'


def _back(kind: str, puzzle_id: str, number: int, words: str, picture: str | None) -> str:
    """A solution's section: its number and id, the solution in words, the picture."""
    board = f'<div class="board">{_svg(picture, "the solution")}</div>' if picture else ""
    head = (
        f'<section class="solution {kind}" id="s{number}">'
        f"<h3>{number}. {html.escape(puzzle_id)}</h3>"
    )
    if kind == "nacht":
        return f'{head}<div class="figure">{board}<div class="side">{words}</div></div></section>'
    return f"{head}{words}{board}</section>"


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


def _contents(found: list[Entry]) -> str:
    rows = "".join(
        f'<tr><td><a href="#p{n}">{n}. {html.escape(e.id)}</a></td>'
        f'<td class="kind">{html.escape(e.kind)}</td><td>{_badge(e.difficulty)}</td>'
        f'<td class="page" data-href="#p{n}"></td></tr>'
        for n, e in enumerate(found, start=1)
    )
    head = '<tr><th>Puzzle</th><th>Game</th><th>Level</th><th class="page">Page</th></tr>'
    return f'<table class="contents"><thead>{head}</thead><tbody>{rows}</tbody></table>'


def booklet_html(found: list[Entry], title: str) -> str:
    """The booklet as one HTML page: a cover with the contents, the puzzles two to a printed
    page, then the solutions in the same order."""
    fronts = "\n".join(e.front for e in found)
    backs = "\n".join(e.back for e in found)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>\n"
        f'<div class="cover"><h1>{html.escape(title)}</h1>'
        f'<p class="intro">{len(found)} puzzles, each with exactly one solution (proven by an '
        "exact search). Every puzzle says what to do; the solutions are at the back, in the "
        f"same order.</p>{_contents(found)}</div>\n"
        f'<div class="part"><h2>Puzzles</h2>\n{fronts}</div>\n'
        f'<div class="part"><h2>Solutions</h2>\n{backs}</div>\n'
        "</body></html>\n"
    )


_DATA_SVG = re.compile(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)")
_HALO_RULE = re.compile(r"\.([\w-]+)\s*\{[^{}]*paint-order:\s*stroke[^{}]*\}")
_TEXT = re.compile(r'<text class="([^"]*)"([^>]*)>([^<]*)</text>')


def _halos_underneath(svg: str) -> str:
    """The SVG with its text halos drawn as WeasyPrint can: a rule with ``paint-order:
    stroke`` asks for the stroke under the letters, but WeasyPrint paints it over them
    (blotting them out). So each such text is drawn twice: with its stroke, then the letters
    alone on top."""
    halo = set(_HALO_RULE.findall(svg))
    if not halo:
        return svg

    def twice(match: re.Match[str]) -> str:
        if not halo.intersection(match.group(1).split()):
            return match.group(0)
        whole, names, rest, letters = match.group(0, 1, 2, 3)
        return f'{whole}<text class="{names} fill-only"{rest}>{letters}</text>'

    rule = "".join(f".{name}.fill-only {{ stroke: none; }}" for name in sorted(halo))
    return _TEXT.sub(twice, svg).replace("</style>", f"{rule}\n</style>", 1)


def print_safe(page: str) -> str:
    """The page with every embedded SVG made safe for WeasyPrint (``_halos_underneath``)."""

    def fix(match: re.Match[str]) -> str:
        svg = base64.b64decode(match.group(1)).decode("utf-8")
        fixed = base64.b64encode(_halos_underneath(svg).encode("utf-8")).decode("ascii")
        return f"data:image/svg+xml;base64,{fixed}"

    return _DATA_SVG.sub(fix, page)


PDF_EXTRA = "pip install 'asterion[pdf]'"


def _weasyprint() -> Any:
    """The WeasyPrint module (the optional extra ``pdf``).

    :raises InputError: when it is not installed (or cannot load its system libraries).
    """
    try:
        import weasyprint
    except (ImportError, OSError):
        raise InputError(
            f"a PDF booklet needs WeasyPrint: {PDF_EXTRA} (or write .html)", source="--out"
        ) from None
    return weasyprint


def booklet_pdf(page: str) -> bytes:
    """The booklet page printed to PDF by WeasyPrint (A4, the page's print styles)."""
    import logging

    weasyprint = _weasyprint()
    # WeasyPrint warns on every run where its system libraries are older than it likes (font
    # subsetting through fontTools instead of HarfBuzz); the PDF is complete all the same.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    data: bytes = weasyprint.HTML(string=print_safe(page)).write_pdf()
    return data


def write_booklet(folder: Path, out: Path, *, title: str = "Star puzzles") -> int:
    """Write the booklet of ``folder`` to ``out`` (a PDF when its name ends in ``.pdf``, else
    HTML); returns the number of puzzles.

    :raises InputError: for a bad puzzle file, a folder without any, an unwritable ``out``,
        or a PDF asked for without WeasyPrint.
    """
    pdf = out.suffix.lower() == ".pdf"
    if pdf:
        _weasyprint()
    found = entries(folder)
    if not found:  # before writing: a failed run leaves no file behind
        raise InputError("no puzzle files in this folder", source=str(folder))
    page = booklet_html(found, title)
    try:
        if pdf:
            out.write_bytes(booklet_pdf(page))
        else:
            out.write_text(page, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror}", source=str(out)) from None
    return len(found)
