"""Computer opponents for Jester (rules: docs/rules/jester.md, "Computer opponents"). A bot sees only
its observation and the legal actions, like a player.

* ``random``: any legal action.
* ``basic``: one move ahead: it tries each legal action on a state sampled from its observation
  (:func:`determinize`) and keeps the one that leaves it best placed by :func:`standing`: its VP so
  far, what the final scoring would give it now (rulebook End of the Game: card sets, objects, the
  specialization table, money, disciplines, influence, the Crown Penalty) and this round's scoring
  (fame, guild majorities, court), against the best of the others.
* ``mcts``: the shared search (domain/search.py) at the turn's main decisions (which card to play,
  whether to buy, the starting guild markers and the round end's choices), where the observation
  tells the whole pending sequence of decisions; its playouts stop at the end of the round and are
  scored by :func:`standing`. The small decisions inside a visit (a class, a chair, a genre...) are
  played as ``basic`` plays them.
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from domain.engine import copy_json

from .data import CARDS_PER_PLACE, DISCIPLINES, EVENTS, MARKERS, STAMPS_PER_DISCIPLINE
from .round_end import round_scores
from .scoring import crown_penalty, final_items

#: Decisions whose whole pending stack the observation tells (see :func:`_stack`).
EXACT = frozenset({"play", "buy", "rescue", "setup-guild", "keep", "favor", "convert"})
_TURN = frozenset({"city", "specialize", "court", "genre", "tragedy", "take-card", "guild", "victims",
                   "swap", "chair-guild"})


def random_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    return rng.choice(list(legal))


# -- the state behind an observation ---------------------------------------------------------------
def _round_end(observation) -> list:
    """The round end's frames under the favors (round_end.begin_round_end), bottom first."""
    n = len(observation["players"]["money"])
    start, trigger = observation["start"], observation["trigger"]
    last = {"kind": "final-scoring"} if observation["round"] >= 3 else {"kind": "next-round"}
    return [last, {"kind": "convert", "order": [(start + k) % n for k in range(n)], "idx": 0},
            {"kind": "round-end-scoring"},
            {"kind": "favor", "order": [(trigger + k) % n for k in range(n)], "idx": 0}]


def _stack(observation) -> tuple[list, bool]:
    """The pending decisions behind the observation's current one, bottom first, and whether they are
    exactly those of the match (only the current decision is shown; the others follow from the
    rules for the kinds in :data:`EXACT`; inside a visit they are guessed: the buy under it)."""
    top = copy_json(observation["decision"])
    if top is None:
        return [], True
    kind = top["kind"]
    n = len(observation["players"]["money"])
    start = observation["start"]
    if kind in ("play", "buy"):
        return [top], True
    if kind == "rescue":
        return [{"kind": "buy", "seat": top["seat"]}, top], True
    if kind == "setup-guild":  # house rule S2: in turn order from the start player, then play
        k = (top["seat"] - start) % n
        later = [{"kind": "setup-guild", "seat": (start + j) % n} for j in reversed(range(k + 1, n))]
        return [{"kind": "play", "seat": start}] + later + [top], True
    if kind in ("keep", "favor", "convert"):
        frames = _round_end(observation)
        if kind == "convert":
            frames = frames[:2]
            frames[1]["idx"] = frames[1]["order"].index(top["seat"])
            return frames, True
        if kind == "favor":
            frames[3]["idx"] = frames[3]["order"].index(top["seat"])
            return frames, True
        return frames + [top], True
    seat = top.get("seat", top.get("active"))
    if kind == "city":
        stamps = observation["players"]["round_classes"][seat]
        wanted = {"class1": 0, "class2": 1, "pawn": 2}.get(top["stage"], min(2, len(stamps)))
        top["classes"] = stamps[len(stamps) - wanted:] if wanted else []
    if kind in ("favor", "convert"):
        top["order"], top["idx"] = [seat], 0
    if kind in _TURN and observation["trigger"] is not None and observation["players"]["pawn"][seat] is None:
        return _round_end(observation)[:4] + [top], False  # a favor's card or markers
    return [{"kind": "buy", "seat": seat}, top], False


