"""Computer opponents for Fool's Crown. Pure functions of (observation, legal actions, rng).

* ``basic`` plays by the rules' arithmetic: commits the highest card total, gambles a Joker only when
  its best commit is worth 14 or less (house rule 3.4's advice) or it would have to sit out, claims any
  Crown and always challenges someone when the centre is empty.
* ``strong`` counts every bonus (Royal and Crown Alliances), gambles and "dumps" a weak hand by
  thresholds tuned per player count (a hand that rarely wins plays its weakest pair and keeps the rest),
  claims the Crown whose suit its hand can ally with, and challenges the leader.
* ``mcts`` (issue 14) searches: a flat Monte Carlo over the legal actions (:class:`FlatSearch`) on
  states sampled from the observation alone, the others' hidden commits sampled as ``strong`` would
  commit them, every action played on the same samples and dice, then every seat playing as
  ``strong`` in a fast copy of the rules (:func:`_simulate`); two-seat playouts are cut after the next
  round and scored by a table of win shares (:data:`VALUE2`). It plays ``strong``'s move unless the
  samples show a better one beyond their noise.
"""

from __future__ import annotations

import math
import random
from typing import Sequence, cast

from domain.engine import CHANCE, SYSTEM, Phase, copy_json
from domain.equivalent import EquivalentChoice
from domain.search import paired_best

from .cards import JOKER_SET, JOKERS, NOBLE, ORDER, PLAYING, SQUIRE, SUIT, VALUE, face_up_first, sort_cards
from .commit import commit_options
from .resolution import resolution
from .state import CAP_ROUNDS, Options, Rules, challenge_sat_out, new_state, refill_order


def _by_type(legal: Sequence[dict]) -> dict:
    kinds: dict = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    return kinds


def _card_sum(cards) -> int:
    return VALUE[cards[0]] + VALUE[cards[1]]


def _strength(cards, crowns) -> int:
    """Battle Strength of a commit without the Joker bonus (the same for every commit of a seat)."""
    a, b = cards
    total = VALUE[a] + VALUE[b]
    if NOBLE[a] != NOBLE[b] and SUIT[a] == SUIT[b]:
        total += 1
        if "A" + SUIT[a] in crowns:
            total += 1
    return total


def _gamble_discards(hand, keep, size_limit=3) -> list:
    """Up to three cards to exchange: those outside ``keep``, lowest value first."""
    rest = sorted((c for c in hand if c not in keep), key=lambda c: (VALUE[c], NOBLE[c]))
    return rest[:size_limit]


def _find(legal, kind, cards) -> dict | None:
    wanted = sorted(cards)
    for action in legal:
        if action["type"] == kind and sorted(action["cards"]) == wanted:
            return action
    return None


# -- basic --------------------------------------------------------------------------------------
def basic_bot(observation, legal: Sequence[dict], rng: random.Random) -> dict:
    kinds = _by_type(legal)
    hand = observation.get("hand", [])
    if "commit" in kinds or "noble-exchange" in kinds:
        commits = kinds.get("commit", [])
        best = max((_card_sum(a["cards"]) for a in commits), default=0)
        if "gamble" in kinds and best <= 14:
            if commits:
                top = [a for a in commits if _card_sum(a["cards"]) == best][0]["cards"]
            else:
                top = []
            discards = _gamble_discards(hand, top)
            action = _find(legal, "gamble", discards) if discards else None
            if action is not None:
                return action
        if commits:
            top = [a for a in commits if _card_sum(a["cards"]) == best]
            return rng.choice(top)
        return rng.choice(kinds["noble-exchange"])
    if "claim" in kinds:
        return rng.choice(kinds["claim"])
    if "challenge" in kinds:
        return rng.choice(kinds["challenge"])
    return legal[0]


# -- strong -------------------------------------------------------------------------------------
def _suit_potential(hand, suit) -> int:
    """How well the hand could ally in ``suit``: a Noble and a Squire of it count most."""
    nobles = sum(1 for c in hand if NOBLE[c] and SUIT[c] == suit)
    squires = sum(1 for c in hand if SQUIRE[c] and SUIT[c] == suit)
    return 3 * min(nobles, squires) + nobles + squires


