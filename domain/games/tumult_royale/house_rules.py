"""Tumult Royale's house rules: what Motley decided where the rulebook is silent or its variant's text is
missing ([PROPOSAL], house rules 4.5, docs/rules/tumult-royale.md), named "4.5 <topic>" as the engine's
refusals cite them, in the order that document gives them. Not the publisher's rules."""

from __future__ import annotations

from domain.engine import HouseRule

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("4.5 king's give-back", "The rank-1 player gives back 5 supporters each round (all he has if "
                                      "fewer); the supporter pool is unbounded and may go below 0."),
    HouseRule("4.5 commodity mix", "Each commodity (bread, marble, tools) has 13 tiles: five 1s, five 2s and "
                                   "three 3s."),
    HouseRule("4.5 region tiles", "The ten region tiles have fixed layouts of 3 pastures, 2 forests, 2 mountains, "
                                  "1 village and 1 palace, never rotated; the top row (2–3 players) or the outer "
                                  "columns (4 players) start face down, and fields touch orthogonally across tile "
                                  "borders."),
    HouseRule("4.5 costs", "A village costs 2 bread and 2 tools for 2 statues; a village or palace takes all its "
                           "statues at once, and the player must still have that many."),
    HouseRule("4.5 tiles in play", "Every round 12 of the 39 commodity tiles are set aside unseen (6, 4 or 3 per "
                                   "player) and the other 27 lie face down in the centre."),
    HouseRule("4.5 gamble variant", "With the gamble variant the spinner is spun after tax collection, so the "
                                    "royals tax without knowing the people's demand.", "gamble"),
    HouseRule("4.5 tumult order", "Tumults are checked for bread, then marble, then tools, each against the "
                                  "units left in the centre, counted once before any tile is returned."),
    HouseRule("4.5 placement", "Statues are placed one field per turn in rank order, king first, repeating "
                               "until every seat has passed; a pass is final for the round."),
    HouseRule("4.5 chronicle thresholds", "On chronicle spaces 6, 8 and 9 the game ends when the most statues "
                                          "placed exceed the fewest by more than 6, 4 and 3 (space 7's 5 and "
                                          "space 10 are the rulebook's)."),
    HouseRule("4.5 digital tax collection", "In live tax collection a player holds one peeked tile at a time, "
                                            "seen only by him, and keeps or returns it; when the timer runs out, "
                                            "a tile still in a hand goes back face down.", "tax_mode"),
    HouseRule("4.5 peek limit", "A seat must wait at least 600 ms between two peeks, in either tax mode."),
    HouseRule("4.5 asynchronous mode", "With tax_mode \"async\" tax collection has no timer: one seat at a time "
                                       "in rank order from the king, a turn being one peek then keep or return, "
                                       "with 8 peeks a seat each round.", "tax_mode"),
)
