"""The rules versions of Jester and the frame handlers each one plays (docs/rules/jester.md, the
changelog at its top). A stored match replays with exactly the version it was played with; every
version is the same modules with a few handlers swapped, each swap citing the change."""

from __future__ import annotations

from functools import cache
from types import MappingProxyType
from typing import Mapping

from . import city, court, guilds, round_end, scoring, setup, theater, turn
from .core import Handler
from .data import START_MONEY, START_MONEY_1_2

CURRENT = "1.5.0"
#: Every shipped version, oldest first.
VERSIONS = ("1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", CURRENT)

#: 1.4.0: the options that switch a house rule (house rules P6 and J-INFLUENCE), with their defaults, which
#: play exactly as 1.3.0 does. A state of an older version has neither key in its ``opts`` and plays these.
HOUSE_RULE_OPTIONS = {"vp_floor": True, "influence_needs_markers": True}


def at_least(version: str, oldest: str) -> bool:
    return VERSIONS.index(version) >= VERSIONS.index(oldest)


@cache
def handlers(version: str) -> Mapping[str, Handler]:
    """Kind of frame -> its handler under rules ``version`` (read-only, built once per version)."""
    if version not in VERSIONS:
        raise ValueError(f"jester has no rules version {version!r}")
    table = {}
    for module in (setup, turn, city, theater, court, guilds, round_end, scoring):
        table.update(module.HANDLERS)
    if version == "1.0.0":
        # 1.1.0 fix 1: every red-chair victim is asked; 1.0.0 resolved a victim without a choice
        table["victims"] = table["victims"]._replace(settle=court.settle_victims_1_0)
        # 1.1.0 fix 3: the favor consolation for the last chooser only; 1.0.0 for any chooser
        table["favor"] = table["favor"]._replace(legal=round_end.legal_favor_1_0)
    if version == "1.1.0":
        # 1.1.0 fix 2, reverted in 1.2.0: the rescue boxes from the reserve only as a fallback
        table["rescue"] = table["rescue"]._replace(legal=turn.legal_rescue_1_1)
    if at_least(version, "1.2.0"):
        # 1.2.0: Court Play B "swap any two stamps" takes the two disciplines in either order
        table["swap"] = table["swap"]._replace(canonical=court.swap_either_order)
    if at_least(version, "1.3.0"):
        # 1.3.0: house rule S2 "2 influence markers ... in any guild(s)": a pair in no order
        table["setup-guild"] = table["setup-guild"]._replace(canonical=setup.setup_guilds_either_order)
    # 1.4.0 swaps no handler: its options (house_rule_options) are read from the state's ``opts``
    # 1.5.0 swaps none either: its turn cap (caps_turns) is read from the state's ``round_turns``
    return MappingProxyType(table)


def house_rule_options(version: str) -> dict:
    """1.4.0: the options ``vp_floor`` (house rule P6) and ``influence_needs_markers`` (ENGINE J-INFLUENCE),
    house-rules.md's "keep them configurable"; 1.0.0 to 1.3.0 have neither (they play the defaults)."""
    return dict(HOUSE_RULE_OPTIONS) if at_least(version, "1.4.0") else {}


def start_money(version: str) -> int:
    """1.3.0 - rulebook Setup: each player receives "two coins of value $3 and four of value $1",
    $10 (the components' 36 coins, 12 x $3 and 24 x $1, hold four such purses and a supply); 1.0.0 to
    1.2.0 gave $6, the number of coins (house rules 1.2 wrote "$6 = 2x$3 + 4x$1")."""
    return START_MONEY if at_least(version, "1.3.0") else START_MONEY_1_2


def shows_card_sources(version: str) -> bool:
    """1.2.0: the event list shows where a ``buy``, ``take-card`` or ``keep`` came from, as the pile
    counts and the tables do (no rule hides it); 1.0.0 and 1.1.0 showed ``"place": "hidden"``."""
    return at_least(version, "1.2.0")


def caps_turns(version: str) -> bool:
    """1.5.0 - rulebook How to Play: "During a round, each player takes a minimum of three and a maximum
    of nine turns". Its states count the turns ended this round (``round_turns``), and a round in which
    nobody played a 3rd card of one place (house rule P5's take-backs) ends after nine turns each
    (turn.end_turn); 1.0.0 to 1.4.0 have no such count and no cap (a round could be stalled forever)."""
    return at_least(version, "1.5.0")