#: Tuned by simulation against ``basic`` (bench/fools_crown_bots.py): the strength at or below which the
#: strong bot gambles a Joker, and below which it "dumps" its weakest legal commit to keep its good
#: cards for a later round, by player count.
GAMBLE_AT = {2: 16, 3: 15, 4: 13}
DUMP_BELOW = {2: 16, 3: 17, 4: 17}


def strong_bot(observation, legal: Sequence[dict], rng: random.Random) -> dict:
    kinds = _by_type(legal)
    me = observation.get("you")
    hand = observation.get("hand", [])
    crowns = observation["crowns"][me] if me is not None else []
    players = len(observation["crowns"])
    if "commit" in kinds or "noble-exchange" in kinds:
        commits = kinds.get("commit", [])

        def score(action):
            cards = action["cards"]
            rest = [c for c in hand if c not in cards]
            # at equal strength keep Nobles and allied pairs for later rounds
            future = sum(1 for c in rest if NOBLE[c]) + sum(_suit_potential(rest, s) for s in "CDHS") / 10
            return (_strength(cards, crowns), future)

        ranked = sorted(commits, key=score, reverse=True)
        best = score(ranked[0])[0] if ranked else 0
        if "gamble" in kinds and best <= GAMBLE_AT.get(players, 14):
            keep = ranked[0]["cards"] if ranked else [c for c in hand if NOBLE[c]][:2]
            discards = _gamble_discards(hand, keep)
            action = _find(legal, "gamble", discards) if discards else None
            if action is not None:
                return action
        if ranked:
            if best < DUMP_BELOW.get(players, 17):
                # a weak hand rarely wins: play the weakest pair, keep the rest for a later round
                return min(ranked, key=lambda a: (_strength(a["cards"], crowns), -score(a)[1]))
            return ranked[0]

        # Noble Exchange: keep the Nobles whose suits match held Crowns
        def keep_value(action):
            kept = [c for c in hand if c not in action["cards"]]
            return sum(1 for c in kept if "A" + SUIT[c] in crowns)

        return max(kinds["noble-exchange"], key=keep_value)
    if "claim" in kinds:
        return max(kinds["claim"], key=lambda a: (_suit_potential(hand, a["crown"][1]), rng.random()))
    if "challenge" in kinds:
        held = observation["crowns"]

        def threat(action):
            # block the leader: take from whoever holds the most Crowns, in a suit this hand can ally
            target = action["target"]
            return (len(held[target]), _suit_potential(hand, action["crown"][1]), rng.random())

        return max(kinds["challenge"], key=threat)
    return legal[0]




# -- random and mcts ----------------------------------------------------------------------------
def random_bot(observation, legal: Sequence[dict], rng: random.Random) -> dict:
    return rng.choice(list(legal))


def _seen_cards(observation) -> set:
    """Playable cards the observation shows: the own hand, face-up commits, revealed exchanges."""
    seen = set(observation.get("hand", []))
    for commit in observation["commits"]:
        if commit is not None:
            seen.update(c for c in commit if c is not None)
    for exchanged in observation["exchanged"]:
        if exchanged is not None:
            seen.update(exchanged)
    return seen


def _options(observation) -> Options:
    """The match's options as the observation names them (``options``, every version's): the samples play
    by them, ``challenge_sat_out`` (rules 1.5.0, FC-CHALLENGE) included, which nothing else in the
    observation shows (the cap and the commit order were guessed from ``max_rounds`` and ``leader``)."""
    return cast(Options, dict(observation["options"]))


