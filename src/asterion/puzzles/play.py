"""Playing a puzzle by hand: the moves a person types, judged by the rules engine.

:class:`AsterGame` and :class:`NachtGame` take one typed line at a time and answer with the
lines to print; the command line only reads and prints (testable without a terminal).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from asterion.models.aster import Action, AsterState, apply, slot_actions
from asterion.models.aster_cards import BOARD_ACTIONS, ActionKind
from asterion.models.edges import Placement
from asterion.models.nacht import misfits
from asterion.puzzles.aster import AsterPuzzle, describe
from asterion.puzzles.nacht import NachtPuzzle
from asterion.render.aster_text import board_text
from asterion.render.words import counted
from asterion.solver.aster_reach import next_turn


class Session:
    """What both games share: the commands every game knows, then its own."""

    help_text = ""
    solved = False
    finished = False

    def opening(self) -> list[str]:
        raise NotImplementedError

    def picture(self) -> list[str]:
        raise NotImplementedError

    def handle(self, line: str) -> list[str]:
        """The answer to one typed line."""
        words = line.split()
        if not words:
            return []
        command = words[0].lower()
        if command in ("quit", "q", "exit"):
            self.finished = True
            return ["bye"]
        if command == "help":
            return [self.help_text]
        if command == "show":
            return self.picture()
        return self.command(words)

    def command(self, words: list[str]) -> list[str]:
        raise NotImplementedError


ASTER_HELP = (
    "moves: POINT (generate there), FROM TO (move a star), or a symbol first "
    "(e.g. 'nudge 3N 3NE'); 'end' ends the turn; 'undo'; 'show'; 'quit'"
)


@dataclass
class AsterGame(Session):
    """A puzzle in play: the position, the turn, and the moves made so far."""

    puzzle: AsterPuzzle
    state: AsterState = field(init=False)
    turn: int = 1
    history: list[tuple[AsterState, int]] = field(default_factory=list)
    solved: bool = False
    finished: bool = False

    def __post_init__(self) -> None:
        self.state = self.puzzle.state
        self.question = self.puzzle.question()
        # a hand-made file may start with the target standing: nothing is left to play
        self.solved = self.finished = self.question.is_goal(self.state) is not None

    @property
    def actions_used(self) -> int:
        """Actions made so far: the steps taken less the turns ended (each 'end' a step)."""
        return len(self.history) - (self.turn - 1)

    def opening(self) -> list[str]:
        if self.solved:
            return [describe(self.puzzle), *self.picture(), "the target already stands: solved"]
        return [describe(self.puzzle), *self.picture(), ASTER_HELP]

    def picture(self) -> list[str]:
        state = self.state
        left = [state.actions[i].value for i in state.remaining_slots()]
        return [
            board_text(state.board, state.star_map()),
            f"turn {self.turn} of {self.puzzle.turns}; slots left: {' '.join(left) or '(none)'}; "
            f"reserve {state.reserve_of(state.player)}",
        ]

    help_text = ASTER_HELP

    def command(self, words: list[str]) -> list[str]:
        command = words[0].lower()
        if command == "undo":
            if not self.history:
                return ["nothing to undo"]
            self.state, self.turn = self.history.pop()
            return self.picture()
        if command == "end":
            if self.turn >= self.puzzle.turns:
                return ["this is the last turn"]
            self.history.append((self.state, self.turn))
            self.state, self.turn = next_turn(self.question, self.state), self.turn + 1
            return self.picture()
        return self._move(words)

    def _move(self, words: list[str]) -> list[str]:
        kind = None
        if words[0].lower() in {k.value for k in ActionKind}:
            kind = ActionKind(words[0].lower())
            words = words[1:]
        board = self.state.board
        points = [w.upper() if w.upper() in board.index else w for w in words]
        unknown = [p for p in points if p not in board.index]
        if unknown or not 1 <= len(points) <= 2:
            return [f"not understood: {' '.join(words) or '(nothing)'}; {ASTER_HELP}"]
        action = self._find(kind, points)
        if action is None:
            what = f"{kind.value} " if kind else ""
            return [f"no slot left this turn can {what}do {' -> '.join(points)}"]
        self.history.append((self.state, self.turn))
        self.state = apply(self.state, action)
        lines = [f"{action}", *self.picture()]
        if self.question.is_goal(self.state) is not None:
            self.solved = self.finished = True
            lines.append(self._solved_words())
        elif not self.state.remaining_slots() and self.turn >= self.puzzle.turns:
            lines.append("no actions left and the target is not formed: 'undo' or 'quit'")
        return lines

    def _find(self, kind: ActionKind | None, points: list[str]) -> Action | None:
        """The earliest remaining slot's action that does what was typed."""
        for slot in self.state.remaining_slots():
            slot_kind = self.state.actions[slot]
            if slot_kind not in BOARD_ACTIONS or (kind is not None and slot_kind is not kind):
                continue
            for action in slot_actions(self.state, slot):
                if len(points) == 1 and action.point == points[0]:
                    return action
                if len(points) == 2 and (action.origin, action.target) == tuple(points):
                    return action
        return None

    def _solved_words(self) -> str:
        used = self.actions_used
        grade = self.puzzle.grade
        if grade is None:
            return f"target formed in {counted(used, 'action')}!"
        if used == grade.min_actions:
            return f"target formed in {counted(used, 'action')}: the shortest plan. Solved!"
        shortest = counted(grade.min_actions, "action")
        return f"target formed in {counted(used, 'action')} (the shortest plan takes {shortest})"


