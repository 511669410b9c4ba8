"""What each one sees (rulebook; house rule 3.4 step 2; FC-SEAL, FC-DISCARD): observations and how an
action appears to others in the event list. Every observation is built fresh: it shares nothing
mutable with the state, nor with another observation."""

from __future__ import annotations

from typing import Optional

from domain.engine import Actor, copy_json

from .cards import VALUE, face_up_first, sort_cards
from .state import CAP_ROUNDS, FoolsCrownState, seat_order


def view(state: FoolsCrownState, viewer: Optional[int], to_act: tuple[int, ...]) -> dict:
    """What ``viewer`` (a seat, or None for a spectator) sees; per-seat facts are lists indexed by
    seat: hands = number of cards in each hand; jokers = number of Jokers held (they are alike);
    commits = [face up, face down] with None for what is still hidden (None: no commit);
    exchanged = the hand revealed by a Noble Exchange this round; exchange_discards = the two Nobles
    that exchange discarded (rulebook "reveal your hand, discard two Nobles": public, like the hand,
    so every viewer knows which three stayed); gambled = number of cards
    exchanged by a Joker gamble this round (0: none). ``to_act``: the seats acting now (with
    seat-order commits only the current committer); options = the match's options (``challenge_sat_out``
    only from rules 1.5.0, whose option it is)."""
    out = state["outcome"]
    resolved = out is not None
    sealed = not seat_order(state) and not all(state["done"])
    commits = [
        None
        if c is None
        else list(c)  # [face up, face down]
        if resolved or i == viewer
        else [None, None]  # sealed until every seat has committed (FC-SEAL)
        if sealed
        else [c[0], None]  # the lower card stays face down until the round is resolved
        for i, c in enumerate(state["commits"])
    ]
    result = {
        "stage": state["stage"],
        "round": state["round"],
        "to_act": list(to_act),
        "centre": list(state["centre"]),
        "deck": len(state["deck"]),
        "discard": len(state["discard"]),
        "hands": [len(h) for h in state["hands"]],
        "jokers": [len(j) for j in state["jokers"]],
        "crowns": [list(c) for c in state["crowns"]],
        "commits": commits,
        "exchanged": [None if e is None else list(e) for e in state["exchanged"]],
        "exchange_discards": [None if e is None else list(e) for e in state["exchange_discards"]],
        "gambled": list(state["gambled"]),
        "rolls": [None if r is None else list(r) for r in state["rolls"]],
        "strengths": None if out is None else list(out["strengths"]),
        "qualified": None if out is None else list(out["qualified"]),
        "tiebreak": copy_json(state["tiebreak"]),
        # Once the match is over, the match's winner (as ``end`` names it): at the safety cap the last
        # round's winner, who may rank last, was shown beside ``end.winner`` null (the round's winner
        # stays in ``last_round``).
        "winner": state["winner"] if state["end"] is None else state["end"]["winner"],
        "last_round": copy_json(state["last"]),
        "leader": state["leader"],
        "max_rounds": CAP_ROUNDS if state["options"]["safety_cap"] else None,
        "end": copy_json(state["end"]),
        # The match's options, public anyway (the Created event names them), in every version's observation:
        # a computer sees only its observation, and guessed them (challenge_sat_out, 1.5.0, it could not).
        "options": dict(state["options"]),
    }
    if viewer is not None:
        result["you"] = viewer
        result["hand"] = sort_cards(state["hands"][viewer])
    return result


def redact_action(
    state: FoolsCrownState, actor: Actor, action: dict, viewer: Optional[int]
) -> Optional[dict]:
    """A commit is sealed from the others (FC-SEAL); with seat-order commits its face-up card is shown at
    once (house rule 3.4 step 2). A gamble shows only how many cards went: the discard pile is face
    down (FC-DISCARD). Everything else is public."""
    if actor != viewer and isinstance(action, dict):
        cards = action.get("cards")
        if action.get("type") == "commit":
            if (
                seat_order(state)
                and type(cards) is list
                and len(cards) == 2
                and all(type(c) is str and c in VALUE for c in cards)
            ):
                return {"type": "commit", "up": face_up_first(*cards)[0]}
            return {"type": "commit"}
        if action.get("type") == "gamble":
            return {"type": "gamble", "count": len(cards) if type(cards) is list else None}
    return copy_json(action)
