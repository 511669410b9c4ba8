"""Jester's house rules: what Motley decided beyond the rulebook, in the order docs/rules/jester.md gives
them. Not the publisher's rules. Two kinds, as the document tags them:

* [PROPOSAL] (house rules 1.5): where the rulebook is silent (S1-S4, P1-P6, tasks 4-5, the shared rank);
* [ENGINE J-...]: a decision taken while implementing that a player notices at the table, a reading or a
  fallback where the rulebook's text is unplayable or open (J-RESCUE, J-SHOP, J-BUFFOON, J-CHAIR2, J-COURT,
  J-INFLUENCE).

Each entry says only Motley's part: a clause the rulebook states (the duplicate-object ban, the crown
defence, the Play B majority, the hall and shop carry-over...) is the publisher's and is not listed.

Rules 1.4.0 keeps two of them configurable (house-rules.md: "keep them configurable"): P6 by the option
``vp_floor`` and J-INFLUENCE by ``influence_needs_markers``; their entries name the option and say what the
default does (docs/rules/jester.md, "Players, options, components", says what false does). 1.0.0 to 1.3.0
played both with no option: their lists name none (``option`` None). Rules 1.5.0 enforces the rulebook's
nine-turn maximum, which P5's take-back could break: its P5 entry says so, and what Motley decided there (the
favors from the starting player when nobody triggered); 1.0.0 to 1.4.0 keep the old text."""

from __future__ import annotations

from domain.engine import HouseRule, without_switches

from . import rules


def _rescue(version: str) -> str:
    if version == "1.1.0":  # 1.1.0 fix 2, reverted in 1.2.0 (rules.handlers)
        return ("The no-money rescue boxes a marker from the player's reserve only when he has none in a guild, "
                "at court or on the specialization table (the rulebook lists only those three).")
    return ("The no-money rescue may box a marker from the player's reserve too, not only from a guild, the "
            "court or the specialization table as the rulebook lists: any of his markers, his choice.")


def _take_back(version: str) -> str:
    text = ("'Has no money' means the player cannot pay for any card in a non-empty pile; if every pile is empty "
            "(or he has no marker left to box), he takes back into his hand the card he just played.")
    if not rules.caps_turns(version):  # 1.0.0-1.4.0: no cap, so such take-backs could stall a round forever
        return text
    return text + (" A round in which such take-backs kept everyone from playing a 3rd card of one place still "
                   "ends after nine turns each, the rulebook's maximum; nobody triggered it, so the King's favors "
                   "are chosen from the starting player.")


def house_rules(version: str) -> tuple[HouseRule, ...]:
    """The house rules of rules ``version`` (they differ only in J-RESCUE, under 1.1.0, in the options
    that switch P6 and J-INFLUENCE, from 1.4.0, and in P5, from 1.5.0)."""
    listed = (
        HouseRule("S1", "Each teacher space starts with the 4 object tokens of its discipline (hoop, songbook, "
                        "harp, wand, clubs, quill, mask)."),
        HouseRule("S4", "A guild's power needs Master Buffoon 4, Craftsmen 3, Theater Directors 3, Grand Duke 3, "
                        "Merchants 2 or Heralds 3 of the player's markers in it (the Craftsmen's and Heralds' 3 "
                        "are derived from the rulebook's example, the others proposed)."),
        HouseRule("S3", "The starting player is drawn at random, and the start passes to the left each round."),
        HouseRule("S2", "Before the first turn, each player in turn from the starting player places 2 influence "
                        "markers from his reserve in any guild or guilds."),
        HouseRule("P5", _take_back(version)),
        HouseRule("J-RESCUE", _rescue(version)),
        HouseRule("J-SHOP", "A city visit may always just send the pawn to the craftsman's shop, even with "
                            "nothing on order or a class he could take: the city card is played for nothing."),
        HouseRule("P1", "A specialization marker placed on a later class of its discipline starts at the level "
                        "of the stamps of that discipline the player owns (2 stamps 3 VP, 3 stamps 6 VP); the "
                        "7 VP bonus for six disciplines counts only disciplines with a marker on the table."),
        HouseRule("J-BUFFOON", "The Master Buffoon's second class is judged once, as the city visit begins: a "
                               "specialization marker the first class takes from guild 1 does not cancel it."),
        HouseRule("P3", "A Tragedy marker put on the King pushes the royalty as Play B does, but scores no VP "
                        "and gives no swap."),
        HouseRule("J-CHAIR2", "Chair II with no marker in the player's reserve gives the place card only: no "
                              "marker is moved from elsewhere."),
        HouseRule("P4", "A victim of a red chair chooses which card to discard and which guild marker to "
                        "remove; all the victims decide at once, each for himself, before the effect resolves."),
        HouseRule("P2", "Only the active player may swap two court stamps after his Play B; no other player "
                        "swaps then, even one who shares the royalty majority."),
        HouseRule("J-COURT", "A court visit with no empty chair the player may take and no marker for Play B "
                             "has no effect."),
        HouseRule("task 4", "Royal prestige: each stamp taken this round gives prestige by where its discipline "
                            "sits at court (King 4, Queen 3, Prince 2, Princess 1, beside the Counselor 0), and "
                            "each player, from the starting player, converts all of it at once into VP (1 for 1), "
                            "money ($1 for 1) or crowns (1 for 2; 1 for 1 with the Heralds)."),
        HouseRule("task 5", "Between rounds the pawns leave, the city stamps go back face down and 8/10/12 "
                            "(2/3/4 players; all if fewer remain) are drawn again, the class prices are "
                            "reshuffled, and the start passes left; genre blockers and hands stay."),
        HouseRule("J-INFLUENCE", "The end-game influence bonus (8 VP / 4 VP) goes only to players with at least "
                                 "one marker on the board: a second place with 0 markers gets no 4 VP, and if "
                                 "nobody has a marker nobody scores.", option="influence_needs_markers"),
        HouseRule("P6", "Victory points never go below 0, after chair III and the Crown Penalty too.",
                  option="vp_floor"),
        HouseRule("End of the game", "Players still tied after every tie-break of the rulebook share their "
                                     "rank."),
    )
    if rules.house_rule_options(version):
        return listed
    return without_switches(listed, rules.HOUSE_RULE_OPTIONS)  # 1.0.0-1.3.0: the same rules, no option


#: The current rules version's (``JesterEngine.house_rules``; each engine sets its version's).
HOUSE_RULES: tuple[HouseRule, ...] = house_rules(rules.CURRENT)
