"""What a viewer sees of a match and of its events: the one visibility policy of the service.

Every read (the match at any version, the event list, a diff, the live stream, the export) takes a
:class:`Viewer` and goes through :func:`lens_for`, which decides once what that viewer may see:

* a seat: its own observation (the engine's ``observation``) and the events as the engine redacts
  them for that seat;
* a spectator: the public observation and the events as redacted for nobody;
* the auditor (an admin credential from the settings): everything, the engine state, every event
  unredacted and the chance seed.

Once a match is finished, everything becomes visible to everyone (at every version of it), unless it
was created with ``"reveal_at_end": false``; then seats and spectators keep their views, and the chance
seed is shown only to the auditor (the seed would re-derive every hidden shuffle).
Nothing else in the service builds a view of a match or of its events (docs/architecture.md,
"Visibility").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Optional

from domain.engine import CHANCE, SYSTEM, Phase, copy_json
from domain.match import STATUS_ACTIVE, Match
from domain.tournament import Tournament

SEAT = "seat"
SPECTATOR = "spectator"
AUDITOR = "auditor"


@dataclass(frozen=True)
class Viewer:
    """Who reads: a player (seated or not) or the auditor. Anyone else is a spectator."""

    player_id: Optional[str] = None
    auditor: bool = False

    @classmethod
    def spectator(cls) -> Viewer:
        return cls()

    @classmethod
    def player(cls, player_id: str) -> Viewer:
        return cls(player_id=str(player_id))

    @classmethod
    def the_auditor(cls) -> Viewer:
        return cls(auditor=True)


@dataclass(frozen=True)
class Lens:
    """The policy applied: what one viewer may see of one match (at any of its versions)."""

    kind: str  # SEAT, SPECTATOR or AUDITOR
    seat: Optional[int]  # the viewer's seat, if it holds one
    sees_all: bool  # the auditor, or anyone once a finished match is revealed
    sees_seed: bool
    sees_own: bool = True  # the seat's private view: not while the computer plays it after a resignation

    def at(self, match: Optional[Match]) -> Lens:
        """This lens for ``match`` at one of its versions (the match view's, or the one just before an
        event): a seat resigned by then is the computer's, so its player sees it as a spectator does, also
        once the match is over. The cards the computer was dealt and offered face down for it after the
        resignation were shown to that player at the end, though nobody else saw them (``reveal_at_end:
        false``; a secrets probe). Versions before the resignation are the player's own view again then."""
        if self.kind == SEAT and self.sees_own and match is not None and self.seat in match.resigned:
            return replace(self, sees_own=False)
        return self

    @property
    def observes(self) -> Optional[int]:
        """The seat whose private view this viewer gets (None: a spectator's)."""
        return self.seat if self.sees_own else None

    def to_json(self) -> dict:
        # sees_own: a resigned seat's view is a spectator's while the match is played, and the view said so
        # nowhere (a client compared the resigned seats itself).
        return {"kind": self.kind, "seat": self.seat, "sees_all": self.sees_all,
                "sees_own": self.sees_own and self.kind == SEAT}


def lens_for(latest: Match, viewer: Viewer) -> Lens:
    """The policy, decided on the match as it is now (a rewind to an early version of a finished
    match is revealed too): the one place that says who sees what."""
    revealed = latest.secrets_shown
    if viewer.auditor:
        return Lens(AUDITOR, None, True, True)
    seat = None if viewer.player_id is None else latest.seat_of(viewer.player_id)
    kind = SPECTATOR if seat is None else SEAT
    # A player who resigned a match still played watches it as a spectator does: the computer plays the
    # seat on, and the new cards it is dealt (or draws, or is passed) would be news to an ally still at
    # the table. Once the match is over the versions before the resignation are the player's view again;
    # those after it stay the computer's (``Lens.at``).
    sees_own = not (seat is not None and seat in latest.resigned and latest.status == STATUS_ACTIVE)
    # A copy whose chance nothing proves: its seats may be anyone's, written on by whoever made the file (a
    # player set in a live match's other seat saw that seat's hand).
    sees_own = sees_own and not latest.chance_unproven
    return Lens(kind, seat, revealed, revealed, sees_own)


def iso(moment: Optional[datetime]) -> Optional[str]:
    return None if moment is None else moment.isoformat()


def seats_view(match: Match) -> list[dict]:
    return [
        {
            "seat": seat,
            "player_id": match.players[seat],
            "name": match.names[seat],
            "computer": match.bots.get(str(seat)),
            "kept_for": match.reserved.get(str(seat)),
        }
        for seat in range(match.num_seats)
    ]


def chance_view(chance: Optional[dict], lens: Lens, revealed_seed: Optional[str] = None) -> Optional[dict]:
    """The commitment is public from the first event; the seed only when the lens allows it."""
    if chance is None:
        return None
    view = {"scheme": chance["scheme"], "commitment": chance["commitment"], "seed": None}
    if lens.sees_seed:
        view["seed"] = chance["seed"]
    return view


