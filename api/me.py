"""The caller's own matches (issue 13): those waiting for its move, and one stream of everything that
concerns it across all of them (application/inbox.py)."""


from flask import request
from flask.views import MethodView

from api import schemas
from api.context import container, current_player, event_stream, json_text, service, stream_waits
from api.matches import FIRST_PAGE
from api.schemas import Blueprint
from api.stream_schemas import PLAYER_STREAM, stream_answer
from application import errors
from application.freshness import wait_until_applied
from application.inbox import feed, waiting_for

blp = Blueprint("me", __name__, url_prefix="/players/me", description="The caller's matches and its event stream")

#: The caller's active matches are read this many at a time (the read model's page limit).
ACTIVE_PAGE = 200
#: Seconds GET /players/me/invitations waits, without ?after=, for the list to reach the log's end.
INVITATIONS_WAIT = 0.5


def my_active_matches(player_id: str, after=None) -> list:
    """All the caller's active matches, page by page, newest first. Paged by the creation cursor, not
    by offset in the order of activity: a match moved while the pages were read jumped to a page already
    read, and was left out (with 230 active matches, a player was told of 226)."""
    motley = container()
    wait_until_applied(motley.match_list, motley.app.name, after)
    rows: dict = {}
    cursor = FIRST_PAGE
    while True:
        page = motley.match_list.query(player_id=player_id, status="active", limit=ACTIVE_PAGE, after=cursor)
        rows.update((row.match_id, row) for row in page.rows)
        if len(page.rows) < ACTIVE_PAGE:
            return sorted(rows.values(), key=lambda row: (row.updated_at, row.match_id), reverse=True)
        cursor = (page.rows[-1].created_at, page.rows[-1].match_id)


def active_ids(player_id: str, after=None) -> list[str]:
    """The caller's active matches: a new stream connection tells, of each, what the player must act on
    (``application.inbox.feed``: its turn, its seat absent, a match it may claim), checked on the match
    itself (the list may lag a move behind)."""
    return [row.match_id for row in my_active_matches(player_id, after)]


def active_at(player_id: str, position: int) -> list[str]:
    """``active_ids`` once the list has reached ``position`` (a match started just before the stream
    opened is in it); if the list lags longer than a read waits, what it holds now (the stream is
    already answering, so a 503 cannot be sent)."""
    try:
        return active_ids(player_id, position)
    except errors.Unavailable:
        return active_ids(player_id)


@blp.route("/matches")
class MyMatches(MethodView):
    @blp.arguments(schemas.MyMatchesQuery, location="query")
    @blp.response(200, schemas.MatchPageOut)
    def get(self, query):
        """Your active matches, all of them counted in ``total`` and paged by ``limit`` and ``offset``;
        with ``to_move=true`` only those waiting for your move. (Your open, finished and cancelled ones,
        unlisted ones too: ``GET /matches?player=<your id>`` with your key.)"""
        player_id = str(current_player().id)
        rows = my_active_matches(player_id, query["after"])
        if query["to_move"]:
            rows = [row for row in rows if waiting_for(service().read_match(row.match_id), player_id)]
        limit, offset = query["limit"], query["offset"]
        return {"items": rows[offset:offset + limit], "total": len(rows), "limit": limit, "offset": offset}


@blp.route("/invitations")
class MyInvitations(MethodView):
    @blp.arguments(schemas.MyInvitationsQuery, location="query")
    @blp.response(200, schemas.MatchPageOut)
    def get(self, query):
        """The open matches waiting for you: invited by id, or with a seat kept for you (a rematch, a
        fork), and not joined yet; newest activity first. Join with ``POST /matches/{id}/seats`` (no
        invitation code needed). The stream tells of each as it comes; this is the list of those still
        open, for a client that was not following then (a new browser, a bot started later)."""
        player_id = str(current_player().id)
        motley = container()
        if query["after"] is not None:
            wait_until_applied(motley.match_list, motley.app.name, query["after"])
        else:
            # Up to the log's end, briefly: an invitation just sent (the invitee never sees the inviter's
            # position) was missing for a moment. A list that lags longer answers what it holds at once
            # after INVITATIONS_WAIT: with the read model's worker down, each page's poll held one of
            # the few request threads for the 5 s a read with ?after= may wait.
            try:
                wait_until_applied(motley.match_list, motley.app.name, motley.app.log_position(),
                                   timeout=INVITATIONS_WAIT)
            except errors.Unavailable:
                pass
        limit, offset = query["limit"], query["offset"]
        page = motley.match_list.query(status="open", awaiting=player_id, limit=limit, offset=offset)
        return {"items": page.rows, "total": page.total, "limit": limit, "offset": offset}


