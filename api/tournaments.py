"""Tournaments: create, list, read, register and withdraw, start, forfeit, sanctions, standings."""

from typing import Optional

from flask import request
from flask.views import MethodView

from api import schemas
from api.context import (
    check_game_filter,
    check_player_filter,
    container,
    current_player,
    event_stream,
    if_match_versions,
    json_text,
    not_modified,
    service,
    stream_ended,
    stream_waits,
    version_from_etag,
)
from api.schemas import Blueprint
from api.stream_schemas import TOURNAMENT_STREAM, stream_answer
from application import errors
from application.following import TOURNAMENT_OVER, follow_tournament
from application.freshness import wait_until_applied
from application.league import changed_at, standings_rows, tournament_page
from application.views import tournament_view

blp = Blueprint("tournaments", __name__, url_prefix="/tournaments",
                description="Tournaments: rounds of matches paired by the workers, standings, sanctions")


def tournaments():
    return container().tournaments


def fresh(after) -> None:
    """Wait until the league read models have applied ``after`` (a Motley-Position)."""
    motley = container()
    wait_until_applied(motley.league_view, motley.league.name, after)


def tournament_version(tag: str) -> int:
    """A tournament tag's version: the read's ETag, ``"tournament-5"``, or the version alone (the
    form of a match's tag is read as a match's: its first number)."""
    return version_from_etag(tag.strip().strip('"').removeprefix("tournament-"))


def stated_versions() -> Optional[frozenset[int]]:
    """The tournament versions a write's ``If-Match`` states (RFC 9110 §13.1.1)."""
    return if_match_versions(tournament_version)


def written(status=200, **extra):
    return {"Motley-Position": str(service().log_position()), **extra}


@blp.route("")
class Tournaments(MethodView):
    @blp.arguments(schemas.TournamentListQuery, location="query")
    @blp.response(200, schemas.TournamentPageOut)
    @blp.alt_response(304, description="Not modified: the tournament list has not moved since the ETag sent "
                                       "as If-None-Match (cheap polling)")
    def get(self, query):
        """List tournaments (the read model kept by the workers), newest first; with ``player``, those the
        player entered (a bot started again finds its tournaments)."""
        check_game_filter(query["game"])  # a misspelt game is a 422, as the match list's
        check_player_filter(query["player"])  # so is a player named by anything but its id
        fresh(query["after"])
        motley = container()
        tag = f"tournaments-{changed_at(motley.league_view)}"  # before the rows, as the board's
        if (unchanged := not_modified(tag)) is not None:
            return unchanged
        items, total = tournament_page(motley.league_view, query["game"], query["status"],
                                       query["limit"], query["offset"], query["player"])
        return {"items": items, "total": total, "limit": query["limit"], "offset": query["offset"]}, \
            {"ETag": f'"{tag}"'}

    @blp.arguments(schemas.CreateTournament, example={"game": "jest", "name": "Spring Cup", "format": "swiss",
                                                      "rounds": 3, "table_size": 3})
    @blp.response(201, schemas.TournamentOut)
    def post(self, body):
        """Create a tournament; the caller is its organiser (who need not play)."""
        tournament_id, replayed = tournaments().create(current_player(), body,
                                                       request.headers.get("Idempotency-Key") or None)
        headers = written(Location=f"/tournaments/{tournament_id}")
        if replayed:  # a retry: the first tournament
            headers["Idempotent-Replayed"] = "true"
        return tournament_view(tournaments().get(tournament_id)), 201, headers


@blp.route("/<tournament_id>")
class TournamentById(MethodView):
    @blp.arguments(schemas.TournamentQuery, location="query")
    @blp.response(200, schemas.TournamentOut)
    @blp.alt_response(304, description="Not modified: the tournament is still at the version of the ETag sent "
                                       "as If-None-Match (cheap polling)")
    def get(self, query, tournament_id):
        """The tournament: its players, rounds and tables (with their match ids), sanctions, status; with
        ``version``, as it was then (a player stream's tournament item names its version)."""
        tournament = tournaments().get(tournament_id, query["version"])
        tag = f"tournament-{tournament.version}"  # everything shown is the aggregate's, at its version
        if (unchanged := not_modified(tag)) is not None:
            return unchanged
        return tournament_view(tournament), {"ETag": f'"{tag}"'}


