"""Setup (rulebook Setup steps 1-8, house rules S1-S3): the initial state and the chance steps."""

from __future__ import annotations

from domain.engine import json_key

from .core import Handler, illegal, pl, pop, push
from .data import (
    CARDS_PER_PLACE,
    CHAIRS,
    CITY_STAMPS,
    DISCIPLINES,
    FAVORS,
    GUILD_IDS,
    MARKERS,
    OBJECTS_PER_DISCIPLINE,
    PRICE_TOKENS,
    STAMPS_PER_DISCIPLINE,
    START_MONEY,
)


def initial_state(n, options, money=START_MONEY):
    crowns = 3 if options["red_chairs"] else 2  # Red Chairs variant: 3 crowns
    players = []
    for _ in range(n):
        players.append({
            "money": money, "crowns": crowns, "vp": 0, "fame": 0, "f13": False,
            "hand": [1, 1, 1, 1], "table": [0, 0, 0, 0],
            "reserve": MARKERS, "guilds": [0] * 6, "spec": [False] * 7, "boxed": 0,
            "stamps": [0] * 7, "round_stamps": [], "made": [False] * 7, "order": None,
            "pawn": None, "turns": 0,
        })
    removed = 1 if n == 2 else 0  # 2 players: remove 7 stamps, one of each type
    state = {
        "n": n, "opts": dict(options), "round": 0, "over": False,
        "events": [], "favors": [], "favors_used": [],
        "court": [], "royalty": [None] * 4, "counselor": [], "chairs": [None] * CHAIRS,
        "city": [0] * 7, "prices": [0] * 7, "objects": [OBJECTS_PER_DISCIPLINE] * 7,
        "pool": [STAMPS_PER_DISCIPLINE - 1 - removed] * 7, "removed_stamps": 7 * removed,
        "piles": [CARDS_PER_PLACE - n] * 4, "blocked": [],
        "start": None, "trigger": None, "fame13": 0, "prestige": [0] * n, "last_played": None,
        "players": players,
        # bottom -> top: the chance steps of setup (rulebook Setup 3, 5, 7, 8; house rule S3)
        "stack": [{"kind": "ch-start"}, {"kind": "ch-setup"}],
    }
    return state


def stamp_pool_list(state):
    out = []
    for i, d in enumerate(DISCIPLINES):
        out += [d] * state["pool"][i]
    return out


def expected_decks(state, kind):
    """The decks shuffled by a chance step: all of setup 3, 5, 7 and 8 at once (``ch-setup``), or
    the city stamps and price tokens of a new round (``ch-city``, house rule task 5)."""
    decks: dict[str, list] = {}
    if kind == "ch-setup":
        decks["events"] = [1, 2, 3, 4, 5, 6]
        decks["favors"] = list(FAVORS)
        decks["court"] = list(DISCIPLINES)
    decks["stamps"] = stamp_pool_list(state)
    decks["prices"] = list(PRICE_TOKENS)
    return decks


DECK_NAMES = {"ch-setup": "setup", "ch-city": "city"}


def sample(state, frame, rng):
    kind = frame["kind"]
    if kind == "ch-start":
        return {"type": "start", "seat": rng.randrange(state["n"])}
    out = {"type": "shuffle", "deck": DECK_NAMES[kind]}
    for name, deck in expected_decks(state, kind).items():
        rng.shuffle(deck)
        out[name] = deck
    return out


def validate_shuffle(state, frame, outcome):
    """A shuffle outcome is exactly a permutation of each deck the chance step shuffles (the checked
    path: ``apply_chance`` trusts it)."""
    kind = frame["kind"]
    if kind not in DECK_NAMES:
        illegal("jester Setup", "no shuffle is due now")
    decks = expected_decks(state, kind)
    if set(outcome) != {"type", "deck", *decks} or outcome["type"] != "shuffle" \
            or type(outcome["deck"]) is not str or outcome["deck"] != DECK_NAMES[kind]:
        illegal("jester Setup", f"expected a shuffle of the {DECK_NAMES[kind]} decks: {', '.join(decks)}")
    for name, expected in decks.items():
        order = outcome[name]
        # json_key keeps types apart: a shuffled ``true`` is not the event card 1
        if type(order) is not list or sorted(map(json_key, order)) != sorted(map(json_key, expected)):
            illegal("jester Setup", f"the {name} must be a permutation of the {name} deck")


def apply_chance(state, frame, actor, outcome):
    kind = frame["kind"]
    n = state["n"]
    if kind == "ch-start":
        pop(state)
        start = outcome["seat"]
        state["start"] = start
        state["round"] = 1
        push(state, {"kind": "play", "seat": start})
        # house rule S2: in turn order, each player places 2 markers in the guilds
        for k in reversed(range(n)):
            push(state, {"kind": "setup-guild", "seat": (start + k) % n})
        return
    pop(state)
    if kind == "ch-setup":
        state["events"] = outcome["events"][:3]  # three removed unseen; the pile: rounds 1, 2, 3
        state["favors"] = sorted(outcome["favors"][:4 if n == 2 else 5])
        state["court"] = list(outcome["court"])
    order = outcome["stamps"]
    k = min(CITY_STAMPS[n], len(order))
    city = [0] * 7
    pool = [0] * 7
    for i, d in enumerate(order):
        (city if i < k else pool)[DISCIPLINES.index(d)] += 1
    state["city"] = city
    state["pool"] = pool
    state["prices"] = list(outcome["prices"])


def chance_outcomes(state, frame):
    if frame["kind"] == "ch-start":
        n = state["n"]
        return [({"type": "start", "seat": s}, 1.0 / n) for s in range(n)]
    return None


PUBLIC_CHANCE = {"ch-start"}


# -- house rule S2: starting guild markers ----------------------------------------------------------
SETUP_PAIRS = [[g, h] for g in GUILD_IDS for h in GUILD_IDS if g <= h]


def legal_setup_guild(state, frame, seat):
    return [{"type": "setup-guild", "guilds": list(pair)} for pair in SETUP_PAIRS]


def setup_guilds_either_order(action):
    """Rules 1.3.0 - house rule S2: each player places "2 influence markers from his reserve in any
    guild(s)": the two guilds are a pair in no order, so ``[h, g]`` is the listed ``[g, h]``."""
    pair = action.get("guilds")
    if action.get("type") == "setup-guild" and type(pair) is list and len(pair) == 2 \
            and all(type(g) is int and g in GUILD_IDS for g in pair):
        return {**action, "guilds": sorted(pair)}
    return action


def apply_setup_guild(state, frame, seat, action):
    p = pl(state, seat)
    for g in action["guilds"]:
        p["reserve"] -= 1
        p["guilds"][g - 1] += 1
    pop(state)


HANDLERS = {
    "setup-guild": Handler("house rule S2", legal_setup_guild, apply_setup_guild),
    "ch-setup": Handler("jester Setup", apply=apply_chance),
    "ch-city": Handler("jester Setup", apply=apply_chance),
    "ch-start": Handler("jester Setup", apply=apply_chance),
}
