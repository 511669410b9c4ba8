"""Tumult Royale: greedy royals, a timed tax grab, tumults and statues (rules: docs/rules/tumult-royale.md).

``ENGINE`` plays the current rules (1.1.0); ``ENGINES`` every older shipped version, which stored
matches keep replaying with forever (1.0.0: no ready step before the hourglass; a counted take of 0
could be the greediest).
"""

from .engine import TumultRoyale, TumultRoyaleEngine

ENGINE = TumultRoyaleEngine()
ENGINES = {"1.0.0": TumultRoyaleEngine(rules_version="1.0.0")}

__all__ = ["ENGINE", "ENGINES", "TumultRoyale", "TumultRoyaleEngine"]
