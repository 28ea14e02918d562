"""Random Akelarre games for the record and review tests."""

from __future__ import annotations

from asterion.models.akelarre import AkelarreRules, AkelarreState, Message
from asterion.solver.akelarre_balance import RandomPolicy, deal_seed, play_game


def random_game(players: int, seed: int, turns: int) -> tuple[AkelarreState, list[list[Message]]]:
    """A new game of the shipped rules (dealt by ``deal_seed(seed)``) and the message chains
    of its first ``turns`` turns (fewer if the objective deck runs out), every seat random."""
    start = AkelarreState.new_game(AkelarreRules.default(players), seed=deal_seed(seed))
    chains: list[list[Message]] = []
    if turns:
        rules = AkelarreRules.default(players, turns=turns)
        play_game(rules, [RandomPolicy()] * rules.seats, seed, chains=chains)
    return start, chains
