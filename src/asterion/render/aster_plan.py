"""The frames of a plan picture, read from a certified reachability plan.

This one module of ``render/`` reads a solver result type: the :class:`Certificate` that
``asterion.solver.aster_reach.certify`` makes when the rules engine replays a plan. It is an
adapter only: everything it reports comes from the certificate's states (the state before
each step, then the final state), so the picture shows what the rules engine saw, and the
drawing itself (:func:`asterion.render.aster_svg.plan_svg`) still reads models only.

The first frame is the start position; then one frame per step, after it, captioned with its
turn, action and points (``"turn 1 · move_line 2NE→2SW"``); the last frame also highlights the
target placement. A plan of no steps (the target already present) is the one start frame,
with the placement highlighted.

>>> import json
>>> from asterion.models.aster_files import parse_state
>>> from asterion.models.aster import Action
>>> from asterion.models.aster_cards import ActionKind
>>> from asterion.solver.aster_reach import PlanStep, ReachQuestion, certify
>>> position = {"stars": {"4N": "red", "4NE": "red", "4W": "red"}, "actions": ["move_ring"]}
>>> state = parse_state(json.dumps(position))
>>> question = ReachQuestion.build(state, [(0, 0), (1, 0), (2, 0)])
>>> move = Action(ActionKind.MOVE_RING, slot=0, origin="4W", target="4NW")
>>> frames = plan_frames(certify(question, [PlanStep(1, move)]))
>>> [frame.caption for frame in frames]
['start', 'turn 1 · move_ring 4W→4NW']
>>> frames[1].moved, frames[1].highlight
(('4W', '4NW'), ('4N', '4NE', '4NW'))
"""

from __future__ import annotations

from asterion.models.aster import Action, AsterState, Color
from asterion.models.aster_board import Point
from asterion.render.aster_svg import PlanFrame
from asterion.solver.aster_reach import Certificate, PlanStep

START_CAPTION = "start"
CAPTION_SEPARATOR = " · "
MOVE_SIGN = "→"


def plan_frames(certificate: Certificate) -> list[PlanFrame]:
    """The start frame, then one frame after each step of ``certificate``'s plan.

    Parameters
    ----------
    certificate:
        A plan replayed by the rules engine: ``states`` holds the state before each step,
        then the final state.

    Returns
    -------
    list[PlanFrame]
        ``len(certificate.steps) + 1`` frames; the last highlights ``certificate.placement``.
    """
    states, steps = certificate.states, certificate.steps
    target = tuple(sorted(certificate.placement))
    last = len(steps)
    frames = [
        PlanFrame(
            stars=states[0].star_map(),
            caption=START_CAPTION,
            highlight=target if last == 0 else (),
        )
    ]
    for i, step in enumerate(steps, start=1):
        before, after = states[i - 1], states[i]
        action = step.action
        moved = None
        if action.origin is not None and action.target is not None:
            moved = (action.origin, action.target)
        frames.append(
            PlanFrame(
                stars=after.star_map(),
                caption=step_caption(step),
                moved=moved,
                placed=action.point,
                destroyed=_destroyed(before, after, action),
                highlight=target if i == last else (),
            )
        )
    return frames


def step_caption(step: PlanStep) -> str:
    """``"turn 1 · generate C"``, ``"turn 2 · nudge 3N→3NE"``, ``"turn 1 · supernova"``.

    >>> from asterion.models.aster_cards import ActionKind
    >>> step_caption(PlanStep(2, Action(ActionKind.NUDGE, slot=3, origin="3N", target="3NE")))
    'turn 2 · nudge 3N→3NE'
    """
    action = step.action
    words = [action.kind.value]
    if action.point is not None:
        words.append(action.point)
    if action.origin is not None:
        words.append(f"{action.origin}{MOVE_SIGN}{action.target}")
    if action.deck is not None:
        words.append(f"{action.deck.value} deck → card {action.host}")
    return f"turn {step.turn}{CAPTION_SEPARATOR}{' '.join(words)}"


def _destroyed(before: AsterState, after: AsterState, action: Action) -> dict[Point, Color]:
    """Stars that left the board in the step (not the moved one): a star a generated star
    replaced (even one of the same color), or the stars a supernova sent back."""
    lost = {
        point: color
        for point, color in before.star_map().items()
        if after.star_at(point) is not color and point != action.origin
    }
    if action.point is not None:
        replaced = before.star_at(action.point)
        if replaced is not None:
            lost[action.point] = replaced
    return dict(sorted(lost.items(), key=lambda item: before.board.index[item[0]]))
