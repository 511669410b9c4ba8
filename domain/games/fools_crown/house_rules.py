"""Fool's Crown's house rules: nothing of the game was found in public sources, so house rules §3.4
([PROPOSAL], tagged HR 3.4 in docs/rules/fools-crown.md) complete the rulebook, and the FC-… decisions
of that document settle what they leave open. The catalogue lists each of them that a player meets, in
the order that document gives them, each under its tag there.

Not the publisher's rules only: where the rulebook (rulebooks/fools-crown.txt) says it, it is not
listed, nor the part of an entry it says. So the Aces being the Crowns ("The four Crown Aces begin in
the center battlefield"), a commit of a Noble and a Squire or two Squires, the higher face up ("The
higher card is displayed face up"), the Noble Exchange, the qualification roll of 6–12 with the Joker
face counting 1, the tiebreak's rerolls ("highest tiebreak roll wins, and ties reroll"), one Crown a
round at most ("You can claim at most one Crown per round"), the gamble itself, and the discard and
refill with Jokers revealed and replaced ("Played cards are discarded and hands refill to five
playable cards. The discard pile is reshuffled if the draw deck runs out") are left out.

Each rules version is served its own catalogue (``house_rules(Rules.of(version))``): what differs
between the versions (docs/rules/fools-crown.md, "Changes") is said as that version plays it: the
reshuffle's timing (FC-DRAW, 1.1.0), the refill order (FC-REFILL, 1.2.0), the default commit order
(FC-ORDER / FC-SEAL, 1.3.0), the end at the safety cap (FC-CAP, 1.4.0) and who may be challenged, switched
by the option ``challenge_sat_out`` since 1.5.0 (FC-CHALLENGE)."""

from __future__ import annotations

from domain.engine import HouseRule

from .state import CURRENT_VERSION, Rules


def house_rules(rules: Rules) -> tuple[HouseRule, ...]:
    """The house rules as ``rules`` (one rules version) plays them, in docs/rules/fools-crown.md's order."""
    seat_order_default = rules.default_commit_order == "seat-order"
    return (
        HouseRule("3.4 components", "2–4 players. The cards are a standard 52-card deck plus 2 Jokers: the draw "
                                    "deck is the 48 cards other than the four Crown Aces, and the 2 Jokers."),
        HouseRule("3.4 step 2", ("The commits go" if seat_order_default else "With commit_order \"seat-order\" the "
                                 "commits go")
                  + " one seat at a time, starting with the seat left of the previous round's winner (round 1: a "
                    "seat drawn at random); each face-up card is shown at once, and the face-down card only when "
                    "the round is resolved.", "commit_order"),
        HouseRule("FC-ORDER", "Seat order is the default commit order (since rules 1.3.0); after a round without a "
                              "winner, the seat left of the previous round's first committer starts."
                  if seat_order_default else
                  "With commit_order \"seat-order\" (not this version's default), after a round without a winner "
                  "the seat left of the previous round's first committer starts.", "commit_order"),
        HouseRule("FC-SEAL", "With commit_order \"simultaneous\" every seat commits at once and no commit is shown "
                             "until every seat has committed: a departure from 3.4 step 2."
                  if seat_order_default else
                  "By default (commit_order \"simultaneous\", the default of rules 1.0.1 to 1.2.0) every seat "
                  "commits at once and no commit is shown until every seat has committed: a departure from 3.4 "
                  "step 2, which commit_order \"seat-order\" plays.", "commit_order"),
        HouseRule("FC-GAMBLE", "A Joker gamble is made on the seat's own turn, just before its commit or Noble "
                               "Exchange, not in a round of gambles before anyone commits: with seat-order commits "
                               "a later seat gambles knowing the face-up cards already shown."),
        HouseRule("FC-UP", "Of two cards of equal value, the Noble goes face up beside a Knight (a 10), and of two "
                           "equal Squires the one of the higher suit (C < D < H < S)."),
        HouseRule("3.4 step 3", "A Royal Alliance (+1) is a Noble and a Squire of one suit, never two Squires; a "
                                "Crown Alliance (+1 more) is a Royal Alliance whose suit's Crown the seat holds "
                                "(the rulebook names both bonuses, not their conditions)."),
        HouseRule("3.4 step 5", "If nobody qualifies, the round has no winner and no Crown is gained. The tiebreak "
                                "roll (the rulebook's \"Roll Tiebreaker\", which names no dice) is two dice for "
                                "each tied player, compared by their total."),
        HouseRule("3.4 step 6", "Once the centre is empty, the round winner may challenge a Crown holder and take "
                                "one Crown of his choice from him (a holder who failed qualification cannot "
                                "defend), or pass."),
        _fc_challenge(rules),
        HouseRule("FC-REFILL", "At a round's end the hands refill one after the other, clockwise from the seat left "
                               "of the round's winner; after a round without a winner, from seat r mod n (round r, "
                               "n players)."
                  if rules.refill_from_winner else
                  "At a round's end the hands refill one after the other from seat 0, every round."),
        HouseRule("FC-DRAW", "The discard pile is reshuffled into a new deck as soon as a draw takes the deck's last "
                             "card, so no round starts with an empty deck."
                  if rules.reshuffle_at_once else
                  "The discard pile is reshuffled into a new deck only when a card must be drawn from the empty "
                  "deck, so a round can start with an empty deck, and a Joker gambled in it comes straight back."),
        HouseRule("FC-DISCARD", "The discard pile is face down: only its size is shown, so a gamble shows the others "
                                "only how many cards it exchanged (a Noble Exchange's two Nobles are named, as its "
                                "hand is revealed)."),
        HouseRule("FC-RANK", "After a four-Crown win the other seats are ranked by Crowns, then by Jokers, and seats "
                             "still tied share the rank (as at the safety cap)."),
        HouseRule("FC-CAP", "With the safety cap (on by default) the match ends after round 30's "
                  + ("refill" if rules.refill_at_cap else
                     "played cards are discarded, before its refill")
                  + ": most Crowns wins, ties go to most Jokers, and seats still tied share the rank.", "safety_cap"),
    )


def _fc_challenge(rules: Rules) -> HouseRule:
    """FC-CHALLENGE, house rule 3.4 step 6's two sentences on who may be challenged: fixed up to 1.4.0,
    switched by the option ``challenge_sat_out`` since 1.5.0 (house-rules.md: "kept configurable")."""
    strict = ("Only a Crown holder who committed this round can be challenged: one who sat out for a Noble "
              "Exchange cannot (3.4 step 6's \"a player who sat out ... cannot defend\" is read as said of a "
              "failed qualifier).")
    if not rules.challenge_option:
        return HouseRule("FC-CHALLENGE", strict)
    return HouseRule("FC-CHALLENGE", "By default (challenge_sat_out false) o" + strict[1:] + " With "
                     "challenge_sat_out true a Crown holder who sat out for a Noble Exchange may be challenged "
                     "too, like a failed qualifier: he \"cannot defend\".", "challenge_sat_out")


#: The current rules version's (``FoolsCrownEngine.house_rules``; each engine sets its version's).
HOUSE_RULES: tuple[HouseRule, ...] = house_rules(Rules.of(CURRENT_VERSION))
