"""Claim or challenge (rulebook; house rule 3.4 step 6): the round winner claims a Crown from the
centre, or, once the centre is empty, may challenge a Crown holder who committed this round (with the
option ``challenge_sat_out``, rules 1.5.0, also one who sat out for a Noble Exchange: FC-CHALLENGE); a
seat holding all four Crowns wins at once (rulebook "The first player to hold all four Crowns wins")."""

from __future__ import annotations

from domain.engine import Actor, IllegalAction

from .cards import CROWNS
from .round_end import cleanup, summary
from .state import GAME, FoolsCrownState, Rules, challenge_sat_out

ACTIONS = ("claim", "challenge", "pass")
CLAIM_RULE = "rulebook: The round winner chooses one Crown from the center battlefield"
CHALLENGE_RULE = "house rule 3.4 step 6"


def challengeable(state: FoolsCrownState, seat: int) -> bool:
    """Whether ``seat`` took part in this round as house rule 3.4 step 6 asks of the challenged player
    (his Crowns aside). Its first sentence, "must have taken part in this round (committed)", is the
    default: he committed (one who failed qualification "cannot defend"). FC-CHALLENGE: with the option
    ``challenge_sat_out`` (1.5.0) its second, "A player who sat out or failed qualification cannot
    defend", is read of a Noble Exchange too, so one who sat out for it may be challenged as well."""
    if state["commits"][seat] is not None:
        return True
    return challenge_sat_out(state) and state["exchanged"][seat] is not None


def targets(state: FoolsCrownState, winner: int) -> list[int]:
    """Seats the round winner may challenge: the other Crown holders that may be challenged (``challengeable``)."""
    return [
        t
        for t in range(state["players"])
        if t != winner and state["crowns"][t] and challengeable(state, t)
    ]


def seats(state: FoolsCrownState) -> tuple[int, ...]:
    winner = state["winner"]
    assert winner is not None
    return (winner,)


def legal(state: FoolsCrownState, seat: int) -> list[dict]:
    if state["centre"]:
        return [{"type": "claim", "crown": c} for c in state["centre"]]
    actions: list[dict] = [
        {"type": "challenge", "target": t, "crown": c}
        for t in targets(state, seat)
        for c in state["crowns"][t]
    ]
    actions.append({"type": "pass"})
    return actions


def check(state: FoolsCrownState, seat: int, action: dict) -> None:
    kind = action["type"]
    if kind == "claim":
        if not state["centre"]:
            raise IllegalAction(
                CLAIM_RULE, "the centre is empty: the round winner may only challenge or pass"
            )
        if type(action["crown"]) is not str or action["crown"] not in state["centre"]:
            raise IllegalAction(CLAIM_RULE, "that Crown is not in the centre")
        return
    if state["centre"]:
        raise IllegalAction(
            CHALLENGE_RULE,
            "a challenge (or pass) is only possible once all four Crowns have been claimed; "
            "claim one from the centre",
        )
    if kind == "pass":
        return
    target, crown = action["target"], action["crown"]
    if type(target) is not int or not 0 <= target < state["players"]:
        raise IllegalAction(f"{GAME} actions", "the challenge target must be a seat number")
    if target == seat:
        raise IllegalAction(CHALLENGE_RULE, "you cannot challenge yourself")
    if not challengeable(state, target):
        raise IllegalAction(CHALLENGE_RULE, _not_challengeable(state))
    if type(crown) is not str or crown not in state["crowns"][target]:
        raise IllegalAction(CHALLENGE_RULE, "the challenged player does not hold that Crown")


def out_of_phase(state: FoolsCrownState, seat: Actor, kind: str) -> tuple[str, str]:
    """Why a claim, challenge or pass is refused outside the claim step; to the last round's winner, also
    that his claim step is over or never came (an empty centre and nobody who may be challenged, as an
    import that switched challenge_sat_out off met: "only for the round winner" named the winner)."""
    refusal = f"{kind} is only possible for the round winner after the round"
    last = state["last"]
    if last is not None and last["winner"] == seat and last["claimed"] is None:
        refusal += (f"; round {last['round']}'s claim step is over, or was skipped as its centre was empty and "
                    "no other Crown holder could be challenged (" + _not_challengeable(state) + ")")
    return CHALLENGE_RULE, refusal


def _not_challengeable(state: FoolsCrownState) -> str:
    """Why a seat that neither committed nor (where the option allows) sat out may not be challenged."""
    if challenge_sat_out(state):
        return "the challenged player must have committed cards or sat out for a Noble Exchange this round"
    return "the challenged player must have committed cards this round"


def apply(rules: Rules, s: FoolsCrownState, seat: Actor, action: dict) -> None:
    assert type(seat) is int
    kind = action["type"]
    if kind == "pass":
        s["claimed"] = None
        cleanup(rules, s)
        return
    crown = action["crown"]
    if kind == "claim":
        s["centre"].remove(crown)
        s["claimed"] = {"crown": crown, "from": None}
    else:
        s["crowns"][action["target"]].remove(crown)
        s["claimed"] = {"crown": crown, "from": action["target"]}
    s["crowns"][seat].append(crown)
    if len(s["crowns"][seat]) == len(CROWNS):
        s["stage"] = "over"
        s["last"] = summary(s)
        s["end"] = {"reason": "four-crowns", "winner": seat, "rounds": s["round"]}
        return
    cleanup(rules, s)


def enter_claim(rules: Rules, s: FoolsCrownState, winner: int) -> None:
    """The round has a winner: the claim step, skipped when there is nothing to claim or challenge."""
    s["winner"] = winner
    if s["centre"] or targets(s, winner):
        s["stage"] = "claim"
    else:
        s["claimed"] = None
        cleanup(rules, s)
