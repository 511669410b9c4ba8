"""Tumult Royale's house rules: what Motley decided beyond the rulebook, in the order
docs/rules/tumult-royale.md gives them. Not the publisher's rules. Two kinds, as that document tags them:

* [PROPOSAL] (house rules 4.5): where the rulebook is silent or its variant's text is missing, named
  "4.5 <topic>" as the engine's refusals cite them ("house rule 4.5 digital tax collection");
* [ENGINE TR-...]: a decision taken while implementing that a player notices at the table, a reading or
  a bound where the rulebook's text is open (TR-DISTANT, TR-ZERO, TR-LOSS, TR-PASS, TR-READY, TR-DONE).

Each entry says Motley's part; where it names a clause of the rulebook (the king's 5 supporters, the rank
order of placement, the order of the rulebook's tumult example) it says so, as context. Rulebook lines are
those of ../shared/rules/rulebooks/tumult-royale.txt; "house rules 4.x" is ../shared/rules/house-rules.md.

Each rules version is served its own catalogue (``house_rules(RULES[version])``): 1.1.0 (issue 9) added
the ready step's bound (TR-READY, switched by the option ``ready_seconds``) and the zero-take rule
(TR-ZERO); 1.0.0's list says what it played instead (docs/rules/tumult-royale.md, "Rules versions").
1.2.0 made **4.5 tiles in play** switchable (the option ``set_aside``: its default keeps 12 in all, "per-player"
plays the rulebook's 3 each); 1.0.0's and 1.1.0's entry names no option."""

from __future__ import annotations

from domain.engine import HouseRule

from .state import CURRENT, RULES, Rules


def house_rules(rules: Rules) -> tuple[HouseRule, ...]:
    """The house rules as ``rules`` (one rules version) plays them, in docs/rules/tumult-royale.md's order."""
    return (
        # Rulebook l.289 "If I'm the king, I need to give back 5 supporters" (who the king is, the cap and
        # the supply are house rules 4.5 "King's give-back"); round_end.compute; the pool may go below 0.
        HouseRule("4.5 king's give-back", "Every round the king after the re-ranking, new or re-elected, gives "
                                          "back the rulebook's 5 supporters (all he has if fewer); the supporter "
                                          "supply never runs out, so overpayment and the +2 always pay."),
        # House rules 4.5 "Commodity mix" (the rulebook gives only "39 commodity tiles"); data._VALUES.
        HouseRule("4.5 commodity mix", "Each commodity (bread, marble, tools) has 13 tiles: five 1s, five 2s and "
                                       "three 3s."),
        # House rules 4.5 "Region tiles" (layouts, 2-3 players) and 4.4 [FOUND] (4 players: 8 tiles, the outer
        # columns face down); data.FACE_DOWN, setup.apply_regions; no rotation [ENGINE].
        HouseRule("4.5 region tiles", "The ten region tiles have fixed layouts of 3 pastures, 2 forests, 2 "
                                      "mountains, 1 village and 1 palace, never rotated; 4 or 6 of them are "
                                      "drawn at random with 2 or 3 players (8 with 4, as found), the top row "
                                      "face down (with 4 players the outer columns, as found); fields touch "
                                      "orthogonally across tile borders."),
        # House rules 4.5 "Costs" (the village's cost; all statues at once); rulebook l.233, l.239 the others.
        HouseRule("4.5 costs", "A village costs 2 bread and 2 tools for 2 statues; a village or palace takes all "
                               "its statues at once, and the player must still have that many."),
        # Rulebook l.263 "not adjacent to a village, palace, or mountain", read as orthogonal contact on a
        # face-up tile [ENGINE]; placement.candidate_fields / check.
        HouseRule("TR-DISTANT", "A distant pasture or forest (the rulebook's double-cost field away from the "
                                "player's statues) must touch a village, palace or mountain of a face-up tile "
                                "orthogonally: touching one only diagonally is not enough."),
        _tiles_in_play(rules),
        # Rulebook l.360: the variant's heading without its text; house rules 4.5 "Variant".
        HouseRule("4.5 gamble variant", "With the gamble variant (the rulebook gives only its name, \"Taxing "
                                        "Royalty Who Love to Gamble\") the spinner is spun after tax collection, so "
                                        "the royals tax without knowing the people's demand.", "gamble"),
        # House rules 4.5 "Tumult order"; the order itself is the rulebook example's (l.219 bread A, l.223
        # marble B, l.225 tools C); tumults.compute.
        HouseRule("4.5 tumult order", "Each commodity's tumult is checked against the units left in the centre, "
                                      "counted once before any tile is returned (in the order of the rulebook's "
                                      "example: bread, marble, tools)."),
        _zero_take(rules),
        # Rulebook l.209 "The greediest player will lose 3 supporters"; the cap is [ENGINE] (tumults.compute).
        HouseRule("TR-LOSS", "A greediest player with fewer than the rulebook's 3 supporters loses all he has: "
                             "nobody goes below 0."),
        # House rules 4.5 "Placement"; rank order, king first (l.233) and repeated rounds (l.257) are the
        # rulebook's; placement.apply / advance.
        HouseRule("4.5 placement", "In statue placement each turn places one field, and a pass is final for the "
                                   "round (turns go in the rulebook's rank order, king first, round after round "
                                   "until every seat has passed)."),
        # Rulebook l.241 "you will have to pass", done for the player [ENGINE]; placement.advance.
        HouseRule("TR-PASS", "A seat that cannot pay for any field it may build on is passed automatically in "
                             "statue placement, for the rest of the round."),
        # House rules 4.5 "Chronicle thresholds"; rulebook l.345 (space 7: 5), l.347 (space 10).
        HouseRule("4.5 chronicle thresholds", "On chronicle spaces 6, 8 and 9 the game ends when the most statues "
                                              "placed exceed the fewest by more than 6, 4 and 3 (space 7's 5 and "
                                              "space 10 are the rulebook's)."),
        _ready(rules),
        # House rules 4.5 "Digital tax collection" over rulebook l.156-184 (the hourglass, "usually for about
        # 20 seconds"; l.162 the holder returns or keeps a tile at the end; l.184 opponents may take any tile
        # outside your board); taxes.check_tax / close_tax.
        HouseRule("4.5 digital tax collection", "Live tax collection runs on a server timer of tax_seconds "
                                                "(default 20 s) in place of the hourglass; a player holds one "
                                                "peeked tile at a time, seen only by him, that no other player may "
                                                "peek, and keeps or returns it; when the timer runs out, a tile "
                                                "still in a hand goes back face down.", "tax_seconds"),
        # Rulebook l.162, l.172: collection lasts until the hourglass runs out; "done" is [ENGINE]
        # (taxes.apply_tax).
        HouseRule("TR-DONE", "A player with no tile in hand may say done: his collection is over for the round, "
                             "with no way back; live collection ends as soon as every player is done, before "
                             "the timer runs out."),
        # House rules 4.5 "Digital tax collection": ">= 600 ms between a player's peeks"; engine.cooldown.
        HouseRule("4.5 peek limit", "A seat must wait at least 600 ms between two peeks, in either tax mode."),
        # House rules 4.5 "Offer an optional asynchronous mode"; taxes.start_tax / apply_tax.
        HouseRule("4.5 asynchronous mode", "With tax_mode \"async\" tax collection has no timer: one seat at a "
                                           "time in rank order from the king, a turn being one peek then keep or "
                                           "return, with 8 peeks a seat each round.", "tax_mode"),
    )


