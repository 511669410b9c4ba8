"""Jester's house rules: what Motley decided where the rulebook is silent ([PROPOSAL], house rules 1.5,
docs/rules/jester.md), in the order that document gives them. Not the publisher's rules."""

from __future__ import annotations

from domain.engine import HouseRule

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("S1", "Each teacher space starts with the 4 object tokens of its discipline (hoop, songbook, harp, "
                    "wand, clubs, quill, mask), and a player may make only one object of each discipline."),
    HouseRule("S4", "A guild's power needs Master Buffoon 4, Craftsmen 3, Theater Directors 3, Grand Duke 3, "
                    "Merchants 2 or Heralds 3 of the player's markers in it (the Craftsmen's and Heralds' 3 are "
                    "derived from the rulebook's example, the others proposed)."),
    HouseRule("S3", "The starting player is drawn at random, and the start passes to the left each round."),
    HouseRule("S2", "Before the first turn, each player in turn from the starting player places 2 influence "
                    "markers from his reserve in any guild or guilds."),
    HouseRule("P5", "'Has no money' means the player cannot pay for any card in a non-empty pile; if every pile "
                    "is empty, he takes back into his hand the card he just played."),
    HouseRule("P1", "A specialization marker starts at the level of the stamps of its discipline the player owns "
                    "(1 stamp 1 VP, 2 stamps 3 VP, 3 stamps 6 VP) and advances with each further class; a "
                    "discipline without a marker scores nothing and does not count toward the 10/7 VP bonus."),
    HouseRule("P3", "A Tragedy marker put on the King pushes the royalty as Play B does, but scores no VP and "
                    "gives no swap; with the Theater Directors at most one of the two markers goes to the King."),
    HouseRule("P4", "A victim of a red chair chooses which card to discard and which guild marker to remove, "
                    "unless he spends a crown to stay unharmed."),
    HouseRule("P2", "After Play B only the active player may swap two court stamps: with the royalty majority "
                    "(fame breaks ties; still tied, when among the tied), or with the Grand Duke and at least "
                    "one royalty marker."),
    HouseRule("task 4", "Royal prestige: each stamp taken this round gives prestige by where its discipline sits "
                        "at court (King 4, Queen 3, Prince 2, Princess 1, beside the Counselor 0), and each "
                        "player converts all of it at once into VP (1 for 1), money ($1 for 1) or crowns "
                        "(1 for 2; 1 for 1 with the Heralds)."),
    HouseRule("task 5", "Between rounds the pawns leave, the hall is emptied if all 10 chairs are taken, the city "
                        "stamps are redrawn and the class prices reshuffled, and the start passes left; genre "
                        "blockers, royalty, shop orders and hands stay."),
    HouseRule("P6", "Victory points never go below 0, after chair III and the Crown Penalty too."),
    HouseRule("End of the game", "Players still tied after VP, fame and markers on the board share their rank."),
)
