"""Fool's Crown ("Where Even a Fool Can Wear the Crown") as a pure rule engine.

Rules: rulebooks/fools-crown.txt completed by house rules section 3.4; the rules as implemented and
every decision are in docs/rules/fools-crown.md. Summary of the flow of a match:

    shuffle (CHANCE) -> deal -> round: commit phase (simultaneous, sealed; gamble / commit / Noble
    Exchange; a gamble is followed by a CHANCE shuffle of the Joker into the deck) -> one 2d6 roll per
    committed seat (CHANCE, public) -> resolve-round (AUTO) -> tiebreak rolls (CHANCE) if needed ->
    claim / challenge by the round winner -> cleanup and refill (CHANCE reshuffles when the deck runs
    out) -> next round ... until a seat holds all four Crowns (or the safety cap ends it).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any, Mapping, Optional

from domain.engine import CHANCE, SYSTEM, Engine, IllegalAction, InvalidOptions, Result, ToAct

from .cards import (
    CROWNS,
    DRAW_DECK,
    JOKER_SET,
    NOBLE,
    SQUIRE,
    SUIT,
    VALUE,
    face_up_first,
    sort_cards,
)

HAND_SIZE = 5
CAP_ROUNDS = 30
QUALIFY = 6  # 2d6 total 6..12 qualifies
GAME = "fools-crown"
#: FC-SEAL: all seats commit at once, sealed (default); "seat-order" is house rule 3.4 step 2 as written.
COMMIT_ORDERS = ("simultaneous", "seat-order")

DICE_OUTCOMES = [[a, b] for a in range(1, 7) for b in range(1, 7)]
_OUTCOME_CACHE: dict = {}  # (kind, seat) -> the 36 (outcome, probability) pairs; read-only


def _dice_outcomes(kind: str, seat: int) -> list:
    key = (kind, seat)
    cached = _OUTCOME_CACHE.get(key)
    if cached is None:
        cached = [({"type": kind, "seat": seat, "dice": [a, b]}, 1 / 36) for a, b in DICE_OUTCOMES]
        _OUTCOME_CACHE[key] = cached
    return list(cached)


def _copy(s: dict) -> dict:
    """A copy deep enough for apply: nested values that are only ever replaced (never mutated in place)
    are shared (commits, exchanged hands, outcome, last, gamble, options)."""
    t = dict(s)
    t["deck"] = list(s["deck"])
    t["discard"] = list(s["discard"])
    t["hands"] = [list(h) for h in s["hands"]]
    t["jokers"] = [list(j) for j in s["jokers"]]
    t["crowns"] = [list(c) for c in s["crowns"]]
    t["centre"] = list(s["centre"])
    t["done"] = list(s["done"])
    t["commits"] = list(s["commits"])
    t["exchanged"] = list(s["exchanged"])
    t["gambled"] = list(s["gambled"])
    t["rolls"] = list(s["rolls"])
    t["draws"] = [list(d) for d in s["draws"]]
    if s["tiebreak"] is not None:
        t["tiebreak"] = dict(s["tiebreak"], seats=list(s["tiebreak"]["seats"]), rolls=list(s["tiebreak"]["rolls"]))
    return t


def _plain(value):
    """A fresh copy of a JSON value, so an observation shares nothing mutable with the state."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def commit_strength(cards: list, crowns: list, jokers: int) -> dict:
    """Battle Strength of a commit (rulebook "Add your two cards together, plus any bonuses"; house
    rule 3.4 step 3): card values, Royal Alliance +1 (Noble and Squire of one suit), Crown Alliance +1
    (a Royal Alliance in the suit of a Crown held), +1 per Joker held."""
    a, b = cards
    base = VALUE[a] + VALUE[b]
    royal = 0
    crown = 0
    if NOBLE[a] != NOBLE[b] and SUIT[a] == SUIT[b]:
        royal = 1
        if ("A" + SUIT[a]) in crowns:
            crown = 1
    return {
        "cards": base,
        "royal_alliance": royal,
        "crown_alliance": crown,
        "jokers": jokers,
        "total": base + royal + crown + jokers,
    }


def commit_options(hand: list) -> list:
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