def determinize(observation, seat: int, rng: random.Random) -> dict:
    """A full Fool's Crown state that shows ``seat`` exactly ``observation``.

    The unseen playable cards (sorted canonically, then shuffled with ``rng``) fill the hidden
    commit cards, the others' hands, the face-down discard pile (FC-DISCARD) and the deck; the
    Jokers not held are in the deck (a sacrificed Joker is shuffled into it, rulebook), at random
    places. The Jokers are alike (FC-JOKER), so the held ones are dealt JOKER1 first in seat order.
    A Noble Exchange (rulebook "reveal your hand, discard two Nobles") showed that hand and the two
    Nobles it discarded (``exchange_discards``): those are in the discard pile, the other three still
    in the hand; if the pile is now too small to hold them, a reshuffle took them and they are dealt
    as unseen cards. The match's options are the observation's own (``options``). Reads nothing but the
    observation.
    """
    n = len(observation["hands"])
    seen = _seen_cards(observation)
    pool = sort_cards(c for c in PLAYING if c not in seen)
    rng.shuffle(pool)

    def draw(count: int) -> list:
        taken = pool[:count]
        del pool[:count]
        return taken

    held_jokers = list(observation["jokers"])
    joker_cards = list(JOKERS)
    jokers = []
    for count in held_jokers:
        jokers.append(joker_cards[:count])
        del joker_cards[:count]
    hands: list = []
    named: list = []  # the Nobles the Noble Exchanges discarded, in seat order (public)
    # A named Noble the observation shows elsewhere (the own hand, a face-up commit) was reshuffled into the
    # deck and drawn again: it is where it shows, not in the pile (placed twice, the sample failed).
    elsewhere = set(observation.get("hand", [])) | {c for commit in observation["commits"] if commit is not None
                                                     for c in commit if c is not None}
    for i in range(n):
        exchanged, gone = observation["exchanged"][i], observation["exchange_discards"][i]
        if i == seat:
            hand = list(observation["hand"])
        elif exchanged is not None:
            hand = [c for c in exchanged if c not in gone]
        else:
            hand = []
        if gone is not None:
            named.extend(c for c in gone if c not in hand and c not in elsewhere)
        hands.append(hand)
    discard: list = []
    # The pile holds the named Nobles only if it can hold them beside this round's gambled cards, which go
    # to it too: a smaller pile was reshuffled since (FC-DRAW), and they are somewhere unseen.
    if len(named) + sum(observation["gambled"]) <= observation["discard"]:
        discard.extend(named)
    else:  # reshuffled since: they are somewhere unseen, like any card of the pile that was
        for card in named:
            pool.insert(rng.randrange(len(pool) + 1), card)
    commits: list = []
    for commit in observation["commits"]:
        if commit is None:
            commits.append(None)
        else:
            up, down = commit
            if up is None:
                up, down = face_up_first(*draw(2))
            elif down is None:
                down = draw(1)[0]
            commits.append([up, down])
    for i in range(n):
        if i != seat:
            hands[i].extend(draw(observation["hands"][i] - len(hands[i])))
    discard.extend(draw(observation["discard"] - len(discard)))
    deck = draw(observation["deck"] - len(joker_cards))
    for joker in joker_cards:
        deck.insert(rng.randrange(len(deck) + 1), joker)
    assert not pool, "the observation does not add up to the 48 playable cards"
    stage = observation["stage"]
    state = new_state(n, _options(observation))
    state.update({
        "stage": stage,
        "round": observation["round"],
        "deck": deck,
        "discard": discard,
        "hands": hands,
        "jokers": jokers,
        "crowns": [list(c) for c in observation["crowns"]],
        "centre": list(observation["centre"]),
        "done": [c is not None or e is not None for c, e in zip(commits, observation["exchanged"])],
        "commits": commits,
        "exchanged": [None if e is None else list(e) for e in observation["exchanged"]],
        "exchange_discards": [None if e is None else list(e) for e in observation["exchange_discards"]],
        "gambled": list(observation["gambled"]),
        "rolls": [None if r is None else list(r) for r in observation["rolls"]],
        "tiebreak": copy_json(observation["tiebreak"]),
        "winner": observation["winner"],
        "last": copy_json(observation["last_round"]),
        "end": copy_json(observation["end"]),
        "leader": observation["leader"],
    })
    if observation["strengths"] is not None:  # resolved: the outcome follows from what is shown
        state["outcome"] = resolution(state)
    return cast(dict, state)  # the typed state, handed to playouts as the plain dict it is


# -- mcts: a flat determinised Monte Carlo search ---------------------------------------------------
# The playouts play as ``strong`` without listing legal actions or building observations (the hot
# path): tests/engines/test_bots_fools_crown.py checks that they choose exactly what strong_bot does.
def _kept_value(hand, a, b) -> float:
    """strong's tie-break between commits of one strength: the Nobles and allied pairs kept."""
    rest = [c for c in hand if c != a and c != b]
    return sum(1 for c in rest if NOBLE[c]) + sum(_suit_potential(rest, s) for s in "CDHS") / 10


