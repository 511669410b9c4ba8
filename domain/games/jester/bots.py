"""Computer opponents for Jester (rules: docs/rules/jester.md, "Computer opponents"). A bot sees only
its observation and the legal actions, like a player.

* ``random``: any legal action.
* ``basic``: one move ahead: it tries each legal action on a state sampled from its observation
  (:func:`determinize`) and keeps the one that leaves it best placed by :func:`standing`: its VP so
  far, what the final scoring would give it now (rulebook End of the Game: card sets, objects, the
  specialization table, money, disciplines, influence, the Crown Penalty) and this round's scoring
  (fame, guild majorities, court), against the best of the others.
* ``mcts``: a flat Monte Carlo search (:class:`FlatSearch`): each legal action is tried on states
  sampled from the observation, the same samples and dice for all, played on by ``basic``'s policy
  for two turns a seat (at most to the end of the round) and scored by the lead on :func:`standing`;
  sequential halving spends the playouts on the better actions, and ``basic``'s own choice stays in
  the running and wins ties. It searches every decision whose pending stack the observation tells
  (:data:`SEARCHED`: all of them, a city visit's classes aside, see :func:`_stack`).
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Optional, Sequence

from domain.engine import CHANCE, SYSTEM, Phase, copy_json
from domain.search import paired_best

from .data import BUFFOON, CARDS_PER_PLACE, DISCIPLINES, EVENTS, MARKERS, STAMPS_PER_DISCIPLINE, THRESHOLD
from .round_end import round_scores
from .scoring import crown_penalty, final_items

#: Every decision a seat takes outside a city visit: the observation tells its whole pending stack
#: (see :func:`_stack`).
EXACT = frozenset({"play", "buy", "rescue", "setup-guild", "keep", "favor", "convert", "specialize", "court",
                   "genre", "tragedy", "take-card", "guild", "victims", "swap", "chair-guild"})
#: The decisions ``mcts`` searches: those and a city visit's, whose stack is exact but for the
#: classes taken in the visit at its last stage (the object to order), which the observation does not
#: list and no action there reads (both ``order`` and ``no-order`` end the visit).
SEARCHED = EXACT | {"city"}
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
    exactly those of the match. Only the current decision is shown; the others follow from the rules
    and the public data: a visit's decisions lie on the turn's buy (chair II's marker on its card, a
    specialization on its city visit, whose first class moved the pawn), a favor's cards or markers
    on the round end (``favors_used`` is shown during the favors only). Guessed: the classes taken in
    a city visit once it reaches the object to order (see :data:`SEARCHED`)."""
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
    pub = observation["players"]
    seat = top.get("seat", top.get("active"))
    if kind == "city":  # the classes taken in this visit: the last of the round's, by the stage
        stamps = pub["round_classes"][seat]
        wanted = {"class1": 0, "class2": 1, "pawn": 2}.get(top["stage"], min(2, len(stamps)))
        top["classes"] = stamps[len(stamps) - wanted:] if wanted else []
    if observation.get("favors_used"):  # task 2: favor 1's cards or favor 7's markers
        frames = _round_end(observation)[:4]
        frames[3]["idx"] = frames[3]["order"].index(seat) + 1
        return frames + [top], True
    below = [{"kind": "buy", "seat": seat}]
    if kind == "chair-guild":  # chair II: a marker to a guild, then a card
        below.append({"kind": "take-card", "seat": seat, "left": 1})
    elif kind == "specialize":  # under the city visit, just after the class of top["discipline"]
        first = pub["pawn"][seat] == "city:" + top["discipline"]  # the first class moves the pawn
        if first:
            classes = [top["discipline"]]
            stage = "class2" if pub["guilds"][seat][BUFFOON - 1] >= THRESHOLD[BUFFOON] else "order"
        else:  # the Master Buffoon's second class
            classes, stage = [pub["pawn"][seat].split(":")[1], top["discipline"]], "pawn"
        below.append({"kind": "city", "seat": seat, "stage": stage, "classes": classes})
    return below + [top], kind in EXACT


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
            "order": pub["order"][s], "pawn": pub["pawn"][s], "turns": _turns_taken(obs, s, n),
        })
    stack, _ = _stack(obs)
    top = stack[-1] if stack else None
    last_played = None
    if top is not None and top["kind"] in ("buy", "rescue"):
        pawn = pub["pawn"][top["seat"]]
        last_played = None if pawn is None else pawn.split(":")[0]
    state = {
        "n": n, "opts": {"red_chairs": False, **obs.get("options", {})}, "round": obs["round"], "over": "final" in obs,
        "events": events, "favors": list(obs["favors"]), "favors_used": list(obs.get("favors_used", [])),
        "court": list(obs["court"]), "royalty": list(obs["royalty"]), "counselor": list(obs["counselor"]),
        "chairs": list(obs["chairs"]), "city": list(obs["city"]), "prices": list(obs["class_prices"]),
        "objects": list(obs["objects"]), "pool": pool, "removed_stamps": 7 * removed,
        "piles": list(obs["piles"]), "blocked": list(obs["blocked"]), "start": obs["start"],
        "trigger": obs["trigger"], "fame13": sum(1 for f in pub["fame"] if f >= 13),
        "prestige": list(obs.get("prestige", [0] * n)), "last_played": last_played,
        "players": players, "stack": stack,
    }
    if "round_turns" in obs:  # 1.5.0: the nine-turn cap's count, public
        state["round_turns"] = obs["round_turns"]
    return state


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


