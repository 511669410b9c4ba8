"""Fool's Crown's house rules: nothing of the game was found in public sources, so house rules §3.4
([PROPOSAL], tagged HR 3.4 in docs/rules/fools-crown.md) complete the rulebook, with the FC-… decisions
on which of them apply. In the order that document gives them. Not the publisher's rules: where the
rulebook says it too ([RULEBOOK, HR 3.4 ...] in the document: the gamble, the qualification roll of 6-12
with the Joker face counting 1, the tie rolls) it is not listed."""

from __future__ import annotations

from domain.engine import HouseRule

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("3.4 components", "2–4 players play with a standard 52-card deck plus 2 Jokers: the four Aces are "
                                "the Crowns, each known by its suit, and the other 48 cards and the Jokers form "
                                "the draw deck."),
    HouseRule("3.4 step 2", "The commits go one seat at a time, starting with the seat left of the previous "
                            "round's winner (round 1: a seat drawn at random), and each face-up card is shown at "
                            "once; each seat commits a Noble and a Squire (two Squires only without a Noble), "
                            "the higher card face up.", "commit_order"),
    HouseRule("FC-ORDER", "Seat order is the default commit order (since rules 1.3.0); after a round without a "
                          "winner, the seat left of the previous round's first committer starts.", "commit_order"),
    HouseRule("FC-SEAL", "With commit_order \"simultaneous\" every seat commits at once and no commit is shown "
                         "until every seat has committed: a departure from 3.4 step 2.", "commit_order"),
    HouseRule("3.4 steps 3–5", "A Royal Alliance (+1) is a Noble and a Squire of one suit, never two Squires; a "
                               "Crown Alliance (+1 more) is a Royal Alliance whose suit's Crown the seat holds "
                               "(the rulebook names both bonuses, not their conditions)."),
    HouseRule("3.4 step 6", "The round winner must claim a Crown of his choice from the centre; once the centre "
                            "is empty he may take one Crown of his choice from a holder who committed this "
                            "round, or pass. At most one Crown is gained per round."),
    HouseRule("3.4 step 7", "After each round the committed cards are discarded and every hand refills to five "
                            "(Jokers drawn are revealed, kept and replaced); the discard pile is reshuffled into "
                            "a new deck as soon as the deck runs out."),
    HouseRule("FC-CAP", "With the safety cap (on by default) the match ends after round 30's refill: most Crowns "
                        "wins, ties go to most Jokers, and seats still tied share the rank.", "safety_cap"),
)