def _strong_commit(hand: list, crowns: list, players: int, can_gamble: bool, gamble_at=None, dump_below=None) -> dict:
    """What :func:`strong_bot` plays in the commit phase, without listing the legal actions (the
    playouts' hot path): ``hand`` sorted as the observation sorts it, ``crowns`` the seat's own.
    Among commits of the strength it wants (the highest, or the lowest when it dumps) it keeps the
    best cards, and of those the first listed, as strong's stable sort does."""
    gamble_at = GAMBLE_AT.get(players, 14) if gamble_at is None else gamble_at
    dump_below = DUMP_BELOW.get(players, 17) if dump_below is None else dump_below
    nobles = [c for c in hand if NOBLE[c]]
    squires = [c for c in hand if not NOBLE[c]]
    if squires:
        allied = {c[1] for c in crowns}
        pairs = []
        if nobles:
            for n in nobles:
                value, suit = VALUE[n], SUIT[n]
                for q in squires:
                    strength = value + VALUE[q]
                    if SUIT[q] == suit:
                        strength += 2 if suit in allied else 1
                    pairs.append((strength, n, q))
        else:
            for i, a in enumerate(squires):
                for b in squires[i + 1:]:
                    pairs.append((VALUE[a] + VALUE[b], a, b))
        best = max(p[0] for p in pairs)
        if can_gamble and best <= gamble_at:
            top = [p for p in pairs if p[0] == best]
            chosen = top[0] if len(top) == 1 else max(top, key=lambda p: _kept_value(hand, p[1], p[2]))
            discards = _gamble_discards(hand, chosen[1:])
            if discards:
                return {"type": "gamble", "cards": sort_cards(discards)}
        wanted = min(p[0] for p in pairs) if best < dump_below else best
        top = [p for p in pairs if p[0] == wanted]
        chosen = top[0] if len(top) == 1 else max(top, key=lambda p: _kept_value(hand, p[1], p[2]))
        return {"type": "commit", "cards": face_up_first(chosen[1], chosen[2])}
    if can_gamble and gamble_at >= 0:  # no commit at all: a best strength of 0
        discards = _gamble_discards(hand, nobles[:2])
        if discards:
            return {"type": "gamble", "cards": sort_cards(discards)}
    exchanges = [[a, b] for i, a in enumerate(nobles) for b in nobles[i + 1:]]
    return {"type": "noble-exchange",
            "cards": max(exchanges, key=lambda out: sum(1 for c in hand if c not in out and "A" + SUIT[c] in crowns))}


def _strong_on_state(engine, state, seat, rng):
    """``strong`` on what ``seat`` sees of ``state``: its own hand and the Crowns (all it reads)."""
    if state["stage"] == "commit":
        return _strong_commit(sort_cards(state["hands"][seat]), state["crowns"][seat], state["players"],
                              bool(state["jokers"][seat]) and not state["gambled"][seat])
    view = {"you": seat, "hand": sort_cards(state["hands"][seat]), "crowns": state["crowns"]}
    return strong_bot(view, engine.legal_actions(state, seat), rng)