def _tiles_in_play(rules: Rules) -> HouseRule:
    """4.5 tiles in play: house rules 4.5 "Tiles in play" over rulebook l.311-313 ("each player will once
    again remove three tiles"); data.set_aside, taxes.apply_shuffle. Since 1.2.0 the option ``set_aside``
    switches it ("per-player" plays the rulebook's 3 each); 1.0.0 and 1.1.0 always set 12 aside."""
    if rules.set_aside_option:
        return HouseRule("4.5 tiles in play", "By default (set_aside \"total\") every round 12 of the 39 commodity "
                                              "tiles are set aside unseen, 6, 4 or 3 a player with 2, 3 or 4 players, "
                                              "and the other 27 lie face down in the centre. With set_aside "
                                              "\"per-player\" each player sets aside the rulebook's 3: 6, 9 or 12 "
                                              "aside and 33, 30 or 27 in the centre.", "set_aside")
    return HouseRule("4.5 tiles in play", "Every round 12 of the 39 commodity tiles are set aside unseen, 6, 4 or 3 "
                                          "a player with 2, 3 or 4 players (the rulebook's 3 each is kept only with "
                                          "4), and the other 27 lie face down in the centre.")


def _zero_take(rules: Rules) -> HouseRule:
    """TR-ZERO: who may be the greediest when mercy brings a take to 0 (rulebook l.196 and l.200 are silent
    on it; tumults.compute). 1.1.0 changed it (state.Rules.zero_take_not_greedy)."""
    if rules.zero_take_not_greedy:
        return HouseRule("TR-ZERO", "A player whose take of a commodity counts 0 after mercy is never its "
                                    "greediest (he loses no supporters and may still get the +2 for placing no "
                                    "statue); a tumult nobody counts anything in has no greediest.")
    return HouseRule("TR-ZERO", "Anyone who took a unit of a commodity can be its greediest, even when mercy "
                                "brings his count to 0; a tumult nobody took from has no greediest.")


def _ready(rules: Rules) -> HouseRule:
    """TR-READY: the rulebook's ready question (l.156 "The king or queen then asks everyone if they're ready
    to play. Once everyone is ready, the king flips the hourglass"), played since 1.1.0 with a bound
    (taxes.begin_collection / apply_ready_timeout); 1.0.0 started the hourglass without it."""
    if rules.ready_step:
        return HouseRule("TR-READY", "The rulebook's ready question before the hourglass is bounded: once "
                                     "ready_seconds (default 30 s) have passed, the hourglass starts even if not "
                                     "everyone has said ready. Live mode only: the asynchronous mode has no ready "
                                     "step.", "ready_seconds")
    return HouseRule("TR-READY", "There is no ready question before tax collection: the hourglass starts as soon "
                                 "as the spinner is spun (with the gamble variant, as soon as the tiles are laid "
                                 "out).")


#: The current rules version's (``TumultRoyaleEngine.house_rules``; each engine sets its version's).
HOUSE_RULES: tuple[HouseRule, ...] = house_rules(RULES[CURRENT])