def lineage_view(match: Match, forks: Optional[list] = None) -> dict:
    return {"parent": copy_json(match.parent), "forks": copy_json(forks or []),
            "imported": bool(getattr(match, "imported", False))}


def match_view(match: Match, lens: Lens, forks: Optional[list] = None, legal: bool = True) -> dict:
    """``match`` (at any version) as ``lens`` sees it. ``legal``: list the seat's legal actions
    (only for the latest version: nobody moves in the past)."""
    engine = match.engine
    turn = match.to_act()
    lens = lens.at(match)
    seat = lens.seat
    if match.state is None:
        observation = None
    elif not lens.sees_own:
        observation = engine.observe(match.state, None)
    else:
        observation = engine.observe(match.state, seat)
    legal_actions = []
    # A resigned seat is the computer's now: its player's every move is refused (rule: resignation), so it
    # is offered none.
    if (legal and seat is not None and match.status == "active" and turn.kind == Phase.PLAYERS and seat in turn.seats
            and seat not in match.resigned):
        legal_actions = engine.legal_actions(match.state, seat)
    view = {
        "id": str(match.id),
        "game": match.game,
        "rules_version": match.rules_version,
        "status": match.status,
        "created_by": match.created_by,
        "version": match.version,
        "seats": seats_view(match),
        "options": copy_json(match.options),
        "your_seat": seat,
        "viewer": lens.to_json(),
        "to_act": {"kind": turn.kind, "seats": list(turn.seats)},
        "timer": None if match.timer is None else {"phase": match.timer["phase"],
                                                   "deadline": iso(match.timer["deadline"])},
        "observation": observation,
        "legal_actions": legal_actions,
        "result": copy_json(match.result),
        "moves": match.moves,
        "reveal_at_end": match.reveal_at_end,
        # Whether its result counts for ratings (a player picks a match knowing it); an imported copy never does.
        "rated": match.counts_for_ratings,
        "chance": chance_view(match.chance, lens),
        "lineage": lineage_view(match, forks),
        "resigned": list(match.resigned),
        "forfeited": list(match.forfeited),
        "tournament": copy_json(match.tournament),
        # An imported copy's history links the original's matches, never the copy: shown, the copy
        # claimed the original's rematch, which links back only to the original.
        "rematch": ({"of": None, "next": None} if getattr(match, "imported", False)
                    else {"of": match.rematch_of, "next": match.rematch}),
        "turn_limit": copy_json(match.turn_limit),
        "turn_clock": None if match.turn_clock is None else {**match.turn_clock,
                                                             "deadline": iso(match.turn_clock["deadline"])},
        "absent": list(match.absent),
        # The viewer's seat may end the match now (POST /matches/{id}/claim): another seat's time ran out.
        "can_claim": legal and match.may_claim(seat),
        "unlisted": match.invitation is not None,
        "versions_required": match.versions_required,
        "voided": match.voided,
        "created_at": iso(match.created_on),
        "updated_at": iso(match.modified_on),
    }
    if lens.sees_all:
        view["state"] = copy_json(match.state)  # everything: the auditor, or a revealed finished match
    return view


#: Each stored event's fields as an export writes them (``event_data``), and as the import takes them.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "Created": ("game", "rules_version", "seats", "options", "bots", "created_by", "reveal_at_end",
                "chance", "parent", "rated"),
    "SeatTaken": ("seat", "player_id", "name"),
    "MoveMade": ("seat", "action", "request_key", "moved_at"),
    "ChanceDrawn": ("outcome",),
    "StepResolved": ("step",),
    "TimedOut": ("phase", "step"),
    "TimerStarted": ("phase", "deadline"),
    "TimerCleared": ("phase",),
    "Finished": ("result", "seed"),
    "Reopened": ("reserved",),
    "SeatLeft": ("seat",),
    "Resigned": ("seat",),
    "Forfeited": ("seats",),
    "Voided": ("reason",),
    "ResultVoided": ("reason",),
    "RematchOpened": ("of_match", "reserved"),
    "RematchLinked": ("match_id",),
    "TurnLimitSet": ("seconds", "on_timeout"),
    "TurnClockStarted": ("phase", "deadline", "seats"),
    "TurnClockStopped": ("phase",),
    "ClockExtended": ("phase", "deadline"),
    "SeatsTimedOut": ("seats", "phase"),
    "Claimed": ("seat",),
    "Abandoned": ("seats",),
    "ReservationReleased": ("seat",),
    "Invited": ("player_id",),
    "VersionsRequired": (),
    "SeatReturned": ("seat",),
}


