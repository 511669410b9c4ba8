"""Tumult Royale (Klaus & Benjamin Teuber, Kosmos 2015) as a pure rule engine: the dispatch of the
engine contract onto the phase tables of phases.py.

Rules as implemented: docs/rules/tumult-royale.md. Rule citations: "rulebook <step>" for the rulebook
text, "house rule 4.5 <topic>" for the house rules section 4.5, "engine <topic>" for decisions
documented in the rules document. One class plays every shipped rules version: ``Rules`` (state.py)
holds the flags that differ, each citing its change.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Optional

from domain.engine import (
    CHANCE,
    SYSTEM,
    Engine,
    IllegalAction,
    InvalidOptions,
    Result,
    Timer,
    ToAct,
    copy_json,
)

from . import data as D
from . import observation, round_end, setup
from .house_rules import HOUSE_RULES, house_rules
from .phases import AUTO_PHASES, CHANCE_PHASES, PLAYER_PHASES, TIMED_PHASES
from .state import CURRENT, RULES, TumultState, copy_state

#: Options that are a number of seconds (an int or a float, 1 to 600), not of one exact type.
SECONDS_OPTIONS = ("tax_seconds", "ready_seconds")
#: The option set_aside (rules 1.2.0), as docs/rules/tumult-royale.md states it.
SET_ASIDE_OPTION = (
    "How many commodity tiles are set aside unseen each round. total (default; house rule 4.5 tiles in play): 12 "
    "in all at every player count (6, 4 or 3 a player), so 27 lie face down in the centre; per-player (the "
    "rulebook, \"each player will once again remove three tiles\"): 3 a player, so 6, 9 or 12 aside and 33, 30 "
    "or 27 in the centre with 2, 3 or 4 players")


class TumultRoyaleEngine(Engine):
    name = "tumult-royale"
    title = "Tumult Royale"
    min_players = 2
    max_players = 4
    house_rules = HOUSE_RULES
    summary = (
        "Greedy royals grab commodity tiles in a timed tax collection, risk the people's tumult, "
        "and spend their loot on statues; most statues placed wins."
    )

    def __init__(self, rules_version: str = CURRENT):
        self.rules = RULES[rules_version]
        self.rules_version = rules_version
        # 1.1.0's TR-READY and TR-ZERO differ from 1.0.0's; 1.2.0's 4.5 tiles in play names set_aside
        self.house_rules = house_rules(self.rules)

    # -- options -------------------------------------------------------------------------------
    def default_options(self) -> dict:
        options = {"gamble": False, "tax_seconds": 20, "tax_mode": "live"}
        if self.rules.ready_step:
            options["ready_seconds"] = 30  # 1.1.0: the bound of the ready question (docs/rules)
        if self.rules.set_aside_option:  # 1.2.0 on; older versions refuse it as unknown (and play "total")
            options["set_aside"] = "total"
        return options

    #: Each option in plain words for a player choosing it (``Engine.option_titles``).
    option_titles = {
        "gamble": (
            "Gamble: the spinner is spun after tax collection, so royals tax without knowing what the "
            "people will demand"
        ),
        "tax_seconds": (
            "Seconds of live tax collection (the hourglass)"
        ),
        "tax_mode": (
            "Tax collection: everyone at once against the hourglass (live), or one player at a time "
            "with no timer (async)"
        ),
        "ready_seconds": (
            "Seconds to wait for everyone to say they are ready before the hourglass starts anyway"
        ),
        "set_aside": (
            "Tiles set aside unseen each round: 12 in all (total), or 3 per player as the rulebook "
            "says (per-player)"
        ),
    }

    def describe_options(self) -> dict[str, dict]:
        # What check_options enforces, as docs/rules/tumult-royale.md states it.
        described = super().describe_options()
        described["gamble"]["description"] = (
            "House rule 4.5 gamble variant (the rulebook's \"Taxing Royalty Who Love to Gamble\" has no text): the "
            "spinner is spun after tax collection, so the royals tax without knowing the people's demand")
        described["tax_mode"].update(enum=["live", "async"], description=(
            "live: everyone collects at once against the timer (tax_seconds), one tile in hand at a time; async "
            "(house rule 4.5 asynchronous mode): no timer" + (" and no ready step" if self.rules.ready_step else "")
            + ", one seat at a time in rank order from the king, a turn being one peek then keep or return, "
              "8 peeks a seat each round"))
        meanings = {"tax_seconds": "Seconds of live tax collection (the hourglass, on the server's timer; house rule "
                                   "4.5 digital tax collection): a tile still in a hand when it runs out goes back "
                                   "face down. Live mode only",
                    "ready_seconds": "Seconds the server waits for every player to say ready before the hourglass "
                                     "(TR-READY); then the hourglass starts anyway. Live mode only"}
        for key in SECONDS_OPTIONS:
            if key in described:
                described[key].update(type="number", minimum=1, maximum=600, description=meanings[key])
        if "set_aside" in described:
            described["set_aside"].update(enum=list(D.SET_ASIDE_MODES), description=SET_ASIDE_OPTION)
        return described

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> dict:
        options = dict(options)
        defaults = self.default_options()
        seconds = {key: options.pop(key) for key in SECONDS_OPTIONS if key in defaults and key in options}
        merged = super().check_options(num_players, options)
        for key, value in seconds.items():
            # In the words the other games use: a wrong type and a value out of range said the same thing.
            if type(value) not in (int, float):
                raise InvalidOptions("tumult-royale options", f"option {key!r} must be of type number")
            if not 1 <= value <= 600:
                raise InvalidOptions("tumult-royale options", f"option {key!r} must be between 1 and 600")
            # A whole number sent as 20.0 is kept as 20, as its default is and as the other games keep an
            # integer: two matches of the same settings showed 20 and 20.0 (an options probe).
            merged[key] = int(value) if type(value) is float and value.is_integer() else value
        return merged

    # -- setting up ----------------------------------------------------------------------------
    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> TumultState:
        return setup.initial_state(self.rules, num_players, self.check_options(num_players, options))

    def num_players(self, state: TumultState) -> int:
        return state["n"]

    # -- whose move ----------------------------------------------------------------------------
    def to_act(self, state: TumultState) -> ToAct:
        phase = state["phase"]
        if phase in PLAYER_PHASES:
            return ToAct.players(*PLAYER_PHASES[phase].seats(self.rules, state))
        if phase in CHANCE_PHASES:
            return ToAct.chance()
        if phase in AUTO_PHASES:
            return ToAct.auto()
        return ToAct.over()

    def _acting(self, state: TumultState, seat: Any) -> bool:
        phase = PLAYER_PHASES.get(state["phase"])
        return phase is not None and type(seat) is int and seat in phase.seats(self.rules, state)

    def legal_actions(self, state: TumultState, seat: int) -> list:
        if not self._acting(state, seat):
            return []
        return PLAYER_PHASES[state["phase"]].legal(self.rules, state, seat)

    def check_action(self, state: TumultState, seat: int, action: Any) -> None:
        # ``step`` has checked the seat and the JSON already; the application also calls this
        # directly, so the turn and the shape are checked here once more (cheap, no listing).
        if not self._acting(state, seat):
            raise IllegalAction("turn order", "it is not this seat's turn to act")
        if not isinstance(action, dict) or type(action.get("type")) is not str:
            raise IllegalAction("action format", "an action is a JSON object with a 'type'")
        PLAYER_PHASES[state["phase"]].check(self.rules, state, seat, action)

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, state: TumultState) -> Optional[list]:
        phase = CHANCE_PHASES.get(state["phase"])
        return phase.outcomes(state) if phase is not None and phase.outcomes is not None else None

    def sample_chance(self, state: TumultState, rng: random.Random) -> dict:
        if state["phase"] not in CHANCE_PHASES:
            raise IllegalAction("chance", "no chance step now")
        return CHANCE_PHASES[state["phase"]].sample(state, rng)

    def validate_chance(self, state: TumultState, outcome: dict) -> None:
        validate = CHANCE_PHASES[state["phase"]].validate
        if validate is None:  # a phase with listed outcomes checks none by hand: the contract refuses
            super().validate_chance(state, outcome)
        else:
            validate(state, outcome)

    def chance_is_public(self, state: TumultState, outcome: Any) -> bool:
        # Each chance phase is named for the type of its outcome: the deal and the spin are public.
        kind = outcome.get("type") if isinstance(outcome, dict) else None
        return type(kind) is str and kind in CHANCE_PHASES and CHANCE_PHASES[kind].public

    # -- automatic steps and timed phases --------------------------------------------------------
    def auto_action(self, state: TumultState) -> dict:
        if state["phase"] not in AUTO_PHASES:
            raise IllegalAction("auto", "no automatic step now")
        return AUTO_PHASES[state["phase"]].compute(self.rules, state)

    def timer(self, state: TumultState) -> Optional[Timer]:
        timed = TIMED_PHASES.get(state["phase"])
        if timed is None or not timed.applies(state):
            return None
        return timed.timer(self.rules, state)

    def timeout_action(self, state: TumultState) -> dict:
        if self.timer(state) is None:
            raise IllegalAction("house rule 4.5 digital tax collection", "no timed phase now")
        return dict(TIMED_PHASES[state["phase"]].timeout)

    def cooldown(self, state: TumultState, seat: int, action: Any) -> float:
        if isinstance(action, dict) and action.get("type") == "peek":
            return D.PEEK_COOLDOWN  # >= 600 ms between a seat's peeks (house rule 4.5)
        return 0.0

    # -- applying (trusted: ``step`` checked it, or it is a stored event) -------------------------
    def apply(self, state: TumultState, actor: Any, action: Any) -> TumultState:
        phase = state["phase"]
        s = copy_state(state)
        if actor == CHANCE and type(actor) is str:
            CHANCE_PHASES[phase].apply(self.rules, s, action)
        elif actor == SYSTEM and type(actor) is str:
            if phase in AUTO_PHASES:
                AUTO_PHASES[phase].apply(self.rules, s, action)
            else:
                TIMED_PHASES[phase].close(self.rules, s, action)
        else:
            PLAYER_PHASES[phase].apply(self.rules, s, actor, action)
        return s

    # -- what each one sees ----------------------------------------------------------------------
    def observation(self, state: TumultState, seat: int) -> dict:
        return observation.view(state, seat, self.to_act(state).seats, self.result)

    def public_observation(self, state: TumultState) -> dict:
        return observation.view(state, None, self.to_act(state).seats, self.result)

    def redact_action(self, state: TumultState, actor: Any, action: Any, viewer: Optional[int]) -> Any:
        if isinstance(action, dict) and action.get("type") == "peek":
            # The peek names a centre slot only; its value is never part of an action.
            return {"type": "peek", "tile": action.get("tile")}
        return copy_json(action)

    # -- the end -------------------------------------------------------------------------------
    def result(self, state: TumultState) -> Optional[Result]:
        return round_end.result(state)

    # -- computer opponents ----------------------------------------------------------------------
    def bots(self):
        from .bots import bots_for  # the bots play this engine (and its rules version)

        return bots_for(self)


TumultRoyale = TumultRoyaleEngine  # the former name