def _greedy(engine, epsilon: float):
    """The playouts' policy, on a full (sampled) state: ``basic``'s choice by :func:`standing`
    (ties at random), and with probability ``epsilon`` any legal action."""

    def policy(state, seat: int, legal: list, rng: random.Random) -> dict:
        if len(legal) == 1:
            return legal[0]
        if epsilon and rng.random() < epsilon:
            return rng.choice(legal)
        best, chosen = float("-inf"), []
        for action in legal:
            value = _margin(standing(engine.apply(state, seat, action)), seat)
            if value > best:
                best, chosen = value, [action]
            elif value == best:
                chosen.append(action)
        return chosen[0] if len(chosen) == 1 else rng.choice(chosen)

    return policy


def _turns_taken(obs, seat: int, n: int) -> int:
    """A seat's turns so far, as far as they count (whether it has had one: the Red Chairs variant's
    "from round 1" chairs, court.py): any seat has after round 1; in round 1, from 1.5.0's public count
    of the turns ended this round (each seat in turn from the starting player), else none is assumed."""
    if obs["round"] > 1:
        return 1
    ended, start = obs.get("round_turns"), obs["start"]
    if ended is None or start is None:
        return 0
    return sum(1 for k in range(ended) if (start + k) % n == seat)


def _turns(state) -> int:
    return sum(p["turns"] for p in state["players"])


def _playout(engine, state, rng: random.Random, policy, until: tuple) -> dict:
    """Play ``state`` on by ``policy`` until the match ends, the round ``until[0]`` does, or the
    seats have played ``until[1]`` turns in all."""
    round_, turns = until
    while not state["over"] and state["round"] <= round_ and _turns(state) < turns:
        turn = engine.to_act(state)
        if turn.kind == Phase.OVER:
            break
        if turn.kind == Phase.CHANCE:
            state = engine.apply(state, CHANCE, engine.sample_chance(state, rng))
        elif turn.kind == Phase.AUTO:
            state = engine.apply(state, SYSTEM, engine.auto_action(state))
        else:
            seats = turn.seats
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            state = engine.apply(state, seat, policy(state, seat, engine.legal_actions(state, seat), rng))
    return state


def _score(state, seat: int) -> float:
    """``seat``'s reward in [0, 1] for a playout's last state: its lead over the best other on
    :func:`standing` (the final VP once the match is over), squashed smoothly (a lead of 10 VP is
    worth about 0.88)."""
    values = standing(state) if not state["over"] else [p["vp"] for p in state["players"]]
    return 0.5 + 0.5 * math.tanh(_margin(values, seat) / 8)