def event_data(domain_event: Any) -> dict:
    """An event's own fields, unredacted (the auditor's export and the import read this form)."""
    kind = type(domain_event).__name__
    fields = EVENT_FIELDS.get(kind, ())
    data = {}
    for name in fields:
        value = getattr(domain_event, "at" if name == "moved_at" else name, None)
        data[name] = iso(value) if name in ("moved_at", "deadline") else copy_json(value)
    if kind == "Created" and getattr(domain_event, "imported", False):
        # An imported copy says so in its own history (as docs/architecture.md has it), not in its view's
        # lineage alone: taken on to a third server, a copy's history read as an original's (an auditor's
        # probe). An original's Created line is unchanged.
        data["imported"] = True
    return data


def event_view(domain_event: Any, before: Optional[Match], lens: Lens) -> dict:
    """One stored event as ``lens`` sees it: its fields, secrets redacted by the game's engine for the
    viewer's seat (``before``: the match just before the event), unless the lens sees all."""
    kind = type(domain_event).__name__
    data = event_data(domain_event)
    lens = lens.at(before)
    if lens.kind != AUDITOR:
        data.pop("request_key", None)  # a player's idempotency key is its own business, even once revealed
    if not lens.sees_all:
        data = redacted(kind, data, before, lens)
    if kind == "Created":
        data["computers"] = data["bots"]  # the name the API used before issue 11
    return {"version": domain_event.originator_version, "type": kind, "at": iso(domain_event.timestamp), **data}


#: The events a viewer may be shown only in part: each item of the event list says ``hidden``.
PARTLY_SHOWN = ("MoveMade", "ChanceDrawn", "StepResolved", "TimedOut")


def listed(item: dict, before: Optional[Match]) -> dict:
    """An event list item: who made a move (``moved_by``), and ``hidden`` on every event that may be
    withheld, false where nothing is (a revealed match's, the auditor's): the key was left out there, so
    a client that kept the items of its stream had a history shaped otherwise than a fresh read of the
    same events once the match was revealed (a streams probe). The export leaves it out, as before."""
    if item["type"] in PARTLY_SHOWN:
        item.setdefault("hidden", False)
    return moved_by(item, before)


def moved_by(item: dict, before: Optional[Match]) -> dict:
    """A move in the event list says who made it: ``by`` ``"computer"`` where the computer played the
    seat (a computer opponent's, a resigned seat's, or one whose turn limit ran out and the computer plays
    on), else ``"player"``. A MoveMade looked the same either way: an auditor could not tell a player's
    moves from those the computer made for him while he was away (derived from the match just before the
    move, as its events stand; not a field of the stored event, so exports and imports are unchanged)."""
    if item["type"] == "MoveMade" and before is not None:
        item["by"] = "computer" if before.stands_in(item["seat"]) else "player"
    return item


def redacted(kind: str, data: dict, before: Optional[Match], lens: Lens) -> dict:
    seat = lens.observes
    data.pop("request_key", None)  # a player's idempotency key is its own business
    if kind == "Created":
        data["chance"] = chance_view(data["chance"], lens)
    elif before is None:  # no game state before the first events: nothing to redact
        pass
    # ``hidden``: something of it is withheld from this viewer (all of it: null; part of it, as the cards
    # of another seat's Jest offer): a client re-reads such events once the match is revealed.
    elif kind == "MoveMade":
        shown = before.engine.redact(before.state, data["seat"], data["action"], seat)
        data.update(action=shown, hidden=shown != data["action"])
    elif kind == "ChanceDrawn":
        shown = before.engine.redact(before.state, CHANCE, data["outcome"], seat)
        data.update(outcome=shown, hidden=shown != data["outcome"])
    elif kind in ("StepResolved", "TimedOut"):
        shown = before.engine.redact(before.state, SYSTEM, data["step"], seat)
        data.update(step=shown, hidden=shown != data["step"])
    elif kind == "Finished" and not lens.sees_seed:
        data["seed"] = None
    return data


def tournament_view(tournament: Tournament) -> dict:
    """A tournament as everyone sees it (nothing of it is hidden): its players, rounds, tables, sanctions."""
    rounds = [
        {**r, "deadline": None if r["deadline"] is None else r["deadline"].isoformat(),
         # Tables paired before tournaments could fill seats with computers stored no "computers": none.
         "tables": [{"computers": 0, **table} for table in r["tables"]]}
        for r in tournament.rounds
    ]
    return {
        "id": str(tournament.id), "version": tournament.version, "game": tournament.game, "name": tournament.name,
        "status": tournament.status,
        "organiser": tournament.organiser, "format": tournament.format, "table_size": tournament.table_size,
        "rounds_planned": tournament.rounds_planned, "points": tournament.points,
        "bye_points": tournament.bye_points, "tie_breaks": tournament.tie_breaks,
        "match_options": tournament.match_options, "rated": tournament.rated,
        "round_deadline_seconds": tournament.round_deadline_seconds,
        "computer": tournament.computer,
        "turn_limit": tournament.turn_limit,
        "players": [{"player_id": p, "name": info["name"], "status": info["status"]}
                    for p, info in tournament.players.items()],
        "rounds": rounds, "sanctions": tournament.sanctions,
    }
