"""The games Motley hosts, each a pure rule engine on the contract in ``domain.engine``.

Each game is a package here whose ``ENGINE`` attribute is its :class:`domain.engine.Engine`.
"""

from __future__ import annotations

import importlib

from domain.engine import Engine

# Stable game names (they appear in URLs and stored events) and the package holding each engine.
GAME_PACKAGES = {
    "jest": "domain.games.jest",
    "jester": "domain.games.jester",
    "fools-crown": "domain.games.fools_crown",
    "tumult-royale": "domain.games.tumult_royale",
    "le-bouffon": "domain.games.le_bouffon",
}


class UnknownGame(LookupError):
    pass


def get_engine(name: str) -> Engine:
    if name not in GAME_PACKAGES:
        raise UnknownGame(name)
    return importlib.import_module(GAME_PACKAGES[name]).ENGINE


def available_engines() -> dict[str, Engine]:
    """Every game whose engine is present, by name."""
    engines = {}
    for name, package in GAME_PACKAGES.items():
        try:
            engines[name] = importlib.import_module(package).ENGINE
        except ModuleNotFoundError as error:
            if error.name != package:  # a real import error inside a present engine
                raise
    return engines
