"""Solo Stellar proven by realizing the set relaxation: split first, then play the split.

The set relaxation at the start (:mod:`.stellar_solo_relax`: the cards to come split freely
between telescope and notebook, scored exactly) is, on the benchmark deals, very often the
optimum itself; what is hard is *finding* a plan that reaches it among all the ways the cards
can flow. An optimal split names the telescope's cards. The full CP-SAT model
(:class:`~asterion.solver.stellar_solo.SoloModel`) restricted to the plans that put exactly
those cards in the telescope is far smaller work for CP-SAT (measured on the 11-turn benchmark
deals, docs/benchmarks.md: a few seconds, against minutes without the restriction), and a plan
that scores the relaxation's value is optimal: the value is a proven bound.

When the plan falls short, the telescope set is cut off the relaxation (a no-good) and the
next split is tried: a logic-based Benders decomposition. Each set tried keeps a *cap*, an
upper bound on the plans with that set: the best one when CP-SAT settles the set (the
restricted model solved to optimality, or infeasible above the best plan found), its value
in the relaxation when CP-SAT runs out of work first. Every plan has a telescope set still in
the relaxation or one tried, so the larger of the relaxation's new optimum and the caps is an
upper bound; when a set left unsettled is what holds that bound up, it is tried again with
twice the work. Every plan is replayed and scored by the rules engine
(:func:`~asterion.solver.stellar_solo.cp_sat_solo` does it).

>>> from asterion.models.stellar_solo import deal_solo_puzzle
>>> answer = split_solo(deal_solo_puzzle(seed=1, turns=4), time_limit=30)
>>> answer.status.value, answer.best_score == answer.bound
('optimal', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from asterion.models.stellar_solo import SoloPuzzle
from asterion.solver.compile_clock import compile_clock
from asterion.solver.numba_loops import HAVE_NUMBA
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status
from asterion.solver.stellar_solo import (
    RELAX_WORK_LIMIT,
    BranchAndBound,
    Compiled,
    SoloAnswer,
    SoloModel,
    cp_sat_solo,
    search_solo,
)
from asterion.solver.stellar_solo_flow import (
    COMPILE_WAIT,
    FlowMemo,
    SetFlows,
    flow_search_ready,
)
from asterion.solver.stellar_solo_relax import Relaxation

SetNews = tuple[str, tuple[int, ...], int]
"""What two loops tell each other of a telescope set (pool indices): ``("start", set,
value)`` when one takes it, ``("done", set, cap)`` when it has settled it."""
WAIT_SECONDS = 0.02
"""How long a loop waits for news when only sets taken elsewhere hold the bound up."""
REALIZE_WORK = 20.0
"""CP-SAT's deterministic time for a telescope set's first realization (on the benchmark
machine at load 3.7, 0.5-0.6 deterministic seconds passed per wall second; the successful
realizations of the 11-turn deals took 1.1-4 of them). Past it the next split is tried, and
the set keeps its value as its cap: since on some deals (11-turn deal 7) one set keeps CP-SAT
busy for minutes while the next sets give better plans."""
FLOW_NODES = 1_000_000
"""Positions the flow check of one telescope set may visit (about 1 s; on the 11-turn deals
it settles most sets in well under a million; 2 million proved the same deals, no faster)."""
FLOW_NODES_PER_SECOND = 1_000_000
"""About what the flow check visits per second (measured 0.5-1.5 million on the benchmark
machine): its node budget is cut to the time left."""
FLOW_FROM_TURNS = 8
"""Shorter deals skip the flow check: CP-SAT settles their sets quickly, and the check's
first use compiles it (about 8 s, once per machine: numba caches it)."""


def split_solo(
    puzzle: SoloPuzzle,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
    incumbent: SoloAnswer | None = None,
    ceiling: int | None = None,
) -> SoloAnswer:
    """The optimum by realizing optimal splits of the set relaxation (module docstring), one
    after the other until a plan reaches the sound bound or ``time_limit`` runs out.

    ``incumbent``: a certified answer found before (its plan is kept if nothing better comes);
    ``ceiling``: a proven upper bound known before (the relaxation is capped by it).
    """
    started = time.perf_counter()
    compiled = Compiled(puzzle)
    if compiled.root.k == compiled.turns:
        return replace(search_solo(puzzle, time_limit=time_limit), method="split")
    loop = SplitLoop(compiled, started + time_limit, seed, incumbent, ceiling)
    loop.run()
    return loop.answer(time.perf_counter() - started)


class SplitLoop:
    """The rounds of :func:`split_solo`: relax, realize, cut; with hooks for the two-process
    portfolio (:mod:`.stellar_solo_portfolio`), which runs a second loop and passes news of
    the sets each takes and settles (:meth:`hear`, :attr:`inbox`, :attr:`on_set`,
    :attr:`claim`), shares the best score found (:attr:`outside_best`) and hands every plan
    and bound over (:attr:`on_plan`, :attr:`on_bound`)."""

    def __init__(
        self,
        compiled: Compiled,
        deadline: float,
        seed: int,
        incumbent: SoloAnswer | None = None,
        ceiling: int | None = None,
    ):
        self.puzzle = compiled.puzzle
        self.deadline = deadline
        self.seed = seed
        self.compiled = compiled
        search = BranchAndBound(compiled)
        root = compiled.root
        quick = search.bound(root)
        self.bound = quick if ceiling is None else min(quick, ceiling)
        """The sound upper bound on the plans of the splits this loop covers."""
        self.relaxation = Relaxation(search.position(root), self.bound)
        self.cards = search.pool_cards(root)
        self.best = incumbent if _score(incumbent) >= 0 else None
        self.caps: dict[tuple[int, ...], int] = {}
        """Telescope sets tried (pool indices) → a proven cap on the plans with that set
        (its value in the relaxation while no realization has settled it)."""
        self.tries: dict[tuple[int, ...], int] = {}
        self.mine: set[tuple[int, ...]] = set()
        """The sets this loop tried (it tries again only its own)."""
        self.cut: set[tuple[int, ...]] = set()
        """The sets cut off the relaxation (tried here or elsewhere)."""
        self._flow_memo: FlowMemo | None = None
        self._flowed: set[tuple[int, ...]] = set()  # the sets the flow check judged
        self._asked_ready = False
        self._flow_model: SoloModel | None = None
        self.rounds = 0
        self.outside_best: Callable[[], int] = lambda: -1
        """The best score found elsewhere (a plan this loop need not beat)."""
        self.on_plan: Callable[[SoloAnswer], None] = lambda answer: None
        self.interrupted: Callable[[int], bool] | None = None
        """Asked during a long CP-SAT solve of a set with a cap: whether a plan found
        elsewhere reaches it (the solve is then stopped)."""
        self.on_bound: Callable[[int], None] = lambda bound: None
        """Told the sound bound after every round."""
        self.inbox: Callable[[], list[SetNews]] = list
        """News of the sets another loop takes (:meth:`hear`), read before every round."""
        self.on_set: Callable[[SetNews], None] = lambda news: None
        """Told when this loop takes a set, and when it has settled it."""
        self.claim: Callable[[tuple[int, ...]], bool] = lambda telescope: True
        """Asked before this loop takes a new set: false when another loop has just taken
        it (two loops that settle sets at the same moment find the same next split)."""
        self._next: tuple[int, tuple[int, ...] | None] | None = None

    def hear(self, news: SetNews) -> None:
        """A set taken by another loop (``("start", set, its value)``) or settled there
        (``("done", set, its cap)``): cut off here too, with that cap, and never tried here
        (a set being worked on holds the bound up at its value until it is settled)."""
        _, telescope, cap = news
        if telescope not in self.cut:
            self.cut.add(telescope)
            self.relaxation.exclude_telescope(telescope)
            self._next = None
        self.caps[telescope] = min(cap, self.caps.get(telescope, cap))

    def first_split(self) -> SetNews | None:
        """The relaxation's optimal split, which :meth:`run` starts from, as news for another
        loop (``("start", set, value)``); ``None`` when the relaxation was not solved."""
        self._next = self.relaxation.solve(work=RELAX_WORK_LIMIT)
        value, telescope = self._next
        return None if telescope is None else ("start", telescope, value)

    def run(self) -> None:
        """Rounds until a plan reaches the bound, nothing better can come, or time is up.

        Each round the bound is the larger of the best uncut split's value and the caps of
        the telescope sets tried before (a cap is proven for its set: no plan with it scores
        more), and the set that holds it up is the one tried: a new split, or a set tried
        before at a higher bound."""
        while time.perf_counter() < self.deadline:
            for news in self.inbox():
                self.hear(news)
            left = self.deadline - time.perf_counter()
            value, telescope = self._next or self.relaxation.solve(work=RELAX_WORK_LIMIT, wall=left)
            self._next = None
            self.rounds += 1
            if telescope is None and not self.relaxation.exhausted:
                return  # the relaxation itself ran out of time: the bound stays
            uncut = -1 if telescope is None else value
            known = max(_score(self.best), self.outside_best())
            self.caps = {tried: cap for tried, cap in self.caps.items() if cap > known}
            held_up = max(self.caps.values(), default=-1)
            self.bound = min(self.bound, max(uncut, held_up, known))
            self.on_bound(self.bound)
            if known >= self.bound:
                return
            own = {tried: cap for tried, cap in self.caps.items() if tried in self.mine}
            if telescope is not None and uncut >= max(own.values(), default=-1):
                if not self.claim(telescope):
                    self.hear(("start", telescope, uncut))
                    continue
                self.relaxation.exclude_telescope(telescope)
                self.cut.add(telescope)
                self.mine.add(telescope)
                chosen, cap = telescope, uncut
            else:
                self._next = (value, telescope)  # still the best uncut split
                if not own:  # only sets taken elsewhere hold the bound up: wait for news
                    time.sleep(WAIT_SECONDS)
                    continue
                chosen = max(own, key=lambda tried: (own[tried], tried))
                cap = own[chosen]
            self.caps[chosen] = cap
            self.on_set(("start", chosen, cap))
            self.caps[chosen] = self._settle(chosen, cap, known)
            self.on_set(("done", chosen, self.caps[chosen]))

    def _settle(self, telescope: tuple[int, ...], cap: int, known: int) -> int:
        """A proven cap on the plans that put exactly ``telescope`` (pool indices) in the
        telescope, at most ``cap``: the first time, the flow check's (:meth:`_by_flow`; the
        set then waits with that cap); the next times the best such plan above ``known``
        when CP-SAT settles it, ``known`` when there is none, the cap itself when CP-SAT runs
        out of work first (the set is tried again if it still holds the bound up, with twice
        the work each time)."""
        tries = self.tries.get(telescope, 0)
        self.tries[telescope] = tries + 1
        chosen = frozenset(self.cards[i] for i in telescope)
        if tries == 0 and self._flow_checked():
            # Settled when the cap is down to the best plan; else the set waits with this
            # cap until it holds the bound up again (the next splits often bring a plan
            # that settles it for free).
            self._flowed.add(telescope)
            return self._by_flow(chosen, cap, known)
        work = REALIZE_WORK * 2 ** (tries - (telescope in self._flowed))
        interrupted = self.interrupted
        answer = _realize(
            self.puzzle,
            chosen,
            self.cards,
            (known + 1, cap),
            (self.deadline, work),
            self.seed,
            None if interrupted is None else lambda: interrupted(cap),
        )
        self._offer(answer)
        if answer.status is Status.OPTIMAL or _score(answer) >= cap:
            return _score(answer)
        if answer.status is Status.INFEASIBLE:
            return known
        return cap

    def _flow_checked(self) -> bool:
        """Whether sets get the flow check first: with numba (in plain Python it is far
        slower than CP-SAT), on deals long enough to repay compiling it once, and once it
        is compiled (:func:`~asterion.solver.stellar_solo_flow.flow_search_ready`). The first
        ask waits for it: loading it from numba's cache takes some 0.5 s; compiling it (a
        machine's first run, some 13 s) is not counted in the time limit, so that a first
        run gives the answer every later run gives. The next asks do not wait."""
        if not HAVE_NUMBA or self.compiled.turns < FLOW_FROM_TURNS:
            return False
        if self._asked_ready:
            return flow_search_ready(0.0)
        self._asked_ready = True
        compiling = compile_clock.spent()
        ready = flow_search_ready(COMPILE_WAIT)
        self.deadline += compile_clock.spent() - compiling
        return ready

    def _by_flow(self, telescope: frozenset[int], cap: int, known: int) -> int:
        """The set's cap after the flow check (:mod:`.stellar_solo_flow`). First whether any
        flow beats ``known`` (most sets tried after a good plan is found have none: one
        question settles them). If one does, from the top: a flow that reaches the cap is
        played by CP-SAT (placing the telescope cards); when there is none, the check's
        bound is the new cap and the next question (its bounds stay in the memo, so the
        questions get cheaper). Ends at a plan, at ``known``, or after :data:`FLOW_NODES`
        positions (``cap`` stays what was proven)."""
        if self._flow_memo is None:
            self._flow_memo = FlowMemo()
        left = max(0.01, self.deadline - time.perf_counter())
        flows = SetFlows(self.compiled, telescope, self._flow_memo, left)
        need = known + 1
        while cap > known and time.perf_counter() < self.deadline:
            left = self.deadline - time.perf_counter()
            # (min before int: the time left may be infinite)
            budget = int(min(FLOW_NODES - flows.nodes, left * FLOW_NODES_PER_SECOND))
            found = flows.reach(need, budget)
            need = cap  # only the first question is asked from below
            if found is None:
                break
            if isinstance(found, int):
                cap = need = min(cap, found)
                continue
            check, flow = found
            if flow.bound < cap:
                continue  # a flow beats ``known``; now look from the cap down
            left = max(0.01, self.deadline - time.perf_counter())
            if self._flow_model is None:
                self._flow_model = SoloModel(self.compiled)
            answer = check.play(flow, left, self.seed, self._flow_model)
            self._offer(answer)
            if _score(answer) >= cap:
                return _score(answer)
            break  # placing the cards costs points: CP-SAT takes the set from here
        return cap

    def _offer(self, answer: SoloAnswer) -> None:
        if _score(answer) > _score(self.best):
            self.best = answer
            self.on_plan(answer)

    def answer(self, elapsed: float) -> SoloAnswer:
        """The final answer: optimal when the best plan reaches the sound bound."""
        best, bound = self.best, self.bound
        if best is None:
            return SoloAnswer(Status.UNKNOWN, None, [], bound, elapsed, "split", self.rounds)
        total = _score(best)
        status = Status.OPTIMAL if total >= bound else Status.FEASIBLE
        return SoloAnswer(
            status,
            total,
            best.plan,
            total if status is Status.OPTIMAL else bound,
            elapsed,
            "split",
            self.rounds,
            best.final,
        )


def _score(answer: SoloAnswer | None) -> int:
    return -1 if answer is None or answer.best_score is None else answer.best_score


def _realize(
    puzzle: SoloPuzzle,
    telescope: frozenset[int],
    pool: tuple[int, ...],
    scores: tuple[int, int],
    limits: tuple[float, float],
    seed: int,
    interrupt: Callable[[], bool] | None = None,
) -> SoloAnswer:
    """The best plan that puts exactly ``telescope`` of the ``pool`` in the telescope and
    scores in ``scores``: from one more than the best plan found (infeasible then means
    nothing there beats it, all a sound cut needs, and CP-SAT may prove that sooner than an
    optimum) to the relaxation's value (reaching it ends the solve); ``limits``: the deadline
    and CP-SAT's deterministic work; ``interrupt``: news that stops it early."""
    floor, value = scores
    deadline, work = limits

    def restrict(built: SoloModel) -> None:
        built.fix_telescope(telescope, pool)
        built.model.add(built.objective >= floor)

    left = max(0.01, deadline - time.perf_counter())
    return cp_sat_solo(
        puzzle,
        time_limit=left,
        seed=seed,
        ceiling=value,
        restrict=restrict,
        work=work,
        interrupt=interrupt,
    )
