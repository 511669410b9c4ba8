"""Jest cards, Jest scoring (house rule R6) and trophy awards (house rule R4).

Card codes: rank ``A 2 3 4`` then suit ``S C D H`` (``"AS"``, ``"4H"``), and ``"JK"`` for the Joker.
Pure functions of their arguments; used by the engine and directly by tests.
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Mapping, Optional, Sequence

JOKER = "JK"
RANKS = ("A", "2", "3", "4")
SUITS = ("S", "C", "D", "H")  # highest first: ♠ > ♣ > ♦ > ♥ [FOUND]
#: The 17 playing cards (the reference card is not part of play).
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS) + (JOKER,)
CARD_SET = frozenset(CARDS)
#: Each card's place in ``CARDS``, the deck's own order: ♠ ♣ ♦ ♥, each A 2 3 4, the Joker last.
_CARD_INDEX = {card: index for index, card in enumerate(CARDS)}

_RANK_VALUE = {"A": 1, "2": 2, "3": 3, "4": 4}
_SUIT_ORDER = {"S": 4, "C": 3, "D": 2, "H": 1}

#: The trophy printed on each card [FOUND] (house rules §2.4).
TROPHY_OF: dict[str, tuple[str, Any]] = {
    "AS": ("highest", "C"),
    "2S": ("majority", 3),
    "3S": ("majority", 2),
    "4S": ("lowest", "C"),
    "AC": ("highest", "S"),
    "2C": ("lowest", "H"),
    "3C": ("highest", "H"),
    "4C": ("lowest", "S"),
    "AD": ("majority", 4),
    "2D": ("highest", "D"),
    "3D": ("lowest", "D"),
    "4D": ("best-jest-no-joke", None),
    "AH": ("joker", None),
    "2H": ("joker", None),
    "3H": ("joker", None),
    "4H": ("joker", None),
    "JK": ("best-jest", None),
}

_SUIT_NAME = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def trophy_label(card: str) -> str:
    """A readable name of the trophy printed on ``card`` ("Highest ♣", "Majority 3s", ...)."""
    kind, arg = TROPHY_OF[card]
    if kind == "highest":
        return f"Highest {_SUIT_NAME[arg]}"
    if kind == "lowest":
        return f"Lowest {_SUIT_NAME[arg]}"
    if kind == "majority":
        return f"Majority {arg}s"
    return {"best-jest-no-joke": "Best Jest No Joke", "joker": "Joker", "best-jest": "Best Jest"}[kind]


def face_value(card: str) -> int:
    """Face value: Ace 1, 2, 3, 4; the Joker 0 (house rules R1, R4)."""
    return 0 if card == JOKER else _RANK_VALUE[card[0]]


def suit_of(card: str) -> Optional[str]:
    return None if card == JOKER else card[1]


def card_key(card: str) -> tuple[int, int]:
    """Ordering of single cards: face value, then suit ♠ > ♣ > ♦ > ♥ (the Joker is lowest)."""
    if card == JOKER:
        return (0, 0)
    return (_RANK_VALUE[card[0]], _SUIT_ORDER[card[1]])


def in_card_order(cards: Iterable[str]) -> list[str]:
    """``cards`` in the fixed order of ``CARDS`` (♠ ♣ ♦ ♥, each A 2 3 4, then the Joker), whatever order
    they came in: how rules 1.2.0 on lists a finished Jest, so that the public list says nothing of the
    order its cards were taken in (docs/rules/jest.md, "What each one sees")."""
    return sorted(cards, key=_CARD_INDEX.__getitem__)


def best_card_key(cards: Iterable[str]) -> tuple[int, int]:
    """The key of the highest card (face value then suit) of a collection; (-1, -1) if empty."""
    return max((card_key(card) for card in cards), default=(-1, -1))


def score_jest(cards: Sequence[str]) -> int:
    """The value of a Jest (house rule R6, rulebook "SCORING"): its breakdown's total."""
    return jest_breakdown(cards)["total"]


