"""Information-set Monte Carlo tree search: the shared strongest computer opponent of every game.

A search bot is a :data:`domain.engine.Bot`: it is called with the seat's observation, its legal
actions and a random generator, and it never sees the hidden state. Every pass of the search samples
a full state consistent with the observation (a *determinisation*, by the game's ``determinize``)
and walks a UCT tree with it on the real engine: open loop, a node is the sequence of player actions
from the root, chance is drawn afresh on every pass, and at each node only the actions legal in this
pass's sample compete (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
Search", SO-ISMCTS). ``determinizations`` independent trees share the budget and vote: the root
action with the most visits over all trees is played (their "ensemble" determinisation).

How a game plugs in
-------------------
Build a :class:`SearchGame` and wrap it in a :class:`SearchBot`, then list the bot in the engine's
``bots()`` (say as ``"mcts"``)::

    from domain.search import SearchBot, SearchGame

    def determinize(observation, seat, rng):
        # A full engine state in which ``engine.observation(state, seat)`` shows what
        # ``observation`` shows, the unseen cards dealt at random with ``rng``. Read nothing but
        # ``observation`` (no module state, no other match): the test of the bots checks that two
        # states with equal observations make the bot choose the same.
        ...

    GAME = SearchGame(engine=ENGINE, determinize=determinize)
    mcts = SearchBot(GAME, iterations=400, determinizations=2)

Optional hooks of :class:`SearchGame`:

* ``seat(observation) -> int``: which seat the observation belongs to (default: ``observation["seat"]``).
* ``rollout``: a :data:`domain.playout.Policy` for the random playouts (default: uniform). A cheap
  heuristic on the full state is fine *inside* a determinisation (it is sampled, not the truth).
* ``cutoff(state) -> bool``: stop a playout early (say at the end of a deal in a long match)...
* ``evaluate(state) -> list[float]``: ...and score that state, one reward in [0, 1] per seat. Also
  used at the end of a match when given; the default reward is by rank: 1 for first, 0 for last,
  evenly between ((n - rank) / (n - 1)).
* ``SearchBot(prior=basic_bot, prior_share=0.3)``: the heuristic's move starts with that share of
  the budget as votes, so a small budget does not play worse than the heuristic by noise.
* ``distinct(legal) -> list``: one representative of each class of equivalent actions, keeping
  the engine's order (say, laying copy #1 or copy #3 of the same card), so the search does not
  split its visits between moves that are the same; the bot plays a representative (a legal action).

The budget: ``iterations`` playouts in all (split round-robin between the determinisations) and,
when a ``clock`` is given (the domain reads no clock of its own: the caller passes one, say
``time.perf_counter``, through :meth:`SearchBot.with_budget`), no longer than ``seconds`` on it.
The bots the engines list use iterations only, sized to answer within a second on this machine
(bench/bots.py prints the time a move takes), so that the choice depends on the observation, the
legal actions and the rng alone. With a single legal action the bot answers at once.

Pure: the caller passes the rng (and any clock); the engine is used through its trusted ``apply``
on actions it listed itself.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from domain.engine import CHANCE, JSON, SYSTEM, Engine, Phase, State, json_key
from domain.playout import Policy, uniform

Determinize = Callable[[JSON, int, random.Random], State]
Evaluate = Callable[[State], Sequence[float]]


def _seat_of(observation: JSON) -> int:
    return observation["seat"]


def paired_best(rewards: Sequence[Sequence[float]], arms: Sequence[int], default: int, z: float) -> int:
    """The flat searches' choice (Jester's and Fool's Crown's ``FlatSearch``): the arm with the best
    total over the samples every arm was played on (ties to ``default``, the heuristic's own choice,
    then to the lower index), played only if its paired difference with ``default``'s rewards on those
    samples exceeds ``z`` standard errors; otherwise ``default``, so noise never plays worse than the
    heuristic. Over a single sample there is no error to judge by: the best arm stands."""
    counted = min(len(rewards[a]) for a in arms)
    best = max(arms, key=lambda a: (sum(rewards[a][:counted]), a == default, -a))
    if best != default and counted > 1:
        diffs = [x - y for x, y in zip(rewards[best][:counted], rewards[default][:counted])]
        mean = sum(diffs) / counted
        var = sum((d - mean) ** 2 for d in diffs) / (counted - 1)
        if mean <= z * math.sqrt(var / counted):
            best = default
    return best


def rank_rewards(engine: Engine, state: State) -> list[float]:
    """1 for the first, 0 for the last, evenly between (tied seats share the better rank)."""
    result = engine.result(state)
    assert result is not None, "a playout ends in a result unless a cutoff scores it"
    n = len(result.ranks)
    if n < 2:
        return [1.0] * n
    return [(n - rank) / (n - 1) for rank in result.ranks]


@dataclass(frozen=True)
class SearchGame:
    """What the search needs of a game (see the module docstring)."""

    engine: Engine
    determinize: Determinize
    seat: Callable[[JSON], int] = _seat_of
    rollout: Policy = uniform
    cutoff: Optional[Callable[[State], bool]] = None
    evaluate: Optional[Evaluate] = None
    distinct: Callable[[list], list] = list

    def rewards(self, state: State) -> Sequence[float]:
        if self.evaluate is not None:
            return self.evaluate(state)
        return rank_rewards(self.engine, state)


def advance(game: SearchGame, state: State, rng: random.Random) -> tuple[State, Optional[int]]:
    """Apply chance and automatic steps until a seat must choose (that seat; one of several
    simultaneous ones at random) or the end or the game's cutoff (None)."""
    engine = game.engine
    cutoff = game.cutoff
    while True:
        if cutoff is not None and cutoff(state):
            return state, None
        turn = engine.to_act(state)
        if turn.kind == Phase.OVER:
            return state, None
        if turn.kind == Phase.CHANCE:
            state = engine.apply(state, CHANCE, engine.sample_chance(state, rng))
        elif turn.kind == Phase.AUTO:
            state = engine.apply(state, SYSTEM, engine.auto_action(state))
        else:
            seats = turn.seats
            return state, seats[0] if len(seats) == 1 else rng.choice(seats)


