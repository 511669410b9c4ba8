"""What concerns one player across all its matches, as a feed (issue 13): it was invited to a match (or a seat is
kept for it at a rematch or a fork), an open match it sits at has every seat taken, a match it sits at
started, it is its turn, a match finished, an open match it sat at was cancelled; and of its tournaments: a
bye, its table forfeited, its own withdrawal or disqualification, the tournament's end, a sanction after it.
``feed`` follows the application's event log, so a client resumes exactly where it stopped (the position is
the log's notification id, sent as the SSE id), and a bot needs one connection and no polling of its matches
(like Lichess's event stream).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, Optional

from application.following import HEARTBEAT_SECONDS
from application.service import Motley
from application.views import Viewer, lens_for, match_view, tournament_view
from domain import tournament as tournament_domain
from domain.engine import Phase
from domain.match import Match
from domain.tournament import Tournament, standings

BATCH = 200
MATCH_TOPIC = f"{Match.__module__}:Match."
#: Events after which the feed says a match started (a fork resumes), finished, or was called off (before
#: it started, or voided by a tournament's organiser during play).
STARTED, FINISHED, CANCELLED = ("Started", "Resumed"), ("Finished",), ("Cancelled", "Voided")
#: The event that marks seats absent (their turn clock ran out).
TIMED_OUT = ("SeatsTimedOut",)
#: Events that keep a seat for a named player: a rematch opened, a fork reopened.
KEPT = ("RematchOpened", "Reopened")
TOURNAMENT_TOPIC = f"{Tournament.__module__}:Tournament."
#: A tournament's events and the item each gives the players it names (a bye, a table's absent players,
#: the one withdrawn or disqualified) or, at the end, every player it lists; after the end, a sanction
#: (a disqualification, a void) tells every other player it lists its new standing. The rest reach the
#: player through its matches (a round's tables start, a void table is cancelled) or are not its own.
TOURNAMENT_ITEMS = {"RoundPaired": "bye", "PlayersForfeited": "forfeited", "PlayerWithdrawn": "withdrawn",
                    "PlayerDisqualified": "disqualified", "Finished": "tournament-finished",
                    "MatchVoided": "standings-changed", "Cancelled": "tournament-cancelled"}
#: The items that tell every player a tournament lists (not only those its event names).
TO_EVERY_PLAYER = ("tournament-finished", "standings-changed", "tournament-cancelled")


def waiting_for(match: Match, player_id: str) -> bool:
    """Whether ``match`` waits for a move of ``player_id`` (its seat is to act and it plays it)."""
    seat = match.seat_of(player_id)
    turn = match.to_act()
    return seat is not None and turn.kind == Phase.PLAYERS and seat in turn.seats and not match.stands_in(seat)


def concerns(match: Match, player_id: str) -> bool:
    """Whether ``match`` has anything for ``player_id``: a seat, an invitation, a seat kept for it. A
    match that does not concern the player now had nothing for it at any earlier version either: an
    invitation stays, and a seat is left only while the match is open, when nothing is told of it
    (a kept seat left since was an invitation nobody can take any more)."""
    return match.seat_of(player_id) is not None or player_id in match.invited or player_id in match.reserved.values()


def item(kind: str, match: Match, player_id: str) -> dict:
    """A feed item carries the match as the player sees it, so a bot can move from it alone."""
    return {"type": kind, "match_id": str(match.id), "version": match.version,
            "match": match_view(match, lens_for(match, Viewer.player(player_id)))}


def tournament_item(kind: str, tournament: Tournament, **about: Any) -> dict:
    """A tournament's item carries the tournament as of its event (as everyone sees it), so a bot
    learns what changed without another read."""
    return {"type": kind, "tournament_id": str(tournament.id), "version": tournament.version, **about,
            "tournament": tournament_view(tournament)}


def tournament_items(app: Motley, notification: Any, player_id: str) -> list[dict]:
    """What the tournament event of ``notification`` tells ``player_id``: one item, or none if the event
    does not name it. Decided on the event alone, except for what every player a tournament lists is
    told (withdrawn and disqualified ones too: its end, a sanction after it), where its list is read
    (the cached tournament); a historical read is only for an event that concerns the player."""
    kind = TOURNAMENT_ITEMS.get(notification.topic.removeprefix(TOURNAMENT_TOPIC))
    if kind is None:
        return []
    event: Any = app.mapper.to_domain_event(notification)
    if kind == "bye":
        named = player_id in event.byes
    elif kind == "forfeited":
        named = player_id in event.player_ids
    elif kind == "withdrawn":
        named = event.player_id == player_id
    elif kind == "disqualified":
        named = event.player_id == player_id
        if not named:
            kind = "standings-changed"  # another's: it moves this player's final standing, if it is final
    if kind in TO_EVERY_PLAYER:
        # A player is left out of a tournament's list only by withdrawing before it started.
        named = player_id in app.read_tournament(notification.originator_id).players
    if not named:
        return []
    tournament = app.read_tournament(notification.originator_id, notification.originator_version)
    if kind == "standings-changed":
        # A sanction after the end changes the final standings every player was told: a disqualified
        # player leaves the ranks, a voided result scores nothing. The others' tournament-finished
        # items said ranks that no longer held (a tournament bot's probe). During play, nobody is told
        # standings (its matches' items tell each player its own).
        if tournament.status != tournament_domain.STATUS_FINISHED:
            return []
        return [tournament_item(kind, tournament, sanction=tournament.sanctions[-1],
                                standing=standing_of(tournament, player_id))]
    if kind == "bye":
        # A bye scores ``bye_points`` (docs/tournaments.md, "Byes"); the round's deadline says when the
        # next one is paired at the latest.
        return [tournament_item(kind, tournament, round=event.round, points=tournament.bye_points)]
    if kind == "forfeited":
        table = tournament.rounds[event.round - 1]["tables"][event.table - 1]
        return [tournament_item(kind, tournament, round=event.round, table=event.table,
                                match_id=table["match_id"])]
    if kind == "tournament-cancelled":
        return [tournament_item(kind, tournament)]  # called off before its start: no standing to tell
    if kind == "withdrawn":
        return [tournament_item(kind, tournament, by=event.by)]
    if kind == "disqualified":
        return [tournament_item(kind, tournament, reason=event.reason)]
    return [tournament_item(kind, tournament, standing=standing_of(tournament, player_id))]


def standing_of(tournament: Tournament, player_id: str) -> dict:
    return next(row for row in standings(tournament) if row["player_id"] == player_id)


def grouped(position: int, items: list[dict]) -> Iterator[tuple[Optional[int], dict]]:
    """``items`` of one log position: the last carries it, the others None (see ``feed``)."""
    for index, each in enumerate(items):
        yield (position if index == len(items) - 1 else None), each


def match_items(app: Motley, player_id: str, match_id: str, version: int, kinds: set[str],
                told: dict[str, int], away: set[str]) -> list[dict]:
    """What the events ``kinds`` of ``match_id`` (up to ``version``) tell ``player_id`` (see ``feed``);
    ``told`` and ``away`` are the stream's memory of the your-turns and absences it sent."""
    # The match as of the item's position, not as it is now: read now, a match that moved on
    # meanwhile gave a your-turn stamped with its join's position, before its ``started``, and
    # a client resuming from that id was sent both again. Only for a match that concerns the
    # player: the others (most of a busy log) cost no historical read.
    match = app.read_match(match_id, at_least=version)
    if not concerns(match, player_id):
        return []
    if match.version != version:
        match = app.read_match_at(match_id, version)
    items: list[dict] = []
    if match.seat_of(player_id) is None:
        # Invited by id, or a seat kept for the player (a rematch, a fork): it may join.
        invited = "Invited" in kinds and player_id in match.invited
        kept = bool(kinds & set(KEPT)) and player_id in match.reserved.values()
        if (invited or kept) and match.status == "open":
            items.append(item("invitation", match, player_id))
        # Called off: its invitation is gone. Only seated players were told, and a client kept
        # offering to accept an invitation whose join could only be refused.
        if kinds & set(CANCELLED):
            items.append(item("cancelled", match, player_id))
    else:
        # Its last seat taken, an open match waits for a start from its creator or a seated player: told
        # to every seated player, as nothing else on this stream said it (a bot developer's probe: a full
        # match it created was never started, and only the match's own stream would have shown it).
        if "SeatTaken" in kinds and match.status == "open" and not match.empty_seats():
            items.append(item("seats-filled", match, player_id))
        if kinds & set(STARTED):
            items.append(item("started", match, player_id))
        # The turn clock ran out on the player: the computer plays its seat (or the others may
        # claim) until it comes back (POST /matches/{id}/return, or a move). Said once an absence:
        # the your-turns just stopped, and a bot that used this stream alone never learnt why.
        seat = match.seat_of(player_id)
        if seat in match.absent and seat not in match.resigned:  # resigned: the computer's for good
            if kinds & set(TIMED_OUT) and match_id not in away:
                away.add(match_id)
                items.append(item("absent", match, player_id))
        else:
            away.discard(match_id)
            # Another seat's time ran out in a match to be claimed: the player may end it. It was
            # told nothing (it is not to act), so a bot that used this stream alone waited for ever.
            if kinds & set(TIMED_OUT) and match.may_claim(match.seat_of(player_id)):
                items.append(item("claimable", match, player_id))
        if waiting_for(match, player_id) and told.get(match_id) != match.version:
            told[match_id] = match.version
            items.append(item("your-turn", match, player_id))
        if kinds & set(FINISHED):
            items.append(item("finished", match, player_id))
        # Last, as finished: a match voided in the batch that started it was started first.
        if kinds & set(CANCELLED):
            items.append(item("cancelled", match, player_id))
    return items