def jest_breakdown(cards: Sequence[str]) -> dict:
    """What each part of a Jest scores (house rule R6, rulebook "SCORING"): ``cards``, each card with its
    signed points, in the Jest's order; ``joker`` (+4 with no Heart, else 0; None without the Joker);
    ``pairs``, the ♠/♣ pairs of one rank (+2 each); ``total``. A player read only his total.

    Per card: face value, an Ace alone in its suit counting 5; then the sign: ♠ ♣ +, ♦ −;
    ♥ 0 without the Joker, − with the Joker and 1–3 Hearts, + with the Joker and all 4 Hearts;
    the Joker +4 with no Heart, else 0; +2 for each ♠/♣ pair of the same rank.
    """
    cards = list(cards)
    per_suit = {suit: 0 for suit in SUITS}
    has_joker = False
    for card in cards:
        if card == JOKER:
            has_joker = True
        else:
            per_suit[card[1]] += 1
    hearts = per_suit["H"]
    points: list[list] = []
    for card in cards:
        if card == JOKER:
            continue
        suit = card[1]
        value = _RANK_VALUE[card[0]]
        if card[0] == "A" and per_suit[suit] == 1:
            value = 5
        if suit in ("S", "C"):
            points.append([card, value])
        elif suit == "D":
            points.append([card, -value])
        elif has_joker:  # a Heart with the Joker
            points.append([card, value if hearts == 4 else -value])
        else:
            points.append([card, 0])
    joker = None if not has_joker else (4 if hearts == 0 else 0)
    held = set(cards)
    pairs = [[rank + "S", rank + "C"] for rank in RANKS if rank + "S" in held and rank + "C" in held]
    total = sum(p for _, p in points) + (joker or 0) + 2 * len(pairs)
    return {"cards": points, "joker": joker, "pairs": pairs, "total": total}


def _best_by_score(candidates: list, jests: Mapping) -> Optional[Hashable]:
    """Best Jest among ``candidates``: highest score; tie → highest face value card, then suit (R4)."""
    if not candidates:
        return None
    return max(candidates, key=lambda player: (score_jest(jests[player]), best_card_key(jests[player])))


def award_trophies(
    jests: Mapping[Hashable, Sequence[str]], trophies: Sequence[str], one_player_both: bool = True
) -> dict:
    """Who wins each trophy (house rule R4), decided on the Jests *before* any trophy is added.

    ``trophies`` in deal order (the first trophy card dealt first). With ``one_player_both`` (the
    default, R4 as house-rules.md reads the rulebook) every trophy goes to whoever meets its condition
    best, so one player may win both. Without it (option ``one_player_both_trophies`` false), the
    trophies are awarded in deal order and a player who won an earlier one cannot win a later one: the
    later trophy goes to the best *other* player by its own condition and tie-breaks, and stays
    unclaimed when no other player meets its condition. The rulebook's sentence has a spam word
    (rulebooks/jest.txt line 58: "a player 먹튀검증사이트 win one of the trophies after winning the
    first"), which replaces "can" (house-rules.md §2.1): the default is the rulebook's text (and R4's),
    "cannot" is Motley's other reading, the option's.

    Returns ``{trophy card: player key or None}``; None when nobody (eligible) meets the condition.
    """
    players = list(jests)
    awarded: dict = {}
    for trophy in trophies:
        kind, arg = TROPHY_OF[trophy]
        if one_player_both:
            eligible = players
        else:
            won = {player for player in awarded.values() if player is not None}
            eligible = [player for player in players if player not in won]
        awarded[trophy] = _trophy_winner(kind, arg, eligible, jests)
    return awarded


def _trophy_winner(kind: str, arg: Any, players: list, jests: Mapping) -> Optional[Hashable]:
    """The player among ``players`` who wins a trophy of ``kind`` (R4), or None."""
    winner = None
    if kind in ("highest", "lowest"):
        best = None
        for player in players:
            for card in jests[player]:
                if card != JOKER and card[1] == arg:
                    value = _RANK_VALUE[card[0]]
                    better = best is None or (value > best[0] if kind == "highest" else value < best[0])
                    if better:
                        best = (value, player)
        winner = None if best is None else best[1]
    elif kind == "majority":
        rank = "A" if arg == 1 else str(arg)
        best_key = None
        for player in players:
            held = [card for card in jests[player] if card != JOKER and card[0] == rank]
            if not held:
                continue
            key = (len(held), max(_SUIT_ORDER[card[1]] for card in held))
            if best_key is None or key > best_key:
                best_key, winner = key, player
    elif kind == "joker":
        for player in players:
            if JOKER in jests[player]:
                winner = player
                break
    elif kind == "best-jest":
        winner = _best_by_score(players, jests)
    elif kind == "best-jest-no-joke":
        winner = _best_by_score([p for p in players if JOKER not in jests[p]], jests)
    return winner
