"""Le Bouffon's cards, strengths and roles (rulebook points 1-2, house rules 5.2 and 5.4).

A card id is ``"<kind>#<copy>"``, the kind being ``soldat-1`` ... ``soldat-8``, ``archer``, ``magicien``,
``guerrier``, ``assassin``, ``paladin`` or ``minotaure``. One deck holds copies #1-#4 of every kind
(#1-#2 of the minotaure): 54 cards. Two decks (5 and 6 players) hold copies #1-#8 (minotaure #1-#4): 108.
Copies of one kind are interchangeable; the copy number only makes every card id unique.
"""

from __future__ import annotations

#: Strength of each kind, weakest first (house rule 5.2 [FOUND]).
KIND_STRENGTH = {f"soldat-{rank}": rank for rank in range(1, 9)}
KIND_STRENGTH.update({"archer": 9, "magicien": 10, "guerrier": 11, "assassin": 12, "paladin": 13, "minotaure": 14})
STRENGTH_KIND = {strength: kind for kind, strength in KIND_STRENGTH.items()}
PALADIN = 13
MINOTAURE = 14

#: Roles by player count, highest first; the order of play is this hierarchy (house rule 5.4 [PROPOSAL]
#: for 3, 5, 6 players; the 4-player list is the rulebook's).
ROLES_BY_COUNT = {
    3: ["roi", "noble", "bouffon"],
    4: ["roi", "héritier", "ouvrier", "bouffon"],
    5: ["roi", "héritier", "noble", "ouvrier", "bouffon"],
    6: ["roi", "héritier", "noble", "marchand", "ouvrier", "bouffon"],
}
ALL_ROLES = ["roi", "héritier", "noble", "marchand", "ouvrier", "bouffon"]

#: Exchanges before a deal (rulebook point 3): giver role -> (receiver role, number of cards).
EXCHANGES = {"roi": ("bouffon", 2), "héritier": ("ouvrier", 1)}


def build_deck(decks: int) -> list[str]:
    """Every card id of ``decks`` decks (1 or 2), in a fixed canonical order."""
    cards: list[str] = []
    for kind, strength in KIND_STRENGTH.items():
        copies = (2 if strength == MINOTAURE else 4) * decks
        cards.extend(f"{kind}#{copy}" for copy in range(1, copies + 1))
    return cards


def _key(card: str):
    kind, copy = card.split("#")
    return (KIND_STRENGTH[kind], int(copy))


#: Strength of every card id that exists (both decks).
STRENGTH = {card: KIND_STRENGTH[card.split("#")[0]] for card in build_deck(2)}
#: Sort key of every card id: weakest first, then copy number.
SORT_KEY = {card: _key(card) for card in build_deck(2)}
DECK = {1: build_deck(1), 2: build_deck(2)}


def decks_for(num_players: int) -> int:
    """One deck for 3 and 4 players, two for 5 and 6 (rulebook point 2)."""
    return 1 if num_players <= 4 else 2


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=SORT_KEY.__getitem__)
