"""Jest: the face-up cards taken are public (``taken_up``, docs/rules/jest.md "What each one sees").

At the table everyone sees which face-up card goes into whose Jest (rulebooks/jest.txt, TAKING CARDS), so a
reloaded page, a spectator and a computer keep it as a player with a notepad does; a face-down card taken stays
its taker's until the end, and the last round's leftover offer card is known only if it lay face up (ENDING THE
GAME). A rules probe: before, a taken face-up card vanished from every other view and the bots' samples dealt it
anywhere at random.
"""

from __future__ import annotations

import random

import pytest

from domain.engine import CHANCE, SYSTEM, Phase
from domain.games.jest import CARDS, ENGINE, ENGINES
from domain.games.jest import bots as jest_bots
from domain.playout import new_match, next_step
from tests.engines.harness import random_playout
from tests.engines.test_jest_playouts import _codes as codes_in

E = ENGINE
CARD_SET = frozenset(CARDS)


def _codes(value) -> set:
    """Every card code appearing anywhere (keys or values) in a JSON value."""
    return set(codes_in(value))


def _views(engine, state):
    """(viewer, observation) for every seat and the spectator (None)."""
    return [(None, engine.public_observation(state))] + [
        (seat, engine.observation(state, seat)) for seat in range(state["n"])
    ]


# A 3-player round 1: trophies A♥ 2♥; seat 0 offers 4♠ up / A♠ down, seat 1 3♣ / A♣, seat 2 2♦ / A♦.
TROPHIES = ["AH", "2H"]
HANDS = [["4S", "AS"], ["3C", "AC"], ["2D", "AD"]]
UPS = ["4S", "3C", "2D"]


def _offered(engine=E):
    used = TROPHIES + [card for hand in HANDS for card in hand]
    order = used + [card for card in CARDS if card not in used]
    state = engine.step(engine.initial_state(3, {}), CHANCE, {"type": "shuffle", "order": order})
    for seat, up in enumerate(UPS):
        down = next(card for card in HANDS[seat] if card != up)
        state = engine.step(state, seat, {"type": "offer", "up": up, "down": down})
    assert engine.to_act(state).seats == (0,)  # R1: 4♠ is the highest face-up card
    return state


def _take(state, seat, source, which, engine=E):
    return engine.step(state, seat, {"type": "take", "from": source, "card": which})


def test_a_face_up_take_is_named_under_its_taker_for_every_viewer():
    state = _take(_offered(), 0, 1, "up")  # seat 0 takes 3♣, face up, from seat 1
    for viewer, view in _views(E, state):
        assert view["taken_up"] == [["3C"], [], []], viewer
        assert view["offers"][1] == {"up": None, "down": True} or viewer == 1
        assert view["jest_counts"] == [1, 0, 0]
    # From the moment of the take, in the order taken: seat 1 takes A♦ face down, seat 2 takes 4♠ face up.
    state = _take(_take(state, 1, 2, "down"), 2, 0, "up")
    assert state["phase"] == "deal"
    for viewer, view in _views(E, state):
        assert view["taken_up"] == [["3C"], [], ["4S"]], viewer


def test_every_rules_version_names_face_up_takes():
    """An observation only: 1.0.0's engine (stored matches) shows it too, and the rules versions stay."""
    assert E.rules_version == "1.2.0"
    old = ENGINES["1.0.0"]
    state = _take(_offered(old), 0, 2, "up")
    for viewer, view in _views(old, state):
        assert view["taken_up"] == [["2D"], [], []], viewer


def test_a_face_down_take_stays_its_takers_until_the_end():
    state = _take(_take(_offered(), 0, 1, "up"), 1, 2, "down")  # seat 1 takes A♦ face down
    assert "AD" in state["jests"][1]
    rng = random.Random(5)
    while True:
        for viewer, view in _views(E, state):
            known = {card for cards in view["taken_up"] for card in cards}
            assert "AD" not in known, viewer
            if state["phase"] == "over":
                assert view["jests"][1].count("AD") == 1
            elif viewer == 1:
                assert "AD" in view["jest"]
            else:
                assert "AD" not in _codes(view), (viewer, state["phase"])
        chosen = next_step(E, state, rng)
        if chosen is None:
            break
        state = E.step(state, *chosen)
    assert state["phase"] == "over"


