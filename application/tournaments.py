"""Tournaments in the service layer: commands (get, act, save) and the worker that runs the rounds.

A tournament lives in the same application (the same event store and notification log) as its
matches, so pairing a round saves the tournament's ``RoundPaired`` and every new match's events in
one atomic save. The matches' ids come from the tournament id, round and table
(``domain.tournament.match_id_for``): a second save of the same pairing is refused by the store
(and by the aggregate, which pairs a round once), so nothing is ever paired twice.

:class:`RoundKeeper` follows the event log (a tracking position of its own): when a tournament's
match finishes, it records the table's result and, if that completed the round, pairs the next one
in the same save. It runs in the workers, never in the request that finished the match; each of its
commands is idempotent, so a worker that dies anywhere and a notification delivered again change
nothing twice.
"""

from __future__ import annotations

import inspect
import logging
from functools import partial
from typing import Any, Callable, Collection, Optional, Sequence
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError, Tracking

from application import errors
from application.chance import new_chance
from application.ports import TASK_PROJECT, Doc, LeagueView, Task
from application.service import RETRIES, Motley, creation_scope, idempotent_id, parse_id
from domain import tournament as tournament_domain
from domain.engine import Engine, InvalidOptions
from domain.games import UnknownGame, available_engines, get_engine
from domain.match import STATUS_ACTIVE, STATUS_FINISHED, Match
from domain.player import Player
from domain.tournament import Tournament

log = logging.getLogger(__name__)
BATCH = 500
KEEPER = "rounds"  # the tracking name suffix of the round keeper
TABLE_DOC = "tournament-table"  # the keeper's own map: match id -> tournament id

#: Refusals of the tournament aggregate, as service refusals.
REFUSALS: dict[type, type[errors.ServiceError]] = {
    tournament_domain.InvalidTournament: errors.InvalidRequest,
    tournament_domain.NotOrganiser: errors.Forbidden,
    tournament_domain.RegistrationError: errors.Conflict,
    tournament_domain.TournamentStateError: errors.Conflict,
}


class Busy(errors.Conflict):
    """Too many racing writers of one tournament: a transient refusal (a worker retries it)."""


def refusal(error: tournament_domain.TournamentError) -> errors.ServiceError:
    kind = next((REFUSALS[c] for c in type(error).__mro__ if c in REFUSALS), errors.Conflict)
    # An option refused is named as a validation problem names a field (`errors`, by where it was sent),
    # so a client marks that field: points of the wrong length were refused with words alone.
    named = {"errors": {"json": {error.option: [error.detail]}}} if error.option else {}
    return kind(error.detail, rule=error.rule, **named)


def new_match(match_id: UUID, **fields: Any) -> Match:
    """A match with a chosen id (the aggregate otherwise draws a random one); unnamed fields of
    ``Match.__init__`` take their defaults."""
    bound = inspect.signature(Match.__init__).bind(None, **fields)
    bound.apply_defaults()
    arguments = dict(bound.arguments)
    arguments.pop("self")
    arguments.pop("id", None)  # should ``Match.__init__`` name the library's id, it is passed once, below
    return Match._create(event_class=Match.Created, id=match_id, **arguments)


