"""Jest's house rules: every [PROPOSAL] rule of docs/rules/jest.md, in the doc's order (house-rules.md
§2.6). Not the publisher's rules: the catalogue lists them and the page flags them; the two an option
switches name it; each text says what the engine does by default (rules 1.0.0 has these rules
with no option: its engine lists them with ``option`` None). docs/rules/jest.md, "Options", says what
the other values do. House rule R4 has five parts, each its own entry ("R4 <part>"): the catalogue's
ids are unique, and an option switches only one of them. R1 (the first taker) and R5 (a trophy joins
its winner's Jest) are left out: the rulebook says them (R1's suit order is FOUND, not decided here)."""

from __future__ import annotations

from domain.engine import HouseRule

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("R2", "When the player whose offer was just taken from has already taken, the next taker is the "
                    "waiting player with the highest face-up card (none ranks lowest; ties clockwise from the "
                    "last taker)."),
    HouseRule("R4 timing", "Trophies are decided on the Jests before any trophy joins them."),
    HouseRule("R4 both trophies", "One player may win both trophies (the rulebook's sentence on it is garbled).",
              option="one_player_both_trophies"),
    HouseRule("R4 highest/lowest", "Highest and Lowest trophies compare face values, the Ace counting 1."),
    HouseRule("R4 best-jest ties", "Best Jest and Best Jest No Joke ties go to the highest face-value card, "
                                   "then its suit."),
    HouseRule("R4 unclaimed", "A trophy whose condition nobody meets is unclaimed: it scores for nobody "
                              "and stays aside."),
    HouseRule("R6", "Scoring order: each card's value first (an Ace alone in its suit counts 5), then its suit's "
                    "sign (so a lone A♦ scores −5)."),
    HouseRule("R7", "Equal final scores are broken by the highest face-value card of the final Jest (trophies "
                    "included), then its suit.", option="ties"),
)