@blp.route("/<tournament_id>/players")
class Players(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(201, schemas.TournamentOut)
    def post(self, _body, tournament_id):
        """Register the caller."""
        tournaments().register(tournament_id, current_player(), stated_versions())
        tournament = tournaments().get(tournament_id)
        return tournament_view(tournament), 201, written(Location=f"/tournaments/{tournament.id}")


@blp.route("/<tournament_id>/players/<player_id>")
class PlayerById(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.TournamentOut)
    def delete(self, _body, tournament_id, player_id):
        """Withdraw a player (the player or the organiser): not paired again; past results stand."""
        tournaments().withdraw(tournament_id, player_id, current_player(), stated_versions())
        return tournament_view(tournaments().get(tournament_id)), 200, written()


@blp.route("/<tournament_id>/start")
class Start(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.TournamentOut)
    def post(self, _body, tournament_id):
        """Start (the organiser): round 1 is paired and its matches are created and started."""
        tournaments().start(tournament_id, current_player(), stated_versions())
        return tournament_view(tournaments().get(tournament_id)), 200, written()


@blp.route("/<tournament_id>/cancel")
class Cancel(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.TournamentOut)
    def post(self, _body, tournament_id):
        """Call it off (the organiser, before the start): status "cancelled"; it takes no registrations and
        never starts, and each registered player's stream says so (tournament-cancelled)."""
        tournaments().call_off(tournament_id, current_player(), stated_versions())
        return tournament_view(tournaments().get(tournament_id)), 200, written()


@blp.route("/<tournament_id>/forfeits")
class Forfeits(MethodView):
    @blp.arguments(schemas.Forfeit, example={"player_ids": [schemas.EXAMPLE_PLAYER_ID]})
    @blp.response(200, schemas.TournamentOut)
    def post(self, body, tournament_id):
        """Forfeit absent players of a table of the current round, once its deadline has passed
        (the organiser): they share the last place, the players present the first."""
        tournaments().forfeit(tournament_id, current_player(), body["player_ids"], body["match_id"],
                              stated_versions())
        return tournament_view(tournaments().get(tournament_id)), 200, written()


@blp.route("/<tournament_id>/standings")
class Standings(MethodView):
    @blp.arguments(schemas.AfterQuery, location="query")
    @blp.response(200, schemas.StandingsOut)
    @blp.alt_response(304, description="Not modified: the standings have not moved since the ETag sent as "
                                       "If-None-Match (cheap polling)")
    def get(self, query, tournament_id):
        """Points, tie-breaks and rank of every player, live as matches finish."""
        tournaments().get(tournament_id)  # an unknown id is a 404 at once, not after the wait
        fresh(query["after"])
        motley = container()
        position = changed_at(motley.league_view)  # before the rows: they are at it or past
        # Read after the wait, as the rows are: a status read before it said "active" beside rows that
        # already counted the final result.
        tournament = tournaments().get(tournament_id)
        tag = f"standings-{position}.{tournament.version}"
        if (unchanged := not_modified(tag)) is not None:
            return unchanged
        return ({"tournament_id": str(tournament.id), "status": tournament.status,
                 "rounds_paired": len(tournament.rounds),
                 "items": standings_rows(motley.league_view, str(tournament.id))}, {"ETag": f'"{tag}"'})


@blp.route("/<tournament_id>/sanctions")
class Sanctions(MethodView):
    @blp.arguments(schemas.Sanction, example={"kind": "disqualify", "player_id": schemas.EXAMPLE_PLAYER_ID,
                                               "reason": "played for another"})
    @blp.response(201, schemas.TournamentOut)
    def post(self, body, tournament_id):
        """Disqualify a player or void a match (the organiser). Standings and ratings are computed
        again from the events; the report is at the Location, which waits for it (``after``)."""
        number = tournaments().sanction(tournament_id, current_player(), body, stated_versions())
        headers = written()
        # The report is computed by the workers: read at once, without ``after``, it was a 503 "not computed
        # yet" for the resource the answer had just named (a client-contract probe).
        headers["Location"] = f"/tournaments/{tournament_id}/sanctions/{number}?after={headers['Motley-Position']}"
        return tournament_view(tournaments().get(tournament_id)), 201, headers


@blp.route("/<tournament_id>/sanctions/<int(signed=True):number>")
class SanctionReport(MethodView):
    @blp.arguments(schemas.AfterQuery, location="query")
    @blp.response(200, schemas.SanctionReportOut)
    def get(self, query, tournament_id, number):
        """What sanction ``number`` changed: ranks, points, tie-breaks and ratings before and after."""
        tournament = tournaments().get(tournament_id)
        if not 1 <= number <= len(tournament.sanctions):
            raise errors.NotFound(f"tournament {tournament.id} has {len(tournament.sanctions)} sanctions")
        fresh(query["after"])
        motley = container()
        doc = motley.league_view.get("report", str(tournament.id), f"{number:04d}")
        if doc is None:  # the workers have not projected it yet: say so rather than answer nothing
            raise errors.Unavailable("the report is not computed yet; retry shortly", retry_after=1)
        return doc.data


@blp.route("/<tournament_id>/stream")
class Stream(MethodView):
    @blp.arguments(schemas.EventStreamQuery, location="query")
    @blp.doc(responses={"204": {"description": "Nothing will come: the tournament is over and Last-Event-ID "
                                               "is its last version (an EventSource stops reconnecting on a 204)"},
                    "200": stream_answer("Server-sent events, id = the tournament's version: one "
                                         "`tournament` event whenever it changes (a registration, the "
                                         "start, a round paired, a table's result, a withdrawal, a "
                                         "forfeit, a sanction), data = {tournament: as GET "
                                         "/tournaments/{tournament_id} answers, standings: the list "
                                         "of GET /tournaments/{tournament_id}/standings's items at "
                                         "that version} (`TournamentStreamTournament`); the stream ends once "
                                         "the tournament is finished or called off. A comment line "
                                         "(`: still here`) is a heartbeat. Reconnecting with Last-Event-ID = "
                                         "the version you hold sends nothing until it moves on",
                                         TOURNAMENT_STREAM)})
    def get(self, query, tournament_id):
        """Follow a tournament live, as its organiser or anyone watching: its view and standings are pushed
        (server-sent events) whenever it changes, until it is finished or called off, or ``seconds`` pass;
        reconnect with Last-Event-ID. Its tables' matches have streams of their own (GET /matches/{id}/stream)."""
        current = tournaments().get(tournament_id)  # an unknown tournament is a 404, before the stream starts
        text = (request.headers.get("Last-Event-ID") or "").strip()
        seen = int(text) if text.isascii() and text.isdigit() else 0
        if seen > current.version:
            raise errors.InvalidRequest(f"Last-Event-ID ({seen}) is past the tournament's last version "
                                        f"({current.version})")
        if (ended := stream_ended(current.status in TOURNAMENT_OVER, seen, current.version)) is not None:
            return ended
        poll, sleep = stream_waits(current.id, query["poll"])
        updates = follow_tournament(service(), current.id, seen, query["seconds"], poll, sleep=sleep)

        def events():
            for update in updates:
                if update is None:
                    yield ": still here\n\n"
                else:
                    version, frame = update
                    yield f"id: {version}\nevent: tournament\ndata: {json_text(frame)}\n\n"

        return event_stream(events(), quiet_at_first=seen >= current.version)
