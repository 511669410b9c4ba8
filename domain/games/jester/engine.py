"""The Jester rule engine: dispatch of the decision stack onto the handlers of its rules version."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from domain.engine import Engine, IllegalAction, InvalidOptions, Result, ToAct, copy_json, strictly_in

from . import observation, round_end, rules, scoring, setup
from .core import AUTO_KINDS, CHANCE_KINDS, settle, top
from .house_rules import HOUSE_RULES, house_rules

SOURCED_GAINS = frozenset({"buy", "take-card", "keep"})  # a card from a pile or the table to a hand


_PLAYER_LISTS = ("hand", "table", "guilds", "spec", "stamps", "round_stamps", "made")
_STATE_LISTS = ("events", "favors", "favors_used", "court", "royalty", "counselor", "chairs", "city",
                "prices", "objects", "pool", "piles", "blocked", "prestige")


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
    new["stack"] = [copy_json(f) for f in state["stack"]]
    if "final" in state:
        new["final"] = copy_json(state["final"])
    return new


class JesterEngine(Engine):
    name = "jester"
    title = "Jester"
    rules_version = rules.CURRENT
    min_players = 2
    max_players = 4
    house_rules = HOUSE_RULES
    summary = ("Medieval artists compete for the post of court Jester over three rounds: classes in "
               "the city, performances at the theater, intrigue at court and influence in the guilds.")

    def __init__(self, rules_version: str = rules.CURRENT):
        self.rules_version = rules_version
        self._handlers = rules.handlers(rules_version)  # raises on an unknown version
        self.house_rules = house_rules(rules_version)  # 1.1.0's rescue differs (J-RESCUE)
        self._shows_sources = rules.shows_card_sources(rules_version)
        self._house_rule_options = rules.house_rule_options(rules_version)  # 1.4.0 on; none before
        self._caps_turns = rules.caps_turns(rules_version)  # 1.5.0 on: state["round_turns"]; none before

    def __repr__(self) -> str:
        return f"JesterEngine(rules_version={self.rules_version!r})"

    def default_options(self) -> dict:
        return {"red_chairs": False, **self._house_rule_options}

    #: Each option in plain words for a player choosing it (``Engine.option_titles``).
    option_titles = {
        "red_chairs": (
            "The Red Chairs variant: red chairs may be taken from the first round, and everyone "
            "starts with 3 crowns"
        ),
        "vp_floor": (
            "Victory points never go below 0 (on); off: they may go below 0"
        ),
        "influence_needs_markers": (
            "The end-game influence bonus needs at least one marker on the board (on); off: a player "
            "with none may get it"
        ),
    }

    def describe_options(self) -> dict[str, dict]:
        described = super().describe_options()
        # Rulebook, Variant: Red Chairs. The red chairs are in the base game from round 2; the variant
        # opens them in round 1, from each player's second turn, and gives 3 crowns instead of 2.
        described["red_chairs"]["description"] = (
            "The Red Chairs variant: red chairs may be taken in round 1 too, from each player's second turn "
            "(without it, from round 2), and each player starts with 3 crowns instead of 2")
        if not self._house_rule_options:  # 1.0.0-1.3.0: P6 and J-INFLUENCE with no option
            return described
        described["vp_floor"]["description"] = (
            "House rule P6 [PROPOSAL]: the VP track never goes below 0, after chair III and the Crown Penalty "
            "too. Off: VP may go below 0, chair III and the Crown Penalty taking their full 2 and 10 VP (the "
            "rulebook states no floor), and chair III harms a player with 0 VP (docs/rules/jester.md)")
        described["influence_needs_markers"]["description"] = (
            "House rule J-INFLUENCE [ENGINE]: the end-game influence bonus (8 VP / 4 VP) goes only to players "
            "with at least one marker on the board. Off: the rulebook's letter, 0 markers is a quantity too, "
            "so at 2 players a second place with 0 markers gets 4 VP, and if nobody has a marker all tie for "
            "1st and share 12 VP, rounded down (docs/rules/jester.md)")
        return described

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> dict:
        if type(num_players) is not int:
            raise InvalidOptions("jester players", "the number of players must be an integer")
        return super().check_options(num_players, options)

    def initial_state(self, num_players, options):
        opts = self.check_options(num_players, options)
        state = setup.initial_state(num_players, opts, rules.start_money(self.rules_version))
        if self._caps_turns:
            state["round_turns"] = 0  # 1.5.0: the turns ended this round, for the nine-turn cap (turn.end_turn)
        return state

    def num_players(self, state) -> int:
        return state["n"]

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
        legal = self._handlers[frame["kind"]].legal
        assert legal is not None, "a frame a seat acts in lists its actions"
        return legal(state, frame, seat)

    def check_action(self, state, seat, action) -> None:
        frame = top(state)
        if frame is None or type(seat) is not int or seat not in self._seats(frame):
            raise IllegalAction("jester turn order", "it is not this seat's turn to act")
        handler = self._handlers[frame["kind"]]
        rule = handler.rule
        assert handler.legal is not None, "a frame a seat acts in lists its actions"
        if not isinstance(action, dict) or type(action.get("type")) is not str:
            raise IllegalAction(rule, "an action is a JSON object (string keys) with a string 'type'")
        legal = handler.legal(state, frame, seat)
        if strictly_in(handler.canonical(action) if handler.canonical else action, legal):
            return
        types = sorted({o["type"] for o in legal})
        if action["type"] not in types:
            raise IllegalAction(rule, f"the {frame['kind']} decision expects one of: {', '.join(types)}")
        shapes = sorted({tuple(sorted(o)) for o in legal if o["type"] == action["type"]})
        if tuple(sorted(map(str, action))) not in shapes:
            raise IllegalAction(rule, f"a {action['type']} action has the keys {list(shapes[0])}")
        raise IllegalAction(rule, f"this {action['type']} is not allowed now (see the legal actions)")

    # -- chance ----------------------------------------------------------------------------------
    def chance_outcomes(self, state):
        frame = top(state)
        return setup.chance_outcomes(state, frame)

    def sample_chance(self, state, rng):
        return setup.sample(state, top(state), rng)

    def validate_chance(self, state, outcome) -> None:
        setup.validate_shuffle(state, top(state), outcome)

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
        """Trusted (``step`` checked it once): copy, apply the frame's handler, settle what needs
        no decision."""
        new = _copy(state)
        frame = new["stack"][-1]
        apply = self._handlers[frame["kind"]].apply
        assert apply is not None, "a frame that is acted in applies the action"
        apply(new, frame, actor, action)
        settle(new, self._handlers)
        return new

    # -- what each one sees ------------------------------------------------------------------------
    def observation(self, state, seat):
        return observation.for_seat(state, seat)

    def public_observation(self, state):
        return observation.public(state)

    def redact_action(self, state, actor, action, viewer: Optional[int]):
        """Shown as played (1.2.0): where a card came from is on the table for all to see (the pile
        counts and the tables are public), so the event list shows it too. 1.0.0 and 1.1.0 showed the
        others ``"place": "hidden"``, which hid nothing the observations did not reveal."""
        if not self._shows_sources and actor != viewer and isinstance(action, dict) \
                and action.get("type") in SOURCED_GAINS and "place" in action:
            return {**copy_json(action), "place": "hidden"}
        return copy_json(action)

    # -- the end -----------------------------------------------------------------------------------
    def result(self, state):
        if not state["over"]:
            return None
        return Result(scores=tuple(p["vp"] for p in state["players"]),
                      ranks=tuple(scoring.ranks(state)), detail=copy_json(state["final"]))

    # -- computer opponents ----------------------------------------------------------------------
    def bots(self):
        from .bots import bots_for  # the bots play this engine (and its rules version)

        return bots_for(self)
