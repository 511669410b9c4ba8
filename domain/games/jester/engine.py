"""The Jester rule engine: dispatch of the decision stack onto the modules."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from domain.engine import CHANCE, SYSTEM, Engine, IllegalAction, InvalidOptions, Result, ToAct

from . import city, court, guilds, observation, round_end, scoring, setup, theater, turn  # noqa: F401
from .core import APPLY, AUTO_KINDS, CHANCE_KINDS, LEGAL, RULE, same, settle, top

HIDDEN_GAINS = {"buy", "take-card", "keep"}  # the card taken goes to a hidden hand
# The last (state, seat, action) that check_action accepted: apply need not check it again. States
# are immutable values (apply always returns a new one), so identity is a safe key.
_CHECKED: list = [None, None, None]


_PLAYER_LISTS = ("hand", "table", "guilds", "spec", "stamps", "round_stamps", "made")
_STATE_LISTS = ("events", "favors", "favors_used", "court", "royalty", "counselor", "chairs", "city",
                "prices", "objects", "pool", "piles", "blocked", "prestige")


def _copy_value(value):
    if type(value) is list:
        return [_copy_value(v) for v in value]
    if type(value) is dict:
        return {k: _copy_value(v) for k, v in value.items()}
    return value


def _copy(state):
    """A deep copy specialised to the state's layout (much faster than deepcopy or pickle)."""
    new = dict(state)
    for key in _STATE_LISTS:
        new[key] = state[key][:]  # lists of scalars
    new["opts"] = dict(state["opts"])
    players = []
    for p in state["players"]:
        q = dict(p)
        for key in _PLAYER_LISTS:
            q[key] = p[key][:]
        players.append(q)
    new["players"] = players
    new["stack"] = [_copy_value(f) for f in state["stack"]]
    if "final" in state:
        new["final"] = _copy_value(state["final"])
    return new


class JesterEngine(Engine):
    name = "jester"
    title = "Jester"
    rules_version = "1.1.0"
    min_players = 2
    max_players = 4
    summary = ("Medieval artists compete for the post of court Jester over three rounds: classes in "
               "the city, performances at the theater, intrigue at court and influence in the guilds.")

    def default_options(self) -> dict:
        return {"red_chairs": False}

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> dict:
        if type(num_players) is not int:
            raise InvalidOptions("jester players", "the number of players must be an integer")
        return super().check_options(num_players, options)

    def initial_state(self, num_players, options):
        opts = self.check_options(num_players, options)
        return setup.initial_state(num_players, opts)

    # -- whose move ------------------------------------------------------------------------------
    def to_act(self, state) -> ToAct:
        frame = top(state)
        if frame is None:
            return ToAct.over()
        kind = frame["kind"]
        if kind in CHANCE_KINDS:
            return ToAct.chance()
        if kind in AUTO_KINDS:
            return ToAct.auto()
        if kind in ("favor", "convert"):
            return ToAct.players(frame["order"][frame["idx"]])
        if "seats" in frame:
            return ToAct.players(*frame["seats"])
        return ToAct.players(frame["seat"])

    @staticmethod
    def _seats(frame):
        kind = frame["kind"]
        if kind in CHANCE_KINDS or kind in AUTO_KINDS:
            return ()
        if kind in ("favor", "convert"):
            return (frame["order"][frame["idx"]],)
        if "seats" in frame:
            return frame["seats"]
        return (frame["seat"],)

    def legal_actions(self, state, seat):
        frame = top(state)
        if frame is None or type(seat) is not int or seat not in self._seats(frame):
            return []
        return LEGAL[frame["kind"]](state, frame, seat)

    def check_action(self, state, seat, action) -> None:
        frame = top(state)
        rule = RULE.get(frame["kind"], "jester") if frame else "jester"
        if frame is None or type(seat) is not int or seat not in self._seats(frame):
            raise IllegalAction("jester turn order", "it is not this seat's turn to act")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str) \
                or not all(isinstance(key, str) for key in action):
            raise IllegalAction(rule, "an action is a JSON object (string keys) with a string 'type'")
        legal = LEGAL[frame["kind"]](state, frame, seat)
        for option in legal:
            if option == action and same(option, action):
                _CHECKED[0], _CHECKED[1], _CHECKED[2] = state, seat, option
                return
        types = sorted({o["type"] for o in legal})
        if action["type"] not in types:
            raise IllegalAction(rule, f"the {frame['kind']} decision expects one of: {', '.join(types)}")
        shapes = sorted({tuple(sorted(o)) for o in legal if o["type"] == action["type"]})
        if tuple(sorted(action)) not in shapes:
            raise IllegalAction(rule, f"a {action['type']} action has the keys {list(shapes[0])}")
        raise IllegalAction(rule, f"this {action['type']} is not allowed now (see the legal actions)")

    # -- chance ----------------------------------------------------------------------------------
    def chance_outcomes(self, state):
        frame = top(state)
        return setup.chance_outcomes(state, frame)

    def sample_chance(self, state, rng):
        return setup.sample(state, top(state), rng)

    def chance_is_public(self, state, outcome) -> bool:
        frame = top(state)
        return frame is not None and frame["kind"] in setup.PUBLIC_CHANCE

    # -- automatic steps -------------------------------------------------------------------------
    def auto_action(self, state):
        kind = top(state)["kind"]
        if kind == "round-end-scoring":
            return round_end.auto_round_scoring(state)
        if kind == "next-round":
            return round_end.auto_next_round(state)
        if kind == "final-scoring":
            return scoring.auto_final(state)
        raise IllegalAction("jester", "no automatic step is due")

    # -- applying --------------------------------------------------------------------------------
    def apply(self, state, actor, action):
        frame = top(state)
        if frame is None:
            raise IllegalAction("jester End of the Game", "the match is over")
        kind = frame["kind"]
        if actor == CHANCE:
            if kind not in CHANCE_KINDS:
                raise IllegalAction("jester", "no chance step is due")
        elif actor == SYSTEM:
            if kind not in AUTO_KINDS:
                raise IllegalAction("jester", "no automatic step is due")
            if not same(action, self.auto_action(state)):
                raise IllegalAction(RULE[kind], "the automatic step does not match the computed one")
        elif not (_CHECKED[0] is state and type(actor) is int and _CHECKED[1] == actor
                  and same(_CHECKED[2], action)):
            self.check_action(state, actor, action)
        new = _copy(state)
        frame = new["stack"][-1]
        APPLY[kind](new, frame, actor, action)
        settle(new)
        return new

    # -- what each one sees ------------------------------------------------------------------------
    def observation(self, state, seat):
        return observation.for_seat(state, seat)

    def public_observation(self, state):
        return observation.public(state)

    def redact(self, state, actor, action, viewer: Optional[int]):
        if actor == CHANCE:
            return action if self.chance_is_public(state, action) else None
        if actor != viewer and isinstance(action, dict) and action.get("type") in HIDDEN_GAINS \
                and "place" in action:
            return {**action, "place": "hidden"}
        return action

    # -- the end -----------------------------------------------------------------------------------
    def result(self, state):
        if not state["over"]:
            return None
        return Result(scores=tuple(p["vp"] for p in state["players"]),
                      ranks=tuple(scoring.ranks(state)), detail=state["final"])
