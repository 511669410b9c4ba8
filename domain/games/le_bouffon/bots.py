"""Computer opponents for Le Bouffon. A bot sees only its observation and the legal actions.

* ``random``: any legal action.
* Every other bot lays, gives and laughs with copies drawn at random among those of the kind it holds
  (``EquivalentChoice``): which copy comes says nothing of its others.
* ``basic``: the heuristic below (weakest cards first, laughs when it can).
* ``mcts``: the shared search (domain/search.py) on states sampled from the observation by
  :func:`determinize`, each playout ending with the deal (a match of five deals is too long to play
  out within a second) and scored by the finishing place of the deal and the match standing, ranked by
  the match's own tie rule (option ``ties``, shown in the observation from rules 1.3.0).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from domain.engine import competition_ranks, copy_json
from domain.equivalent import EquivalentChoice
from domain.search import SearchBot, SearchGame

from .cards import DECK, EXCHANGES, ROLES_BY_COUNT, SORT_KEY, STRENGTH, decks_for, sort_cards
from .engine import DEFAULT_TIES, ENGINE


def random_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    """Any legal action, uniformly."""
    return rng.choice(list(legal))


def _weight(action: dict) -> tuple:
    cards = action.get("cards", [])
    return (STRENGTH[cards[0]], -len(cards), [SORT_KEY[card] for card in cards])


def basic_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    """Gives away its weakest cards; laughs whenever it can; otherwise lays its weakest legal set
    (the biggest one of that strength), keeping minotaures and paladins for the end; passes when
    nothing but a minotaure or paladin would go and more than 3 cards are left."""
    legal = list(legal)
    gives = [action for action in legal if action["type"] == "give"]
    if gives:
        return min(gives, key=lambda action: sorted(SORT_KEY[card] for card in action["cards"])[::-1])
    laughs = [action for action in legal if action["type"] == "laugh"]
    if laughs:
        return laughs[0]
    plays = [action for action in legal if action["type"] == "play"]
    if not plays:
        return {"type": "pass"}
    best = min(plays, key=_weight)
    hand = observation.get("hand", []) if isinstance(observation, dict) else []
    if {"type": "pass"} in legal and STRENGTH[best["cards"][0]] >= 13 and len(hand) > 3:
        return {"type": "pass"}
    return best


def _kinds(action: dict) -> tuple:
    return (action["type"], tuple(sorted(card.split("#")[0] for card in action.get("cards", []))))


def distinct(legal: list) -> list:
    """Copies of one kind are interchangeable (cards.py): one action per kind and count."""
    seen: set = set()
    kept = []
    for action in legal:
        key = _kinds(action)
        if key not in seen:
            seen.add(key)
            kept.append(action)
    return kept


def determinize(observation: dict, seat: int, rng: random.Random) -> dict:
    """A full state showing ``seat`` what ``observation`` shows: the cards it has not seen (not in
    its hand, not laid this deal, not those it gave, which the receiver holds) dealt at random to
    the other hands."""
    n = len(observation["hand_counts"])
    roles = list(observation["roles"])
    hand = list(observation["hand"])
    trick = observation.get("trick")
    seen = list(hand) + list(observation.get("played", []))  # the cards laid this deal, trick included
    exchange = observation.get("exchange")
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[seat] = hand
    if exchange is not None and exchange["gave"]:  # the receiver holds what this seat gave (rulebook 3)
        gave = [card for card in exchange["gave"] if card not in seen]
        receiver_role = EXCHANGES.get(roles[seat], (None,))[0]
        if receiver_role is None:  # this seat received: what it gave went back to the giver
            receiver = next(s for s, role in enumerate(roles) if EXCHANGES.get(role, (None,))[0] == roles[seat])
        else:
            receiver = roles.index(receiver_role)
        hands[receiver] = gave[: observation["hand_counts"][receiver]]
        seen.extend(gave)
    left = list(DECK[decks_for(n)])
    for card in seen:
        if card in left:
            left.remove(card)
    rng.shuffle(left)
    for s in range(n):
        if s != seat:
            missing = observation["hand_counts"][s] - len(hands[s])
            hands[s] = sort_cards(hands[s] + left[:missing])
            del left[:missing]
    gifts: list = [None] * n
    if observation["phase"] == "exchange":
        waiting = set(observation["waiting"])
        for s, role in enumerate(roles):
            if role in EXCHANGES and s not in waiting:
                size = EXCHANGES[role][1]
                gifts[s] = list(observation["gift"]) if s == seat else sort_cards(rng.sample(hands[s], size))
    state_trick = None
    if trick is not None:
        plays = [list(play) for play in trick["plays"]]
        laid = [play[0] for play in plays if play[1] != "pass"]
        state_trick = {"leader": trick["leader"], "turn": trick["turn"], "acted": [play[0] for play in plays],
                       "top": trick["top"], "plays": plays, "last": laid[-1] if laid else None}
    exchanged: list = [None] * n
    if exchange is not None:
        exchanged[seat] = {"gave": list(exchange["gave"]), "received": list(exchange["received"])}
    state = {
        "n": n, "deals": observation["deals"], "deal": observation["deal"], "phase": observation["phase"],
        "roles": roles, "order": [roles.index(role) for role in ROLES_BY_COUNT[n]], "hands": hands,
        "played": list(observation.get("played", [])), "gifts": gifts, "exchanged": exchanged,
        "finished": list(observation["finished"]),
        # The deals scored so far, public (the view's ``scored``): the state's own observation shows them.
        "trick": state_trick, "scores": list(observation["scores"]),
        "history": copy_json(observation["scored"]),
    }
    if "ties" in observation:  # rules 1.3.0 on: the match's tie rule, by which ``_evaluate`` ranks
        state["ties"] = observation["ties"]
    return state


def _deal_over(state: dict) -> bool:
    return state["phase"] in ("score", "over")


def standings(state: dict) -> list[int]:
    """Each seat's standing (0 the best) after the deal ``state`` ended: by the totals with this deal's
    points (house rule 5.4 scoring: players − finishing place), equal totals as the match's option
    ``ties`` (house rule 5.4 match) ranks them, as the engine's result does: "last-deal", the better
    finishing place in this deal first (no two seats share a standing); "shared", tied seats share the
    better standing (competition ranking). A state without ``ties`` (an observation before rules 1.3.0
    does not show it) ranks by the default."""
    n = state["n"]
    place = {seat: index for index, seat in enumerate(state["finished"])}
    totals = [state["scores"][seat] + n - 1 - place[seat] for seat in range(n)]
    if state.get("ties", DEFAULT_TIES) == "shared":
        return [rank - 1 for rank in competition_ranks(totals)]
    ranking = sorted(range(n), key=lambda seat: (-totals[seat], place[seat]))
    standing = [0] * n
    for index, seat in enumerate(ranking):
        standing[seat] = index
    return standing


def _evaluate(state: dict) -> list[float]:
    """Half the finishing place of this deal, half the match standing after it (its scoring rule,
    house rule 5.4: points by place, equal totals ranked by the match's tie rule, ``standings``); the
    last deal: the standing only."""
    n = state["n"]
    place = {seat: index for index, seat in enumerate(state["finished"])}
    standing = standings(state)
    weight = 1.0 if state["deal"] >= state["deals"] else 0.5
    return [weight * (n - 1 - standing[s]) / (n - 1) + (1 - weight) * (n - 1 - place[s]) / (n - 1)
            for s in range(n)]


def _rollout(state: dict, seat: int, legal: list, rng: random.Random) -> dict:
    """Mostly the basic play on the sampled hand, sometimes any move (playouts need variety)."""
    if rng.random() < 0.1:
        return rng.choice(legal)
    return basic_bot({"hand": state["hands"][seat]}, legal, rng)


SEARCH = SearchGame(engine=ENGINE, determinize=determinize, rollout=_rollout, cutoff=_deal_over,
                    evaluate=_evaluate, distinct=distinct)
#: Under 1 s a move on this machine (bench/bots.py prints the time a move takes).
mcts_bot = SearchBot(SEARCH, iterations=80, prior=basic_bot, prior_share=0.3)




# The copies a bot lays, gives or laughs with are drawn among those of the kinds it chose: which copy
# comes says nothing of its others (domain/equivalent.py; copies are interchangeable, cards.py).
BOTS = {"random": random_bot, "basic": EquivalentChoice(basic_bot, _kinds),
        "mcts": EquivalentChoice(mcts_bot, _kinds)}
