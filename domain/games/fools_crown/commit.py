"""The commit phase (rulebook; house rule 3.4 steps 1-2): gamble a Joker, commit a Noble and a Squire, or
make a Noble Exchange; one seat at a time with ``commit_order: "seat-order"`` (house rule 3.4 step 2, the
default since rules 1.3.0), whose round 1 starts with a random seat (a public CHANCE step), or all at once
and sealed with ``commit_order: "simultaneous"`` (FC-SEAL, the default before 1.3.0).
"""

from __future__ import annotations

import random
from itertools import combinations

from domain.engine import Actor, IllegalAction

from .cards import NOBLE, SQUIRE, face_up_first, sort_cards
from .deck import open_commits, run_draws
from .state import GAME, FoolsCrownState, Rules, seat_order

ACTIONS = ("gamble", "commit", "noble-exchange")
JOKER_RULE = "rulebook: a player with a Joker may sacrifice one Joker per round"
EXCHANGE_RULE = "rulebook: If you have no Squire, you must perform a Noble Exchange"
COMMIT_RULE = "rulebook: Select a Noble and a Squire"


def commit_options(hand: list[str]) -> list[list[str]]:
    """The legal commits of a hand as [face up, face down] pairs (rulebook "Select a Noble and a Squire
    (or two Squires if you have no Noble)"; house rule 3.4 step 2)."""
    nobles = [c for c in hand if NOBLE[c]]
    squires = [c for c in hand if SQUIRE[c]]
    if not squires:
        return []
    if nobles:
        pairs = [(n, q) for n in nobles for q in squires]
    else:
        pairs = list(combinations(squires, 2))
    return [face_up_first(a, b) for a, b in pairs]


def next_committer(state: FoolsCrownState) -> int:
    """Seat-order commits (house rule 3.4 step 2): the first seat, from this round's leader on, that
    has not committed or exchanged yet."""
    n = state["players"]
    leader = state["leader"]
    assert leader is not None
    for k in range(n):
        seat = (leader + k) % n
        if not state["done"][seat]:
            return seat
    raise AssertionError("commit phase with every seat done")


def seats(state: FoolsCrownState) -> tuple[int, ...]:
    if seat_order(state):
        return (next_committer(state),)
    return tuple(i for i in range(state["players"]) if not state["done"][i])


def legal(state: FoolsCrownState, seat: int) -> list[dict]:
    hand = sort_cards(state["hands"][seat])
    actions: list[dict] = []
    if state["jokers"][seat] and not state["gambled"][seat]:
        for size in (1, 2, 3):
            for cards in combinations(hand, size):
                actions.append({"type": "gamble", "cards": list(cards)})
    options = commit_options(hand)
    if options:
        actions.extend({"type": "commit", "cards": pair} for pair in options)
    else:
        for pair in combinations([c for c in hand if NOBLE[c]], 2):
            actions.append({"type": "noble-exchange", "cards": list(pair)})
    return actions


def check(state: FoolsCrownState, seat: int, action: dict) -> None:
    kind, cards = action["type"], action["cards"]
    hand = state["hands"][seat]
    if type(cards) is not list or not all(type(c) is str for c in cards):
        raise IllegalAction(f"{GAME} actions", "'cards' must be a list of card codes")
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"{GAME} actions", "a card may be named only once")
    if any(c not in hand for c in cards):
        raise IllegalAction(f"{GAME} actions", "you may only name cards from your own hand")
    has_squire = any(SQUIRE[c] for c in hand)
    has_noble = any(NOBLE[c] for c in hand)
    if kind == "gamble":
        if not state["jokers"][seat]:
            raise IllegalAction(JOKER_RULE, "you hold no Joker to sacrifice")
        if state["gambled"][seat]:
            raise IllegalAction(JOKER_RULE, "you have already gambled a Joker this round")
        if not 1 <= len(cards) <= 3:
            raise IllegalAction("rulebook: exchange 1-3 playable cards", "a gamble exchanges 1 to 3 cards")
        return
    if kind == "noble-exchange":
        if has_squire:
            raise IllegalAction(EXCHANGE_RULE, "a Noble Exchange is only for a hand without a Squire")
        if len(cards) != 2 or not all(NOBLE[c] for c in cards):
            raise IllegalAction(
                "rulebook: discard two Nobles, draw two replacements", "discard exactly two Nobles"
            )
        return
    if not has_squire:
        raise IllegalAction(EXCHANGE_RULE, "without a Squire you cannot commit; perform a Noble Exchange")
    if len(cards) != 2:
        raise IllegalAction(COMMIT_RULE, "commit exactly two cards")
    a, b = cards
    if NOBLE[a] and NOBLE[b]:
        raise IllegalAction(COMMIT_RULE, "two Nobles cannot be committed")
    if SQUIRE[a] and SQUIRE[b] and has_noble:
        raise IllegalAction(
            "rulebook: two Squires if you have no Noble (house rule 3.4 step 2)",
            "you hold a Noble, so you must commit a Noble and a Squire",
        )


def apply(rules: Rules, s: FoolsCrownState, seat: Actor, action: dict) -> None:
    assert type(seat) is int
    APPLY[action["type"]](rules, s, seat, action)


def _commit(rules: Rules, s: FoolsCrownState, seat: int, action: dict) -> None:
    """The higher card face up, the lower face down (rulebook; FC-UP on equal values)."""
    up, down = face_up_first(*action["cards"])
    s["hands"][seat].remove(up)
    s["hands"][seat].remove(down)
    s["commits"][seat] = [up, down]
    s["done"][seat] = True
    open_commits(s)


def _gamble(rules: Rules, s: FoolsCrownState, seat: int, action: dict) -> None:
    """Discard the chosen cards and sacrifice a Joker (the lower-numbered one: they are alike, FC-JOKER);
    a CHANCE shuffle puts it into the live deck before the gambler draws (rulebook)."""
    cards = sort_cards(action["cards"])
    for c in cards:
        s["hands"][seat].remove(c)
    s["discard"].extend(cards)
    joker = sort_cards(s["jokers"][seat])[0]
    s["jokers"][seat].remove(joker)
    s["gambled"][seat] = len(cards)
    s["gamble"] = {"seat": seat, "joker": joker, "count": len(cards)}
    s["stage"] = "gamble-shuffle"


def _noble_exchange(rules: Rules, s: FoolsCrownState, seat: int, action: dict) -> None:
    """Rulebook: "reveal your hand, discard two Nobles, draw two replacements, and sit out that round".
    The hand and the two Nobles discarded are public (``exchanged``, ``exchange_discards``)."""
    s["exchanged"][seat] = sort_cards(s["hands"][seat])
    cards = sort_cards(action["cards"])
    s["exchange_discards"][seat] = list(cards)
    for c in cards:
        s["hands"][seat].remove(c)
    s["discard"].extend(cards)
    s["done"][seat] = True
    s["draws"] = [[seat, 2]]
    run_draws(rules, s)


APPLY = {"commit": _commit, "gamble": _gamble, "noble-exchange": _noble_exchange}


# -- round 1 of seat-order commits: a random first committer -------------------------------------------
def first_player_outcomes(state: FoolsCrownState) -> list[tuple[dict, float]]:
    n = state["players"]
    return [({"type": "first-player", "seat": seat}, 1 / n) for seat in range(n)]


def sample_first_player(state: FoolsCrownState, rng: random.Random) -> dict:
    return {"type": "first-player", "seat": rng.randrange(state["players"])}


def apply_first_player(rules: Rules, s: FoolsCrownState, actor: Actor, outcome: dict) -> None:
    s["leader"] = outcome["seat"]
    open_commits(s)
