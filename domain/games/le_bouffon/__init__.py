"""Le Bouffon: a themed Président for 3 to 6 players (rules: docs/rules/le-bouffon.md)."""

from .engine import ENGINE, LeBouffonEngine

__all__ = ["ENGINE", "LeBouffonEngine"]
