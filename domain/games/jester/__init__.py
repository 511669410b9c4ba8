"""Jester (MS Jogos, 2015) as a pure rule engine; see docs/rules/jester.md."""

from .engine import JesterEngine

ENGINE = JesterEngine()

__all__ = ["ENGINE", "JesterEngine"]