def _modelled(observation, seat: int, rng: random.Random, tries: int = 30) -> dict:
    """A determinisation (:func:`determinize`) whose commits hidden from ``seat`` are the ones
    ``strong`` makes from the hand they came from: the hidden commit and the rest of that seat's hand
    are re-split as ``strong`` would commit them, and while ``strong`` would commit otherwise than the
    observation shows (another face-up card, with seat-order commits; no Squire to commit) the unseen
    cards of that hand are dealt again from the deck and the discard pile. After ``tries`` the cards
    stay as dealt. Reads nothing but the observation."""
    state = determinize(observation, seat, rng)
    places = [("deck", k) for k, c in enumerate(state["deck"]) if c not in JOKER_SET]
    named = {c for gone in observation["exchange_discards"] if gone is not None for c in gone}
    places += [("discard", k) for k, c in enumerate(state["discard"]) if c not in named]  # not the public ones
    for i, shown in enumerate(observation["commits"]):
        if i == seat or shown is None or shown[1] is not None:
            continue
        known = shown[0]  # the face-up card of a seat-order commit, or None
        for _ in range(tries):
            cards = sort_cards(state["commits"][i] + state["hands"][i])
            options = [{"type": "commit", "cards": pair} for pair in commit_options(cards)]
            if options:
                view = {"you": i, "hand": cards, "crowns": state["crowns"]}
                up, down = face_up_first(*strong_bot(view, options, rng)["cards"])
                if known is None or up == known:
                    state["commits"][i] = [up, down]
                    state["hands"][i] = [c for c in cards if c != up and c != down]
                    break
            unseen = [c for c in cards if c != known]
            pool = unseen + [state[where][k] for where, k in places]
            rng.shuffle(pool)
            for (where, k), card in zip(places, pool[len(unseen):]):
                state[where][k] = card
            dealt = pool[:len(unseen)]
            if known is None:
                state["commits"][i], state["hands"][i] = face_up_first(dealt[0], dealt[1]), dealt[2:]
            else:
                state["commits"][i], state["hands"][i] = [known, dealt[0]], dealt[1:]
    return state


def _share(engine, state, seat) -> float:
    winners = engine.result(state).winners
    return 1.0 / len(winners) if seat in winners else 0.0


_QUALIFY = 26 / 36  # P(2d6 >= 6): a qualification roll


def _draw(deck, discard, hand, jokers, seat, count, rng, at_once):
    while count > 0:
        if not deck:
            if not discard:
                return
            deck.extend(discard)
            discard.clear()
            rng.shuffle(deck)
        card = deck.pop()
        if card in JOKER_SET:
            jokers[seat] += 1
        else:
            hand.append(card)
            count -= 1
        if at_once and not deck and discard:
            deck.extend(discard)
            discard.clear()
            rng.shuffle(deck)


def _potential(hand, suit) -> int:
    nobles = squires = 0
    for c in hand:
        if SUIT[c] == suit:
            if NOBLE[c]:
                nobles += 1
            else:
                squires += 1
    return 3 * min(nobles, squires) + nobles + squires