class FlatSearch:
    """The ``mcts`` level: a flat Monte Carlo search over the legal actions at the decisions whose
    pending stack the observation tells (:data:`EXACT`), ``basic`` elsewhere.

    Every sample is a state drawn from the observation (:func:`determinize`) and a playout seed;
    each action still in the running is tried on the same sample with the same seed (common random
    numbers: two actions are compared on the same guess of the hidden cards and the same dice),
    then played on by ``basic``'s policy (:func:`_greedy`, ``epsilon`` random) for ``turns`` turns
    a seat, at most to the end of the round, and scored by the lead on :func:`standing` (the final
    VP once over). The ``playouts`` are spent by sequential halving (Karnin, Koren & Somekh 2013):
    in ⌈log2 k⌉ rounds, the worse half of the actions is dropped after each, ``basic``'s own choice
    staying in; the best mean over the samples the finalists share is played, unless it does not beat
    ``basic``'s choice by ``z`` standard errors of their paired differences (so noise never plays
    worse than ``basic``).

    A pure function of the observation, the legal actions and the rng; :meth:`with_budget` with a
    ``clock`` also stops the search once ``seconds`` have passed on it (the worker's cap).
    """

    def __init__(self, engine, playouts: int = 48, turns: int = 2, epsilon: float = 0.1, z: float = 0.0,
                 width: int = 8, min_samples: int = 2, kinds: frozenset = SEARCHED,
                 seconds: Optional[float] = None, clock: Optional[Callable[[], float]] = None):
        self.engine = engine
        self.basic = make_basic(engine)
        self.policy = _greedy(engine, epsilon)
        self.playouts = playouts
        self.turns = turns
        self.epsilon = epsilon
        self.z = z
        self.width = width
        self.min_samples = min_samples
        self.kinds = kinds
        self.seconds = seconds
        self.clock = clock

    def with_budget(self, iterations: Optional[int] = None, seconds: Optional[float] = None,
                    determinizations: Optional[int] = None,
                    clock: Optional[Callable[[], float]] = None) -> FlatSearch:
        """The same search with another budget: ``iterations`` playouts, and no longer than
        ``seconds`` on ``clock`` when both are given (``determinizations`` is ignored: every sample
        is a new one)."""
        return FlatSearch(self.engine, self.playouts if iterations is None else iterations, self.turns,
                          self.epsilon, self.z, self.width, self.min_samples, self.kinds, seconds, clock)

    def _sample(self, observation, seat: int, rng: random.Random) -> tuple:
        state = determinize(observation, seat, rng)
        return state, (observation["round"], _turns(state) + self.turns * state["n"]), rng.getrandbits(64)

    def __call__(self, observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        decision = observation["decision"]
        if decision is None or decision["kind"] not in self.kinds:
            return self.basic(observation, legal, rng)
        engine, seat = self.engine, observation["seat"]
        default = legal.index(self.basic(observation, legal, rng))
        clock = self.clock
        deadline = None if self.seconds is None or clock is None else clock() + self.seconds
        samples = [self._sample(observation, seat, rng)]
        arms = list(range(len(legal)))
        if len(arms) > self.width:  # many actions: the best few by basic's one-move look, on sample 0
            rng.shuffle(arms)
            state = samples[0][0]
            look = {a: _margin(standing(engine.apply(state, seat, legal[a])), seat) for a in arms}
            arms = sorted(arms, key=lambda a: -look[a])[: self.width]
            arms = sorted(arms if default in arms else arms + [default])
        rounds = max(1, math.ceil(math.log2(len(arms))))
        rewards: list = [[] for _ in legal]
        spent = 0
        for r in range(rounds):
            per = max(self.min_samples, (self.playouts - spent) // (len(arms) * (rounds - r)))
            target = len(rewards[arms[0]]) + per
            for k in range(target):
                if k == len(samples):
                    if deadline is not None and clock is not None and clock() >= deadline:
                        break
                    samples.append(self._sample(observation, seat, rng))
                state, until, seed = samples[k]
                for a in arms:
                    if len(rewards[a]) == k:
                        end = _playout(engine, engine.apply(state, seat, legal[a]), random.Random(seed),
                                       self.policy, until)
                        rewards[a].append(_score(end, seat))
                        spent += 1
            else:
                if r < rounds - 1:  # the better half goes on, and basic's choice
                    mean = {a: sum(rewards[a]) / len(rewards[a]) for a in arms}
                    keep = sorted(arms, key=lambda a: (-mean[a], a))[: max(2, (len(arms) + 1) // 2)]
                    arms = keep if default in keep else keep + [default]
                continue
            break  # out of time
        return legal[paired_best(rewards, arms, default, self.z)]  # basic's choice unless beaten beyond noise


#: Playouts per move (sequential halving; a few more when the actions are many, 2 samples each at
#: least), sized to answer within a second on this machine (bench/bots_jester.py).
PLAYOUTS = 16
#: How many turns a seat a playout looks ahead before it is scored, at most to the end of the
#: round: a round runs 15 to 60 turns, too many to play out by ``basic`` within a second.
HORIZON_TURNS = 2


def bots_for(engine) -> dict:
    basic = make_basic(engine)
    return {"random": random_bot, "basic": basic, "mcts": FlatSearch(engine, PLAYOUTS, HORIZON_TURNS)}
