"""Tumult Royale: greedy royals, a timed tax grab, tumults and statues (rules: docs/rules/tumult-royale.md)."""

from .engine import TumultRoyale

ENGINE = TumultRoyale()

__all__ = ["ENGINE", "TumultRoyale"]