def _simulate(state, rng, rules: Rules, stop=None, policies=None):
    """The rest of a match from its commit phase (under way or not), every seat playing as ``strong``
    (or as ``policies[seat]``), on a compact copy of the state: the rules of the engine without its
    bookkeeping (no events, no copies), chance drawn with ``rng``. The seats commit in seat order from
    the round's leader with seat-order commits (house rule 3.4 step 2, the default since rules 1.3.0;
    the lead passes left of the round's winner, FC-ORDER), from seat 0 with sealed ones (any order is
    theirs). Returns (ranks, crowns, jokers), the ranks None when the next round to start is ``stop``."""
    n = state["players"]
    at_once = rules.reshuffle_at_once
    deck = state["deck"][::-1]  # drawn from the end: the top card last
    discard = list(state["discard"])
    hands = [list(h) for h in state["hands"]]
    jokers = [len(j) for j in state["jokers"]]
    crowns = [list(c) for c in state["crowns"]]
    centre = list(state["centre"])
    rnd = state["round"]
    cap = state["options"]["safety_cap"]
    # FC-CHALLENGE (1.5.0): with challenge_sat_out a seat that sat out for a Noble Exchange (no commit) may be
    # challenged too (house rule 3.4 step 6, "A player who sat out ... cannot defend")
    sat_out_too = challenge_sat_out(state)
    done = list(state["done"])
    commits = list(state["commits"])
    gambled = [bool(g) for g in state["gambled"]]
    leader = state["leader"]  # seat-order commits: this round's first committer; sealed: None
    while True:
        for i in range(n) if leader is None else [(leader + k) % n for k in range(n)]:
            if done[i]:
                continue
            hand = hands[i]
            hand.sort(key=ORDER.__getitem__)
            policy = policies[i] if policies else None
            can_gamble = jokers[i] > 0 and not gambled[i]
            if policy is None:
                action = _strong_commit(hand, crowns[i], n, can_gamble)
            else:
                action = policy(hand, i, can_gamble, crowns, jokers, centre)
            if action["type"] == "gamble":
                for c in action["cards"]:
                    hand.remove(c)
                discard.extend(action["cards"])
                jokers[i] -= 1
                deck.append("JOKER1")
                rng.shuffle(deck)
                _draw(deck, discard, hand, jokers, i, len(action["cards"]), rng, at_once)
                hand.sort(key=ORDER.__getitem__)
                if policy is None:
                    action = _strong_commit(hand, crowns[i], n, False)
                else:
                    action = policy(hand, i, False, crowns, jokers, centre)
            cards = action["cards"]
            hand.remove(cards[0])
            hand.remove(cards[1])
            if action["type"] == "commit":
                commits[i] = cards
            else:  # Noble Exchange: sit out, draw two
                discard.extend(cards)
                _draw(deck, discard, hand, jokers, i, 2, rng, at_once)
        best, top, winner = -1, [], None
        for i in range(n):
            cards = commits[i]
            if cards is not None and rng.random() < _QUALIFY:
                strength = _strength(cards, crowns[i]) + jokers[i]
                if strength > best:
                    best, top = strength, [i]
                elif strength == best:
                    top.append(i)
        if top:  # tied highest qualifiers reroll until one is highest: each as likely
            winner = top[0] if len(top) == 1 else rng.choice(top)
            hand = hands[winner]
            if centre:
                crown = max(centre, key=lambda c: (_potential(hand, c[1]), rng.random()))
                centre.remove(crown)
                crowns[winner].append(crown)
            else:  # the engine's claim.challengeable: every seat has committed or sat out for a Noble Exchange
                options = [(t, c) for t in range(n) if t != winner and (sat_out_too or commits[t] is not None)
                           for c in crowns[t]]
                if options:
                    t, crown = max(options, key=lambda o: (len(crowns[o[0]]), _potential(hand, o[1][1]), rng.random()))
                    crowns[t].remove(crown)
                    crowns[winner].append(crown)
            if len(crowns[winner]) == 4:
                return [1 if i == winner else 2 for i in range(n)], crowns, jokers
        for cards in commits:
            if cards is not None:
                discard.extend(cards)
        capped = cap and rnd >= CAP_ROUNDS
        if capped and rules.refill_at_cap:  # FC-CAP (1.4.0): the last round's refill, then the end
            for i in refill_order(rules, n, winner, rnd):
                _draw(deck, discard, hands[i], jokers, i, 5 - len(hands[i]), rng, at_once)
        if capped:
            keys = [(len(crowns[i]), jokers[i]) for i in range(n)]
            return [1 + sum(1 for k in keys if k > keys[i]) for i in range(n)], crowns, jokers
        rnd += 1
        if leader is not None:
            leader = ((winner if winner is not None else leader) + 1) % n
        done = [False] * n
        commits = [None] * n
        gambled = [False] * n
        for i in refill_order(rules, n, winner, rnd - 1):
            _draw(deck, discard, hands[i], jokers, i, 5 - len(hands[i]), rng, at_once)
        if rnd == stop:
            return None, crowns, jokers


def _fast_playout(engine, state, seat, rng, rounds=None, value=None) -> float:
    """The engine until a commit phase (chance, the resolution, a claim played as ``strong``), then
    :func:`_simulate` to the end, or for ``rounds`` round starts and scored by
    ``value(seat, crowns, jokers)``; ``seat``'s share of the win."""
    stop = None if rounds is None else state["round"] + rounds
    while True:
        turn = engine.to_act(state)
        kind = turn.kind
        if kind == Phase.OVER:
            return _share(engine, state, seat)
        if kind == Phase.CHANCE:
            state = engine.apply(state, CHANCE, engine.sample_chance(state, rng))
        elif kind == Phase.AUTO:
            state = engine.apply(state, SYSTEM, engine.auto_action(state))
        elif state["stage"] == "commit":
            break
        else:
            actor = turn.seats[0]
            state = engine.apply(state, actor, _strong_on_state(engine, state, actor, rng))
    if state["round"] == stop:
        ranks, crowns, jokers = None, state["crowns"], [len(j) for j in state["jokers"]]
    else:
        ranks, crowns, jokers = _simulate(state, rng, engine.rules, stop)
    if ranks is None:
        return value(seat, crowns, jokers)
    if ranks[seat] != 1:
        return 0.0
    return 1.0 / sum(1 for r in ranks if r == 1)


