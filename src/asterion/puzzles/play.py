"""Playing a puzzle by hand: the moves a person types, judged by the rules engine.

:class:`AsterGame` and :class:`NachtGame` take one typed line at a time and answer with the
lines to print; the command line only reads and prints (testable without a terminal).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from asterion.models.aster import Action, AsterState, apply
from asterion.models.aster_cards import BOARD_ACTIONS, ActionKind
from asterion.models.aster_record import find_action, typed
from asterion.models.edges import Arrangement, Cell, Placement, normalize_turns, turn_arrangement
from asterion.models.nacht import edge_problem, misfits
from asterion.puzzles.aster import AsterPuzzle, describe
from asterion.puzzles.nacht import NachtPuzzle, prove
from asterion.render.aster_text import board_text
from asterion.render.words import counted
from asterion.solver.aster_reach import ReachQuestion, next_turn
from asterion.solver.aster_reach_portfolio import reach
from asterion.solver.result import Status

HINT_TIME_LIMIT = 10.0
"""Seconds a hint may search before saying it found none."""


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
        if command == "hint":
            return [self.hint()]
        return self.command(words)

    def command(self, words: list[str]) -> list[str]:
        raise NotImplementedError

    def hint(self) -> str:
        """One step towards the solution from where the player stands, as a line to type."""
        raise NotImplementedError


ASTER_HELP = (
    "moves: POINT (generate there), FROM TO (move a star), or a symbol first "
    "(e.g. 'nudge 3N 3NE'); 'end' ends the turn; 'undo'; 'hint'; 'show'; 'quit'"
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
        elif self.turn >= self.puzzle.turns and not self._moves_left():
            lines.append("no actions left and the target is not formed: 'undo' or 'quit'")
        return lines

    def _moves_left(self) -> bool:
        """Whether a slot left this turn can move stars (the others cannot be typed)."""
        state = self.state
        return any(state.actions[i] in BOARD_ACTIONS for i in state.remaining_slots())

    def _find(self, kind: ActionKind | None, points: list[str]) -> Action | None:
        """The earliest remaining slot's action that does what was typed."""
        return find_action(self.state, kind, points)

    def hint(self) -> str:
        """The first step of a shortest plan from here within the turns left (the reach
        solver's, replayed by the rules engine), or why there is none."""
        if self.solved:
            return "solved already"
        turns_left = self.puzzle.turns - self.turn + 1
        question = ReachQuestion(self.state, self.question.targets, turns_left)
        answer = reach(question, time_limit=HINT_TIME_LIMIT)
        if answer.certificate is None:
            if answer.status is Status.INFEASIBLE:
                return "the target can no longer be formed from here: 'undo'"
            return f"no hint found within {HINT_TIME_LIMIT:g} s"
        steps = answer.certificate.steps
        left = counted(len(steps), "action")
        if steps[0].turn > 1:  # the plan's next action is in a later turn
            return f"hint: 'end' (then {left} in the turns after)"
        return f"hint: '{typed(steps[0].action)}' ({left} to the target from here)"

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
    "quarter turns clockwise); 'clear ROW COL'; 'hint'; 'show'; 'quit'"
)


@dataclass
class NachtGame(Session):
    """A tile puzzle in play: the cells laid so far."""

    puzzle: NachtPuzzle
    cells: dict[tuple[int, int], Placement] = field(default_factory=dict)
    solved: bool = False
    finished: bool = False
    _solutions: list[Arrangement] | None = field(default=None, init=False, repr=False)
    _proof_status: Status | None = field(default=None, init=False, repr=False)

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

    def hint(self) -> str:
        """A laid tile the solution puts elsewhere, else the solution's tile for an empty
        cell beside the laid ones. With rotations the picture may be built turned: the
        solution is compared in each of its whole-picture turns, the closest kept."""
        if self.solved:
            return "solved already"
        solutions = self._turned_solutions()
        if not solutions:
            if self._proof_status is Status.INFEASIBLE:
                return "no hint: these tiles have no arrangement (the puzzle has no solution)"
            return f"no hint: no arrangement found within {HINT_TIME_LIMIT:g} s"
        wrong, solution = min(
            ((self._misplaced(s), s) for s in solutions), key=lambda pair: len(pair[0])
        )
        if wrong:
            row, col = wrong[0]
            tile = self.puzzle.tileset.tiles[self.cells[row, col].piece].id
            return f"hint: {tile} does not go at {row + 1} {col + 1}: 'clear {row + 1} {col + 1}'"
        row, col = self._next_cell()
        placed = solution[row][col]
        tile = self.puzzle.tileset.tiles[placed.piece].id
        return f"hint: '{tile} {row + 1} {col + 1} {placed.turns}'"

    def _turned_solutions(self) -> list[Arrangement]:
        """The puzzle's arrangement in each whole-picture turn that keeps the grid's shape
        (one without rotations), sides normalized; found once, on the first hint."""
        if self._solutions is None:
            problem = edge_problem(self.puzzle.tileset).problem
            verdict = prove(self.puzzle.tileset, time_limit=HINT_TIME_LIMIT)
            self._proof_status, found = verdict.result.status, verdict.arrangement
            step = 4 // problem.whole_turns()
            self._solutions = (
                []
                if found is None
                else [
                    normalize_turns(problem, turn_arrangement(found, k)) for k in range(0, 4, step)
                ]
            )
        return self._solutions

    def _misplaced(self, solution: Arrangement) -> list[Cell]:
        """The laid cells, in reading order, whose tile or turn differs from ``solution``'s
        (turns compared by the sides they show)."""
        problem = edge_problem(self.puzzle.tileset).problem
        return sorted(
            (r, c)
            for (r, c), placed in self.cells.items()
            if normalize_turns(problem, ((placed,),))[0][0] != solution[r][c]
        )

    def _next_cell(self) -> Cell:
        """The empty cell with the most laid neighbours, the first in reading order."""
        ts = self.puzzle.tileset
        empty = [
            (r, c) for r in range(ts.height) for c in range(ts.width) if (r, c) not in self.cells
        ]

        def laid_beside(cell: Cell) -> int:
            r, c = cell
            return sum(
                (r + dr, c + dc) in self.cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            )

        return max(empty, key=laid_beside)  # (max keeps the first of equals)