def playout(game: SearchGame, state: State, rng: random.Random) -> State:
    """Play ``state`` on by the game's rollout policy to the end (or its cutoff)."""
    engine = game.engine
    state, seat = advance(game, state, rng)
    while seat is not None:
        state = engine.apply(state, seat, game.rollout(state, seat, engine.legal_actions(state, seat), rng))
        state, seat = advance(game, state, rng)
    return state


@dataclass
class _Node:
    visits: int = 0
    # (seat, action key) -> child; the child's totals are the rewards of the seat that chose it.
    children: dict = field(default_factory=dict)
    # per child key: [visits, reward sum, action]
    stats: dict = field(default_factory=dict)


class _Tree:
    """One UCT tree (open loop over player actions), each pass on a new determinisation."""

    def __init__(self, game: SearchGame, observation: JSON, seat: int, root_actions: list, exploration: float):
        self.game = game
        self.observation = observation
        self.seat = seat
        self.root_actions = root_actions  # (key, action) the caller may really play
        self.exploration = exploration
        self.root = _Node()

    def _advance(self, state: State, rng: random.Random) -> tuple[State, Optional[int]]:
        return advance(self.game, state, rng)

    def _select(self, node: _Node, seat: int, options: list, rng: random.Random):
        """UCB1 over ``options`` ((key, action) pairs) for ``seat``; an untried option first."""
        untried = [option for option in options if (seat, option[0]) not in node.stats]
        if untried:
            return rng.choice(untried), True
        log_visits = math.log(node.visits or 1)
        best, best_score = None, -1.0
        for option in options:
            visits, total, _ = node.stats[(seat, option[0])]
            score = total / visits + self.exploration * math.sqrt(log_visits / visits)
            if score > best_score:
                best, best_score = option, score
        return best, False

    def iterate(self, rng: random.Random) -> None:
        game, engine = self.game, self.game.engine
        # A fresh determinisation on every pass (information-set MCTS): the tree's statistics are
        # over the seat's information, not over one guess of the hidden cards.
        state, node = self.game.determinize(self.observation, self.seat, rng), self.root
        path: list[tuple[_Node, tuple[int, str]]] = []
        seat: Optional[int] = self.seat
        options = self.root_actions
        expanded = False
        while seat is not None:
            option, is_new = self._select(node, seat, options, rng)
            key = (seat, option[0])
            path.append((node, key))
            if is_new:
                node.stats[key] = [0, 0.0, option[1]]
            state = engine.apply(state, seat, option[1])
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
            node = child
            if is_new:
                expanded = True
            state, seat = self._advance(state, rng)
            if seat is None or expanded:
                break
            options = [(json_key(action), action) for action in game.distinct(engine.legal_actions(state, seat))]
        # Playout from the new leaf with the rollout policy, then back up every seat's reward.
        rollout = game.rollout
        while seat is not None:
            action = rollout(state, seat, engine.legal_actions(state, seat), rng)
            state = engine.apply(state, seat, action)
            state, seat = self._advance(state, rng)
        rewards = game.rewards(state)
        for parent, key in path:
            parent.visits += 1
            entry = parent.stats[key]
            entry[0] += 1
            entry[1] += rewards[key[0]]

    def root_visits(self) -> dict:
        return {key[1]: entry[0] for key, entry in self.root.stats.items() if key[0] == self.seat}


