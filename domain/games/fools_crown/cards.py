"""Cards of Fool's Crown: a standard 52-card deck plus 2 Jokers; the four Aces are the Crowns.

Card codes are strings: rank then suit, e.g. ``"2C"``, ``"10H"``, ``"JD"``, ``"QS"``, ``"KH"``; the Crowns
are ``"AC"``, ``"AD"``, ``"AH"``, ``"AS"``; the Jokers are ``"JOKER1"`` and ``"JOKER2"``.
Suits: C clubs, D diamonds, H hearts, S spades.
"""

from __future__ import annotations

SUITS = ["C", "D", "H", "S"]
SQUIRE_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10"]
NOBLE_RANKS = ["J", "Q", "K"]
RANKS = SQUIRE_RANKS + NOBLE_RANKS

PLAYING = [rank + suit for rank in RANKS for suit in SUITS]  # the 48 playable cards
JOKERS = ["JOKER1", "JOKER2"]
CROWNS = ["AC", "AD", "AH", "AS"]
DRAW_DECK = PLAYING + JOKERS  # the 50 cards shuffled at the start
ALL_CARDS = DRAW_DECK + CROWNS  # 54 distinct cards

VALUE: dict[str, int] = {}
SUIT: dict[str, str] = {}
NOBLE: dict[str, bool] = {}
SQUIRE: dict[str, bool] = {}
for _rank in RANKS:
    for _suit in SUITS:
        _card = _rank + _suit
        VALUE[_card] = 10 if _rank in NOBLE_RANKS else int(_rank)
        SUIT[_card] = _suit
        NOBLE[_card] = _rank in NOBLE_RANKS
        SQUIRE[_card] = _rank in SQUIRE_RANKS
for _suit in SUITS:
    SUIT["A" + _suit] = _suit

ORDER = {card: index for index, card in enumerate(ALL_CARDS)}
PLAYING_SET = frozenset(PLAYING)
JOKER_SET = frozenset(JOKERS)
CROWN_SET = frozenset(CROWNS)


def sort_cards(cards) -> list:
    return sorted(cards, key=ORDER.__getitem__)


def is_noble(card) -> bool:
    return NOBLE.get(card, False)


def is_squire(card) -> bool:
    return SQUIRE.get(card, False)


def face_up_first(a: str, b: str) -> list:
    """The two committed cards as [face up, face down]: the higher value is face up; on equal value a
    Noble beats a Squire (a Knight 10 goes face down beside a Noble); two equal Squires: the higher
    suit in the order C < D < H < S is face up (house rule FC-UP)."""
    key_a = (VALUE[a], NOBLE[a], SUITS.index(SUIT[a]))
    key_b = (VALUE[b], NOBLE[b], SUITS.index(SUIT[b]))
    return [a, b] if key_a >= key_b else [b, a]