def determinize(observation: dict, seat: int, rng: random.Random) -> dict:
    """A full Jester state consistent with ``seat``'s observation, the hidden parts sampled with
    ``rng``: the others' place cards (10 of each place in all: piles, tables and hands; the unseen
    ones, sorted, shuffled into the hands by their public sizes), the crowns behind their screens
    (0 to 3 each), the two event cards still face down (among the unseen ones), the face-down
    stamps (each discipline's stamps not in the city nor owned). Reads nothing but the observation.
    """
    obs = observation
    pub = obs["players"]
    n = len(pub["money"])
    # place cards: per place, those not in a pile, on a table or in the own hand
    unseen = []
    for i in range(4):
        count = CARDS_PER_PLACE - obs["piles"][i] - sum(t[i] for t in pub["table"]) - obs["hand"][i]
        unseen += [i] * count
    rng.shuffle(unseen)
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(list(obs["hand"]))
            continue
        hand = [0, 0, 0, 0]
        for i in unseen[: pub["hand_count"][s]]:
            hand[i] += 1
        del unseen[: pub["hand_count"][s]]
        hands.append(hand)
    shown = obs["events"]
    hidden_events = [e for e in sorted(EVENTS) if e not in shown]
    rng.shuffle(hidden_events)
    events = list(shown) + hidden_events[: 3 - len(shown)]
    removed = 1 if n == 2 else 0  # 2 players: one stamp of each type out of the game (setup)
    pool = [max(0, STAMPS_PER_DISCIPLINE - 1 - removed - obs["city"][i]
                - sum(c.get(d, 0) for c in pub["classes"])) for i, d in enumerate(DISCIPLINES)]
    players = []
    for s in range(n):
        spec = [d in pub["specialized"][s] for d in DISCIPLINES]
        crowns = obs["my_crowns"] if s == seat else rng.randrange(4)
        placed = (sum(pub["guilds"][s]) + pub["reserve"][s] + sum(spec)
                  + sum(1 for r in obs["royalty"] if r == s) + obs["counselor"].count(s))
        players.append({
            "money": pub["money"][s], "crowns": crowns, "vp": pub["vp"][s], "fame": pub["fame"][s],
            "f13": pub["fame"][s] >= 13, "hand": hands[s], "table": list(pub["table"][s]),
            "reserve": pub["reserve"][s], "guilds": list(pub["guilds"][s]), "spec": spec,
            "boxed": max(0, MARKERS - placed),
            "stamps": [pub["classes"][s].get(d, 0) for d in DISCIPLINES],
            "round_stamps": list(pub["round_classes"][s]),
            "made": [d in pub["objects"][s] for d in DISCIPLINES],
            "order": pub["order"][s], "pawn": pub["pawn"][s], "turns": 1 if obs["round"] > 1 else 0,
        })
    stack, _ = _stack(obs)
    top = stack[-1] if stack else None
    last_played = None
    if top is not None and top["kind"] in ("buy", "rescue"):
        pawn = pub["pawn"][top["seat"]]
        last_played = None if pawn is None else pawn.split(":")[0]
    return {
        "n": n, "opts": {"red_chairs": False}, "round": obs["round"], "over": "final" in obs,
        "events": events, "favors": list(obs["favors"]), "favors_used": list(obs.get("favors_used", [])),
        "court": list(obs["court"]), "royalty": list(obs["royalty"]), "counselor": list(obs["counselor"]),
        "chairs": list(obs["chairs"]), "city": list(obs["city"]), "prices": list(obs["class_prices"]),
        "objects": list(obs["objects"]), "pool": pool, "removed_stamps": 7 * removed,
        "piles": list(obs["piles"]), "blocked": list(obs["blocked"]), "start": obs["start"],
        "trigger": obs["trigger"], "fame13": sum(1 for f in pub["fame"] if f >= 13),
        "prestige": list(obs.get("prestige", [0] * n)), "last_played": last_played,
        "players": players, "stack": stack,
    }


# -- how well placed a seat is ---------------------------------------------------------------------
def standing(state) -> list[float]:
    """Each seat's VP if the game ended after this round: VP so far, this round's scoring (End of the
    Round tasks 3), the final scoring items and the Crown Penalty (End of the Game)."""
    n = state["n"]
    items = final_items(state)
    theater, guilds, court = round_scores(state)
    penalty = crown_penalty(state)
    return [state["players"][s]["vp"] + sum(items[k][s] for k in items) + theater[s] + guilds[s]
            + court[s] + penalty[s] + 0.25 * (state["players"][s]["money"] % 3) for s in range(n)]


def _margin(values: Sequence[float], seat: int) -> float:
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def rewards(state) -> list[float]:
    """Search rewards in [0, 1]: each seat's lead over the best other on :func:`standing` (the final
    VP once the match is over), squashed smoothly (a lead of 10 VP is worth about 0.88)."""
    values = standing(state) if not state["over"] else [p["vp"] for p in state["players"]]
    return [0.5 + 0.5 * math.tanh(_margin(values, s) / 8) for s in range(len(values))]


def make_basic(engine):
    def basic_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        seat = observation["seat"]
        state = determinize(observation, seat, rng)
        scored = []
        for action in legal:
            try:
                after = engine.apply(state, seat, action)
            except (KeyError, IndexError, ValueError, AssertionError):  # a guessed frame (see _stack)
                scored.append(float("-inf"))
                continue
            scored.append(_margin(standing(after), seat))
        best = max(scored)
        return rng.choice([a for a, v in zip(legal, scored) if v == best])

    return basic_bot


class _Search:
    """The search where the observation tells the whole stack, ``basic`` elsewhere."""

    def __init__(self, search, fallback):
        self.search = search
        self.fallback = fallback

    def __call__(self, observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
        decision = observation["decision"]
        if decision is not None and decision["kind"] in EXACT:
            return self.search(observation, legal, rng)
        return self.fallback(observation, legal, rng)


#: Playouts per move, sized to answer within a second on this machine (bench/bots_jester.py).
ITERATIONS = 160
#: How many turns a playout looks ahead (each seat's turn counts one) before it is scored, at most
#: to the end of the round: a round runs 15 to 60 turns, too many to play out within a second.
HORIZON_TURNS = 2


def _turns(state) -> int:
    return sum(p["turns"] for p in state["players"])


def _horizon_state(observation, seat, rng):
    state = determinize(observation, seat, rng)
    # the playouts stop when the next round starts or after HORIZON_TURNS turns of every seat
    state["horizon"] = [observation["round"], _turns(state) + HORIZON_TURNS * state["n"]]
    return state


def _cutoff(state) -> bool:
    round_, turns = state["horizon"]
    return state["over"] or state["round"] > round_ or _turns(state) >= turns


def bots_for(engine) -> dict:
    from domain.search import SearchBot, SearchGame

    basic = make_basic(engine)
    game = SearchGame(engine=engine, determinize=_horizon_state, cutoff=_cutoff, evaluate=rewards)
    search = SearchBot(game, iterations=ITERATIONS, determinizations=8)
    return {"random": random_bot, "basic": basic, "mcts": _Search(search, basic)}

