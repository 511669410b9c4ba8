"""Fool's Crown: the crown-claiming card-and-dice game (rulebooks/fools-crown.txt, house rules 3.4).

``ENGINE`` plays the current rules; ``ENGINES`` every older shipped version, so that a match replays
under the rules it was played with (docs/rules/fools-crown.md, "Changes")."""

from .engine import FoolsCrownEngine
from .state import RULES_VERSIONS

ENGINE = FoolsCrownEngine()
#: 1.0.1 to 1.4.0: every version before the current one (state.RULES_VERSIONS, oldest first).
ENGINES = {version: FoolsCrownEngine(rules_version=version) for version in RULES_VERSIONS[:-1]}

__all__ = ["ENGINE", "ENGINES", "FoolsCrownEngine"]
