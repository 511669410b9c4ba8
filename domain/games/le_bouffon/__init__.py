"""Le Bouffon: a themed Président for 3 to 6 players (rules: docs/rules/le-bouffon.md).

``ENGINE`` plays the current rules (1.3.0); ``ENGINES`` every older shipped version, which stored
matches keep replaying with forever (1.0.0: the exchange took the highest copy numbers among identical
cards; 1.1.0: no option ``ties``, it plays as 1.2.0's default does; 1.2.0: no option
``first_deal_exchange``, it plays as 1.3.0's default does).
"""

from .engine import ENGINE, LeBouffonEngine

ENGINES = {"1.0.0": LeBouffonEngine(rules_version="1.0.0"), "1.1.0": LeBouffonEngine(rules_version="1.1.0"),
           "1.2.0": LeBouffonEngine(rules_version="1.2.0")}

__all__ = ["ENGINE", "ENGINES", "LeBouffonEngine"]
