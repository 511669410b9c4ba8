"""The state of a Fool's Crown match: its typed shape, the rules-version switches, and the copy
that ``apply`` works on.

The state is a plain JSON object (so replayed states compare with ``==`` and copy cheaply); its shape
is :class:`FoolsCrownState`. ``stage`` names the phase the match is in, and the engine dispatches on
it through the table in ``phases.py``. Per-seat facts are lists indexed by seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NotRequired, Optional, TypedDict

from .cards import CROWNS

HAND_SIZE = 5
CAP_ROUNDS = 30  # house rule 3.4 "Optional safety cap: after 30 rounds"
QUALIFY = 6  # rulebook: "A total of 6–12 qualifies"
GAME = "fools-crown"
#: The option ``commit_order``: "seat-order" is house rule 3.4 step 2 as written (FC-ORDER; the default
#: since 1.3.0); "simultaneous" has all seats commit at once, sealed (FC-SEAL; the default before 1.3.0).
COMMIT_ORDERS = ("simultaneous", "seat-order")

Stage = Literal[
    "shuffle",  # CHANCE: the initial shuffle of the 50-card draw deck, then the deal
    "first-player",  # CHANCE (seat-order commits only): round 1's first committer
    "commit",  # players: gamble / commit / Noble Exchange
    "gamble-shuffle",  # CHANCE: the sacrificed Joker shuffled into the live deck
    "reshuffle",  # CHANCE: the discard pile becomes the new deck
    "roll",  # CHANCE: one qualification roll per committed seat, in seat order
    "resolve",  # AUTO: resolve-round
    "tiebreak",  # CHANCE: tiebreak rolls of the tied highest qualifiers
    "claim",  # the round winner: claim / challenge / pass
    "over",
]


class Options(TypedDict):
    safety_cap: bool
    commit_order: str  # one of COMMIT_ORDERS
    #: Since rules 1.5.0 (FC-CHALLENGE): a Crown holder who sat out for a Noble Exchange may be challenged.
    #: Absent from the states of older versions, which play it as False.
    challenge_sat_out: NotRequired[bool]


class Gamble(TypedDict):
    """A gamble under way: the sacrificed Joker on its way into the deck, the cards to draw back."""

    seat: int
    joker: str
    count: int


class Tiebreak(TypedDict, total=False):
    seats: list[int]  # the tied seats still rolling, in seat order
    rolls: list[Optional[list[int]]]  # their tiebreak dice (None: not rolled yet)
    winner: int  # set once the tiebreak is decided


class Resolution(TypedDict):
    """The resolve-round automatic step (and the round's outcome, once applied)."""

    type: str
    round: int
    commits: list[Optional[list[str]]]
    strengths: list[Optional[int]]
    bonuses: list[Optional[dict]]
    rolls: list[Optional[list[int]]]
    qualified: list[int]
    winner: Optional[int]
    tied: list[int]


#: The Crown the round winner gained, and from whom (None: from the centre); "from" is a Python
#: keyword, hence the functional form.
Claimed = TypedDict("Claimed", {"crown": str, "from": Optional[int]})


class RoundSummary(TypedDict, total=False):
    round: int
    winner: Optional[int]
    claimed: Optional[Claimed]
    # What the round's resolution showed (None: it was not resolved); absent from a summary stored before.
    commits: Optional[list[Optional[list[str]]]]
    rolls: Optional[list[Optional[list[int]]]]
    strengths: Optional[list[Optional[int]]]
    qualified: Optional[list[int]]  # the seats that qualified


class End(TypedDict):
    reason: str  # "four-crowns" | "safety-cap"
    winner: Optional[int]
    rounds: int


class FoolsCrownState(TypedDict):
    players: int
    options: Options
    stage: Stage
    round: int
    deck: list[str]  # the draw deck, top first
    discard: list[str]  # face down (FC-DISCARD)
    hands: list[list[str]]
    jokers: list[list[str]]  # Jokers held (each +1, rulebook)
    crowns: list[list[str]]
    centre: list[str]  # Crowns still in the centre battlefield
    done: list[bool]  # committed or exchanged this round
    commits: list[Optional[list[str]]]  # [face up, face down]
    exchanged: list[Optional[list[str]]]  # the hand revealed by this round's Noble Exchange
    exchange_discards: list[Optional[list[str]]]  # the two Nobles that Noble Exchange discarded (public)
    gambled: list[int]  # cards exchanged by this round's gamble (0: none)
    rolls: list[Optional[list[int]]]  # qualification dice
    outcome: Optional[Resolution]  # this round's resolution, once applied
    tiebreak: Optional[Tiebreak]
    winner: Optional[int]  # this round's winner
    claimed: Optional[Claimed]
    gamble: Optional[Gamble]
    draws: list[list[int]]  # pending draws, [seat, cards still to draw], carried out in order
    last: Optional[RoundSummary]  # the previous round in brief
    end: Optional[End]
    leader: Optional[int]  # seat-order commits: this round's first committer


@dataclass(frozen=True)
class Rules:
    """What differs between the shipped rules versions (docs/rules/fools-crown.md, "Changes")."""

    version: str
    #: 1.1.0 (FC-DRAW): the discard pile is reshuffled as soon as the draw deck runs out (rulebook "The
    #: discard pile is reshuffled if the draw deck runs out"); 1.0.1 waited until a card had to be drawn.
    reshuffle_at_once: bool
    #: 1.2.0 (FC-REFILL): the refill at a round's end starts left of the round's winner (house rule 3.4
    #: step 7 names no order); 1.0.1 and 1.1.0 refilled from seat 0, which gave seat 0 the Jokers a
    #: gamble had shuffled into a short deck (docs/rules/fools-crown.md, Balance).
    refill_from_winner: bool
    #: 1.3.0 (FC-ORDER): the option ``commit_order`` defaults to "seat-order", house rule 3.4 step 2 as
    #: written ("in seat order starting left of the previous round's winner (round 1: random)"); 1.0.1 to
    #: 1.2.0 defaulted to "simultaneous" (FC-SEAL), which stays an option.
    default_commit_order: str
    #: 1.4.0 (FC-CAP): with the safety cap, round 30 ends with its refill like any round (house rule 3.4
    #: step 7 "everyone refills to 5 (Jokers revealed, kept, replaced)"), and the match ends once the
    #: refill's draws are done, so a Joker it reveals counts in the ranking ("ties -> most Jokers");
    #: 1.0.1 to 1.3.0 ended the match right after round 30's played cards were discarded.
    refill_at_cap: bool
    #: 1.5.0 (FC-CHALLENGE): the option ``challenge_sat_out`` (house rules: "flagged in the UI and kept
    #: configurable"); its default False plays as 1.0.1 to 1.4.0, which do not have it.
    challenge_option: bool

    @classmethod
    def of(cls, version: str) -> Rules:
        if version not in RULES_VERSIONS:
            raise ValueError(f"{GAME} has no rules version {version!r}")
        return cls(version=version, reshuffle_at_once=version != "1.0.1",
                   refill_from_winner=version not in ("1.0.1", "1.1.0"),
                   default_commit_order="simultaneous" if version in ("1.0.1", "1.1.0", "1.2.0") else "seat-order",
                   refill_at_cap=version not in ("1.0.1", "1.1.0", "1.2.0", "1.3.0"),
                   challenge_option=version not in ("1.0.1", "1.1.0", "1.2.0", "1.3.0", "1.4.0"))


def refill_order(rules: Rules, players: int, winner: Optional[int], played: int) -> list[int]:
    """The seats in the order they refill at the end of round ``played`` (FC-REFILL): since 1.2.0
    clockwise from the seat left of the round's winner, as house rule 3.4 step 2 orders the commits
    (a round without a winner: from seat ``played mod players``, one further each round); before,
    from seat 0."""
    if not rules.refill_from_winner:
        return list(range(players))
    first = (winner + 1) % players if winner is not None else played % players
    return [(first + k) % players for k in range(players)]


RULES_VERSIONS = ("1.0.1", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0")
CURRENT_VERSION = RULES_VERSIONS[-1]


def at_cap(s: FoolsCrownState) -> bool:
    """The safety cap is on and this is its last round (house rule 3.4 "after 30 rounds")."""
    return s["options"]["safety_cap"] and s["round"] >= CAP_ROUNDS


def end_at_cap(s: FoolsCrownState) -> None:
    """The match ends at the safety cap (house rule 3.4 "after 30 rounds, the most Crowns wins; ties ->
    most Jokers -> shared"). ``end.winner`` is the match's winner as ``result`` ranks it (most Crowns,
    then Jokers): a view read "no winner" while the result ranked one seat first alone. A shared first
    rank names none."""
    n = s["players"]
    s["stage"] = "over"
    keys = [(len(s["crowns"][i]), len(s["jokers"][i])) for i in range(n)]
    first = [i for i in range(n) if keys[i] == max(keys)]
    s["end"] = {"reason": "safety-cap", "winner": first[0] if len(first) == 1 else None, "rounds": s["round"]}


def new_state(num_players: int, options: Options) -> FoolsCrownState:
    n = num_players
    return {
        "players": n,
        "options": _kept_options(options),
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
        "exchange_discards": [None] * n,
        "gambled": [0] * n,
        "rolls": [None] * n,
        "outcome": None,
        "tiebreak": None,
        "winner": None,
        "claimed": None,
        "gamble": None,
        "draws": [],
        "last": None,
        "end": None,
        "leader": None,
    }


def _kept_options(options: Options) -> Options:
    """The options the state keeps: ``challenge_sat_out`` only where the version has it (1.5.0 on), so an
    older version's state stays exactly as that version made it."""
    kept: Options = {"safety_cap": options["safety_cap"], "commit_order": options["commit_order"]}
    if "challenge_sat_out" in options:
        kept["challenge_sat_out"] = options["challenge_sat_out"]
    return kept


def copy_state(s: FoolsCrownState) -> FoolsCrownState:
    """A copy deep enough for ``apply``: nested values that are only ever replaced, never changed in
    place (commits, exchanged hands, rolls, outcome, last, gamble, claimed, end, options), are shared."""
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
    t["exchange_discards"] = list(s["exchange_discards"])
    t["gambled"] = list(s["gambled"])
    t["rolls"] = list(s["rolls"])
    t["draws"] = [list(d) for d in s["draws"]]
    tiebreak = s["tiebreak"]
    if tiebreak is not None:
        t["tiebreak"] = dict(tiebreak, seats=list(tiebreak["seats"]), rolls=list(tiebreak["rolls"]))
    return t  # type: ignore[return-value]


def seat_order(state: FoolsCrownState) -> bool:
    return state["options"]["commit_order"] == "seat-order"


def challenge_sat_out(state: FoolsCrownState) -> bool:
    """The option ``challenge_sat_out`` (rules 1.5.0; FC-CHALLENGE): False where a version has no such option."""
    return state["options"].get("challenge_sat_out", False)
