"""Fool's Crown: the crown-claiming card-and-dice game (rulebooks/fools-crown.txt, house rules 3.4).

``ENGINE`` plays the current rules; ``ENGINES`` every older shipped version, so that a match replays
under the rules it was played with (docs/rules/fools-crown.md, "Changes")."""

from .engine import FoolsCrownEngine

ENGINE = FoolsCrownEngine()
ENGINES = {version: FoolsCrownEngine(rules_version=version) for version in ("1.0.1", "1.1.0", "1.2.0", "1.3.0")}

__all__ = ["ENGINE", "ENGINES", "FoolsCrownEngine"]
