"""The end of a round: steps 4 (its end), 5, 6 and 7 as one automatic step, the king's reveal on
chronicle space 3, and the end of the game.

Rulebook steps 4-7, "The Royal Chronicle" and "Ending the Game"; house rules 4.5 thresholds and give-back.
"""

from __future__ import annotations

from typing import Optional

from domain.engine import IllegalAction, Result

from . import data as D
from .state import Rules, TumultState, game_over, keys, new_round, placed, ranks_of

REVEAL = "rulebook The Royal Chronicle (space 3)"


def compute(rules: Rules, state: TumultState) -> dict:
    n = state["n"]
    supporters = list(state["supporters"])
    # step 4, end of the placement phase: +2 supporters to whoever placed no statue this round,
    # unless he was a greediest player this round; unused tiles expire (no supporters).
    consolation = [s for s in range(n) if state["placed_round"][s] == 0 and not state["greedy"][s]]
    for s in consolation:
        supporters[s] += D.CONSOLATION
    expired = sorted(t for castle in state["castle"] for t in castle)
    # step 5: most supporters first, ties -> the previously higher rank
    ranking = sorted(range(n), key=lambda s: (-supporters[s], ranks_of(state)[s]))
    ranks = [0] * n
    for i, s in enumerate(ranking):
        ranks[s] = i + 1
    # step 6: the king gives back 5 supporters and fills the next chronicle space
    king = ranking[0]
    give_back = min(D.GIVE_BACK, supporters[king])
    space = state["round"]
    statues = min(1 if space <= 5 else 2, state["statues_left"][king])
    out = {
        "type": "round-end",
        "consolation": consolation,
        "expired": expired,
        "ranks": ranks,
        "king": king,
        "give_back": give_back,
        "space": space,
        "statues": statues,
        "reveal": [],
        "difference": None,
        "threshold": None,
        "game_over": False,
        "reason": None,
        "mercy": None,
    }
    now_placed = placed(state)
    now_placed[king] += statues
    if state["statues_left"][king] - statues == 0:
        out.update(game_over=True, reason="25th statue")
        return out
    if space == 5:
        out["reveal"] = [p for p in range(len(state["face_up"])) if not state["face_up"][p]]
    if space >= 6:
        diff = max(now_placed) - min(now_placed)
        out["difference"] = diff
        out["threshold"] = D.THRESHOLDS[space]
        if space == 10:
            out.update(game_over=True, reason="tenth round")
            return out
        if diff > D.THRESHOLDS[space]:
            out.update(game_over=True, reason="chronicle threshold")
            return out
    # step 7: mercy for the fewest statues placed; nobody if all are equal
    low = min(now_placed)
    out["mercy"] = [False] * n if all(p == low for p in now_placed) else [p == low for p in now_placed]
    return out


def apply(rules: Rules, s: TumultState, step: dict) -> None:
    n = s["n"]
    for seat in step["consolation"]:
        s["supporters"][seat] += D.CONSOLATION
        s["pool"] -= D.CONSOLATION
    s["centre"] = sorted(s["centre"] + step["expired"])
    s["castle"] = [[] for _ in range(n)]
    s["ranks"] = list(step["ranks"])
    king = step["king"]
    s["supporters"][king] -= step["give_back"]
    s["pool"] += step["give_back"]
    s["statues_left"][king] -= step["statues"]
    s["chronicle"].append([king, step["statues"]])
    for p in step["reveal"]:
        s["face_up"][p] = True
    if step["game_over"]:
        game_over(s, step["reason"], king if step["reason"] == "25th statue" else None)
        return
    s["mercy"] = list(step["mercy"])
    if step["space"] == 3 and not all(s["face_up"]):
        s["phase"] = "reveal"
        s["turn"] = king
        s["reveals_left"] = min(D.FIRST_REVEAL[n], s["face_up"].count(False))
    else:
        new_round(s)


# -- the king's reveal on chronicle space 3 -----------------------------------------------------
def turn_seat(rules: Rules, state: TumultState) -> list:
    return [state["turn"]]


def legal_reveal(rules: Rules, state: TumultState, seat: int) -> list:
    return [{"type": "reveal", "region": p} for p, up in enumerate(state["face_up"]) if not up]


def check_reveal(rules: Rules, state: TumultState, seat: int, action: dict) -> None:
    if action["type"] != "reveal":
        raise IllegalAction(REVEAL, "the king must reveal a face-down region tile now")
    keys(action, {"type", "region"}, REVEAL)
    p = action["region"]
    if type(p) is not int or not 0 <= p < len(state["face_up"]) or state["face_up"][p]:
        raise IllegalAction(REVEAL, "that is not a face-down region tile")


def apply_reveal(rules: Rules, s: TumultState, seat: int, action: dict) -> None:
    s["face_up"][action["region"]] = True
    s["reveals_left"] -= 1
    if s["reveals_left"] == 0:
        new_round(s)


# -- the end --------------------------------------------------------------------------------------
def result(state: TumultState) -> Optional[Result]:
    """The 25th statue wins at once; otherwise most statues placed, ties -> the higher rank."""
    if state["phase"] != "over":
        return None
    now_placed = placed(state)
    w = state["winner25"]
    ranking = sorted(range(state["n"]), key=lambda s: (0 if s == w else 1, -now_placed[s], ranks_of(state)[s]))
    ranks = [0] * state["n"]
    for i, s in enumerate(ranking):
        ranks[s] = i + 1
    return Result(
        scores=tuple(now_placed),
        ranks=tuple(ranks),
        detail={
            "reason": state["end"],
            "round": state["round"],
            "statues_placed": placed(state),
            "nobility": list(ranks_of(state)),
            "supporters": list(state["supporters"]),
        },
    )
