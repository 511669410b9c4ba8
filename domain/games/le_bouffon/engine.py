"""Le Bouffon as a pure rule engine (rules: docs/rules/le-bouffon.md).

The state is a plain JSON-like dict. ``apply`` copies only the parts it changes (structural sharing
with the state it was given, which it never mutates). From rules 1.2.0 it keeps the match's option
``ties`` (key ``ties``), from 1.3.0 also ``first_deal_exchange`` (key ``first_deal_exchange``); an older
state, or one the bots rebuild from an older observation, has no such key and plays the default
("last-deal"; no exchange in the first deal).
"""

from __future__ import annotations

import random
from itertools import combinations, permutations
from math import factorial
from typing import Any, Mapping, Optional

from domain.engine import (
    CHANCE,
    SYSTEM,
    Engine,
    IllegalAction,
    Phase,
    Result,
    ToAct,
    competition_ranks,
    copy_json,
    without_switches,
)

from .cards import (
    DECK,
    EXCHANGES,
    MINOTAURE,
    PALADIN,
    ROLES_BY_COUNT,
    STRENGTH,
    decks_for,
    sort_cards,
)
from .house_rules import HOUSE_RULES

MAX_DEALS = 100

#: Shipped rules versions. 1.1.0: among identical cards the exchange takes the copies dealt first to the
#: hand, not its highest copy numbers (which told the receiver which other copies the giver did not hold).
#: 1.2.0: option ``ties`` (house rule 5.4 match made configurable); its default plays exactly as 1.1.0.
#: 1.3.0: option ``first_deal_exchange`` (house rule 5.4 exchange made configurable); its default plays
#: exactly as 1.2.0. The observation shows the match's ``ties`` (the mcts bot judges standings by it).
RULES_VERSIONS = ("1.0.0", "1.1.0", "1.2.0", "1.3.0")
CURRENT = "1.3.0"

#: ``ties`` (house rule 5.4 match): "last-deal" breaks equal totals by the finishing place in the last
#: deal; "shared" lets the tied players share the rank (competition ranking 1, 1, 3).
TIES = ("last-deal", "shared")
DEFAULT_TIES = "last-deal"

#: ``first_deal_exchange`` (house rule 5.4 exchange): False, no exchange in the first deal (the roles are
#: drawn at random); True, the first deal has the rulebook's exchange too (rulebook 3 names no exception).
DEFAULT_FIRST_DEAL_EXCHANGE = False


def _play_rule(top: Optional[dict], strength: int, count: int) -> Optional[tuple[str, int]]:
    """Whether ``count`` cards of ``strength`` may be laid on ``top``: (kind of the new top, its
    effective count), or None.

    * no top: any set of 1-4 equal cards (rulebook 5, 7);
    * same count, strictly higher strength (rulebook 6);
    * k paladins on k+1 cards weaker than paladin (house rule 5.2 [FOUND], 5.4);
    * 1 minotaure on 2-4 cards weaker than minotaure (house rule 5.2 [FOUND], 5.4);
    * c minotaures on a top of 1 minotaure laid as c cards (house rule 5.4 "more minotaures in a
      same-size set").
    """
    if top is None:
        return ("set", count)
    top_count, top_strength = top["count"], top["strength"]
    if count == top_count and strength > top_strength:
        return ("set", count)
    if top["kind"] == "minotaure" and strength == MINOTAURE and count == top_count:
        return ("set", count)
    if strength == PALADIN and top_strength < PALADIN and 2 <= top_count <= 4 and count == top_count - 1:
        return ("paladin", top_count)
    if strength == MINOTAURE and count == 1 and top_strength < MINOTAURE and 2 <= top_count <= 4:
        return ("minotaure", top_count)
    return None


def _groups(hand: list[str]) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = {}
    for card in hand:
        groups.setdefault(STRENGTH[card], []).append(card)
    return groups