def _model(playout):
    """Every state of a playout (the final one too) with the face-up cards its Jests received in sight,
    per seat in order (each face-up take; the last round's leftover when it lay face up), and the cards
    taken face down (card -> taker)."""
    known: list[list[str]] = [[] for _ in range(playout.states[0]["n"])]
    hidden: dict[str, int] = {}
    out = []
    for index, (actor, action) in enumerate(playout.log):
        before = playout.states[index]
        out.append((before, [list(cards) for cards in known], dict(hidden)))
        after = playout.states[index + 1] if index + 1 < len(playout.states) else playout.final
        if actor not in (CHANCE, SYSTEM) and action["type"] == "take":
            card = before["offers"][action["from"]][action["card"]]
            if action["card"] == "up":
                known[actor].append(card)
            else:
                hidden[card] = actor
            if after["phase"] == "scoring":  # the last take: each leftover joins its owner's Jest
                for seat, left in enumerate(after["offers"]):
                    assert left is None
                    rest = before["offers"][seat]
                    remaining = dict(rest, **({action["card"]: None} if seat == action["from"] else {}))
                    if remaining["up"] is not None:
                        known[seat].append(remaining["up"])
                    else:
                        hidden[remaining["down"]] = seat
    out.append((playout.final, known, hidden))
    return out


@pytest.mark.parametrize("n", [3, 4])
def test_taken_up_follows_every_face_up_card_over_random_playouts(n):
    """100 random matches a player count: at every state, every viewer's ``taken_up`` is exactly the face-up
    cards taken so far (and the face-up leftovers at the end), each in its taker's Jest, and no card taken
    face down shows anywhere to anybody but its taker before the end."""
    leftovers_up = 0
    for seed in range(100):
        playout = random_playout(E, n, seed=7_000 + seed, check_purity_every=50)
        for state, known, hidden in _model(playout):
            assert state["taken_up"] == known
            for seat, cards in enumerate(known):
                assert all(card in state["jests"][seat] for card in cards)
            for viewer, view in _views(E, state):
                assert view["taken_up"] == known, (viewer, state["phase"])
                if state["phase"] != "over":
                    shown = _codes(view)
                    assert not {card for card, taker in hidden.items() if taker != viewer} & shown, viewer
        # The last round's leftover is the last card of each Jest in the scoring state.
        scoring = next(state for state in playout.states if state["phase"] == "scoring")
        leftovers_up += sum(1 for seat in range(n) if scoring["jests"][seat][-1] in scoring["taken_up"][seat])
    assert leftovers_up  # some face-up leftovers were seen joining their Jests


def test_a_state_without_taken_up_does_not_fail_and_records_from_then_on():
    """A state made before the key (a hand-built one; no stored match has one: replay builds it and
    ``state_layout`` 2 keeps older snapshots out) shows empty lists, then records the face-up takes."""
    state = _offered()
    del state["taken_up"]
    for _, view in _views(E, state):
        assert view["taken_up"] == [[], [], []]
    after = _take(state, 0, 1, "up")
    assert after["taken_up"] == [["3C"], [], []]
    assert E.observation(after, 2)["taken_up"] == [["3C"], [], []]
    assert E.state_layout == 2  # snapshots of the old layout are never loaded (application/snapshots.py)


# -- the computers -------------------------------------------------------------------------------------
def test_determinization_keeps_known_face_up_cards_in_their_takers_jests():
    state = _take(_take(_offered(), 0, 1, "up"), 1, 0, "up")  # seat 0 took 3♣, seat 1 took 4♠
    observation = E.observation(state, 2)
    assert observation["taken_up"] == [["3C"], ["4S"], []]
    rng = random.Random(1)
    for _ in range(40):
        sample = jest_bots.determinize(observation, 2, rng)
        assert sample["jests"][0] == ["3C"] and sample["jests"][1] == ["4S"]
        assert E.observation(sample, 2) == observation
    assert not {"3C", "4S"} & set(jest_bots._unseen(observation))


def test_determinization_deals_only_the_hidden_part_of_a_jest():
    """Over random matches: every sample keeps each seat's known face-up cards in its Jest, deals it as
    many hidden cards as the rest, and shows the seat exactly its observation."""
    rng = random.Random(2)
    checked = 0
    for n in (3, 4):
        game_rng = random.Random(20 + n)
        state = new_match(E, n, {})
        while E.to_act(state).kind != Phase.OVER:
            turn = E.to_act(state)
            if turn.kind == Phase.PLAYERS:
                for seat in turn.seats:
                    observation = E.observation(state, seat)
                    sample = jest_bots.determinize(observation, seat, rng)
                    assert E.observation(sample, seat) == observation
                    for other in range(n):
                        jest = sample["jests"][other]
                        assert len(jest) == len(state["jests"][other])
                        assert all(card in jest for card in state["taken_up"][other])
                    checked += 1
            state = E.step(state, *next_step(E, state, game_rng))
    assert checked > 40
