"""A turn (rulebook How to Play): play a card and visit its place, then optionally buy a card;
the no-money rescue (house rule P5); the round-end trigger and (1.5.0) the nine-turn cap."""

from __future__ import annotations

from . import city, court, guilds, round_end, theater
from .core import Handler, card_options, pl, place_price, pop, push, remove_royalty
from .data import DISCIPLINES, GUILD_IDS, MAX_TURNS, PLACES, ROYALTY


def legal_play(state, frame, seat):
    hand = pl(state, seat)["hand"]
    return [{"type": "play", "place": p} for i, p in enumerate(PLACES) if hand[i] > 0]


def apply_play(state, frame, seat, action):
    place = action["place"]
    i = PLACES.index(place)
    p = pl(state, seat)
    p["hand"][i] -= 1
    p["table"][i] += 1
    state["last_played"] = place
    if p["table"][i] >= 3 and state["trigger"] is None:
        state["trigger"] = seat  # the 3rd card of one place triggers the end of the round
    pop(state)
    push(state, {"kind": "buy", "seat": seat})
    if place == "city":
        city.begin_visit(state, seat)
    elif place == "theater":
        theater.begin_visit(state, seat)
    elif place == "court":
        court.begin_visit(state, seat)
    else:
        guilds.begin_visit(state, seat)


def affordable(state, seat):
    money = pl(state, seat)["money"]
    return [p for p in card_options(state) if place_price(state, p) <= money]


def legal_buy(state, frame, seat):
    out = [{"type": "buy", "place": p} for p in affordable(state, seat)]
    if sum(pl(state, seat)["hand"]) > 0:
        out.append({"type": "no-buy"})
    return out


def apply_buy(state, frame, seat, action):
    p = pl(state, seat)
    if action["type"] == "buy":
        i = PLACES.index(action["place"])
        p["money"] -= place_price(state, action["place"])
        state["piles"][i] -= 1
        p["hand"][i] += 1
    end_turn(state, seat)


def settle_buy(state, frame):
    seat = frame["seat"]
    p = pl(state, seat)
    if affordable(state, seat):
        return False
    if sum(p["hand"]) > 0:
        end_turn(state, seat)  # nothing to buy and no obligation: the turn ends
        return True
    # (every rules version lists a source exactly when he has a marker left to box)
    if card_options(state) and rescue_sources(state, seat):
        push(state, {"kind": "rescue", "seat": seat})  # house rule P5
        return True
    # house rule P5: every pile empty (or no marker left to sell): take back the card just played
    i = PLACES.index(state["last_played"])
    p["table"][i] -= 1
    p["hand"][i] += 1
    end_turn(state, seat)
    return True


def rescue_sources(state, seat):
    """Rules 1.2.0 - rulebook 2nd Action: "The player removes one of his influence markers from the
    game"; it "may be taken from any guild, from the court (royalty spaces and Counselor) and also
    from the specializations table" and "the player must evaluate where to take the marker from in
    order to minimize his loss". Any of his markers, his choice, the reserve included (as in 1.0.0):
    the list adds the board and the table (whose markers otherwise never move) to his own supply."""
    p = pl(state, seat)
    out = ["reserve"] if p["reserve"] > 0 else []
    return out + _placed_sources(state, seat)


def _placed_sources(state, seat):
    p = pl(state, seat)
    out: list = [g for g in GUILD_IDS if p["guilds"][g - 1] > 0]  # guild numbers, then place names
    out += [ROYALTY[i] for i, s in enumerate(state["royalty"]) if s == seat]
    if seat in state["counselor"]:
        out.append("counselor")
    out += [d for i, d in enumerate(DISCIPLINES) if p["spec"][i]]
    return out


def rescue_sources_1_1(state, seat):
    """Rules 1.1.0: only the places the rulebook lists (guilds, court, specialization table); the
    reserve only as a fallback when he has no marker in any of them [ENGINE]. Dropped in 1.2.0: it
    could cost a guild power or royalty points while unused markers sat in his reserve."""
    out = _placed_sources(state, seat)
    if not out and pl(state, seat)["reserve"] > 0:
        out.append("reserve")
    return out


def legal_rescue(state, frame, seat):
    return [{"type": "rescue", "from": s} for s in rescue_sources(state, seat)]


def legal_rescue_1_1(state, frame, seat):
    return [{"type": "rescue", "from": s} for s in rescue_sources_1_1(state, seat)]


def apply_rescue(state, frame, seat, action):
    src = action["from"]
    p = pl(state, seat)
    if src == "reserve":
        p["reserve"] -= 1
    elif isinstance(src, int):
        p["guilds"][src - 1] -= 1
    elif src in ROYALTY:
        remove_royalty(state, ROYALTY.index(src))
    elif src == "counselor":
        state["counselor"].remove(seat)
    else:
        p["spec"][DISCIPLINES.index(src)] = False
    p["boxed"] += 1
    p["money"] += 3
    pop(state)  # back to the buy frame, which he can now afford


def end_turn(state, seat):
    pop(state)  # the buy frame
    if len(state["blocked"]) >= 4:
        state["blocked"] = []  # the 4th genre frees all genres at the end of the turn
    pl(state, seat)["turns"] += 1
    state["last_played"] = None
    n = state["n"]
    if "round_turns" in state:  # rules 1.5.0 (rules.caps_turns); older states have no count and no cap
        state["round_turns"] += 1
        if state["trigger"] is None and state["round_turns"] >= MAX_TURNS * n:
            # Rulebook How to Play: "During a round, each player takes a minimum of three and a maximum
            # of nine turns." Without a take-back (house rule P5) a player's 9th card is a 3rd of some
            # place (4 places x 2), so only a round in which every player took a card back reaches the
            # end of the 9th turn of the player before the starting player with nobody having triggered:
            # it ends now, every player having taken nine turns. Nobody triggered, so the favors start
            # from the starting player [ENGINE, listed with P5]. Not set earlier, on the starting player's
            # 9th turn: a later player may still trigger in this last lap, and the rulebook's favors start
            # from him ("The player who triggered the end of the round chooses first").
            state["trigger"] = state["start"]
    if state["trigger"] is not None and seat == (state["start"] - 1) % n:
        round_end.begin_round_end(state)
    else:
        push(state, {"kind": "play", "seat": (seat + 1) % n})


HANDLERS = {
    "play": Handler("jester 1st Action", legal_play, apply_play),
    "buy": Handler("jester 2nd Action", legal_buy, apply_buy, settle_buy),
    "rescue": Handler("house rule P5", legal_rescue, apply_rescue),
}