#: Seat 0's win share at the start of a two-seat round, by (its Crowns, the other's) and (its Jokers,
#: the other's), strong against strong: 4000 simulated matches a cell (bench/bots_fools_crown.py value),
#: made symmetric (V(a, b) = 1 - V(b, a)). A Joker is worth about as much as a Crown.
VALUE2 = {
    (0, 0): {(0, 0): 0.5, (0, 1): 0.364, (0, 2): 0.237, (1, 0): 0.636, (1, 1): 0.5, (2, 0): 0.763},
    (0, 1): {(0, 0): 0.377, (0, 1): 0.245, (0, 2): 0.141, (1, 0): 0.533, (1, 1): 0.391, (2, 0): 0.676},
    (0, 2): {(0, 0): 0.256, (0, 1): 0.162, (0, 2): 0.073, (1, 0): 0.396, (1, 1): 0.263, (2, 0): 0.544},
    (0, 3): {(0, 0): 0.132, (0, 1): 0.067, (0, 2): 0.031, (1, 0): 0.23, (1, 1): 0.135, (2, 0): 0.34},
    (1, 0): {(0, 0): 0.623, (0, 1): 0.467, (0, 2): 0.324, (1, 0): 0.755, (1, 1): 0.609, (2, 0): 0.859},
    (1, 1): {(0, 0): 0.5, (0, 1): 0.346, (0, 2): 0.221, (1, 0): 0.654, (1, 1): 0.5, (2, 0): 0.779},
    (1, 2): {(0, 0): 0.377, (0, 1): 0.242, (0, 2): 0.139, (1, 0): 0.53, (1, 1): 0.373, (2, 0): 0.68},
    (1, 3): {(0, 0): 0.244, (0, 1): 0.146, (0, 2): 0.088, (1, 0): 0.4, (1, 1): 0.256, (2, 0): 0.505},
    (2, 0): {(0, 0): 0.744, (0, 1): 0.604, (0, 2): 0.456, (1, 0): 0.838, (1, 1): 0.738, (2, 0): 0.927},
    (2, 1): {(0, 0): 0.623, (0, 1): 0.47, (0, 2): 0.32, (1, 0): 0.758, (1, 1): 0.627, (2, 0): 0.861},
    (2, 2): {(0, 0): 0.5, (0, 1): 0.333, (0, 2): 0.227, (1, 0): 0.667, (1, 1): 0.5, (2, 0): 0.773},
    (3, 0): {(0, 0): 0.868, (0, 1): 0.77, (0, 2): 0.66, (1, 0): 0.933, (1, 1): 0.865, (2, 0): 0.969},
    (3, 1): {(0, 0): 0.755, (0, 1): 0.6, (0, 2): 0.495, (1, 0): 0.854, (1, 1): 0.744, (2, 0): 0.912},
}


def _value2(seat, crowns, jokers) -> float:
    other = 1 - seat
    return VALUE2[len(crowns[seat]), len(crowns[other])][jokers[seat], jokers[other]]


#: Playouts a move by player count, sized to answer in about half a second on this machine
#: (bench/bots_fools_crown.py time): a four-seat playout costs about three two-seat ones.
PLAYOUTS = {2: 6000, 3: 2000, 4: 1000}
#: Two seats: playouts stop when the round after next starts and are scored by VALUE2 (less noise
#: than the match's end, so the same budget tells the moves apart better); three and four seats play
#: to the end (VALUE2 has no table for them).
ROUNDS = {2: 2, 3: None, 4: None}


