"""The phase-to-handler table: for each ``stage`` of the state, who acts and the functions that list,
check, sample and apply what happens in it. The engine does nothing but dispatch through it.

An ``apply`` handler is trusted (its input was checked once, by ``Engine.step``, or is a stored event)
and changes the fresh copy of the state it is given: ``apply(rules, state, actor, action)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Mapping, Optional

from domain.engine import Actor, Phase

from . import claim, commit, deck, dice, resolution
from .state import FoolsCrownState, Rules

Apply = Callable[[Rules, FoolsCrownState, Actor, dict], None]


@dataclass(frozen=True)
class Handlers:
    kind: str  # who acts: a domain.engine.Phase
    apply: Optional[Apply] = None
    # players' phases
    actions: tuple[str, ...] = ()  # the action types of the phase
    seats: Optional[Callable[[FoolsCrownState], tuple[int, ...]]] = None
    legal: Optional[Callable[[FoolsCrownState, int], list[dict]]] = None
    check: Optional[Callable[[FoolsCrownState, int, dict], None]] = None
    # chance phases: listed outcomes, or (unlisted, a shuffle) a validation
    outcomes: Optional[Callable[[FoolsCrownState], list[tuple[dict, float]]]] = None
    sample: Optional[Callable[[FoolsCrownState, random.Random], dict]] = None
    validate: Optional[Callable[[FoolsCrownState, dict], None]] = None
    # automatic phases
    auto: Optional[Callable[[FoolsCrownState], dict]] = None


def _players(module) -> Handlers:
    return Handlers(
        Phase.PLAYERS, apply=module.apply, actions=module.ACTIONS, seats=module.seats, legal=module.legal,
        check=module.check,
    )


def _shuffle(apply: Apply) -> Handlers:
    return Handlers(Phase.CHANCE, apply=apply, sample=deck.sample_shuffle, validate=deck.validate_shuffle)


PHASES: Mapping[str, Handlers] = MappingProxyType({
    "shuffle": _shuffle(deck.apply_deal),
    "first-player": Handlers(
        Phase.CHANCE, apply=commit.apply_first_player, outcomes=commit.first_player_outcomes,
        sample=commit.sample_first_player,
    ),
    "commit": _players(commit),
    "gamble-shuffle": _shuffle(deck.apply_gamble_shuffle),
    "reshuffle": _shuffle(deck.apply_reshuffle),
    "roll": Handlers(
        Phase.CHANCE, apply=dice.apply_roll, outcomes=dice.roll_outcomes, sample=dice.sample_roll,
    ),
    "resolve": Handlers(Phase.AUTO, apply=resolution.apply, auto=resolution.resolution),  # type: ignore[arg-type]
    "tiebreak": Handlers(
        Phase.CHANCE, apply=dice.apply_tiebreak_roll, outcomes=dice.tiebreak_outcomes,
        sample=dice.sample_roll,
    ),
    "claim": _players(claim),
    "over": Handlers(Phase.OVER),
})

#: Every player action type, its exact keys, and the rule cited when it is tried outside its phase.
ACTION_KEYS: Mapping[str, frozenset] = MappingProxyType({
    "commit": frozenset({"type", "cards"}),
    "gamble": frozenset({"type", "cards"}),
    "noble-exchange": frozenset({"type", "cards"}),
    "claim": frozenset({"type", "crown"}),
    "challenge": frozenset({"type", "target", "crown"}),
    "pass": frozenset({"type"}),
})
OUT_OF_PHASE: Mapping[str, tuple[str, str]] = MappingProxyType({
    **{kind: ("house rule 3.4 step 2", f"{kind} is only possible before the round's commits close")
       for kind in commit.ACTIONS},
    **{kind: ("house rule 3.4 step 6", f"{kind} is only possible for the round winner after the round")
       for kind in claim.ACTIONS},
})