class SearchBot:
    """A :data:`domain.engine.Bot` that searches (see the module docstring for the budget)."""

    def __init__(
        self,
        game: SearchGame,
        iterations: int = 400,
        seconds: Optional[float] = None,
        determinizations: int = 1,
        exploration: float = 0.7,
        clock: Optional[Callable[[], float]] = None,
        prior: Optional[Callable[[JSON, Sequence[JSON], random.Random], Any]] = None,
        prior_share: float = 0.0,
    ):
        self.game = game
        # A heuristic bot whose choice starts with ``prior_share`` of the budget as votes: the search
        # overrules it only when it finds a move clearly better (a small budget stays near it).
        self.prior = prior
        self.prior_share = prior_share
        self.iterations = iterations
        self.seconds = seconds
        self.determinizations = determinizations
        self.exploration = exploration
        self.clock = clock

    def with_budget(self, iterations: Optional[int] = None, seconds: Optional[float] = None,
                    determinizations: Optional[int] = None,
                    clock: Optional[Callable[[], float]] = None) -> SearchBot:
        """The same search with another budget (``seconds`` counts only with a ``clock``)."""
        return SearchBot(
            self.game,
            iterations=self.iterations if iterations is None else iterations,
            seconds=seconds,
            determinizations=self.determinizations if determinizations is None else determinizations,
            exploration=self.exploration,
            clock=clock,
            prior=self.prior,
            prior_share=self.prior_share,
        )

    def visits(self, observation: JSON, legal: Sequence[JSON], rng: random.Random) -> dict[str, float]:
        """The votes: root visits summed over the trees (and the prior's share), by action key."""
        seat = self.game.seat(observation)
        options = [(json_key(action), action) for action in self.game.distinct(list(legal))]
        trees = [
            _Tree(self.game, observation, seat, options, self.exploration)
            for _ in range(max(1, self.determinizations))
        ]
        clock = self.clock
        deadline = None if self.seconds is None or clock is None else clock() + self.seconds
        for done in range(self.iterations):
            trees[done % len(trees)].iterate(rng)
            if deadline is not None and clock is not None and done % 8 == 7 and clock() >= deadline:
                break
        votes = {key: 0.0 for key, _ in options}
        if self.prior is not None and self.prior_share:
            choice = json_key(self.prior(observation, [action for _, action in options], rng))
            if choice in votes:
                votes[choice] += self.prior_share * self.iterations
        for tree in trees:
            for key, visits in tree.root_visits().items():
                votes[key] += visits
        return votes

    def __call__(self, observation: JSON, legal: Sequence[JSON], rng: random.Random) -> Any:
        legal = self.game.distinct(list(legal))
        if len(legal) == 1:
            return legal[0]
        votes = self.visits(observation, legal, rng)
        # Most votes; ties go to the first listed action (deterministic given the inputs).
        best = max(range(len(legal)), key=lambda i: (votes[json_key(legal[i])], -i))
        return legal[best]


