"""What a caller sees of a match and of its events: only what that seat (or a spectator) may know."""

from __future__ import annotations

from typing import Any, Optional

from domain.engine import CHANCE, SYSTEM, Phase
from domain.match import Match


def iso(moment) -> Optional[str]:
    return None if moment is None else moment.isoformat()


def seats_view(match: Match) -> list[dict]:
    return [
        {
            "seat": seat,
            "player_id": match.players[seat],
            "name": match.names[seat],
            "computer": match.bots.get(str(seat)),
        }
        for seat in range(match.num_seats)
    ]


def match_view(match: Match, seat: Optional[int]) -> dict:
    """The match as ``seat`` sees it (``None``: a spectator)."""
    engine = match.engine
    turn = match.to_act()
    if match.state is None:
        observation = None
    elif seat is None:
        observation = engine.public_observation(match.state)
    else:
        observation = engine.observation(match.state, seat)
    legal = []
    if seat is not None and match.status == "active" and turn.kind == Phase.PLAYERS and seat in turn.seats:
        legal = engine.legal_actions(match.state, seat)
    return {
        "id": str(match.id),
        "game": match.game,
        "rules_version": match.rules_version,
        "status": match.status,
        "version": match.version,
        "seats": seats_view(match),
        "options": match.options,
        "your_seat": seat,
        "to_act": {"kind": turn.kind, "seats": list(turn.seats)},
        "timer": None if match.timer is None else {"phase": match.timer["phase"], "deadline": iso(match.timer["deadline"])},
        "observation": observation,
        "legal_actions": legal,
        "result": match.result,
        "moves": match.moves,
        "created_at": iso(match.created_on),
        "updated_at": iso(match.modified_on),
    }


def event_view(domain_event: Any, before: Optional[Match], seat: Optional[int]) -> dict:
    """One stored event as ``seat`` may see it: secrets redacted by the game's engine."""
    kind = type(domain_event).__name__
    view: dict[str, Any] = {
        "version": domain_event.originator_version,
        "type": kind,
        "at": iso(domain_event.timestamp),
    }
    if kind == "Created":
        view.update(
            game=domain_event.game,
            rules_version=domain_event.rules_version,
            seats=domain_event.seats,
            options=domain_event.options,
            computers=domain_event.bots,
        )
    elif kind == "SeatTaken":
        view.update(seat=domain_event.seat, player_id=domain_event.player_id, name=domain_event.name)
    elif kind == "MoveMade":
        shown = before.engine.redact(before.state, domain_event.seat, domain_event.action, seat)
        view.update(seat=domain_event.seat, action=shown, hidden=shown is None)
    elif kind == "ChanceDrawn":
        shown = before.engine.redact(before.state, CHANCE, domain_event.outcome, seat)
        view.update(outcome=shown, hidden=shown is None)
    elif kind in ("StepResolved", "TimedOut"):
        shown = before.engine.redact(before.state, SYSTEM, domain_event.step, seat)
        view.update(step=shown, hidden=shown is None)
        if kind == "TimedOut":
            view.update(phase=domain_event.phase)
    elif kind in ("TimerStarted", "TimerCleared"):
        view.update(phase=domain_event.phase)
        if kind == "TimerStarted":
            view.update(deadline=iso(domain_event.deadline))
    elif kind == "Finished":
        view.update(result=domain_event.result)
    return view