def feed(
    app: Motley,
    player_id: str,
    after: Optional[int],
    seconds: float,
    poll: float,
    monotonic: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    waiting: Callable[[int], list[Any]] = lambda position: [],
) -> Iterator[Optional[tuple[Optional[int], Optional[dict]]]]:
    """Yield ``(position, item)`` for each thing that concerns ``player_id`` after log position
    ``after``, ``None`` as a heartbeat; stop after ``seconds``. Without ``after`` (a new connection)
    it starts at the log's end, first with an item for each match id ``waiting(start)`` lists (the
    active matches the player sits at, as of log position ``start`` at least) that needs the player: a
    ``your-turn``, an ``absent`` (its seat's time ran out) or a ``claimable``; or with ``(start,
    None)``, the position alone, when none does. A ``your-turn`` is sent once per match version.

    Several items can stand for one log position (``started`` and ``your-turn`` of one event, the
    first your-turns): only the last of them carries the position, the others ``None``. A client
    resuming from a position has had every item up to it; one that broke off inside such a group
    resumes from the position before it and gets the group again, not a gap (an SSE event without an
    id leaves the last id as it was)."""
    start = app.log_position() if after is None else after
    told: dict[str, int] = {}  # match id -> the version a your-turn was last sent for
    away: set[str] = set()  # the matches an ``absent`` item was sent for, while the seat stays absent
    if after is None:
        first: list[dict] = []
        for match_id in waiting(start):
            match = app.read_match(match_id)
            seat = match.seat_of(player_id)
            # What a bot started (again) after a turn ran out must act on, beside its turns: its own seat
            # absent (the computer plays it until it returns), or another's in a match it may claim. A new
            # connection sent neither, and such a bot waited for a your-turn never sent; and, told only its
            # your-turn, one to act that may claim was never told it may (no later timeout tells it). In the
            # live loop's order. A seat that resigned is the computer's for good: nothing to come back to.
            if (match.status == "active" and seat is not None and seat in match.absent
                    and seat not in match.resigned):
                away.add(str(match.id))
                first.append(item("absent", match, player_id))
            elif match.may_claim(seat):
                first.append(item("claimable", match, player_id))
            if waiting_for(match, player_id):
                told[str(match.id)] = match.version
                first.append(item("your-turn", match, player_id))
        if first:
            yield from grouped(start, first)
        else:
            # The position the connection starts at, with no item: a client cut off before its first
            # item had no id to resume from, and lost what came meanwhile (a start, a cancellation).
            yield start, None

    def matches_told(touched: dict[str, tuple[int, int, set[str]]]) -> Iterator[tuple[Optional[int], dict]]:
        # In log order of each match's last event, each match as of that event.
        for match_id, (position, version, kinds) in sorted(touched.items(), key=lambda entry: entry[1][0]):
            if items := match_items(app, player_id, match_id, version, kinds, told, away):
                yield from grouped(position, items)

    deadline = monotonic() + seconds
    beat = monotonic()
    while monotonic() < deadline:
        notifications = app.recorder.select_notifications(start=start, limit=BATCH, inclusive_of_start=False)
        # In log order: the matches touched so far are told (each as of its last event so far) before a
        # tournament event's items, so a client resuming at an item's position has every item before it
        # and misses nothing after it. A withdrawal's event lands between its table's start and its end:
        # told after the match's last event, the table's ``started`` came after the ``withdrawn``, and a
        # client resuming from the withdrawal's id never had it (a review).
        touched: dict[str, tuple[int, int, set[str]]] = {}  # match id -> (last position, its version, kinds)
        for notification in notifications:
            if notification.topic.startswith(MATCH_TOPIC):
                key = str(notification.originator_id)
                kinds = touched.get(key, (0, 0, set()))[2]
                kinds.add(notification.topic.removeprefix(MATCH_TOPIC))
                touched[key] = (notification.id, notification.originator_version, kinds)
            elif notification.topic.startswith(TOURNAMENT_TOPIC):
                if found := tournament_items(app, notification, player_id):
                    for entry in matches_told(touched):
                        beat = monotonic()
                        yield entry
                    touched = {}
                    beat = monotonic()
                    yield from grouped(notification.id, found)
        for entry in matches_told(touched):
            beat = monotonic()
            yield entry
        # A heartbeat after HEARTBEAT_SECONDS with nothing for this player, busy log or not: it was reset
        # by every match the log touched (others' included) and skipped while the log moved, so a bot
        # waiting for its opponents got no byte for a minute on a busy server, and its read timeout or a
        # proxy cut the stream.
        if monotonic() - beat > HEARTBEAT_SECONDS:
            yield None
            beat = monotonic()
        if notifications:
            start = notifications[-1].id
            continue
        sleep(max(0.0, min(poll, deadline - monotonic())))