@blp.route("/stream")
class MyStream(MethodView):
    @blp.arguments(schemas.MyStreamQuery, location="query")
    @blp.doc(responses={"200": stream_answer("Server-sent events with id = the event log position "
                                             "(resume with Last-Event-ID; of several items of one position "
                                             "only the last has it; a new connection with nothing waiting "
                                             "first sends its starting position as an id alone, no event "
                                             "and no data): `invitation` (invited, or a seat "
                                             "kept for you at a rematch or a fork), `seats-filled` "
                                             "(an open match you sit at has every seat taken: its "
                                             "creator or a seated player may start it), `started`, "
                                             "`your-turn`, `absent` (your turn ran out: the computer "
                                             "plays your seat, or the others may claim, until you come "
                                             "back), `claimable` (another seat's time ran out in a match "
                                             "to be claimed: you may claim it), `finished` and "
                                             "`cancelled`, data = {type, "
                                             "match_id, version, match: the match as you see it, with "
                                             "your legal actions}; of your tournaments: `bye`, "
                                             "`forfeited`, `withdrawn`, `disqualified`, "
                                             "`tournament-finished`, `standings-changed` and "
                                             "`tournament-cancelled`, data = "
                                             "{type, tournament_id, version, tournament, and round and "
                                             "points (bye), round, table and match_id (forfeited), by "
                                             "(withdrawn), reason (disqualified), standing "
                                             "(tournament-finished), sanction and standing "
                                             "(standings-changed)} "
                                             "(docs/tournaments.md). A comment line (`: still here`) is a "
                                             "heartbeat", PLAYER_STREAM)})
    def get(self, query):
        """Everything that concerns you across all your matches, pushed as it happens: you are invited (or a seat
        is kept for you), an open match you sit at is full, a match started, it is your turn (once per match version),
        a match finished, an open match you sat at was cancelled; and of your tournaments: a bye, your table
        forfeited, your withdrawal or disqualification, the tournament's end, a sanction after it. A new
        connection (no Last-Event-ID) first sends, for each of your active matches that needs you, an `absent`
        (your time ran out), a `claimable` and a `your-turn`; with nothing waiting, its starting position as
        an id alone. One connection, no polling."""
        player_id = str(current_player().id)
        last = request.headers.get("Last-Event-ID", "").strip()
        after = int(last) if last.isascii() and last.isdigit() else None
        if after is not None and after > service().log_position():
            # No stream sent that id: it would wait for the log to pass it, and skip what came between
            # (a your-turn included). Refused at once, as the match streams and ?after= refuse theirs.
            raise errors.InvalidRequest(f"Last-Event-ID {after} is past the event log's end: no stream sent it")
        poll, sleep = stream_waits(None, query["poll"])
        items = feed(service(), player_id, after, query["seconds"], poll,
                     waiting=lambda position: active_at(player_id, position), sleep=sleep)

        def events():
            for entry in items:
                if entry is None:
                    yield ": still here\n\n"
                elif (data := entry[1]) is None:  # the position a new connection starts at: an id, no event
                    yield f"id: {entry[0]}\n\n"
                else:
                    position = entry[0]
                    # An item that shares its log position with the next one has no id (application/inbox.py).
                    head = "" if position is None else f"id: {position}\n"
                    yield f"{head}event: {data['type']}\ndata: {json_text(data)}\n\n"

        return event_stream(events(), quiet_at_first=True)