class FlatSearch:
    """Flat Monte Carlo over the legal actions, on states sampled from the observation alone.

    Each sample is a determinisation (:func:`_modelled`) and a seed; every action is played on the
    same samples with the same seeds (common random numbers, so the actions are compared on the same
    cards and dice), then every seat plays as ``strong`` (:func:`_fast_playout`). The budget goes
    to the actions by sequential halving (Karnin, Koren & Somekh 2013): all of them get a share, the
    better half goes on to the next share, and so on; ``strong``'s own choice stays in to the end.
    The best is played only when it beats strong's choice by ``z`` standard errors of their paired
    difference: a small budget, or a move the samples cannot tell apart, plays as ``strong`` does.

    Pure: a function of (observation, legal actions, rng). ``with_budget`` sets the playouts and,
    for a caller that passes a clock, a time cap (the worker's 0.8 s).
    """

    def __init__(self, engine, playouts=None, z: float = 1.0, seconds=None, clock=None):
        self.engine = engine
        self.playouts = dict(PLAYOUTS if playouts is None else playouts)
        self.z = z
        self.seconds = seconds
        self.clock = clock

    def with_budget(self, iterations=None, seconds=None, determinizations=None, clock=None) -> FlatSearch:
        """The same search with ``iterations`` playouts a move (at every table size) and, with a
        ``clock``, at most ``seconds`` on it (``determinizations``: accepted, unused)."""
        playouts = self.playouts if iterations is None else {n: iterations for n in self.playouts}
        return FlatSearch(self.engine, playouts, self.z, seconds, clock)

    def _value(self, observation, legal, seat, state, action, seed) -> float:
        players = len(observation["hands"])
        rounds = ROUNDS.get(players)
        return _fast_playout(self.engine, self.engine.apply(state, seat, action), seat, random.Random(seed),
                             rounds, _value2 if rounds else None)

    def __call__(self, observation, legal: Sequence[dict], rng: random.Random) -> dict:
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        seat = observation["you"]
        default = legal.index(strong_bot(observation, legal, rng))
        budget = self.playouts.get(len(observation["hands"]), min(self.playouts.values()))
        clock = self.clock
        deadline = None if self.seconds is None or clock is None else clock() + self.seconds
        arms = list(range(len(legal)))
        rounds = max(1, math.ceil(math.log2(len(arms))))
        samples: list = []
        rewards: list = [[] for _ in legal]
        out_of_time = False
        for stage in range(rounds):
            share = budget // (len(arms) * rounds)
            if share == 0:  # the budget is spent (or too small to try every action)
                break
            target = len(rewards[arms[0]]) + share
            for k in range(len(rewards[arms[0]]), target):  # sample by sample: all arms stay level
                # Each sample drawn as it is used (in the same order, so the same ones): drawn all at
                # once, a stage's 750 samples took 1.3 s before the clock was first read.
                if k == len(samples):
                    samples.append((_modelled(observation, seat, rng), rng.getrandbits(64)))
                    if deadline is not None and clock is not None and clock() >= deadline:
                        out_of_time = True
                        break
                state, seed = samples[k]
                for a in arms:
                    rewards[a].append(self._value(observation, legal, seat, state, legal[a], seed))
                if deadline is not None and clock is not None and clock() >= deadline:
                    out_of_time = True
                    break
            if out_of_time:
                break
            if stage < rounds - 1:
                ranked = sorted(arms, key=lambda a: -sum(rewards[a]))
                keep = ranked[:max(2, (len(arms) + 1) // 2)]
                if default not in keep:
                    keep.append(default)
                arms = sorted(keep)
        if min(len(rewards[a]) for a in arms) < 2:  # no error to judge by: strong's choice
            return legal[default]
        return legal[paired_best(rewards, arms, default, self.z)]


def search_bot(engine) -> FlatSearch:
    """The searching level on ``engine``'s rules version (its playouts keep that version's rules)."""
    return FlatSearch(engine)


def commit_move(action: dict):
    """A commit as the rules read it: a Noble by its suit alone (J, Q and K are all worth 10, and the
    alliances go by suit), so committing J♥ or K♥ with 5♥ is one move. ``strong`` and the search took
    the first listed, the lowest rank: a K♥ shown told every seat it held neither J♥ nor Q♥. None for
    the other actions (a gamble's cards are hidden; a Noble Exchange shows the whole hand)."""
    if action.get("type") != "commit":
        return None
    return tuple(sorted("N" + SUIT[card] if NOBLE.get(card) else card for card in action["cards"]))


def blind(bot):
    """``bot``, its commits drawn among those the rules count as one (domain/equivalent.py)."""
    return EquivalentChoice(bot, commit_move)


BOTS = {"random": random_bot, "basic": blind(basic_bot), "strong": blind(strong_bot)}
