"""Tumult Royale: greedy royals, a timed tax grab, tumults and statues (rules: docs/rules/tumult-royale.md).

``ENGINE`` plays the current rules (1.2.0: the option ``set_aside``, "per-player" setting aside the rulebook's
3 tiles a player); ``ENGINES`` every older shipped version, which stored matches keep replaying with forever
(1.1.0: 12 tiles aside in all, no ``set_aside`` option; 1.0.0: besides, no ready step before the hourglass,
and a counted take of 0 could be the greediest).
"""

from .engine import TumultRoyale, TumultRoyaleEngine

ENGINE = TumultRoyaleEngine()
ENGINES = {"1.0.0": TumultRoyaleEngine(rules_version="1.0.0"), "1.1.0": TumultRoyaleEngine(rules_version="1.1.0")}

__all__ = ["ENGINE", "ENGINES", "TumultRoyale", "TumultRoyaleEngine"]