class FoolsCrownEngine(Engine):
    name = GAME
    title = "Fool's Crown"
    rules_version = "1.0.1"
    min_players = 2
    max_players = 4
    summary = (
        "Commit a Noble and a Squire, roll two dice to qualify, and the strongest qualifier claims a "
        "Crown Ace; hold all four Crowns to win. Jokers give a lasting +1 or fuel a gamble."
    )

    # -- setting up ----------------------------------------------------------------------------
    def default_options(self) -> dict:
        return {"safety_cap": True, "commit_order": "simultaneous"}

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> dict:
        merged = super().check_options(num_players, options)
        if merged["commit_order"] not in COMMIT_ORDERS:
            raise InvalidOptions(
                f"{self.name} options", f"commit_order must be one of {', '.join(COMMIT_ORDERS)}"
            )
        return merged

    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> dict:
        options = self.check_options(num_players, options)
        n = num_players
        return {
            "players": n,
            "options": dict(options),
            "stage": "shuffle",
            "round": 1,
            "deck": [],
            "discard": [],
            "hands": [[] for _ in range(n)],
            "jokers": [[] for _ in range(n)],
            "crowns": [[] for _ in range(n)],
            "centre": list(CROWNS),
            "done": [False] * n,
            "commits": [None] * n,
            "exchanged": [None] * n,
            "gambled": [0] * n,
            "rolls": [None] * n,
            "outcome": None,
            "tiebreak": None,
            "winner": None,
            "claimed": None,
            "gamble": None,
            "draws": [],
            "after": None,
            "last": None,
            "end": None,
            "leader": None,  # seat-order commits: the seat that commits first this round
        }

    # -- whose move ----------------------------------------------------------------------------
    def to_act(self, state) -> ToAct:
        stage = state["stage"]
        if stage == "commit":
            if state["options"]["commit_order"] == "seat-order":
                return ToAct.players(self._next_committer(state))
            return ToAct.players(*[i for i in range(state["players"]) if not state["done"][i]])
        if stage == "claim":
            return ToAct.players(state["winner"])
        if stage == "resolve":
            return ToAct.auto()
        if stage == "over":
            return ToAct.over()
        return ToAct.chance()  # shuffle, first-player, gamble-shuffle, reshuffle, roll, tiebreak

    @staticmethod
    def _next_committer(state) -> int:
        """Seat-order commits (house rule 3.4 step 2): the first seat, from this round's leader on, that
        has not committed or exchanged yet."""
        n = state["players"]
        for k in range(n):
            seat = (state["leader"] + k) % n
            if not state["done"][seat]:
                return seat
        raise AssertionError("commit phase with every seat done")

    def legal_actions(self, state, seat) -> list:
        if not isinstance(seat, int) or isinstance(seat, bool):
            return []
        stage = state["stage"]
        if stage == "commit":
            if not isinstance(seat, int) or not 0 <= seat < state["players"] or state["done"][seat]:
                return []
            if state["options"]["commit_order"] == "seat-order" and seat != self._next_committer(state):
                return []
            hand = sort_cards(state["hands"][seat])
            actions = []
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
        if stage == "claim" and seat == state["winner"]:
            if state["centre"]:
                return [{"type": "claim", "crown": c} for c in state["centre"]]
            actions = [
                {"type": "challenge", "target": t, "crown": c}
                for t in self._targets(state, seat)
                for c in state["crowns"][t]
            ]
            actions.append({"type": "pass"})
            return actions
        return []

    @staticmethod
    def _targets(state, winner) -> list:
        """Seats the round winner may challenge (house rule 3.4 step 6): Crown holders who committed
        this round."""
        return [
            t
            for t in range(state["players"])
            if t != winner and state["commits"][t] is not None and state["crowns"][t]
        ]

    def check_action(self, state, seat, action) -> None:
        stage = state["stage"]
        if stage not in ("commit", "claim"):
            raise IllegalAction(f"{GAME} turn order", "no player may act now")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.to_act(state).seats:
            raise IllegalAction(f"{GAME} turn order", "it is not this seat's turn to act")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(f"{GAME} actions", "an action is a JSON object with a string 'type'")
        kind = action["type"]
        shapes = {
            "commit": {"type", "cards"},
            "gamble": {"type", "cards"},
            "noble-exchange": {"type", "cards"},
            "claim": {"type", "crown"},
            "challenge": {"type", "target", "crown"},
            "pass": {"type"},
        }
        if kind not in shapes:
            raise IllegalAction(f"{GAME} actions", f"unknown action type {kind!r}")
        if set(action) != shapes[kind]:
            raise IllegalAction(f"{GAME} actions", f"a {kind} action has exactly the keys {sorted(shapes[kind])}")
        if kind in ("commit", "gamble", "noble-exchange"):
            if stage != "commit":
                raise IllegalAction("house rule 3.4 step 2", f"{kind} is only possible before the round's commits close")
            self._check_commit_phase(state, seat, kind, action["cards"])
            return
        if stage != "claim":
            raise IllegalAction("house rule 3.4 step 6", f"{kind} is only possible for the round winner after the round")
        if kind == "claim":
            crown = action["crown"]
            if not state["centre"]:
                raise IllegalAction(
                    "rulebook: The round winner chooses one Crown from the center battlefield",
                    "the centre is empty: the round winner may only challenge or pass",
                )
            if not isinstance(crown, str) or crown not in state["centre"]:
                raise IllegalAction(
                    "rulebook: The round winner chooses one Crown from the center battlefield",
                    "that Crown is not in the centre",
                )
            return
        if state["centre"]:
            raise IllegalAction(
                "house rule 3.4 step 6",
                "a challenge (or pass) is only possible once all four Crowns have been claimed; claim one from the centre",
            )
        if kind == "pass":
            return
        target, crown = action["target"], action["crown"]
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < state["players"]:
            raise IllegalAction(f"{GAME} actions", "the challenge target must be a seat number")
        if target == seat:
            raise IllegalAction("house rule 3.4 step 6", "you cannot challenge yourself")
        if state["commits"][target] is None:
            raise IllegalAction(
                "house rule 3.4 step 6", "the challenged player must have committed cards this round"
            )
        if not isinstance(crown, str) or crown not in state["crowns"][target]:
            raise IllegalAction("house rule 3.4 step 6", "the challenged player does not hold that Crown")

    def _check_commit_phase(self, state, seat, kind, cards) -> None:
        hand = state["hands"][seat]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise IllegalAction(f"{GAME} actions", "'cards' must be a list of card codes")
        if len(set(cards)) != len(cards):
            raise IllegalAction(f"{GAME} actions", "a card may be named only once")
        if any(c not in hand for c in cards):
            raise IllegalAction(f"{GAME} actions", "you may only name cards from your own hand")
        has_squire = any(SQUIRE[c] for c in hand)
        has_noble = any(NOBLE[c] for c in hand)
        if kind == "gamble":
            if not state["jokers"][seat]:
                raise IllegalAction(
                    "rulebook: a player with a Joker may sacrifice one Joker per round", "you hold no Joker to sacrifice"
                )
            if state["gambled"][seat]:
                raise IllegalAction(
                    "rulebook: a player with a Joker may sacrifice one Joker per round",
                    "you have already gambled a Joker this round",
                )
            if not 1 <= len(cards) <= 3:
                raise IllegalAction("rulebook: exchange 1-3 playable cards", "a gamble exchanges 1 to 3 cards")
            return
        if kind == "noble-exchange":
            if has_squire:
                raise IllegalAction(
                    "rulebook: If you have no Squire, you must perform a Noble Exchange",
                    "a Noble Exchange is only for a hand without a Squire",
                )
            if len(cards) != 2 or not all(NOBLE[c] for c in cards):
                raise IllegalAction("rulebook: discard two Nobles, draw two replacements", "discard exactly two Nobles")
            return
        # commit
        if not has_squire:
            raise IllegalAction(
                "rulebook: If you have no Squire, you must perform a Noble Exchange",
                "without a Squire you cannot commit; perform a Noble Exchange",
            )
        if len(cards) != 2:
            raise IllegalAction("rulebook: Select a Noble and a Squire", "commit exactly two cards")
        a, b = cards
        if NOBLE[a] and NOBLE[b]:
            raise IllegalAction("rulebook: Select a Noble and a Squire", "two Nobles cannot be committed")
        if SQUIRE[a] and SQUIRE[b] and has_noble:
            raise IllegalAction(
                "rulebook: two Squires if you have no Noble (house rule 3.4 step 2)",
                "you hold a Noble, so you must commit a Noble and a Squire",
            )

    # -- chance --------------------------------------------------------------------------------
    def _shuffle_pool(self, state) -> list:
        stage = state["stage"]
        if stage == "shuffle":
            return list(DRAW_DECK)
        if stage == "gamble-shuffle":
            return state["deck"] + [state["gamble"]["joker"]]
        if stage == "reshuffle":
            return list(state["discard"])
        return []

    def _roll_seat(self, state) -> Optional[int]:
        if state["stage"] == "roll":
            for i in range(state["players"]):
                if state["commits"][i] is not None and state["rolls"][i] is None:
                    return i
        if state["stage"] == "tiebreak":
            tb = state["tiebreak"]
            for index, seat in enumerate(tb["seats"]):
                if tb["rolls"][index] is None:
                    return seat
        return None

    def chance_outcomes(self, state):
        stage = state["stage"]
        if stage == "first-player":
            n = state["players"]
            return [({"type": "first-player", "seat": seat}, 1 / n) for seat in range(n)]
        if stage in ("roll", "tiebreak"):
            kind = "roll" if stage == "roll" else "tiebreak-roll"
            seat = self._roll_seat(state)
            return _dice_outcomes(kind, seat)
        return None

    def sample_chance(self, state, rng: random.Random):
        stage = state["stage"]
        if stage in ("roll", "tiebreak"):
            kind = "roll" if stage == "roll" else "tiebreak-roll"
            return {"type": kind, "seat": self._roll_seat(state), "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
        if stage in ("shuffle", "gamble-shuffle", "reshuffle"):
            order = self._shuffle_pool(state)
            rng.shuffle(order)
            return {"type": "shuffle", "order": order}
        if stage == "first-player":
            return {"type": "first-player", "seat": rng.randrange(state["players"])}
        raise ValueError("no chance step now")

    def chance_is_public(self, state, outcome) -> bool:
        return isinstance(outcome, dict) and outcome.get("type") in ("roll", "tiebreak-roll", "first-player")

    def _check_chance(self, state, outcome) -> None:
        stage = state["stage"]
        if not isinstance(outcome, dict):
            raise IllegalAction(f"{GAME} chance", "a chance outcome is a JSON object")
        if stage in ("shuffle", "gamble-shuffle", "reshuffle"):
            if set(outcome) != {"type", "order"} or outcome["type"] != "shuffle":
                raise IllegalAction(f"{GAME} chance", "a shuffle is {'type': 'shuffle', 'order': [...]}")
            order = outcome["order"]
            if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
                raise IllegalAction(f"{GAME} chance", "the shuffle order is a list of card codes")
            if Counter(order) != Counter(self._shuffle_pool(state)):
                raise IllegalAction(f"{GAME} chance", "the shuffle order is not a permutation of the cards shuffled")
            return
        if stage == "first-player":
            seat = outcome.get("seat")
            if (
                set(outcome) != {"type", "seat"}
                or outcome["type"] != "first-player"
                or not isinstance(seat, int)
                or isinstance(seat, bool)
                or not 0 <= seat < state["players"]
            ):
                raise IllegalAction(f"{GAME} chance", "expected {'type': 'first-player', 'seat': <seat>}")
            return
        if stage in ("roll", "tiebreak"):
            kind = "roll" if stage == "roll" else "tiebreak-roll"
            if set(outcome) != {"type", "seat", "dice"} or outcome["type"] != kind:
                raise IllegalAction(f"{GAME} chance", f"expected a {kind} outcome")
            if outcome["seat"] != self._roll_seat(state) or isinstance(outcome["seat"], bool):
                raise IllegalAction(f"{GAME} chance", "it is another seat's roll")
            dice = outcome["dice"]
            if (
                not isinstance(dice, list)
                or len(dice) != 2
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
            ):
                raise IllegalAction(f"{GAME} chance", "two dice, each 1 to 6 (1 is the Joker face)")
            return
        raise IllegalAction(f"{GAME} turn order", "no chance step is due now")

    # -- automatic step ------------------------------------------------------------------------
    def auto_action(self, state) -> dict:
        if state["stage"] != "resolve":
            raise IllegalAction(f"{GAME} turn order", "no automatic step is due now")
        return self._resolution(state)

    def _resolution(self, state) -> dict:
        n = state["players"]
        strengths = [None] * n
        bonuses = [None] * n
        for i in range(n):
            cards = state["commits"][i]
            if cards is not None:
                detail = commit_strength(cards, state["crowns"][i], len(state["jokers"][i]))
                bonuses[i] = detail
                strengths[i] = detail["total"]
        qualified = [
            i for i in range(n) if state["rolls"][i] is not None and sum(state["rolls"][i]) >= QUALIFY
        ]
        winner = None
        tied: list = []
        if qualified:
            best = max(strengths[i] for i in qualified)
            top = [i for i in qualified if strengths[i] == best]
            if len(top) == 1:
                winner = top[0]
            else:
                tied = top
        return {
            "type": "resolve-round",
            "round": state["round"],
            "commits": [list(c) if c is not None else None for c in state["commits"]],
            "strengths": strengths,
            "bonuses": bonuses,
            "rolls": [list(r) if r is not None else None for r in state["rolls"]],
            "qualified": qualified,
            "winner": winner,
            "tied": tied,
        }

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state, actor, action):
        stage = state["stage"]
        if actor == CHANCE:
            self._check_chance(state, action)
            s = _copy(state)
            if action["type"] == "shuffle":
                if stage == "shuffle":
                    s["deck"] = list(action["order"])
                    s["draws"] = [[i, 1] for _ in range(HAND_SIZE) for i in range(s["players"])]
                    seat_order = s["options"]["commit_order"] == "seat-order"
                    s["after"] = "first-player" if seat_order else "commit"
                elif stage == "gamble-shuffle":
                    s["deck"] = list(action["order"])
                    g = s["gamble"]
                    s["gamble"] = None
                    s["draws"] = [[g["seat"], g["count"]]]
                    s["after"] = "commit"
                else:  # reshuffle: the discard pile becomes the new deck
                    s["deck"] = s["deck"] + list(action["order"])
                    s["discard"] = []
                self._run_draws(s)
                return s
            if action["type"] == "first-player":  # round 1 of seat-order commits: random leader
                s["leader"] = action["seat"]
                self._enter_commit(s)
                return s
            seat = action["seat"]
            dice = list(action["dice"])
            if stage == "roll":
                s["rolls"][seat] = dice
                if self._roll_seat(s) is None:
                    s["stage"] = "resolve"
                return s
            tb = s["tiebreak"]
            tb["rolls"][tb["seats"].index(seat)] = dice
            if self._roll_seat(s) is None:
                totals = [sum(r) for r in tb["rolls"]]
                best = max(totals)
                top = [seat for seat, total in zip(tb["seats"], totals) if total == best]
                if len(top) == 1:
                    s["tiebreak"] = {"seats": list(tb["seats"]), "rolls": list(tb["rolls"]), "winner": top[0]}
                    self._enter_claim(s, top[0])
                else:  # ties reroll, among the tied highest only
                    s["tiebreak"] = {"seats": top, "rolls": [None] * len(top)}
            return s
        if actor == SYSTEM:
            if stage != "resolve":
                raise IllegalAction(f"{GAME} turn order", "no automatic step is due now")
            expected = self._resolution(state)
            if action != expected:
                raise IllegalAction(f"{GAME} resolve-round", "the round resolution does not match the rules")
            s = _copy(state)
            s["outcome"] = expected
            if expected["winner"] is not None:
                self._enter_claim(s, expected["winner"])
            elif expected["tied"]:
                s["stage"] = "tiebreak"
                s["tiebreak"] = {"seats": list(expected["tied"]), "rolls": [None] * len(expected["tied"])}
            else:
                self._cleanup(s)
            return s
        self.check_action(state, actor, action)
        s = _copy(state)
        seat = actor
        kind = action["type"]
        if kind == "commit":
            up, down = face_up_first(*action["cards"])
            for c in (up, down):
                s["hands"][seat].remove(c)
            s["commits"][seat] = [up, down]
            s["done"][seat] = True
            self._enter_commit(s)
        elif kind == "gamble":
            cards = sort_cards(action["cards"])
            for c in cards:
                s["hands"][seat].remove(c)
            s["discard"].extend(cards)
            joker = sort_cards(s["jokers"][seat])[0]
            s["jokers"][seat].remove(joker)
            s["gambled"][seat] = len(cards)
            s["gamble"] = {"seat": seat, "joker": joker, "count": len(cards)}
            s["stage"] = "gamble-shuffle"
        elif kind == "noble-exchange":
            s["exchanged"][seat] = sort_cards(s["hands"][seat])
            cards = sort_cards(action["cards"])
            for c in cards:
                s["hands"][seat].remove(c)
            s["discard"].extend(cards)
            s["done"][seat] = True
            s["draws"] = [[seat, 2]]
            s["after"] = "commit"
            self._run_draws(s)
        elif kind == "claim":
            s["centre"].remove(action["crown"])
            s["crowns"][seat].append(action["crown"])
            s["claimed"] = {"crown": action["crown"], "from": None}
            self._after_claim(s, seat)
        elif kind == "challenge":
            target, crown = action["target"], action["crown"]
            s["crowns"][target].remove(crown)
            s["crowns"][seat].append(crown)
            s["claimed"] = {"crown": crown, "from": target}
            self._after_claim(s, seat)
        else:  # pass
            s["claimed"] = None
            self._cleanup(s)
        return s

    # -- internal flow -------------------------------------------------------------------------
    def _run_draws(self, s) -> None:
        """Carry out pending draws: Jokers drawn are revealed, kept and replaced (rulebook); an empty
        deck is refilled by a CHANCE reshuffle of the discard pile."""
        draws = s["draws"]
        while draws:
            seat, count = draws[0]
            if count <= 0:
                draws.pop(0)
                continue
            if not s["deck"]:
                if s["discard"]:
                    s["stage"] = "reshuffle"
                    return
                draws.pop(0)  # nothing left anywhere to draw (cannot happen with 2-4 players)
                continue
            card = s["deck"].pop(0)
            if card in JOKER_SET:
                s["jokers"][seat].append(card)
            else:
                s["hands"][seat].append(card)
                draws[0][1] = count - 1
        after = s["after"]
        s["after"] = None
        if after == "commit":
            self._enter_commit(s)
        elif after == "next-round":
            s["stage"] = "commit"
        elif after == "first-player":
            s["stage"] = "first-player"

    def _enter_commit(self, s) -> None:
        s["stage"] = "commit"
        if all(s["done"]):
            if any(c is not None for c in s["commits"]):
                s["stage"] = "roll"
            else:
                s["stage"] = "resolve"

    def _enter_claim(self, s, winner) -> None:
        s["winner"] = winner
        if s["centre"] or self._targets(s, winner):
            s["stage"] = "claim"
        else:
            s["claimed"] = None
            self._cleanup(s)

    def _after_claim(self, s, seat) -> None:
        if len(s["crowns"][seat]) == len(CROWNS):
            s["stage"] = "over"
            s["last"] = self._summary(s)
            s["end"] = {"reason": "four-crowns", "winner": seat, "rounds": s["round"]}
            return
        self._cleanup(s)

    def _summary(self, s) -> dict:
        """The previous round in brief, for the observation (the full resolution is in the event list)."""
        return {"round": s["round"], "winner": s["winner"], "claimed": s["claimed"]}

    def _cleanup(self, s) -> None:
        """Round cleanup (rulebook "Played cards are discarded and hands refill to five")."""
        n = s["players"]
        s["last"] = self._summary(s)
        for c in s["commits"]:
            if c is not None:
                s["discard"].extend(c)
        s["commits"] = [None] * n
        if s["options"]["safety_cap"] and s["round"] >= CAP_ROUNDS:
            s["stage"] = "over"
            s["end"] = {"reason": "safety-cap", "winner": None, "rounds": s["round"]}
            return
        if s["leader"] is not None:  # seat-order: left of the round winner (no winner: of the leader)
            s["leader"] = ((s["winner"] if s["winner"] is not None else s["leader"]) + 1) % n
        s["round"] += 1
        s["done"] = [False] * n
        s["exchanged"] = [None] * n
        s["gambled"] = [0] * n
        s["rolls"] = [None] * n
        s["outcome"] = None
        s["tiebreak"] = None
        s["winner"] = None
        s["claimed"] = None
        s["draws"] = [[i, HAND_SIZE - len(s["hands"][i])] for i in range(n) if len(s["hands"][i]) < HAND_SIZE]
        s["after"] = "next-round"
        self._run_draws(s)

    # -- what each one sees ----------------------------------------------------------------------
    def public_observation(self, state) -> dict:
        return self._view(state, None)

    def observation(self, state, seat) -> dict:
        return self._view(state, seat)

    def _view(self, state, viewer) -> dict:
        """What ``viewer`` (a seat, or None for a spectator) sees; per-seat facts are lists indexed by
        seat: hands = number of cards in each hand; jokers = number of Jokers held (they are alike);
        commits = [face up, face down] with None for what is still hidden (None: no commit);
        exchanged = the hand revealed by a Noble Exchange this round; gambled = number of cards
        exchanged by a Joker gamble this round (0: none)."""
        out = state["outcome"]
        stage = state["stage"]
        # who acts now, as to_act says (seat-order commits: only the current committer)
        to_act = list(self.to_act(state).seats) if stage in ("commit", "claim") else []
        resolved = out is not None
        sealed = state["options"]["commit_order"] == "simultaneous" and not all(state["done"])
        commits = [
            None
            if c is None
            else list(c)  # [face up, face down]
            if resolved or i == viewer
            else [None, None]  # sealed until every seat has committed
            if sealed
            else [c[0], None]  # the lower card stays face down until the round is resolved
            for i, c in enumerate(state["commits"])
        ]
        view = {
            "stage": stage,
            "round": state["round"],
            "to_act": to_act,
            "centre": list(state["centre"]),
            "deck": len(state["deck"]),
            "discard": len(state["discard"]),
            "hands": [len(h) for h in state["hands"]],
            "jokers": [len(j) for j in state["jokers"]],
            "crowns": [list(c) for c in state["crowns"]],
            "commits": commits,
            "exchanged": [None if e is None else list(e) for e in state["exchanged"]],
            "gambled": list(state["gambled"]),
            "rolls": [None if r is None else list(r) for r in state["rolls"]],
            "strengths": None if out is None else list(out["strengths"]),
            "qualified": None if out is None else list(out["qualified"]),
            "tiebreak": _plain(state["tiebreak"]),
            "winner": state["winner"],
            "last_round": _plain(state["last"]),
            "leader": state["leader"],
            "max_rounds": CAP_ROUNDS if state["options"]["safety_cap"] else None,
            "end": _plain(state["end"]),
        }
        if viewer is not None:
            view["you"] = viewer
            view["hand"] = sort_cards(state["hands"][viewer])
        return view

    def redact(self, state, actor, action, viewer):
        if actor == CHANCE:
            return action if self.chance_is_public(state, action) else None
        if actor != viewer and isinstance(action, dict):
            if action.get("type") == "commit":
                cards = action.get("cards")
                if (
                    state["options"]["commit_order"] == "seat-order"
                    and isinstance(cards, list)
                    and len(cards) == 2
                    and all(isinstance(c, str) and c in VALUE for c in cards)
                ):
                    return {"type": "commit", "up": face_up_first(*cards)[0]}  # face up at once
                return {"type": "commit"}  # sealed: both cards hidden until the reveal
            if action.get("type") == "gamble":
                cards = action.get("cards")
                return {"type": "gamble", "count": len(cards) if isinstance(cards, list) else None}
        return action

    # -- the end -------------------------------------------------------------------------------
    def result(self, state) -> Optional[Result]:
        if state["stage"] != "over":
            return None
        n = state["players"]
        keys = [(len(state["crowns"][i]), len(state["jokers"][i])) for i in range(n)]
        ranks = tuple(1 + sum(1 for k in keys if k > keys[i]) for i in range(n))
        return Result(
            scores=tuple(len(state["crowns"][i]) for i in range(n)),
            ranks=ranks,
            detail={
                "reason": state["end"]["reason"],
                "rounds": state["end"]["rounds"],
                "crowns": [sort_cards(c) for c in state["crowns"]],
                "jokers": [len(j) for j in state["jokers"]],
            },
        )

    # -- computer opponents --------------------------------------------------------------------
    def bots(self):
        from .bots import BOTS

        return dict(BOTS)
