"""The Jest rule engine (rulebooks/jest.txt + house rules §2, R1–R7). See docs/rules/jest.md.

State (plain JSON-like dict):
    n            number of players (3 or 4)
    rounds       4 (3 players) or 3 (4 players)
    round        current round, 1-based (0 before the first deal)
    phase        "deal" (chance) | "offer" (players, sealed) | "take" (players) | "scoring" (auto) | "over"
    trophies     trophy card codes (face up); after scoring only the unclaimed ones (awarded ones join Jests)
    deck         undealt cards, top first (secret)
    hands        per seat: the two dealt cards not yet offered ([] once offered)
    offers       per seat: None (not offered) or {"up": code|None, "down": code|None} (None = taken)
    jests        per seat: collected cards
    taken        per seat: whether the seat took a card this round
    taken_up     per seat: the face-up cards that joined its Jest in everyone's sight, in order: each face-up
                 card it took, then, after the last round, its leftover offer card if that one lay face up
                 (public: docs/rules/jest.md, "What each one sees"). A state without it (built by hand, or by
                 code before it: ``state_layout`` 2 keeps such snapshots from being loaded) reads as empty
                 lists and records the face-up cards from then on
    taker        the seat that must take now (take phase), else None
    winners      {trophy card: seat or None} once scored, else None
    scores       final scores once scored, else None
    options      rules 1.1.0 on: the match's options (``one_player_both_trophies``, ``ties``); a 1.0.0
                 state has no such key and plays as the defaults do (docs/rules/jest.md, "Options")

Rules versions (docs/rules/jest.md, "Changelog"): ``ENGINE`` plays 1.2.0; ``JestEngine("1.1.0")`` and
``JestEngine("1.0.0")`` (in ``domain.games.jest.ENGINES``) play the stored matches of theirs: 1.1.0 lists a
finished Jest in the order its cards were taken, 1.0.0 too and has no options, its states as 1.0.0 made them.
"""

from __future__ import annotations

import random
from typing import Any, Hashable, Mapping, Optional

from domain.engine import (
    CHANCE,
    SYSTEM,
    Engine,
    IllegalAction,
    Result,
    ToAct,
    competition_ranks,
    copy_json,
    without_switches,
)

from .house_rules import HOUSE_RULES
from .scoring import (
    CARDS,
    award_trophies,
    best_card_key,
    card_key,
    in_card_order,
    jest_breakdown,
    score_jest,
    trophy_label,
)

_TROPHIES = {3: 2, 4: 1}  # [FOUND] 3 players: 2 trophies; 4 players: 1 trophy
_ROUNDS = {3: 4, 4: 3}  # [DERIVED] house rules §2.5

#: Shipped rules versions. 1.1.0: the options below (house rules R4 and R7 made configurable); their
#: defaults play exactly as 1.0.0, which has no options. 1.2.0: a finished match lists each final Jest
#: (observation ``jests`` and ``breakdown``, ``Result.detail["jests"]``) in the fixed order of ``CARDS``,
#: not in the order taken, which with the public takes told which card each face-down take was; play and
#: scoring as 1.1.0.
RULES_VERSIONS = ("1.0.0", "1.1.0", "1.2.0")
CURRENT = "1.2.0"
#: The versions whose finished Jests are listed in taking order (their stored results say so).
_TAKING_ORDER_VERSIONS = ("1.0.0", "1.1.0")

#: ``ties`` (R7): "highest-card" breaks an equal score by the highest card, then its suit; "shared"
#: lets the tied players share the rank.
TIES = ("highest-card", "shared")
#: The options of rules 1.1.0 and their defaults (a state without ``options``, 1.0.0's, plays these).
DEFAULT_OPTIONS = {"one_player_both_trophies": True, "ties": "highest-card"}


def _copy(state: dict) -> dict:
    return {
        "n": state["n"],
        "rounds": state["rounds"],
        "round": state["round"],
        "phase": state["phase"],
        "trophies": list(state["trophies"]),
        "deck": list(state["deck"]),
        "hands": [list(hand) for hand in state["hands"]],
        "offers": [None if offer is None else dict(offer) for offer in state["offers"]],
        "jests": [list(jest) for jest in state["jests"]],
        "taken": list(state["taken"]),
        "taken_up": _taken_up(state),
        "taker": state["taker"],
        "winners": None if state["winners"] is None else dict(state["winners"]),
        "scores": None if state["scores"] is None else list(state["scores"]),
        **({"options": dict(state["options"])} if "options" in state else {}),
    }


