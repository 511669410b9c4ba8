"""The phase-to-handler table: for every value of ``state["phase"]``, who acts and which functions
of which module list, check and apply what they do. The engine dispatches through these tables only.

A round (rulebook "Playing the game"): shuffle -> spin -> [ready, 1.1.0 live] -> tax -> tumults ->
placement -> round-end -> [reveal on chronicle space 3] -> the next shuffle. With the gamble variant
the spin comes after the tax collection.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Optional

from domain.engine import Timer

from . import placement, round_end, setup, taxes, tumults
from .state import Rules, TumultState

Action = Any


@dataclass(frozen=True)
class ChancePhase:
    sample: Callable[[TumultState, random.Random], Action]
    apply: Callable[[Rules, TumultState, Action], None]
    public: bool  # seen by everyone in the event list (a deal, a spin) or hidden (a shuffle)
    outcomes: Optional[Callable[[TumultState], list]] = None  # listed outcomes, when few
    validate: Optional[Callable[[TumultState, Action], None]] = None  # when not listed


@dataclass(frozen=True)
class PlayerPhase:
    seats: Callable[[Rules, TumultState], list]
    legal: Callable[[Rules, TumultState, int], list]
    check: Callable[[Rules, TumultState, int, Action], None]
    apply: Callable[[Rules, TumultState, int, Action], None]


@dataclass(frozen=True)
class TimedPhase:
    """A player phase the server bounds in time: its timer, and the system step closing it."""

    applies: Callable[[TumultState], bool]
    timer: Callable[[Rules, TumultState], Timer]
    timeout: Action
    close: Callable[[Rules, TumultState, Action], None]


@dataclass(frozen=True)
class AutoPhase:
    compute: Callable[[Rules, TumultState], Action]
    apply: Callable[[Rules, TumultState, Action], None]


CHANCE_PHASES: dict[str, ChancePhase] = {
    "regions": ChancePhase(setup.sample_regions, setup.apply_regions, public=False,
                           validate=setup.validate_regions),
    "deal": ChancePhase(setup.sample_deal, setup.apply_deal, public=True, outcomes=setup.deal_outcomes),
    "shuffle": ChancePhase(taxes.sample_shuffle, taxes.apply_shuffle, public=False,
                           validate=taxes.validate_shuffle),
    "spin": ChancePhase(taxes.sample_spin, taxes.apply_spin, public=True, outcomes=taxes.spin_outcomes),
}

PLAYER_PHASES: dict[str, PlayerPhase] = {
    "first-statues": PlayerPhase(setup.turn_seat, setup.legal_first_statue, setup.check_first_statue,
                                 setup.apply_first_statue),
    "ready": PlayerPhase(taxes.ready_seats, taxes.legal_ready, taxes.check_ready, taxes.apply_ready),
    "tax": PlayerPhase(taxes.tax_seats, taxes.legal_tax, taxes.check_tax, taxes.apply_tax),
    "placement": PlayerPhase(placement.turn_seat, placement.legal, placement.check, placement.apply),
    "reveal": PlayerPhase(round_end.turn_seat, round_end.legal_reveal, round_end.check_reveal,
                          round_end.apply_reveal),
}

TIMED_PHASES: dict[str, TimedPhase] = {
    "ready": TimedPhase(lambda state: True, taxes.ready_timer, taxes.START_TAX, taxes.apply_ready_timeout),
    "tax": TimedPhase(taxes.live, taxes.tax_timer, taxes.CLOSE_TAX, taxes.apply_tax_timeout),
}

AUTO_PHASES: dict[str, AutoPhase] = {
    "tumults": AutoPhase(tumults.compute, tumults.apply),
    "round-end": AutoPhase(round_end.compute, round_end.apply),
}