class LeBouffonEngine(Engine):
    name = "le-bouffon"
    title = "Le Bouffon"
    rules_version = CURRENT
    min_players = 3
    max_players = 6
    house_rules = HOUSE_RULES
    summary = (
        "A themed Président for 3 to 6 players: lay singles to quadruples of equal strength, beat them "
        "with higher sets (paladins and minotaures beat bigger sets), laugh as the bouffon, go out first "
        "to become the roi."
    )

    def __init__(self, rules_version: str = CURRENT):
        if rules_version not in RULES_VERSIONS:
            raise ValueError(f"le-bouffon has no rules version {rules_version!r}")
        self.rules_version = rules_version
        self._copies_by_deal = rules_version != "1.0.0"
        self._has_ties = rules_version not in ("1.0.0", "1.1.0")
        # 1.3.0 on: option first_deal_exchange, and the match's ties shown in the observation
        self._has_first_deal_exchange = rules_version not in ("1.0.0", "1.1.0", "1.2.0")
        self._shows_ties = self._has_first_deal_exchange
        # The same house rules 5.4 match and exchange, but no option switches them before 1.2.0 / 1.3.0.
        unswitched = [option for option, has in (("ties", self._has_ties),
                                                 ("first_deal_exchange", self._has_first_deal_exchange)) if not has]
        if unswitched:
            self.house_rules = without_switches(HOUSE_RULES, unswitched)

    def __repr__(self) -> str:
        return f"LeBouffonEngine(rules_version={self.rules_version!r})"

    # -- setting up ----------------------------------------------------------------------------
    def default_options(self) -> dict:
        options: dict[str, Any] = {"deals": 5}
        if self._has_ties:
            options["ties"] = DEFAULT_TIES
        if self._has_first_deal_exchange:
            options["first_deal_exchange"] = DEFAULT_FIRST_DEAL_EXCHANGE
        return options

    #: Each option in plain words for a player choosing it (``Engine.option_titles``).
    option_titles = {
        "deals": (
            "How many deals the match lasts"
        ),
        "ties": (
            "Equal totals at the end: the better place in the last deal breaks the tie (last-deal), "
            "or the tied players share the place (shared)"
        ),
        "first_deal_exchange": (
            "Exchange cards in the first deal too (on); off: the first deal has no exchange"
        ),
    }

    def describe_options(self) -> dict[str, dict]:
        described = super().describe_options()
        described["deals"].update(minimum=1, maximum=MAX_DEALS,
                                  description="The number of deals (docs/rules/le-bouffon.md, PROPOSAL 5.4)")
        if self._has_ties:
            described["ties"].update(
                enum=list(TIES),
                description="House rule 5.4 match [PROPOSAL]: equal totals at the end of the match. last-deal: "
                            "the better finishing place in the last deal breaks the tie, so ranks never tie; "
                            "shared: the tied players share the rank (1, 1, 3) and all tied at the top win "
                            "(docs/rules/le-bouffon.md)")
        if self._has_first_deal_exchange:
            described["first_deal_exchange"]["description"] = (
                "House rule 5.4 exchange [PROPOSAL]: false, no exchange in the first deal (its roles are drawn at "
                "random); true, the first deal has the rulebook's exchange too, as every later deal "
                "(docs/rules/le-bouffon.md)")
        return described

    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> dict:
        options = self.check_options(num_players, dict(options))
        n = num_players
        state = {
            "n": n,
            "deals": options["deals"],
            "deal": 1,
            "phase": "roles",
            "roles": None,  # per seat, the role name
            "order": None,  # the seats in role order, roi first
            "hands": [[] for _ in range(n)],
            "played": [],  # cards laid this deal (public, out of play)
            "gifts": [None] * n,  # exchange phase: the cards each giver chose
            "exchanged": [None] * n,  # per seat {"gave": [...], "received": [...]} of this deal
            "finished": [],  # seats in the order they went out this deal
            "trick": None,
            "scores": [0] * n,
            "history": [],  # one {"deal", "order", "points"} per finished deal
        }
        if self._has_ties:  # 1.2.0 on: the option ties (older states stay as their version made them)
            state["ties"] = options["ties"]
        if self._has_first_deal_exchange:  # 1.3.0 on
            state["first_deal_exchange"] = options["first_deal_exchange"]
        return state

    def num_players(self, state: dict) -> int:
        return state["n"]

    # -- helpers -------------------------------------------------------------------------------
    @staticmethod
    def _givers(state: dict) -> list[int]:
        return [state["roles"].index(role) for role in EXCHANGES if role in state["roles"]]

    @staticmethod
    def _next_active(state: dict, seat: int, hands: list) -> Optional[int]:
        """The first seat after ``seat`` in role order (cyclic) still holding cards."""
        order = state["order"]
        n = len(order)
        pos = order.index(seat)
        for step in range(1, n + 1):
            other = order[(pos + step) % n]
            if hands[other]:
                return other
        return None

    # -- whose move ----------------------------------------------------------------------------
    def to_act(self, state: dict) -> ToAct:
        phase = state["phase"]
        if phase == "play":
            return ToAct(Phase.PLAYERS, (state["trick"]["turn"],))
        if phase in ("roles", "shuffle"):
            return ToAct.chance()
        if phase == "exchange":
            return ToAct.players(*[seat for seat in self._givers(state) if state["gifts"][seat] is None])
        if phase == "score":
            return ToAct.auto()
        return ToAct.over()

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if type(seat) is not int:  # ``True == 1``: a bool is no seat (the contract's strict JSON)
            return []
        phase = state["phase"]
        if phase == "play":
            if state["trick"]["turn"] != seat:
                return []
        elif phase == "exchange":
            if seat not in self._givers(state) or state["gifts"][seat] is not None:
                return []
            size = EXCHANGES[state["roles"][seat]][1]
            return [{"type": "give", "cards": list(combo)} for combo in combinations(state["hands"][seat], size)]
        else:
            return []
        hand = state["hands"][seat]
        top = state["trick"]["top"]
        groups = _groups(hand)
        actions: list[dict] = []
        if top is None:
            for cards in groups.values():
                for size in range(1, min(4, len(cards)) + 1):
                    actions.extend({"type": "play", "cards": list(c)} for c in combinations(cards, size))
            return actions
        count, top_strength = top["count"], top["strength"]
        for strength, cards in groups.items():  # rulebook 6: same count, strictly stronger
            if strength > top_strength and len(cards) >= count:
                actions.extend({"type": "play", "cards": list(c)} for c in combinations(cards, count))
        minotaures = groups.get(MINOTAURE, ())
        if top["kind"] == "minotaure" and len(minotaures) >= count:  # house rule 5.4: c minotaures on 1 laid as c
            actions.extend({"type": "play", "cards": list(c)} for c in combinations(minotaures, count))
        if 2 <= count <= 4:
            paladins = groups.get(PALADIN, ())
            if top_strength < PALADIN and len(paladins) >= count - 1:  # k paladins on k+1 cards
                actions.extend({"type": "play", "cards": list(c)} for c in combinations(paladins, count - 1))
            if top_strength < MINOTAURE and minotaures:  # 1 minotaure on 2-4 cards
                actions.extend({"type": "play", "cards": [card]} for card in minotaures)
        actions.append({"type": "pass"})
        if state["roles"][seat] == "bouffon":
            same = groups.get(top["strength"], [])
            size = len(top["cards"])
            if len(same) >= size:
                actions.extend({"type": "laugh", "cards": list(c)} for c in combinations(same, size))
        return actions

    def check_action(self, state: dict, seat: Any, action: Any) -> None:
        phase = state["phase"]
        if phase == "play":
            if type(seat) is not int or seat != state["trick"]["turn"]:
                raise IllegalAction("turn order", "it is not this seat's turn to act")
        elif type(seat) is not int or seat not in self.to_act(state).seats:
            raise IllegalAction("turn order", "it is not this seat's turn to act")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("action format", "an action is a JSON object with a string 'type'")
        kind = action["type"]
        if kind not in ("give", "play", "pass", "laugh"):  # docs/clients.md: no action at all, in any phase
            raise IllegalAction("action format", f"unknown action type {kind!r}; use give, play, pass or laugh")
        if phase == "exchange":
            if kind != "give":
                raise IllegalAction("le-bouffon rulebook 3",
                                    "before the deal is played the roi and héritier give cards")
            cards = self._check_cards(state, seat, action)
            size = EXCHANGES[state["roles"][seat]][1]
            if len(cards) != size:
                raise IllegalAction(
                    "le-bouffon rulebook 3", f"the {state['roles'][seat]} gives exactly {size} card(s)"
                )
            return
        # play phase
        trick = state["trick"]
        top = trick["top"]
        if kind == "pass":
            if set(action) != {"type"}:
                raise IllegalAction("action format", "a pass is {\"type\": \"pass\"} with no other key")
            if top is None:
                raise IllegalAction("house rule 5.4 leads", "the leader of a trick must lay cards")
            return
        if kind not in ("play", "laugh"):
            raise IllegalAction("action format", f"unknown action type {kind!r}; use play, pass or laugh")
        cards = self._check_cards(state, seat, action)
        strengths = {STRENGTH[card] for card in cards}
        if not 1 <= len(cards) <= 4:
            raise IllegalAction("le-bouffon rulebook 5", "a play is a single, double, triple or quadruple")
        if len(strengths) != 1:
            raise IllegalAction("le-bouffon rulebook 5", "the cards of a play must all have the same strength")
        strength = strengths.pop()
        if kind == "laugh":
            if state["roles"][seat] != "bouffon":
                raise IllegalAction("le-bouffon rulebook 10", "only the bouffon may laugh")
            if top is None:
                raise IllegalAction("house rule 5.4 rire du bouffon", "the laugh needs cards on the table to match")
            if strength != top["strength"] or len(cards) != len(top["cards"]):
                raise IllegalAction(
                    "le-bouffon rulebook 10", "the laugh lays exactly the same cards (count and strength) as the top"
                )
            return
        if _play_rule(top, strength, len(cards)) is None:
            laugh = ""
            if state["roles"][seat] == "bouffon" and strength == top["strength"] and len(cards) == len(top["cards"]):
                # Rulebook 10 tells the laugh as playing the same cards: say which action that is (also on
                # a top of fewer cards than it counts for, 1 minotaure laid as 3, where the count is told).
                laugh = '; the same cards as the top are the bouffon\'s laugh: {"type": "laugh", "cards": [...]}'
            if len(cards) != top["count"]:
                raise IllegalAction(
                    "le-bouffon rulebook 6",
                    f"you must lay {top['count']} card(s) (paladins and minotaures excepted as the strengths allow)"
                    + laugh,
                )
            raise IllegalAction("le-bouffon rulebook 6", "you must lay cards strictly stronger than the top" + laugh)

    @staticmethod
    def _check_cards(state: dict, seat: int, action: dict) -> list[str]:
        if set(action) != {"type", "cards"}:
            raise IllegalAction("action format", f"a {action['type']} action has exactly the keys 'type' and 'cards'")
        cards = action["cards"]
        if not isinstance(cards, list) or not cards or not all(isinstance(card, str) for card in cards):
            raise IllegalAction("action format", "'cards' is a non-empty list of card ids")
        if len(set(cards)) != len(cards):
            raise IllegalAction("action format", "a card may be named only once")
        hand = state["hands"][seat]
        for card in cards:
            if card not in hand:
                raise IllegalAction("own cards", f"card {card!r} is not in your hand")
        return cards

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, state: dict):
        if state["phase"] != "roles":
            return None
        roles = ROLES_BY_COUNT[state["n"]]
        p = 1.0 / factorial(len(roles))
        return [({"type": "roles", "roles": list(perm)}, p) for perm in permutations(roles)]

    def sample_chance(self, state: dict, rng: random.Random) -> dict:
        if state["phase"] == "roles":
            roles = list(ROLES_BY_COUNT[state["n"]])
            rng.shuffle(roles)
            return {"type": "roles", "roles": roles}
        if state["phase"] == "shuffle":
            order = list(DECK[decks_for(state["n"])])
            rng.shuffle(order)
            return {"type": "shuffle", "order": order}
        raise IllegalAction("chance", "no chance step is due")

    def chance_is_public(self, state: dict, outcome: Any) -> bool:
        return isinstance(outcome, dict) and outcome.get("type") == "roles"

    # -- automatic steps -------------------------------------------------------------------------
    def auto_action(self, state: dict) -> dict:
        if state["phase"] != "score":
            raise IllegalAction("auto", "no automatic step is due")
        n = state["n"]
        order = list(state["finished"])
        points = [0] * n
        for place, seat in enumerate(order):
            points[seat] = n - 1 - place
        names = ROLES_BY_COUNT[n]
        return {
            "type": "score-deal",
            "deal": state["deal"],
            "order": order,
            "points": points,
            "totals": [a + b for a, b in zip(state["scores"], points)],
            "roles": {names[place]: seat for place, seat in enumerate(order)},
        }

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state: dict, actor: Any, action: Any) -> dict:
        """The trusted transition (the contract in domain/engine.py): ``step`` checked the action
        once, replay feeds stored ones; nothing is re-checked here."""
        if actor == CHANCE:
            if state["phase"] == "roles":
                return self._apply_roles(state, action)
            return self._apply_shuffle(state, action)
        if actor == SYSTEM:
            return self._apply_score(state, action)
        if state["phase"] == "exchange":
            return self._apply_give(state, actor, action)
        return self._apply_play(state, actor, action)

    def validate_chance(self, state: dict, outcome: Any) -> None:
        """The roles are listed (``chance_outcomes``); a shuffle is a permutation of the deck of this
        player count (rulebook 2: one deck for 3-4 players, two for 5-6)."""
        order = outcome.get("order")
        deck = DECK[decks_for(state["n"])]
        if (
            set(outcome) != {"type", "order"}
            or outcome["type"] != "shuffle"
            or type(order) is not list
            or len(order) != len(deck)
            or not all(type(card) is str for card in order)
            or sorted(order) != sorted(deck)
        ):
            raise IllegalAction("le-bouffon rulebook 2", "the shuffle is a permutation of the deck")

    def _apply_roles(self, state: dict, action: dict) -> dict:
        roles = action["roles"]
        new = dict(state)
        new["roles"] = list(roles)
        new["order"] = [roles.index(role) for role in ROLES_BY_COUNT[state["n"]]]
        new["phase"] = "shuffle"
        return new

    def _apply_shuffle(self, state: dict, action: dict) -> dict:
        # House rule 5.4 deal: one card at a time in role order, starting with the roi.
        order = action["order"]
        seats = state["order"]
        n = len(seats)
        hands: list[list[str]] = [[] for _ in range(n)]
        for index, card in enumerate(order):
            hands[seats[index % n]].append(card)
        new = dict(state)
        new["hands"] = [sort_cards(hand) for hand in hands]
        new["played"] = []
        new["finished"] = []
        new["gifts"] = [None] * n
        new["exchanged"] = [None] * n
        if self._copies_by_deal:  # 1.1.0: kept (secret) for the exchange's choice among identical copies
            new["dealt"] = list(order)
        if state["deal"] == 1 and not state.get("first_deal_exchange", DEFAULT_FIRST_DEAL_EXCHANGE):
            # house rule 5.4 exchange: none in the first deal (unless the option first_deal_exchange, 1.3.0)
            new["phase"] = "play"
            new["trick"] = self._new_trick(seats[0])
        else:
            new["phase"] = "exchange"
            new["trick"] = None
        return new

    @staticmethod
    def _new_trick(leader: int) -> dict:
        return {"leader": leader, "turn": leader, "acted": [], "top": None, "plays": [], "last": None}

    def _apply_give(self, state: dict, seat: int, action: dict) -> dict:
        new = dict(state)
        gifts = list(state["gifts"])
        gifts[seat] = sort_cards(action["cards"])
        new["gifts"] = gifts
        if any(gifts[giver] is None for giver in self._givers(state)):
            return new
        # Rulebook 3 and house rule 5.4: every exchange is worked out on the hands before any exchange.
        roles = state["roles"]
        hands = [list(hand) for hand in state["hands"]]
        exchanged: list[Any] = [None] * state["n"]  # giver or receiver -> {"gave", "received"}
        for giver in self._givers(state):
            receiver_role, size = EXCHANGES[roles[giver]]
            receiver = roles.index(receiver_role)
            gift = gifts[giver]
            strongest = self.strongest(state["hands"][receiver], size, state.get("dealt"))
            exchanged[giver] = {"gave": gift, "received": strongest}
            exchanged[receiver] = {"gave": strongest, "received": gift}
        for giver in self._givers(state):
            receiver = roles.index(EXCHANGES[roles[giver]][0])
            for card in exchanged[giver]["gave"]:
                hands[giver].remove(card)
                hands[receiver].append(card)
            for card in exchanged[giver]["received"]:
                hands[receiver].remove(card)
                hands[giver].append(card)
        new["hands"] = [sort_cards(hand) for hand in hands]
        new["exchanged"] = exchanged
        new["gifts"] = [None] * state["n"]
        new["phase"] = "play"
        new["trick"] = self._new_trick(state["order"][0])  # rulebook 4: the roi leads
        return new

    @staticmethod
    def strongest(hand: list[str], size: int, dealt: Optional[list[str]] = None) -> list[str]:
        """The ``size`` strongest cards of ``hand`` (rulebook 3). Among equal strengths (identical
        cards) the copies dealt first go (1.1.0, ``dealt`` the deal's order): the shuffle is secret, so
        which of its copies a hand gives is as good as drawn at random, and tells the receiver nothing
        of the others. 1.0.0 (``dealt`` None) gave the highest copy numbers: receiving paladin#2 told
        the roi that the bouffon held neither #3 nor #4."""
        if dealt is None:
            return sort_cards(sort_cards(hand)[-size:])
        position = {card: index for index, card in enumerate(dealt)}
        return sort_cards(sorted(hand, key=lambda card: (STRENGTH[card], -position[card]))[-size:])

    def _apply_play(self, state: dict, seat: int, action: dict) -> dict:
        kind = action["type"]
        trick = dict(state["trick"])
        new = dict(state)
        hands = state["hands"]
        plays = trick["plays"] + [None]
        acted = trick["acted"] + [seat]
        trick["acted"] = acted
        ends_trick = False
        if kind == "pass":
            plays[-1] = [seat, "pass", []]
        else:
            hands = list(hands)
            cards = sort_cards(action["cards"])
            strength = STRENGTH[cards[0]]
            hands[seat] = [card for card in hands[seat] if card not in cards]
            new["played"] = state["played"] + cards
            plays[-1] = [seat, kind, cards]
            trick["last"] = seat
            if kind == "laugh":  # rulebook 10: the laugh ends the trick at once
                ends_trick = True
            else:
                rule = _play_rule(trick["top"], strength, len(cards))
                assert rule is not None, "a checked play fits the top of the trick"
                top_kind, count = rule
                trick["top"] = {"seat": seat, "cards": cards, "count": count, "strength": strength, "kind": top_kind}
            new["hands"] = hands
            if not hands[seat]:
                new["finished"] = state["finished"] + [seat]
                active = [s for s in range(state["n"]) if hands[s]]
                if len(active) == 1:  # house rule 5.4 end of a deal: the last holder becomes the bouffon
                    new["finished"] = new["finished"] + active
                    new["phase"] = "score"
        trick["plays"] = plays
        new["trick"] = trick
        if new["phase"] == "score":
            return new
        if not ends_trick:
            following = self._next_active(state, seat, hands)
            if following not in acted:
                trick["turn"] = following
                return new
        # Rulebook 8: the trick is over; the last to lay cards leads (house rule 5.4: the next
        # active player in role order if he is out).
        last = trick["last"]
        leader = last if hands[last] else self._next_active(state, last, hands)
        assert leader is not None, "two seats or more still hold cards (else the deal was scored above)"
        new["trick"] = self._new_trick(leader)
        return new

    def _apply_score(self, state: dict, action: dict) -> dict:
        n = state["n"]
        new = dict(state)
        new["scores"] = list(action["totals"])
        new["history"] = state["history"] + [
            {"deal": state["deal"], "order": list(action["order"]), "points": list(action["points"])}
        ]
        new["hands"] = [[] for _ in range(n)]
        new["played"] = []
        new["trick"] = None
        if state["deal"] >= state["deals"]:
            new["phase"] = "over"
            return new
        # Rulebook 1: the next roles follow the finishing order.
        roles = [None] * n
        for role, seat in action["roles"].items():
            roles[seat] = role
        new["roles"] = roles
        new["order"] = list(action["order"])
        new["deal"] = state["deal"] + 1
        new["phase"] = "shuffle"
        return new

    # -- what each one sees ----------------------------------------------------------------------
    # ``apply`` shares unchanged parts between successive states, so an observation copies every
    # list and dict it takes from the state: a caller may change it freely (the contract).
    def public_observation(self, state: dict) -> dict:
        trick = state["trick"]
        obs = {
            "phase": state["phase"],
            "deal": state["deal"],
            "deals": state["deals"],
            "roles": copy_json(state["roles"]),
            "hand_counts": list(map(len, state["hands"])),
            "finished": list(state["finished"]),
            "scores": list(state["scores"]),
            # Every card laid this deal lies face up (rulebook 5-8): what a player at the table
            # remembers, so that a computer opponent, which sees only this, may count cards too.
            "played": list(state["played"]),
            # Each scored deal's finishing order and points (what the score-deal steps said): the view held
            # only the totals, so a player could not trace them without the event list (a newcomer probe).
            # Public in every rules version, as the scoring steps are.
            "scored": copy_json(state["history"]),
        }
        if trick is not None:
            obs["trick"] = {
                "leader": trick["leader"],
                # The deal ended in this trick (house rule 5.4): it stays in view until the deal is
                # scored, but nobody is to play in it (the seat named last went out).
                "turn": trick["turn"] if state["phase"] == "play" else None,
                "top": copy_json(trick["top"]),
                "plays": copy_json(trick["plays"]),
            }
        if state["phase"] == "exchange":
            obs["waiting"] = list(self.to_act(state).seats)
        if self._shows_ties:
            # 1.3.0 on: the match's tie rule (house rule 5.4 match, option ties) is public, as every
            # option is; the mcts bot, which sees only the observation, judges the standing by it.
            obs["ties"] = state.get("ties", DEFAULT_TIES)
        return obs

    def observation(self, state: dict, seat: int) -> dict:
        obs = self.public_observation(state)
        obs["seat"] = seat
        obs["hand"] = list(state["hands"][seat])
        if state["gifts"][seat] is not None:
            obs["gift"] = list(state["gifts"][seat])
        if state["exchanged"][seat] is not None:
            obs["exchange"] = copy_json(state["exchanged"][seat])
        return obs

    def redact_action(self, state: dict, actor: Any, action: Any, viewer: Optional[int]) -> Optional[dict]:
        # The shuffle is secret, the first roles public (``chance_is_public``; base ``redact``).
        if isinstance(action, dict) and action.get("type") == "give" and isinstance(actor, int):
            receiver = None
            if state.get("roles") and state["roles"][actor] in EXCHANGES:
                receiver = state["roles"].index(EXCHANGES[state["roles"][actor]][0])
            if viewer in (actor, receiver):
                return copy_json(action)  # rulebook 3: the giver and the receiver see the cards
            cards = action.get("cards")
            return {"type": "give", "count": len(cards) if isinstance(cards, list) else 0}
        return copy_json(action)

    # -- the end -------------------------------------------------------------------------------
    def result(self, state: dict) -> Optional[Result]:
        if state["phase"] != "over":
            return None
        n = state["n"]
        scores = state["scores"]
        if state.get("ties", DEFAULT_TIES) == "shared":
            # Option ties "shared" (1.2.0): equal totals share the rank (competition ranking: 1, 1, 3),
            # so every seat tied at the top wins.
            return Result(
                scores=tuple(scores),
                ranks=competition_ranks(scores),
                detail={"deals": copy_json(state["history"]), "tiebreak": "none: equal totals share the rank"},
            )
        last_order = state["history"][-1]["order"]
        place = {seat: index for index, seat in enumerate(last_order)}
        # House rule 5.4 match: highest total wins; ties go to the better role in the last deal.
        ranking = sorted(range(n), key=lambda seat: (-scores[seat], place[seat]))
        ranks = [0] * n
        for index, seat in enumerate(ranking):
            ranks[seat] = index + 1
        return Result(
            scores=tuple(scores),
            ranks=tuple(ranks),
            detail={"deals": copy_json(state["history"]), "tiebreak": "finishing place in the last deal"},
        )

    # -- computer opponents --------------------------------------------------------------------
    def bots(self):
        from .bots import BOTS

        return dict(BOTS)


ENGINE = LeBouffonEngine()
