"""Fool's Crown: the crown-claiming card-and-dice game (rulebooks/fools-crown.txt, house rules 3.4)."""

from .engine import FoolsCrownEngine

ENGINE = FoolsCrownEngine()

__all__ = ["ENGINE", "FoolsCrownEngine"]