class Tournaments:
    def __init__(self, app: Motley):
        self.app = app

    # -- commands ---------------------------------------------------------------------------------
    def create(self, organiser: Player, body: dict, request_key: Optional[str] = None) -> tuple[UUID, bool]:
        """A new tournament, organised by ``organiser``; retried with the same ``request_key`` (an
        Idempotency-Key), the first one: (its id, whether this was such a retry)."""
        game = body["game"]
        try:
            engine = get_engine(game)
        except UnknownGame:
            raise errors.NotFound(f"no game named {errors.quoted(game)}", games=sorted(available_engines())) from None
        table_size = body.get("table_size") or min(engine.max_players, 4)
        points = body.get("points") or tournament_domain.default_points(table_size)
        tie_breaks = body.get("tie_breaks")
        tie_breaks = ["opponents-points", "wins"] if tie_breaks is None else tie_breaks
        try:
            Tournament.check_options(table_size, engine.min_players, engine.max_players, body["format"],
                                     body["rounds"], points, tie_breaks)
            options = engine.check_options(table_size, body.get("match_options") or {})
        except tournament_domain.TournamentError as error:
            raise refusal(error) from None
        except InvalidOptions as error:
            raise errors.from_domain(error) from None
        computer = body.get("computer")
        if computer is not None and computer not in engine.bots():
            known = ", ".join(sorted(engine.bots())) or "none"
            raise errors.InvalidRequest(f"{engine.title} has no computer level {computer!r} (levels: {known})")
        bye_points = body.get("bye_points")
        tournament = Tournament(
            game=game,
            name=body["name"],
            organiser=str(organiser.id),
            table_size=table_size,
            min_players=engine.min_players,
            format=body["format"],
            rounds=body["rounds"],
            points=list(points),
            bye_points=points[(table_size - 1) // 2] if bye_points is None else bye_points,
            tie_breaks=list(tie_breaks),
            match_options=options,
            rated=body.get("rated", True),
            round_deadline_seconds=body.get("round_deadline_seconds"),
            computer=computer,
            id=idempotent_id("tournament", creation_scope(organiser), request_key),
            turn_limit=body.get("turn_limit"),
        )
        try:
            self._save(tournament, [])
        except IntegrityError:
            first = self.get(tournament.id)
            if creation_terms(first) != creation_terms(tournament):
                raise errors.Conflict("this idempotency key was already used for a different tournament",
                                      rule="idempotency") from None
            return first.id, True
        return tournament.id, False

    def get(self, tournament_id: Any, version: Optional[int] = None) -> Tournament:
        """The tournament now, or as it was at ``version`` (a 404 past its last)."""
        tournament: Any
        try:
            tournament = self.app.repository.get(parse_id(tournament_id, "tournament"))
        except AggregateNotFoundError:
            tournament = None
        if not isinstance(tournament, Tournament):
            raise errors.NotFound(f"no tournament with id {tournament_id}")
        if version is None or version == tournament.version:
            return tournament
        if version > tournament.version:
            raise errors.NotFound(f"tournament {tournament_id} has no version {version}: it is at version "
                                  f"{tournament.version}")
        return self.app.read_tournament(tournament.id, version)

    # ``expected``, on each organiser's or player's write: the versions the caller's If-Match states (None:
    # no precondition). Tournament writes ignored If-Match: a disqualification decided on a stale view, two
    # organisers' tabs apart, was saved (an organiser's probe).
    def register(self, tournament_id: Any, player: Player, expected: Optional[Collection[int]] = None) -> None:
        self._command(tournament_id, lambda t: t.register(str(player.id), player.name), expected=expected)

    def withdraw(self, tournament_id: Any, player_id: str, by: Player,
                 expected: Optional[Collection[int]] = None) -> None:
        # The id as the API writes it, however the path spelled the UUID (upper case, braces): compared as
        # sent, a player withdrawing himself was "not the organiser", and the organiser "not registered".
        player = str(parse_id(player_id, "player registered for this tournament"))
        self._leave(tournament_id, lambda t: t.withdraw(player, str(by.id)), player, expected)

    def _leave(self, tournament_id: Any, act: Callable[[Tournament], Any], player_id: str,
               expected: Optional[Collection[int]]) -> Any:
        """A player leaves the tournament (withdrawn, disqualified) and resigns the table he sits at, in
        the same save: it waited for his moves, and with no round deadline nothing but a void (which
        scores nothing for his opponents) let the round, and the tournament, go on. Resigned, he ranks
        last at it and the table plays on (a computer plays his seat) or ends. Saved apart, a forfeit of
        his tablemate landing in between ended the match with him its winner (his resignation then
        refused, unsaid) while the tournament ranked him last there (a racing probe); now the match's
        version guards the save, and the retry finds the table settled, or resigns him."""
        acted: list[Tournament] = []

        def leave(tournament: Tournament) -> Any:
            acted[:] = [tournament]
            return act(tournament)

        # Saved after the tournament's event: his stream tells the withdrawal, then his table's end.
        return self._command(tournament_id, leave, then=lambda: self._resign_at_tables(acted[0], player_id),
                             expected=expected)

    def _resign_at_tables(self, tournament: Tournament, player_id: str) -> list[Match]:
        """The running matches of ``player_id``'s unsettled tables, each with his resignation (unsaved)."""
        resigned = []
        for match_id in tournament.unsettled_tables_of(player_id):
            match = self.app.get_match(match_id)
            seat = match.seat_of(player_id)
            if match.status != STATUS_ACTIVE or seat is None or seat in match.resigned:
                continue  # not running (finished, or not started), or he had resigned already
            match.resign(player_id)
            match.settle(self.app.rng, self.app.clock())
            resigned.append(match)
        return resigned

    def call_off(self, tournament_id: Any, by: Player, expected: Optional[Collection[int]] = None) -> None:
        self._command(tournament_id, lambda t: t.call_off(str(by.id)), expected=expected)

    def start(self, tournament_id: Any, by: Player, expected: Optional[Collection[int]] = None) -> None:
        self._command(tournament_id, lambda t: t.start(str(by.id), self.app.clock()), expected=expected)

    def forfeit(self, tournament_id: Any, by: Player, player_ids: Sequence[str],
                match_id: Optional[str] = None, expected: Optional[Collection[int]] = None) -> None:
        """The organiser forfeits absent players of a table; they resign its match, in the same save.

        The tournament refuses a forfeit of a table whose match has finished (its result is the
        match's). Read, then saved apart, a match finishing in between (its last resignation, racing
        the forfeit on another process) was recorded as forfeited: its winner scored nothing. Saved
        with the match's resignations, the save fails if the match moved meanwhile, and the retry reads
        it again. Resigned, the absent seats no longer hold the match up: a computer plays them, or
        the match ends (the forfeited match stayed active, waiting for their moves, for ever)."""
        read: list[Match] = []  # the table's match, as each try read it

        def act(tournament: Tournament) -> Any:
            read.clear()
            return tournament.forfeit(str(by.id), list(player_ids), self.app.clock(),
                                      match_over=partial(self._match_over, read), match_id=match_id,
                                      resigned_in=partial(self._resigned_in, read))

        self._command(tournament_id, act, also=lambda: [m for m in read if self._resign_forfeited(m, player_ids)],
                      expected=expected)

    def _match_over(self, read: list[Match], match_id: str) -> bool:
        """Whether a table's match has finished: its result may not be recorded yet (the round keeper
        is a worker), but it is the result, and no forfeit replaces it. The match read is kept in
        ``read``: its version guards the forfeit's save."""
        read.append(self.app.get_match(match_id))
        return read[-1].status == STATUS_FINISHED

    @staticmethod
    def _resigned_in(read: list[Match], match_id: str) -> list[str]:
        """The players who resigned a table's match themselves, in the match ``_match_over`` read (one
        read: the forfeit's save is guarded by that match's version)."""
        match = next(m for m in reversed(read) if str(m.id) == str(match_id))
        return [str(match.players[seat]) for seat in match.resigned]

    def _resign_forfeited(self, match: Match, player_ids: Sequence[str]) -> bool:
        """Record the forfeit in the table's match and resign its forfeited players; whether it changed."""
        if match.status != STATUS_ACTIVE:
            return False
        # Always an event, so the save always checks the match's version: with every forfeited player
        # resigned already there was nothing to save, and a match ending meanwhile was forfeited anyway.
        match.record_forfeit([seat for seat in map(match.seat_of, dict.fromkeys(player_ids)) if seat is not None])
        for player_id in dict.fromkeys(player_ids):
            seat = match.seat_of(player_id)
            if seat is not None and seat not in match.resigned:
                match.resign(player_id)
        match.settle(self.app.rng, self.app.clock())
        return True

    def sanction(self, tournament_id: Any, by: Player, body: dict, expected: Optional[Collection[int]] = None) -> int:
        """Disqualify a player or void a match; returns the sanction's number."""
        if body["kind"] == "disqualify":
            if not body.get("player_id"):
                raise errors.InvalidRequest("a disqualification names the player_id")
            if body.get("match_id"):  # dropped without a word, an organiser unsure which id counts never knew
                raise errors.InvalidRequest("a disqualification names the player_id only (a void names the match_id)")
            return self._leave(tournament_id, lambda t: (
                t.disqualify(str(by.id), body["player_id"], body.get("reason", "")), []), body["player_id"], expected)
        if not body.get("match_id"):
            raise errors.InvalidRequest("voiding names the match_id")
        if body.get("player_id"):
            raise errors.InvalidRequest("voiding names the match_id only (a disqualification names the player_id)")
        return self._command(tournament_id, lambda t: t.void_match(
            str(by.id), body["match_id"], body.get("reason", ""), self.app.clock()),
            also=lambda: self._void_in_match(body["match_id"], body.get("reason", "")), expected=expected)

    def _void_in_match(self, match_id: str, reason: str) -> list[Match]:
        """A match voided while it is played stops (``Match.void``), in the same save as the void: it had
        stayed playable, its clocks running and its computers moving, for a result nobody counts. Read
        after the act (which checked it is this tournament's), its version guards the save: a match
        finishing meanwhile fails it, and the retry voids only the tournament's table."""
        match = self.app.get_match(match_id)
        if match.status == STATUS_FINISHED and match.voided is None:
            match.void_result(reason)  # over: its result stays, counted for nobody, and its view says so
            return [match]
        if match.status != STATUS_ACTIVE:
            return []
        match.void(reason)
        return [match]

    def record_result(self, tournament_id: str, match: Match) -> bool:
        """Record a finished match's result (and pair the next round if it completed one); False if
        it was already recorded. Called by the round keeper. The table's ranks are the league's
        (``Match.league_ranks``): a seat the computer was playing at the end (a turn limit's ``on_timeout:
        computer``) ranks last, as in the ratings. Credited with the computer's play, a bot that never moved
        won a tournament, and the organiser's forfeit could not score it: the computer finished the table
        long before the round's deadline (a tournament bot's probe)."""
        if not match.result or match.result.get("ranks") is None:
            return False
        ranks = match.league_ranks()
        recorded = self._command(tournament_id, lambda t: t.record_result(str(match.id), ranks, self.app.clock()))
        return recorded is not None

    # -- the machinery ----------------------------------------------------------------------------
    def _command(self, tournament_id: Any, act: Callable[[Tournament], Any],
                 also: Callable[[], list[Match]] = list, expected: Optional[Collection[int]] = None,
                 then: Callable[[], list[Match]] = list) -> Any:
        """Get, act, save (with the matches of any round the act paired, the changed matches ``also``
        gives after the act, and those ``then`` gives, saved after the tournament), retrying a lost race;
        refused at once (412) unless the tournament is at one of the ``expected`` versions, when given.
        A lost race's retry reads it again: a write landing in between makes the caller's version stale,
        as RFC 9110 §13.1.1 would have it."""
        for _ in range(RETRIES):
            tournament = self.get(tournament_id)
            version = tournament.version
            try:
                outcome = act(tournament)
            except tournament_domain.TournamentError as error:
                raise refusal(error) from None
            # After the act's own refusals, as a match's write has it: a stranger's stale write is his 403.
            if expected is not None and version not in expected:
                raise errors.PreconditionFailed(
                    f"the tournament is at version {version}, not the one If-Match states: it has changed "
                    "since that read; read it again", current_version=version)
            number, tables = outcome if isinstance(outcome, tuple) else (None, outcome)
            if not tournament.pending_events:
                return None if number is None else number
            paired = [self._match_for(tournament, table) for table in tables or []]
            try:
                self._save(tournament, paired, changed=also(), after=then())
            except IntegrityError:
                continue
            return outcome if number is None else number
        raise Busy("the tournament is too busy; try again")

    def _match_for(self, tournament: Tournament, table: dict) -> Match:
        engine = get_engine(tournament.game)
        humans = len(table["players"])
        seats = humans + table.get("computers", 0)
        round_, _ = tournament.table_of_match(table["match_id"])  # type: ignore[misc]  # paired just now
        match = new_match(
            UUID(table["match_id"]),
            game=tournament.game,
            rules_version=engine.rules_version,
            seats=seats,
            options=_options_for(engine, seats, tournament.match_options),
            bots={str(seat): tournament.computer for seat in range(humans, seats)},
            created_by=tournament.organiser,
            rated=tournament.rated,
            chance=new_chance(),  # committed like every match's chance (application/chance.py)
            tournament={"id": str(tournament.id), "round": round_["round"], "table": table["table"]},
        )
        if tournament.turn_limit is not None:  # absent players, as a match created with it (issue 13)
            match.limit_turns(tournament.turn_limit["seconds"], tournament.turn_limit["on_timeout"])
        for seat, player_id in enumerate(table["players"]):
            match.join(player_id, tournament.players[player_id]["name"], seat)
        match.start(tournament.organiser)
        match.settle(self.app.rng, self.app.clock())
        return match

    def _save(self, tournament: Tournament, paired: list[Match], changed: Sequence[Match] = (),
              after: Sequence[Match] = ()) -> None:
        """One transaction: the matches the act changed (a forfeited or voided table), the tournament, the
        matches of the round it paired, in that log order: a forfeit that settled the last table told its
        players the tournament's end before their table's (a bot stopping at the end never had it). The
        matches ``after`` come after the tournament: a leaving player's resignation follows his leaving."""
        self.app.save(*changed, tournament, *after, *paired)
        self.app.tasks.enqueue(Task(TASK_PROJECT))
        for match in [*changed, *after, *paired]:
            self.app.repository.remember(match)  # the newest: no read is answered with the one before
            for task in self.app.follow_ups(match):
                if task.name != TASK_PROJECT:
                    self.app.tasks.enqueue(task)


def creation_terms(tournament: Tournament) -> tuple:
    """What a creation asked for: a retry under the same Idempotency-Key must ask for all of it again."""
    # The rounds planned: ``rounds`` (the rounds paired, none yet) let a retry asking for 5 get a 2.
    return (tournament.game, tournament.name, tournament.table_size, tournament.format, tournament.rounds_planned,
            list(tournament.points), tournament.bye_points, list(tournament.tie_breaks), tournament.match_options,
            tournament.rated, tournament.round_deadline_seconds, tournament.computer, tournament.turn_limit)


def _options_for(engine: Engine, seats: int, options: dict) -> dict:
    """The tournament's match options for a smaller table: those the engine accepts at that size."""
    try:
        return engine.check_options(seats, options)
    except InvalidOptions:
        return engine.check_options(seats, {})


class RoundKeeper:
    """Follows the log: a finished tournament match's result is recorded, rounds are paired."""

    def __init__(self, app: Motley, tournaments: Tournaments, view: LeagueView):
        self.app = app
        self.tournaments = tournaments
        self.view = view
        self.name = f"{app.name}.{KEEPER}"

    def run(self) -> int:
        applied = 0
        while True:
            start = self.view.position(self.name)
            notifications = self.app.recorder.select_notifications(start=start, limit=BATCH, inclusive_of_start=False)
            if not notifications:
                return applied
            paired: dict[str, str] = {}
            docs = []
            # Which tournament each finished match plays for, in one query (issue 16, P3).
            tables = self.view.get_many(
                [(TABLE_DOC, "", str(n.originator_id)) for n in notifications if n.topic.endswith("Match.Finished")])
            for n in notifications:
                topic = n.topic
                if topic.endswith("Tournament.RoundPaired"):
                    tournament_id = str(n.originator_id)
                    for table in self._tables_paired(tournament_id, n.originator_version):
                        paired[table["match_id"]] = tournament_id
                        docs.append(Doc(TABLE_DOC, "", table["match_id"], "", 0.0, {"tournament_id": tournament_id}))
                elif topic.endswith("Match.Finished"):
                    match_id = str(n.originator_id)
                    of = paired.get(match_id) or self._tournament_of(tables, match_id)
                    if of is not None:
                        self._record(of, match_id)
            try:
                self.view.write(docs, [], start, Tracking(self.name, notifications[-1].id))
            except IntegrityError:
                return applied  # another keeper moved on; what this one did was idempotent
            applied += len(notifications)
            if len(notifications) < BATCH:
                return applied  # the log's end was read (a later save sends another run)

    def _record(self, tournament_id: str, match_id: str) -> None:
        try:
            self.tournaments.record_result(tournament_id, self.app.get_match(match_id))
        except Busy:
            raise  # transient: the task is retried, from this same position
        except errors.ServiceError:
            # A result the tournament refuses will be refused however often it is offered: log it
            # (the organiser can void or forfeit the table) rather than stop every tournament.
            log.exception("tournament %s refused the result of match %s", tournament_id, match_id)

    def _tables_paired(self, tournament_id: str, version: int) -> list[dict]:
        tournament: Tournament = self.app.repository.get(UUID(tournament_id), version=version)
        return tournament.rounds[-1]["tables"]

    @staticmethod
    def _tournament_of(tables: dict, match_id: str) -> Optional[str]:
        doc = tables.get((TABLE_DOC, "", match_id))
        return None if doc is None else doc.data["tournament_id"]
