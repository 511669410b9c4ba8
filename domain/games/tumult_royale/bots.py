"""Computer opponents for Tumult Royale (rules: docs/rules/tumult-royale.md, "Computer opponents").
A bot sees only its observation and the legal actions, like a player.

* ``random``: any legal action.
* ``basic``: collects taxes up to a large haul (keeps a tile while it holds at most 12 units of that
  commodity and 24 in all, stops at 20: a tumult costs the greediest 3 supporters and all but one
  tile of the commodity, rulebook step 3, but an empty castle builds nothing), then builds
  the biggest field it can pay for each turn (a palace before a village before a single statue,
  rulebook step 4), overpaying where it must for the supporters (rulebook: +1 per unit overpaid);
  its first statue goes on the pasture with the most buildable neighbours.
* ``mcts``: the shared flat search (:class:`domain.search.FlatSearch`) over states sampled from the
  observation by :func:`determinize`: every distinct legal action tried on the same samples, its
  playouts cut at the end of the round and scored by :func:`_rewards`, basic's move unless another
  beats it by half a standard error; the peeks at face-down tiles all look alike to the seat, so the
  search tries one of them. (The shared tree search, 120 passes, won 67.1 % of 70 matches against
  basic but took 6-50 s a match; at 32 passes it lost, 27.5 % of 80.)
"""

from __future__ import annotations

import math
import random
from typing import Any, Optional, Sequence

from . import data as D

_CODE = {"BMT"[c] + str(v): (c, v) for c, v in D.TILES}


def random_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    return rng.choice(list(legal))


# -- basic ------------------------------------------------------------------------------------------
def _units(castle) -> list:
    units = [0, 0, 0]
    for code in castle if isinstance(castle, list) else []:
        c, v = _CODE[code]
        units[c] += v
    return units


#: basic's tax haul: it keeps a tile while it would hold at most KEEP_EACH units of that commodity and
#: KEEP_ALL in all, and stops collecting at STOP_AT units (tuned by bench/bots_tumult_royale.py).
KEEP_EACH, KEEP_ALL, STOP_AT = 12, 24, 20


def basic_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    legal = list(legal)
    if len(legal) == 1:
        return legal[0]
    kind = legal[0]["type"]
    seat = observation["seat"]
    if kind in ("keep", "return"):
        units = _units(observation["castles"][seat])
        tile = observation["hand"]
        c = D.COMMODITIES.index(tile["commodity"])
        good = units[c] + tile["value"] <= KEEP_EACH and sum(units) + tile["value"] <= KEEP_ALL
        return {"type": "keep" if good else "return"}
    if kind in ("peek", "done"):
        units = _units(observation["castles"][seat])
        # a live collection has no peek limit: stop now and then, so that the collection ends
        if sum(units) >= STOP_AT or rng.random() < 0.05 or legal[0]["type"] == "done":
            return {"type": "done"}
        return legal[0]
    if kind in ("place", "pass"):
        places = [a for a in legal if a["type"] == "place"]
        if not places:
            return {"type": "pass"}
        types = observation["fields"].replace("/", "")

        def value(action):
            size = D.COSTS[types[action["field"]]][1]
            paid = sum(sum(action["pay"][name]) for name in D.COMMODITIES)
            return (size, paid)

        best = max(value(a) for a in places)
        return rng.choice([a for a in places if value(a) == best])
    if kind == "first-statue":
        types = observation["fields"].replace("/", "")
        nb = D.neighbours(len(observation["supporters"]))

        def room(action):
            return sum(1 for g in nb[action["field"]] if types[g] != "?")

        best = max(room(a) for a in legal)
        return rng.choice([a for a in legal if room(a) == best])
    return rng.choice(legal)


