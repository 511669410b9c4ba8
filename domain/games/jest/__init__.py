"""Jest (Brett J. Gilbert), a pure rule engine: see docs/rules/jest.md.

``ENGINE`` plays the current rules (1.2.0); ``ENGINES`` every older shipped version, which stored
matches keep replaying with forever (1.1.0: a finished Jest listed in the order taken; 1.0.0: that, and
no options; it plays as 1.1.0's defaults do).
"""

from .engine import ENGINE, JestEngine
from .house_rules import HOUSE_RULES
from .scoring import CARDS, JOKER, TROPHY_OF, award_trophies, in_card_order, score_jest, trophy_label

ENGINES = {version: JestEngine(rules_version=version) for version in ("1.0.0", "1.1.0")}

__all__ = ["ENGINE", "ENGINES", "HOUSE_RULES", "JestEngine", "CARDS", "JOKER", "TROPHY_OF", "award_trophies",
           "in_card_order", "score_jest", "trophy_label"]