class FlatSearch:
    """A :data:`domain.engine.Bot`: a flat Monte Carlo search over the legal actions, played only
    where it beats a heuristic (``default``, the game's ``basic``) beyond its noise.

    Every sample is a state drawn from the observation (the game's ``determinize``) and a playout
    seed; each action still in the running is tried on the same sample with the same seed (common
    random numbers: two actions are compared on the same guess of the hidden cards and the same
    chance), played on by the game's ``rollout`` to the end or its ``cutoff`` and scored by its
    rewards (``evaluate``, else by rank). The ``playouts`` are spent by sequential halving (Karnin,
    Koren & Somekh 2013): in ceil(log2 k) rounds the worse half of the actions is dropped after each,
    the heuristic's own choice staying in; the best over the samples the finalists share is played
    unless its paired difference with the heuristic's choice is within ``z`` standard errors
    (:func:`paired_best`). A pure function of the observation, the legal actions and the rng; with a
    ``clock`` (:meth:`with_budget`) it also stops once ``seconds`` have passed on it.
    """

    def __init__(self, game: SearchGame, default: Callable[[JSON, Sequence[JSON], random.Random], Any],
                 playouts: int = 240, z: float = 0.0, min_samples: int = 2,
                 seconds: Optional[float] = None, clock: Optional[Callable[[], float]] = None):
        self.game = game
        self.default = default
        self.playouts = playouts
        self.z = z
        self.min_samples = min_samples
        self.seconds = seconds
        self.clock = clock

    def with_budget(self, iterations: Optional[int] = None, seconds: Optional[float] = None,
                    determinizations: Optional[int] = None,
                    clock: Optional[Callable[[], float]] = None) -> FlatSearch:
        """The same search with ``iterations`` playouts, and no longer than ``seconds`` on ``clock``
        when both are given (``determinizations`` is ignored: every sample is a new one)."""
        return FlatSearch(self.game, self.default, self.playouts if iterations is None else iterations,
                          self.z, self.min_samples, seconds, clock)

    def __call__(self, observation: JSON, legal: Sequence[JSON], rng: random.Random) -> Any:
        game, engine = self.game, self.game.engine
        options = game.distinct(list(legal))
        if len(options) == 1:
            return options[0]
        seat = game.seat(observation)
        keys = [json_key(action) for action in options]
        default = keys.index(json_key(self.default(observation, options, rng)))
        clock = self.clock
        deadline = None if self.seconds is None or clock is None else clock() + self.seconds
        samples: list[tuple[State, int]] = []
        arms = list(range(len(options)))
        rounds = max(1, math.ceil(math.log2(len(arms))))
        rewards: list[list[float]] = [[] for _ in options]
        spent = 0
        for r in range(rounds):
            per = max(self.min_samples, (self.playouts - spent) // (len(arms) * (rounds - r)))
            done = len(rewards[arms[0]])  # every arm in the running was played on the same samples
            for k in range(done, done + per):
                if k == len(samples):
                    if deadline is not None and clock is not None and clock() >= deadline:
                        break
                    samples.append((game.determinize(observation, seat, rng), rng.getrandbits(64)))
                state, seed = samples[k]
                for a in arms:
                    end = playout(game, engine.apply(state, seat, options[a]), random.Random(seed))
                    rewards[a].append(game.rewards(end)[seat])
                    spent += 1
            else:
                if r < rounds - 1:  # the better half goes on, and the heuristic's choice
                    mean = {a: sum(rewards[a]) / len(rewards[a]) for a in arms}
                    keep = sorted(arms, key=lambda a: (-mean[a], a))[: max(2, (len(arms) + 1) // 2)]
                    arms = keep if default in keep else keep + [default]
                continue
            break  # out of time
        if not rewards[default]:
            return options[default]
        return options[paired_best(rewards, arms, default, self.z)]