def _taken_up(state: dict) -> list[list[str]]:
    """A fresh copy of ``taken_up``; a state without it (older code, a hand-built state) gives empty lists."""
    recorded = state.get("taken_up")
    if recorded is None:
        return [[] for _ in range(state["n"])]
    return [list(cards) for cards in recorded]


def _options(state: dict) -> dict:
    """The match's options; a state without them (rules 1.0.0) plays the defaults."""
    return state.get("options") or DEFAULT_OPTIONS


def _complete(offer: Optional[dict]) -> bool:
    return offer is not None and offer["up"] is not None and offer["down"] is not None


def _offer_rank(offer: dict) -> tuple[int, int]:
    """How an offer ranks for the taking order: its face-up card; no face-up card ranks lowest (R1/R2)."""
    return (-1, -1) if offer["up"] is None else card_key(offer["up"])


class JestEngine(Engine):
    name = "jest"
    title = "Jest"
    rules_version = CURRENT
    min_players = 3
    max_players = 4
    summary = (
        "Brett J. Gilbert's 17-card set-collection game: offer two cards (one face up, one face down), take "
        "cards from the others' offers, and build the best-scoring Jest; trophies reward or punish at the end."
    )
    house_rules = HOUSE_RULES
    #: The shape of the state (application/snapshots.py keys snapshots by it): 2 since the state keeps
    #: ``taken_up``, the face-up cards each seat took into its Jest (named in the observation). No rule
    #: changed, so the rules versions did not (docs/rules/jest.md, "Changelog").
    state_layout = 2

    def __init__(self, rules_version: str = CURRENT):
        if rules_version not in RULES_VERSIONS:
            raise ValueError(f"jest has no rules version {rules_version!r}")
        self.rules_version = rules_version
        self._has_options = rules_version != "1.0.0"
        self._jests_in_card_order = rules_version not in _TAKING_ORDER_VERSIONS  # 1.2.0 on
        if not self._has_options:  # the same rules, but no option switches them under 1.0.0
            self.house_rules = without_switches(HOUSE_RULES, ("one_player_both_trophies", "ties"))

    def __repr__(self) -> str:
        return f"JestEngine(rules_version={self.rules_version!r})"

    # -- setting up ----------------------------------------------------------------------------
    def default_options(self) -> dict:
        return dict(DEFAULT_OPTIONS) if self._has_options else {}

    #: Each option in plain words for a player choosing it (``Engine.option_titles``).
    option_titles = {
        "one_player_both_trophies": (
            "One player may win both trophies (on, as the rulebook says); off: whoever wins the first "
            "trophy cannot win the second"
        ),
        "ties": (
            "Equal final scores: the highest card in the Jest breaks the tie (highest-card), or the "
            "tied players share the place (shared)"
        ),
    }

    def describe_options(self) -> dict[str, dict]:
        # What check_options enforces (the base class, from enum), as docs/rules/jest.md ("Options") states it.
        described = super().describe_options()
        if not self._has_options:
            return described
        described["one_player_both_trophies"]["description"] = (
            "House rule R4 both trophies: on (default), one player may win both trophies, the rulebook's text "
            "(its garbled word replaces \"can\", house-rules.md §2.1; R4 says the same). Off, Motley's "
            "\"cannot\" reading [PROPOSAL]: the trophies are awarded in the order they are shown (deal order); a "
            "player who won the first cannot win the second, which goes to the best other player or stays "
            "unclaimed. No effect with 4 players (one trophy) (docs/rules/jest.md)")
        described["ties"].update(
            enum=list(TIES),
            description="House rule R7 [PROPOSAL], equal final scores: highest-card: the highest face-value card "
                        "of the final Jest, trophies included, then its suit, breaks the tie; shared: the tied "
                        "players share the rank and all tied at the top win (docs/rules/jest.md)")
        return described

    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> dict:
        merged = self.check_options(num_players, options)
        n = num_players
        state = {
            "n": n,
            "rounds": _ROUNDS[n],
            "round": 0,
            "phase": "deal",
            "trophies": [],
            "deck": [],
            "hands": [[] for _ in range(n)],
            "offers": [None] * n,
            "jests": [[] for _ in range(n)],
            "taken": [False] * n,
            "taken_up": [[] for _ in range(n)],
            "taker": None,
            "winners": None,
            "scores": None,
        }
        if self._has_options:
            state["options"] = merged
        return state

    def num_players(self, state: dict) -> int:
        return state["n"]

    # -- whose move ----------------------------------------------------------------------------
    def to_act(self, state: dict) -> ToAct:
        phase = state["phase"]
        if phase == "deal":
            return ToAct.chance()
        if phase == "offer":
            return ToAct.players(*[s for s in range(state["n"]) if state["offers"][s] is None])
        if phase == "take":
            return ToAct.players(state["taker"])
        if phase == "scoring":
            return ToAct.auto()
        return ToAct.over()

    def _take_sources(self, state: dict, seat: int) -> list[int]:
        """The offers ``seat`` may take from (R3): another player's complete offer, else his own."""
        offers = state["offers"]
        others = [s for s in range(state["n"]) if s != seat and _complete(offers[s])]
        if others:
            return others
        return [seat] if _complete(offers[seat]) else []

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == "offer":
            if type(seat) is not int or not 0 <= seat < state["n"] or state["offers"][seat] is not None:
                return []
            a, b = state["hands"][seat]
            return [{"type": "offer", "up": a, "down": b}, {"type": "offer", "up": b, "down": a}]
        if phase == "take" and type(seat) is int and seat == state["taker"]:
            return [
                {"type": "take", "from": source, "card": which}
                for source in self._take_sources(state, seat)
                for which in ("up", "down")
            ]
        return []

    def check_action(self, state: dict, seat: int, action: Any) -> None:
        phase = state["phase"]
        if phase not in ("offer", "take"):
            raise IllegalAction("turn order", "no player may act now")
        if type(seat) is not int or not 0 <= seat < state["n"]:
            raise IllegalAction("turn order", "this is not a seat of this match")
        if seat not in self.to_act(state).seats:
            if phase == "offer":
                raise IllegalAction("jest THE OFFER", "this seat has already made its offer this round")
            raise IllegalAction("jest R1/R2", "it is not this seat's turn to take a card")
        if not isinstance(action, dict):
            raise IllegalAction("action format", "an action must be a JSON object")
        kind = action.get("type")
        if kind not in ("offer", "take"):  # no action of this game at all: as docs/clients.md says
            raise IllegalAction("action format", 'an action\'s "type" is "offer" or "take"')
        if phase == "offer":
            if kind != "offer":
                raise IllegalAction("jest THE OFFER", "every player must now make an offer")
            if set(action) != {"type", "up", "down"}:
                raise IllegalAction("action format", 'an offer has exactly the keys "type", "up" and "down"')
            up, down = action["up"], action["down"]
            if not isinstance(up, str) or not isinstance(down, str):
                raise IllegalAction("action format", "the offered cards must be card codes")
            hand = state["hands"][seat]
            if up == down or sorted([up, down]) != sorted(hand):
                raise IllegalAction("jest THE OFFER", "an offer is the two cards of your hand, one up and one down")
            return
        if kind != "take":
            raise IllegalAction("jest TAKING CARDS", "the taker must take a card from an offer")
        if set(action) != {"type", "from", "card"}:
            raise IllegalAction("action format", 'a take has exactly the keys "type", "from" and "card"')
        source, which = action["from"], action["card"]
        if type(source) is not int or not 0 <= source < state["n"]:
            raise IllegalAction("action format", '"from" must be a seat number')
        if which not in ("up", "down") or not isinstance(which, str):
            raise IllegalAction("action format", '"card" must be "up" or "down"')
        if source not in self._take_sources(state, seat):
            if source == seat:
                raise IllegalAction(
                    "jest R3", "you may take from your own offer only when no other complete offer remains"
                )
            raise IllegalAction("jest R3", "you may take only from a complete (two-card) offer")

    # -- chance --------------------------------------------------------------------------------
    def _deal_cards(self, state: dict) -> list[str]:
        """The cards the next chance shuffle permutes."""
        if state["round"] == 0:
            return list(CARDS)
        leftovers = [offer["up"] if offer["up"] is not None else offer["down"] for offer in state["offers"]]
        return leftovers + state["deck"][: state["n"]]

    def sample_chance(self, state: dict, rng: random.Random) -> dict:
        if state["phase"] != "deal":
            raise IllegalAction("turn order", "no shuffle is due now")
        cards = sorted(self._deal_cards(state))
        rng.shuffle(cards)
        return {"type": "shuffle", "order": cards}

    # -- automatic steps -------------------------------------------------------------------------
    def _final(self, state: dict) -> tuple[dict, list[int]]:
        jests: dict[Hashable, Any] = {seat: jest for seat, jest in enumerate(state["jests"])}
        # The trophies in deal order (``state["trophies"]`` is the first shuffle's order): R4 and the rulebook
        # (line 58, its garbled word "can" per house-rules.md §2.1), or with one_player_both_trophies off
        # Motley's "cannot" reading.
        one_player_both = _options(state)["one_player_both_trophies"]
        winners = award_trophies(jests, state["trophies"], one_player_both=one_player_both)
        final_jests = [list(jest) for jest in state["jests"]]
        for trophy, seat in winners.items():
            if seat is not None:
                final_jests[seat].append(trophy)
        return winners, [score_jest(jest) for jest in final_jests]

    def auto_action(self, state: dict) -> dict:
        if state["phase"] != "scoring":
            raise IllegalAction("turn order", "there is no automatic step now")
        winners, scores = self._final(state)
        return {"type": "final-scoring", "trophies": winners, "scores": scores}

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state: dict, actor: Any, action: Any) -> dict:
        """The trusted transition (the contract in domain/engine.py): ``step`` checked the action
        once, replay feeds stored ones; nothing is re-checked here."""
        if actor == CHANCE:
            return self._apply_chance(state, action)
        if actor == SYSTEM:
            # The final scoring (R4-R7) as the checked step computed it: trophies and scores.
            winners = dict(action["trophies"])
            new = _copy(state)
            for trophy, seat in winners.items():
                if seat is not None:
                    new["jests"][seat].append(trophy)
            # Awarded trophies move into the Jests; an unclaimed trophy stays aside (R4).
            new["trophies"] = [trophy for trophy in state["trophies"] if winners[trophy] is None]
            new["winners"] = winners
            new["scores"] = list(action["scores"])
            new["phase"] = "over"
            return new
        if state["phase"] == "offer":
            new = _copy(state)
            new["offers"][actor] = {"up": action["up"], "down": action["down"]}
            new["hands"][actor] = []
            if all(offer is not None for offer in new["offers"]):
                new["phase"] = "take"
                # R1: the highest face-up card takes first.
                new["taker"] = max(range(new["n"]), key=lambda s: _offer_rank(new["offers"][s]))
            return new
        return self._apply_take(state, actor, action)

    def validate_chance(self, state: dict, outcome: Any) -> None:
        """A shuffle is a permutation of exactly the cards being dealt now (rulebook THE CARDS & THE DEAL:
        all 17 cards in round 1; later rounds: the leftover offer cards and the refill from the deck)."""
        order = outcome.get("order")
        if set(outcome) != {"type", "order"} or outcome["type"] != "shuffle":
            raise IllegalAction("chance", 'a shuffle is {"type": "shuffle", "order": [...]}')
        if (
            type(order) is not list
            or not all(type(card) is str for card in order)
            or sorted(order) != sorted(self._deal_cards(state))
        ):
            raise IllegalAction("chance", "the shuffle must be a permutation of exactly the cards being dealt")

    def _apply_chance(self, state: dict, action: Any) -> dict:
        order = action["order"]
        new = _copy(state)
        n = new["n"]
        if new["round"] == 0:
            count = _TROPHIES[n]
            new["trophies"] = list(order[:count])
            rest = order[count:]
            new["hands"] = [list(rest[2 * s : 2 * s + 2]) for s in range(n)]
            new["deck"] = list(rest[2 * n :])
        else:
            new["deck"] = new["deck"][n:]
            new["hands"] = [list(order[2 * s : 2 * s + 2]) for s in range(n)]
        new["round"] += 1
        new["offers"] = [None] * n
        new["taken"] = [False] * n
        new["taker"] = None
        new["phase"] = "offer"
        return new

    def _apply_take(self, state: dict, seat: int, action: dict) -> dict:
        new = _copy(state)
        n = new["n"]
        source, which = action["from"], action["card"]
        offer = new["offers"][source]
        new["jests"][seat].append(offer[which])
        if which == "up":  # everyone saw which face-up card went into whose Jest (rulebook TAKING CARDS)
            new["taken_up"][seat].append(offer["up"])
        offer[which] = None
        new["taken"][seat] = True
        if not new["taken"][source]:
            new["taker"] = source  # R2: the player whose offer was just taken from
        elif not all(new["taken"]):
            # R2: highest visible card among those who have not taken; no face-up card ranks lowest;
            # remaining ties go clockwise (increasing seat numbers) from the last taker.
            waiting = [s for s in range(n) if not new["taken"][s]]
            new["taker"] = max(
                waiting, key=lambda s: (_offer_rank(new["offers"][s]), -((s - seat) % n))
            )
        else:
            new["taker"] = None
            if new["round"] < new["rounds"]:
                new["phase"] = "deal"
            else:
                # The last offer card joins its owner's Jest (rulebook ENDING THE GAME).
                # A face-up leftover was in everyone's sight: it stays known (a face-down one stays hidden).
                for s in range(n):
                    left = new["offers"][s]
                    new["jests"][s].append(left["up"] if left["up"] is not None else left["down"])
                    if left["up"] is not None:
                        new["taken_up"][s].append(left["up"])
                    new["offers"][s] = None
                new["phase"] = "scoring"
        return new

    # -- what each one sees ----------------------------------------------------------------------
    def _view(self, state: dict, seat: Optional[int]) -> dict:
        n = state["n"]
        phase = state["phase"]
        over = phase == "over"
        sealed = phase == "offer"
        offers = []
        for s in range(n):
            offer = state["offers"][s]
            if s == seat:
                offers.append(None if offer is None else dict(offer))
            elif sealed:
                offers.append({"offered": offer is not None})
            elif offer is None:
                offers.append(None)
            else:
                offers.append({"up": offer["up"], "down": offer["down"] is not None})
        view = {
            "game": self.name,
            "phase": phase,
            "round": state["round"],
            "rounds": state["rounds"],
            "to_act": list(self.to_act(state).seats),
            "taker": state["taker"],
            "taken": list(state["taken"]),
            "trophies": [
                {"card": card, "trophy": trophy_label(card)}
                for card in (state["winners"] if over else state["trophies"])
            ],
            "deck_count": len(state["deck"]),
            "offers": offers,
            "jest_counts": [len(jest) for jest in state["jests"]],
            # Public: each face-up card taken was seen going into its taker's Jest (rulebook TAKING CARDS).
            "taken_up": _taken_up(state),
        }
        if "options" in state:
            # Rules 1.1.0 on: the match's options, public in its view, are in the observation too, since a
            # computer reads only its observation: its search scored every match as the defaults (a probe).
            view["options"] = dict(state["options"])
        if seat is not None:
            view["seat"] = seat
            view["hand"] = list(state["hands"][seat])
            view["jest"] = list(state["jests"][seat])
        if over:
            # Rules 1.2.0 on, each Jest in the order of CARDS: in the order taken, with the public takes
            # ("from seat 1, face down"), it named every face-down card taken (docs/rules/jest.md).
            final_jests = self._final_jests(state)
            view["jests"] = final_jests
            view["trophy_winners"] = copy_json(state["winners"])
            view["scores"] = list(state["scores"])
            # What each part of each Jest scored (R6), trophies included: a player read only his total. The
            # same scoring as the recorded scores (every rules version scores alike), public once over.
            view["breakdown"] = [jest_breakdown(jest) for jest in final_jests]
            result = self.result(state)
            assert result is not None  # the match is over
            view["ranks"] = list(result.ranks)
            view["winners"] = list(result.winners)
        return view

    def _final_jests(self, state: dict) -> list[list[str]]:
        """The final Jests as a finished match shows them: rules 1.2.0 on, each in the fixed order of
        ``CARDS`` (trophies sorted in; ``trophy_winners`` names them); 1.0.0 and 1.1.0 in the order taken
        (the awarded trophies last), as their stored results record."""
        if self._jests_in_card_order:
            return [in_card_order(jest) for jest in state["jests"]]
        return [list(jest) for jest in state["jests"]]

    def observation(self, state: dict, seat: int) -> dict:
        return self._view(state, seat)

    def public_observation(self, state: dict) -> dict:
        return self._view(state, None)

    def redact_action(self, state: dict, actor: Any, action: Any, viewer: Optional[int]) -> Optional[dict]:
        # Shuffles are secret (the base ``redact`` hides chance outcomes that are not public).
        if isinstance(action, dict) and action.get("type") == "offer" and viewer != actor:
            return {"type": "offer"}  # sealed: others see only that the seat offered
        # Takes never name a card (the observation's ``taken_up`` names the face-up ones); the final
        # scoring is public.
        return copy_json(action)

    # -- the end -------------------------------------------------------------------------------
    def result(self, state: dict) -> Optional[Result]:
        if state["phase"] != "over":
            return None
        scores = state["scores"]
        n = state["n"]
        if _options(state)["ties"] == "shared":
            # Option ties "shared": equal scores share the rank (competition ranking: 1, 1, 3).
            keys: list[tuple] = [(scores[s],) for s in range(n)]
        else:
            # R7: highest score; tie → highest face value card, then its suit, in the final Jest.
            keys = [(scores[s], best_card_key(state["jests"][s])) for s in range(n)]
        ranks = competition_ranks(keys)
        detail = {
            "trophies": dict(state["winners"]),
            "jests": self._final_jests(state),  # rules 1.2.0 on in card order, not the order taken
        }
        return Result(scores=tuple(scores), ranks=ranks, detail=detail)

    # -- computer opponents --------------------------------------------------------------------
    def bots(self):
        from .bots import BOTS  # the bots import this module (the search plays on ENGINE)

        return dict(BOTS)


ENGINE = JestEngine()