# -- the state behind an observation ---------------------------------------------------------------
def determinize(observation: dict, seat: int, rng: random.Random) -> dict:
    """A full Tumult Royale state consistent with ``seat``'s observation, the hidden parts sampled
    with ``rng``: the face-down region tiles (among the ten not shown; the rest boxed), the tiles
    the seat has not seen (sorted, then shuffled) into the others' castles before the reveal, the
    face-down centre slots and those set aside (12, or 3 a player with the option set_aside "per-player").
    Tiles are shown by commodity and value, so a tile shown takes the lowest free id of its kind. Reads
    nothing but the observation.
    """
    obs = observation
    n = len(obs["supporters"])
    phase = obs["phase"]
    free = list(range(D.NUM_TILES))

    def take(code):
        kind = _CODE[code]
        tile = next(t for t in free if D.TILES[t] == kind)
        free.remove(tile)
        return tile

    castles: list = [[] for _ in range(n)]
    shown = obs.get("castles")
    if shown is not None:
        for s, castle in enumerate(shown):
            if isinstance(castle, list):
                castles[s] = [take(code) for code in castle]
    centre = [take(code) for code in obs["centre"]] if "centre" in obs else []
    slots = obs.get("slots")
    held = None
    hand = obs.get("hand")
    if slots is not None and hand is not None:
        held = take("BMT"[D.COMMODITIES.index(hand["commodity"])] + str(hand["value"]))
    rng.shuffle(free)  # free is sorted: the same observation and rng give the same sample
    if shown is not None:
        for s, castle in enumerate(shown):
            if not isinstance(castle, list):
                castles[s] = sorted(free[:castle])
                del free[:castle]
    layout: Optional[list] = None
    if slots is not None:
        layout = []
        for i, mark in enumerate(slots):
            if mark == "k":
                layout.append(None)
            elif held is not None and hand is not None and hand["slot"] == i:
                layout.append(held)
            else:
                layout.append(free.pop())
        centre = []
    # the match's count (the option set_aside, 1.2.0; an older version's observation names none: 12 in all)
    aside = D.set_aside(n, obs["options"].get("set_aside", "total"))
    set_aside = sorted(free[:aside])
    spent = sorted(free[aside:])
    if phase in ("first-statues",) or obs["round"] == 0:
        centre, set_aside, spent = list(range(D.NUM_TILES)), [], []
    regions = boxed = None
    face_up = [True] * (2 * D.COLUMNS[n])
    if "regions" in obs:
        face_up = [r is not None for r in obs["regions"]]
        unseen = [r for r in range(1, 11) if r not in obs["regions"]]
        rng.shuffle(unseen)
        regions = [r if r is not None else unseen.pop() for r in obs["regions"]]
        boxed = sorted(unseen)
    board = [None if ch == "." else int(ch) for ch in obs["owners"].replace("/", "")] \
        if "owners" in obs else [None] * D.num_fields(n)
    turn = obs["to_act"][0] if phase in ("first-statues", "placement", "reveal") or "peeks" in obs else None
    if phase == "tax" and "peeks" not in obs:
        turn = None
    tumults = obs.get("tumults")
    options = dict(obs["options"])  # the match's, as every observation names them (not guessed from the phase)
    return {
        "n": n, "options": options, "phase": phase, "round": obs["round"],
        "regions": regions, "boxed": boxed, "face_up": face_up, "board": board,
        "ranks": None if obs["ranks"] is None else list(obs["ranks"]),
        "supporters": list(obs["supporters"]), "pool": D.SUPPORTER_TOTAL - sum(obs["supporters"]),
        "statues_left": [D.STATUES - x for x in obs["statues_placed"]],
        "chronicle": [[king, 1 if i < 5 else 2] for i, king in enumerate(obs["chronicle"])],
        "mercy": list(obs["mercy"]), "demand": obs["demand"], "turn": turn, "layout": layout,
        "set_aside": set_aside, "centre": sorted(centre), "castle": castles, "spent": spent,
        "hand": list(obs["holding"]) if "holding" in obs else [None] * n,
        "revealed": "centre" in obs, "collecting": list(obs.get("collecting", [False] * n)),
        "ready": list(obs.get("ready", [False] * n)), "peeks": list(obs.get("peeks", [0] * n)),
        "passed": list(obs.get("passed", [False] * n)),
        "placed_round": list(obs.get("placed_this_round", [0] * n)),
        "greedy": list(obs.get("greedy", [False] * n)), "reveals_left": obs.get("reveals_left", 0),
        "last_tumults": None if tumults is None else {"type": "tumults", "demand": obs["demand"],
                                                       "left": {}, "tumults": tumults},
        "winner25": None, "end": None,
    }


# -- mcts -------------------------------------------------------------------------------------------
def _distinct(legal: list) -> list:
    """Every face-down tile looks the same to the seat: one peek stands for them all."""
    out, peeked = [], False
    for action in legal:
        if action["type"] == "peek":
            if peeked:
                continue
            peeked = True
        out.append(action)
    return out


def _rewards(state) -> list:
    """Statues placed (the match's order, rulebook "Ending the Game"), a supporter worth a tenth of
    a statue (rank, and so the king's chronicle statues); each seat's lead over the best other,
    squashed into [0, 1]."""
    n = state["n"]
    values = [D.STATUES - state["statues_left"][s] + state["supporters"][s] / 10 for s in range(n)]
    if state["phase"] == "over" and state["winner25"] is not None:
        values[state["winner25"]] += 100
    return [0.5 + 0.5 * math.tanh((values[s] - max(v for t, v in enumerate(values) if t != s)) / 3)
            for s in range(n)]


def _horizon_state(observation, seat, rng):
    state = determinize(observation, seat, rng)
    state["horizon"] = observation["round"]  # the playouts stop when the next round starts
    return state


def _cutoff(state) -> bool:
    return state["phase"] == "over" or state["round"] > state["horizon"]


def _rollout(state, seat: int, legal: list, rng: random.Random) -> dict:
    """The playouts' policy, on the sampled state: ``basic``'s rules of thumb, cheaply (a uniform
    collection peeks and returns for long; a sampled state may be read, it is not the truth)."""
    kind = legal[0]["type"]
    if kind in ("keep", "return"):
        c, v = D.TILES[state["layout"][state["hand"][seat]]]
        units = [0, 0, 0]
        for tile in state["castle"][seat]:
            units[D.TILES[tile][0]] += D.TILES[tile][1]
        return legal[0] if units[c] + v <= KEEP_EACH and sum(units) + v <= KEEP_ALL else legal[1]
    if kind == "peek":
        return legal[-1] if rng.random() < 0.25 else rng.choice(legal[:-1])
    if kind == "place":
        types = D.field_types(state["n"], tuple(state["regions"]), tuple(state["face_up"]))
        best = max(D.COSTS[types[a["field"]]][1] for a in legal if a["type"] == "place")
        return rng.choice([a for a in legal if a["type"] == "place" and D.COSTS[types[a["field"]]][1] == best])
    return rng.choice(legal)


#: Playouts a move, sized to answer well within a second on this machine (bench/bots_tumult_royale.py),
#: and the standard errors by which the search's move must beat basic's to be played.
PLAYOUTS, Z = 32, 0.5


def bots_for(engine) -> dict:
    from domain.search import FlatSearch, SearchGame

    game = SearchGame(engine=engine, determinize=_horizon_state, cutoff=_cutoff, evaluate=_rewards,
                      distinct=_distinct, rollout=_rollout)
    return {"random": random_bot, "basic": basic_bot,
            "mcts": FlatSearch(game, basic_bot, playouts=PLAYOUTS, z=Z)}
