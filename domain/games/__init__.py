"""The games Motley hosts, each a pure rule engine on the contract in ``domain.engine``.

Each game is a package here whose ``ENGINE`` attribute is its current :class:`domain.engine.Engine`
and whose optional ``ENGINES`` maps every shipped rules version (``"1.0.0"``) to an engine that plays
exactly those rules. A stored match names its rules version and is always replayed by that engine,
whatever the current one has become (see docs/architecture.md, "Rules versions").
"""

from __future__ import annotations

from types import ModuleType
from typing import Optional

from domain.engine import Engine
from domain.games import fools_crown, jest, jester, le_bouffon, tumult_royale

# Stable game names (they appear in URLs and stored events) and the package holding each engine.
# Static imports, not names looked up at run time: the layer contract (pyproject.toml) and mypy see
# every module the domain loads.
GAME_PACKAGES: dict[str, ModuleType] = {
    "jest": jest,
    "jester": jester,
    "fools-crown": fools_crown,
    "tumult-royale": tumult_royale,
    "le-bouffon": le_bouffon,
}


class UnknownGame(LookupError):
    pass


class UnknownRulesVersion(LookupError):
    pass


def get_engine(name: str, rules_version: Optional[str] = None) -> Engine:
    """The engine of game ``name``: the current one, or the one for a shipped ``rules_version``."""
    if name not in GAME_PACKAGES:
        raise UnknownGame(name)
    package = GAME_PACKAGES[name]
    if rules_version is None or rules_version == package.ENGINE.rules_version:
        return package.ENGINE
    try:
        return rules_versions(name)[rules_version]
    except KeyError:
        raise UnknownRulesVersion(f"{name} has no rules version {rules_version!r}") from None


def rules_versions(name: str) -> dict[str, Engine]:
    """Every shipped rules version of game ``name`` and the engine that plays it."""
    package = GAME_PACKAGES[name]
    versions = dict(getattr(package, "ENGINES", {}))
    versions[package.ENGINE.rules_version] = package.ENGINE
    return versions


def available_engines() -> dict[str, Engine]:
    """Every game's current engine, by name."""
    return {name: package.ENGINE for name, package in GAME_PACKAGES.items()}
