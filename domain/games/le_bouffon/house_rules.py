"""Le Bouffon's house rules: what Motley decided where the rulebook is silent ([PROPOSAL], house rules
5.4, docs/rules/le-bouffon.md), named "5.4 <topic>" as the engine's refusals cite them, in the order that
document gives them. Not the publisher's rules. Three are switched by an option: "5.4 deals" (``deals``),
from rules 1.2.0 "5.4 match" (``ties``) and from rules 1.3.0 "5.4 exchange" (``first_deal_exchange``); the
engines of older versions list those two with ``option`` None. Each text says what the engine does by
default; docs/rules/le-bouffon.md, sections 3 and 5, say what the other values do."""

from __future__ import annotations

from domain.engine import HouseRule

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule("5.4 roles", "With 3 players the roles are roi, noble, bouffon; with 5, roi, héritier, noble, "
                           "ouvrier, bouffon; with 6, roi, héritier, noble, marchand, ouvrier, bouffon."),
    HouseRule("5.4 deal", "Cards are dealt one at a time in role order from the roi, so the higher roles take "
                          "the extra cards."),
    HouseRule("5.4 exchange", "There is no exchange in the first deal, and every exchange is worked out on the "
                              "hands before any exchange, so the bouffon never hands back the roi's gift.",
              "first_deal_exchange"),
    HouseRule("5.4 sets", "With two decks (5–6 players), where a hand may hold up to 8 cards of a kind, a set "
                          "is still at most 4 cards, the rulebook's quadruple."),
    HouseRule("5.4 leads", "The leader of a trick must lay cards; when the last player to lay cards is out, the "
                           "next player in role order who still holds cards leads."),
    HouseRule("5.4 exceptions", "k paladins (k = 1–3) may be laid on k+1 cards weaker than paladin, and 1 "
                                "minotaure on 2–4 cards weaker than minotaure; the new top counts as that many "
                                "cards of the strength laid."),
    HouseRule("5.4 rire du bouffon", "The rulebook's laugh (\"the same cards\" as the previous player's) is the "
                                     "bouffon role's holder's only, on his own turn, with cards on the table: the "
                                     "same number laid at the same strength; the trick ends and he leads the next "
                                     "(or, his last cards laughed, the next active player in role order does)."),
    HouseRule("5.4 going out", "A player may go out on any card, an exception or a laugh included."),
    HouseRule("5.4 end of a deal", "A deal ends as soon as only one player holds cards: he is last and becomes "
                                   "the bouffon."),
    HouseRule("5.4 deals", "A match is 5 deals unless the option deals sets another number (1–100).", "deals"),
    HouseRule("5.4 scoring", "Each deal scores players − finishing place (first n−1, last 0)."),
    HouseRule("5.4 match", "The highest total wins; by default (ties: last-deal) ties go to the better "
                           "finishing place in the last deal, so ranks never tie; with ties: shared the tied "
                           "players share the rank and all tied at the top win.", "ties"),
)
