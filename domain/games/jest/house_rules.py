"""Jest's house rules: every [PROPOSAL] rule of docs/rules/jest.md and the [ENGINE] decisions that change
how the game is played, in the doc's order (house-rules.md §2.6). Not the publisher's rules: the catalogue
lists them and the page flags them; the two an option switches name it; each text says what the engine
does by default (rules 1.0.0 has these rules with no option: its engine lists them with ``option`` None).
docs/rules/jest.md, "Options", says what the other values do. House rule R4 has six parts, each its own
entry ("R4 <part>"): the catalogue's ids are unique, and an option switches only one of them. "R4 both
trophies" is listed for its option: its default is the rulebook's text (the spam word of line 58 replaces
"can", house-rules.md §2.1), the switched-off "cannot" reading is Motley's. The [ENGINE] decisions: the
sealed offer (its own entry) and R7's "no shared rank" (in R7's entry: the option ``ties`` switches both).
R1 (the first taker) and R5 (a trophy joins its winner's Jest) are left out: the rulebook says them (R1's
suit order is FOUND, not decided here). So are R3's own-offer take and the whole 4-player game (1 trophy,
3 rounds, Jests of 4): they are [FOUND] in public implementations (house rules §2.4), neither the
rulebook's nor Motley's, and ``HouseRule`` lists only [PROPOSAL] rules and tagged engine decisions
(docs/rules/jest.md says so). Rulebook lines are those of ../shared/rules/rulebooks/jest.txt."""

from __future__ import annotations

from domain.engine import HouseRule

HOUSE_RULES: tuple[HouseRule, ...] = (
    # docs/rules/jest.md Flow 2 [ENGINE]: l.40 THE OFFER ("each player looks at the two cards they were dealt and
    # chooses one to flip face up") names no order; engine.to_act: every seat that has not offered acts.
    HouseRule("sealed offer", "Offers are sealed and simultaneous: every player makes his offer at the same time, "
                              "and nobody sees another's offer, not even its face-up card, until all are in "
                              "(the rulebook names no order for the offer)."),
    # House rules §2.6 R2 over l.46 ("The player who had a card taken from their offering goes next"). Its
    # last two clauses (an offer without a face-up card, a tie) never apply (docs/rules/jest.md, DERIVED):
    # every waiting offer is complete when it is used, and no two cards are alike (engine._apply_take).
    HouseRule("R2", "When the player whose offer was just taken from has already taken, the waiting player whose "
                    "face-up card is highest (equal values by suit, as for the first taker) takes next: a choice "
                    "only with 4 players; with 3 it is the one player still waiting."),
    # R4 (PROPOSAL as a whole); l.58 "Each trophy is awarded at the same time" implies the timing.
    HouseRule("R4 timing", "Trophies are decided on the Jests before any trophy joins them (the rulebook: "
                           "\"Each trophy is awarded at the same time\")."),
    # l.58: "a player 먹튀검증사이트 win one of the trophies after winning the first", the spam word replacing
    # "can" (house-rules.md §2.1); engine._TROPHIES: a 4-player match has 1 trophy.
    HouseRule("R4 both trophies", "One player may win both trophies: the rulebook's text (its garbled word is "
                                  "\"can\", house-rules.md §2.1), which R4 repeats. From rules 1.1.0 the match's "
                                  "option one_player_both_trophies, false, plays the \"cannot\" reading: a "
                                  "player who won the first trophy cannot win the second. 3 players only: a "
                                  "4-player match has one trophy.",
              option="one_player_both_trophies"),
    HouseRule("R4 highest/lowest", "Highest and Lowest trophies compare face values, the Ace counting 1."),
    HouseRule("R4 best-jest ties", "Best Jest and Best Jest No Joke ties go to the highest face-value card, "
                                   "then its suit."),
    # House rules §2.6 R4: "'No Joke' excludes the Joker holder. If the Joker is itself a trophy, nobody is
    # excluded." (the card's name, l.58's table, says only "No Joke"); engine: tests/engines/test_jest.py.
    HouseRule("R4 no joke", "Best Jest No Joke leaves out the player holding the Joker; when the Joker is itself "
                            "a trophy, nobody is left out."),
    HouseRule("R4 unclaimed", "A trophy whose condition nobody meets is unclaimed: it scores for nobody "
                              "and stays aside."),
    # R6 over l.66 (an Ace alone in its suit is worth 5) and l.68 ("that pair is worth the total value of their
    # rank plus two bonus points", literally 1 + 1 + 2 for the Aces): house rules §2.6 R6 "♠A + ♣A alone in
    # their suits = 5 + 5 + 2"; scoring.score_jest(["AS", "AC"]) == 12.
    HouseRule("R6", "Scoring order: each card's value first (an Ace alone in its suit counts 5), then its suit's "
                    "sign (so a lone A♦ scores −5); a ♠/♣ pair of Aces each alone in its suit scores 5 + 5 + 2."),
    # l.72 "The player with the highest value collection wins the game": the tie is Motley's, and so
    # ([ENGINE], docs/rules/jest.md R7) is ranking every seat by the same order, below first place too.
    HouseRule("R7", "Equal final scores are broken by the highest face-value card of the final Jest (trophies "
                    "included), then its suit; the same order ranks every seat, so no two seats share a rank. "
                    "From rules 1.1.0 the match's option ties, \"shared\", has equal scores share the rank "
                    "instead.",
              option="ties"),
)
