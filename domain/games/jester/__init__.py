"""Jester (MS Jogos, 2015) as a pure rule engine; see docs/rules/jester.md."""

from .engine import JesterEngine

ENGINE = JesterEngine()
# Every older shipped rules version, so that a match replays with the rules it was played with.
ENGINES = {version: JesterEngine(rules_version=version)
           for version in ("1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0")}

__all__ = ["ENGINE", "ENGINES", "JesterEngine"]
