"""Jest (Brett J. Gilbert), a pure rule engine: see docs/rules/jest.md."""

from .engine import ENGINE, JestEngine
from .scoring import CARDS, JOKER, TROPHY_OF, award_trophies, score_jest, trophy_label

__all__ = ["ENGINE", "JestEngine", "CARDS", "JOKER", "TROPHY_OF", "award_trophies", "score_jest", "trophy_label"]