NACHT_HELP = (
    "'TILE ROW COL [TURNS]' lays a tile (rows and columns from 1, row 1 = north; TURNS "
    "quarter turns clockwise); 'clear ROW COL'; 'show'; 'quit'"
)


@dataclass
class NachtGame(Session):
    """A tile puzzle in play: the cells laid so far."""

    puzzle: NachtPuzzle
    cells: dict[tuple[int, int], Placement] = field(default_factory=dict)
    solved: bool = False
    finished: bool = False

    def opening(self) -> list[str]:
        tiles = self.puzzle.tileset.tiles
        lines = [f"{self.puzzle.id}: {len(tiles)} tiles"]
        if self.puzzle.tileset.generic:
            lines += [f"  {t.id}: N E S W = {' '.join(t.edges or ())}" for t in tiles]
        else:
            lines.append(f"  the tiles are pictured in {self.puzzle.id}.svg")
        return [*lines, *self.picture(), NACHT_HELP]

    def picture(self) -> list[str]:
        ts = self.puzzle.tileset
        width = max(len(t.id) for t in ts.tiles) + 2
        rows = []
        for r in range(ts.height):
            cells = []
            for c in range(ts.width):
                placed = self.cells.get((r, c))
                text = "." if placed is None else ts.tiles[placed.piece].id
                if placed is not None and placed.turns:
                    text += f"+{placed.turns}"
                cells.append(f"{text:>{width}}")
            rows.append(" ".join(cells))
        return rows

    help_text = NACHT_HELP

    def command(self, words: list[str]) -> list[str]:
        command, line = words[0].lower(), " ".join(words)
        ts = self.puzzle.tileset
        try:
            numbers = [int(w) for w in words[1:]]
        except ValueError:
            return [f"not understood: {line}; {NACHT_HELP}"]
        if command == "clear" and len(numbers) == 2:
            self.cells.pop((numbers[0] - 1, numbers[1] - 1), None)
            return self.picture()
        ids = [t.id for t in ts.tiles]
        if words[0] not in ids or len(numbers) not in (2, 3):
            return [f"not understood: {line}; {NACHT_HELP}"]
        row, col = numbers[0] - 1, numbers[1] - 1
        turns = numbers[2] if len(numbers) == 3 else 0
        if not 0 <= turns <= 3:  # (a huge or negative count was taken modulo 4)
            return [f"turns are 0-3 quarter turns clockwise, not {turns}"]
        if not (0 <= row < ts.height and 0 <= col < ts.width):
            return [f"no cell {numbers[0]} {numbers[1]} in a {ts.width}x{ts.height} grid"]
        if turns and not ts.rotations:
            return ["tiles keep their printed up in this puzzle"]
        piece = ids.index(words[0])
        self.cells = {cell: p for cell, p in self.cells.items() if p.piece != piece}
        self.cells[row, col] = Placement(piece, turns)
        lines = self.picture()
        if len(self.cells) == len(ts.tiles):
            lines.append(self._judge())
        return lines

    def _judge(self) -> str:
        ts = self.puzzle.tileset
        arrangement = tuple(
            tuple(self.cells[r, c] for c in range(ts.width)) for r in range(ts.height)
        )
        problems = misfits(ts, arrangement)
        if not problems:
            self.solved = self.finished = True
            return "every tile fits: solved!"
        return f"all tiles laid, but {len(problems)} sides do not fit"
