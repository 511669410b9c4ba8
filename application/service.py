"""Motley's service layer: an event-sourced application of players and matches.

Each command loads an aggregate, acts on it and saves it (get, act, save). A save that loses a race
with another writer of the same match (``IntegrityError``) is retried on the freshly loaded match, so
racing moves are serialised and each is checked against the state it really lands on.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from time import monotonic, perf_counter
from typing import Any, Callable, Collection, Iterable, NamedTuple, Optional, cast
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import AggregateEvent
from eventsourcing.persistence import IntegrityError, Recording

from application import errors, snapshots
from application.chance import new_chance
from application.keyed_locks import KeyedLocks
from application.ports import (
    TASK_BOT,
    TASK_PROJECT,
    TASK_RESOLVE,
    TASK_TIMEOUT,
    NoTaskQueue,
    Task,
    TaskQueue,
)
from domain import match as match_domain
from domain.commitments import ChanceCommitment
from domain.engine import IllegalAction, InvalidOptions, Phase, same_json
from domain.games import UnknownGame, available_engines, get_engine, rules_versions
from domain.match import Match
from domain.player import KeyRefused, Player, hash_secret, key_id
from domain.tournament import Tournament

RETRIES = 20
#: Events that may come between a computer's choice and its save without making its seat's decision
#: another (``Motley._same_decision``): besides other seats' moves, the clocks' bookkeeping.
BESIDE_A_DECISION = frozenset({"TurnClockStarted", "TurnClockStopped", "ClockExtended", "SeatsTimedOut",
                               "SeatReturned"})
#: How long a verified API key is trusted without looking its player up again, and how many are kept.
VERIFIED_KEY_SECONDS = 2.0
VERIFIED_KEYS_KEPT = 10_000
#: The longest a computer opponent's search thinks about one move: a player waits about a second.
COMPUTER_SECONDS = 0.8
#: The events ``Match.settle`` appends after a command, in the command's own save (domain/match.py).
SETTLING_EVENTS = frozenset({"ChanceDrawn", "TimerStarted", "TimerCleared", "Abandoned", "TurnClockStarted",
                             "TurnClockStopped", "ResolutionDue", "Finished"})
REPLAY_LOOKAHEAD = 500  # events read past a replayed move to find the end of its save
log = logging.getLogger(__name__)


#: Where the ids of idempotent creations come from: uuid5(this, "<kind>:<scope>:<Idempotency-Key>").
IDEMPOTENT_CREATIONS = UUID("0b5d6c57-6f2e-4f4e-9a43-6d6f746c6579")


def creation_scope(player: Player) -> str:
    """The scope of a player's idempotent creations (``idempotent_id``): its id and its secret salt, so
    that nobody else can compute the id of a match (an unlisted one) it created with a key it chose."""
    salt = getattr(player, "salt", "")
    return f"{player.id}:{salt}" if salt else str(player.id)


def idempotent_id(kind: str, scope: str, request_key: Optional[str]) -> Optional[UUID]:
    """The id a creation with an Idempotency-Key gets: the same for a retry, so the store itself
    refuses a second creation (a version-1 event already exists) and the retry finds the first."""
    return None if request_key is None else uuid5(IDEMPOTENT_CREATIONS, f"{kind}:{scope}:{request_key}")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class MoveReceipt:
    match_id: UUID
    version: int  # the match's version once the move and its consequences were saved
    position: Optional[int]  # notification id of the last event saved (a replay: the log position now, past it)
    replayed: bool = False  # True when an idempotency key matched an earlier request
    match: Optional[Match] = None  # the match as saved (None on a replayed request)


class Saved(NamedTuple):
    """What a command on a match did (``Motley._command``): what its act returned, the match as saved
    (as read, when the act changed nothing; its version is the match's after the command), and the log
    position of the save's last event (None: nothing was saved). An answer is built from the saved
    match and states that position, without reading either again (issue 16)."""

    outcome: Any
    match: Match
    position: Optional[int]


def parse_id(value: Any, what: str) -> UUID:
    try:
        return value if isinstance(value, UUID) else UUID(str(value))
    except ValueError:
        raise errors.NotFound(f"no {what} with id {errors.quoted(value)}") from None


class Motley(Application):
    name = "motley"
    env = {
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
    }
    # Snapshots keyed to the rules version bound the cost of any read (application/snapshots.py).
    is_snapshotting_enabled = True
    repository: snapshots.KeyedSnapshotRepository  # what construct_repository builds

    def construct_repository(self) -> snapshots.KeyedSnapshotRepository:
        return snapshots.KeyedSnapshotRepository.like(super().construct_repository())

    def __init__(
        self,
        env: Optional[dict] = None,
        tasks: Optional[TaskQueue] = None,
        clock: Callable[[], datetime] = utcnow,
        rng: Optional[random.Random] = None,
    ):
        super().__init__(env)
        self.tasks = tasks or NoTaskQueue()
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self._verified_keys: dict[str, tuple[float, Player]] = {}  # sha256 of a key -> (when, player)
        # Bumped (under the lock) once a change of a player's keys is saved: a verification that began
        # before it does not put what it read into the cache (see authenticate).
        self._keys_changed = 0
        self._keys_lock = threading.Lock()
        self.search_clock: Callable[[], float] = perf_counter  # what a computer's search budget counts
        # Called with the recordings of each save, once the saved aggregates are what the repository
        # answers (the log watcher's ``heard``: the streams of a saved match wake without a read).
        self.saved_hooks: list[Callable[[list[Recording]], None]] = []
        self.moving = KeyedLocks()  # a lock per match that players' moves hold (submit_move)

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording]:
        recordings = super().save(*objs, **kwargs)
        self._announce(recordings)
        return recordings

    def _announce(self, recordings: list[Recording]) -> None:
        for hook in self.saved_hooks:
            hook(recordings)

    # -- players ---------------------------------------------------------------------------------
    def register_player(self, name: str) -> tuple[UUID, str]:
        player_id, key = self.register_player_once(name, None)
        assert key is not None, "a registration without a request key is never a retry"
        return player_id, key

    def register_player_once(self, name: str, request_key: Optional[str]) -> tuple[UUID, Optional[str]]:
        """A new player and its API key. Retried with the same ``request_key``, the same player and no
        key (``None``): a key is shown once, and an Idempotency-Key is no secret that may fetch one."""
        secret = secrets.token_urlsafe(32)
        player_id = idempotent_id("player", "", request_key)
        identity: dict[str, Any] = {} if player_id is None else {"id": player_id}  # the library's own id argument
        player = Player(name=name, key_hash=hash_secret(secret), salt=secrets.token_hex(16), **identity)
        try:
            self.save(player)
        except IntegrityError:
            first = self.get_player(player_id)
            if first.name != name:
                raise errors.Conflict("this idempotency key was already used for a different player",
                                      rule="idempotency") from None
            return first.id, None
        # The read models follow every event, a player's too: a read that waits for this write's
        # position (?after=) must see it applied, not time out.
        self.tasks.enqueue(Task(TASK_PROJECT))
        return player.id, f"{player.id.hex}.{secret}"

    def add_key(self, player: Player) -> tuple[str, str]:
        """A new API key beside the player's others (rotation): (its id, the key, shown once)."""
        secret = secrets.token_urlsafe(32)
        new_id = self._change_player(player, lambda p: p.add_key(hash_secret(secret)))
        return new_id, f"{player.id.hex}.{secret}"

    def revoke_key(self, player: Player, key_id: str) -> None:
        """Revoke one of the player's keys (never its last): requests with it are refused from now on."""
        self._change_player(player, lambda p: p.revoke_key(key_id))

    @staticmethod
    def key_id_of(api_key: str) -> str:
        return key_id(hash_secret(api_key.partition(".")[2]))

    def _change_player(self, player: Player, act: Callable[[Player], Any]) -> Any:
        for _ in range(RETRIES):  # a racing change of the same player (two rotations at once): again
            fresh = self.get_player(player.id)  # a copy to act on: the authenticated one is shared
            try:
                outcome = act(fresh)
            except KeyRefused as error:
                raise errors.from_domain(error) from None
            try:
                self.save(fresh)
            except IntegrityError:
                continue
            # A revoked key is refused from the next request on. Forgotten once the change is saved,
            # not before: a request verifying the key meanwhile read the player as it was and cached it
            # again, and the revoked key stayed good for VERIFIED_KEY_SECONDS while it was in use.
            with self._keys_lock:
                self._keys_changed += 1
                self._verified_keys.clear()
            self.tasks.enqueue(Task(TASK_PROJECT))
            return outcome
        raise errors.Conflict("the player changed meanwhile; try again")

    def authenticate(self, api_key: Optional[str]) -> Player:
        """The player whose key this is (shared: read it, never act on it). A key verified in the
        last ``VERIFIED_KEY_SECONDS`` is not looked up again: every request of a move sends one, and
        the lookup was a database round trip each. Revoking a key here forgets it at once; another
        API process stops accepting it within that many seconds (docs/deploy.md)."""
        if not api_key:
            raise errors.Unauthenticated("send your API key as 'Authorization: Bearer <key>'")
        fingerprint = hash_secret(api_key)
        verified = self._verified_keys.get(fingerprint)
        if verified is not None and monotonic() - verified[0] < VERIFIED_KEY_SECONDS:
            return verified[1]
        player_hex, _, secret = api_key.partition(".")
        player: object
        keys_changed = self._keys_changed  # before the read: a change saved after it makes the read old
        try:
            player_id = UUID(hex=player_hex)
            # Only the spelling the key was issued with: UUID() also reads upper case, hyphens anywhere,
            # braces and "urn:uuid:", and each spelling of one key had a rate-limit budget of its own.
            player = (self.repository.get(player_id, deepcopy_from_cache=False)  # read only
                      if player_id.hex == player_hex else None)
        except (ValueError, AggregateNotFoundError):
            player = None
        if not isinstance(player, Player) or not player.verify(secret):
            raise errors.Unauthenticated("the API key is not valid")
        with self._keys_lock:
            if keys_changed == self._keys_changed:  # else this read may hold a key revoked since
                if len(self._verified_keys) >= VERIFIED_KEYS_KEPT:
                    self._verified_keys.clear()  # bounded; the next requests verify again
                self._verified_keys[fingerprint] = (monotonic(), player)
        return player

    def get_player(self, player_id: Any) -> Player:
        player = self._get(parse_id(player_id, "player"), "player")
        if not isinstance(player, Player):
            raise errors.NotFound(f"no player with id {player_id}")
        return player

    # -- matches ---------------------------------------------------------------------------------
    def games(self) -> dict:
        return available_engines()

    def rules_versions(self, game: str) -> dict:
        """Every shipped rules version of ``game`` (a known game's name) and its engine, oldest first:
        stored matches play under the version they started with."""
        versions = rules_versions(game)
        return {v: versions[v] for v in sorted(versions, key=lambda v: tuple(int(p) for p in v.split(".")))}

    def was_created(self, kind: str, scope: str, request_key: Optional[str]) -> bool:
        """Whether a creation with this Idempotency-Key (``idempotent_id``) was made: its retry answers
        the first and creates nothing."""
        created_id = idempotent_id(kind, scope, request_key)
        return created_id is not None and bool(list(self.events.get(created_id, limit=1)))

    def create_match(
        self, creator: Player, game: str, seats: int, options: dict, computers: dict[int, str],
        reveal_at_end: bool = True,
        rated: bool = True,
    ) -> UUID:
        return self.create_match_once(creator, game, seats, options, computers, reveal_at_end, rated, None).match.id

    def create_match_once(
        self, creator: Player, game: str, seats: int, options: dict, computers: dict[int, str],
        reveal_at_end: bool, rated: bool, request_key: Optional[str], turn_limit: Optional[dict] = None,
        unlisted: bool = False, require_version: bool = False,
    ) -> Saved:
        """The new match as saved; its outcome says whether this was a retry (same ``request_key``) of a
        creation already made: the first match is answered then (as it is now), and nothing is created
        twice."""
        match_id = idempotent_id("match", creation_scope(creator), request_key)
        match = self._new_match(creator, game, seats, options, computers, reveal_at_end, rated, match_id, turn_limit)
        if unlisted:  # joined by invitation code only (issue 13)
            match.make_unlisted(secrets.token_urlsafe(9))
        if require_version:
            match.require_versions()
        try:
            recordings = self._save_match(match)
        except IntegrityError:
            first = self.get_match(match_id)
            if creation_terms(first) != creation_terms(match):
                raise errors.Conflict("this idempotency key was already used for a different match",
                                      rule="idempotency") from None
            return Saved(True, first, None)
        return Saved(False, match, recordings[-1].notification.id)

    def _new_match(
        self, creator: Player, game: str, seats: int, options: dict, computers: dict[int, str],
        reveal_at_end: bool, rated: bool, match_id: Optional[UUID] = None, turn_limit: Optional[dict] = None,
    ) -> Match:
        try:
            engine = get_engine(game)
        except UnknownGame:
            raise errors.NotFound(f"no game named {errors.quoted(game)}", games=sorted(available_engines())) from None
        try:
            full_options = engine.check_options(seats, options)
        except InvalidOptions as error:
            raise errors.from_domain(error) from None
        levels = engine.bots()
        for seat, level in computers.items():
            if not 0 <= seat < seats:
                raise errors.InvalidRequest(f"computer seat {seat} does not exist")
            if level not in levels:
                known = ", ".join(sorted(levels)) or "none"
                raise errors.InvalidRequest(f"{engine.title} has no computer level {level!r} (levels: {known})")
        identity: dict[str, Any] = {} if match_id is None else {"id": match_id}  # the library's own id argument
        match = Match(
            game=game,
            rules_version=engine.rules_version,
            seats=seats,
            options=full_options,
            bots={str(seat): level for seat, level in computers.items()},
            created_by=str(creator.id),
            reveal_at_end=reveal_at_end,
            chance=new_chance(),
            rated=rated,  # "rated": false keeps the match out of the ratings (issue 10)
            **identity,
        )
        if turn_limit is not None:  # {"seconds", "on_timeout"}: absent players (issue 13)
            match.limit_turns(turn_limit["seconds"], turn_limit["on_timeout"])
        return match

    def read_match(self, match_id: Any, at_least: Optional[int] = None) -> Match:
        """The match now, shared with other readers (no copy): for reading only, never to act on.
        (The repository fast-forwards copy-on-write: snapshots.KeyedSnapshotRepository.get.) With
        ``at_least`` (a version the caller knows the log has reached, from the log watcher), a cached
        match that recent is answered without asking the store for newer events."""
        match_uuid = parse_id(match_id, "match")
        match = self._get(match_uuid, "match", shared=True, at_least=at_least)
        if not isinstance(match, Match):
            raise errors.NotFound(f"no match with id {match_id}")
        return match

    def read_match_at(self, match_id: Any, version: int) -> Match:
        """The match as it was at ``version`` (a version the log has reached), shared with other readers
        like ``read_match``: the cached match when it is that version, else a historical read."""
        match = self.read_match(match_id, at_least=version)
        if match.version == version:
            return match
        earlier = self._get(match.id, "match", version, shared=True)
        assert isinstance(earlier, Match)
        return earlier

    def read_tournament(self, tournament_id: Any, version: Optional[int] = None) -> Tournament:
        """The tournament now, or as it was at ``version``, shared with other readers like ``read_match``:
        for reading only."""
        tournament = self._get(parse_id(tournament_id, "tournament"), "tournament", version, shared=True)
        if not isinstance(tournament, Tournament):
            raise errors.NotFound(f"no tournament with id {tournament_id}")
        return tournament

    def get_match(self, match_id: Any, version: Optional[int] = None) -> Match:
        match_uuid = parse_id(match_id, "match")
        if version is not None:
            current = self.get_match(match_uuid)
            if not 1 <= version <= current.version:
                raise errors.NotFound(f"match {match_uuid} has versions 1 to {current.version}")
        match = self._get(match_uuid, "match", version)
        if not isinstance(match, Match):
            raise errors.NotFound(f"no match with id {match_id}")
        return match

    # Each command below takes the version its caller saw (``expected_version``, an HTTP If-Match):
    # stated and stale, the command is refused (StaleVersion) and nothing is saved.
    def join_match(self, match_id: Any, player: Player, seat: Optional[int] = None,
                   code: Optional[str] = None, expected_version: Optional[int] = None) -> Saved:
        """Take a seat; the outcome is the seat's number."""
        def act(match: Match) -> int:
            return match.join(str(player.id), player.name, seat, code)

        return self._command(match_id, act, expected_version)

    def start_match(self, match_id: Any, player: Player, expected_version: Optional[int] = None) -> Saved:
        return self._command(match_id, lambda match: match.start(str(player.id)), expected_version)

    def leave_match(self, match_id: Any, player: Player, expected_version: Optional[int] = None) -> Saved:
        return self._command(match_id, lambda match: match.leave(str(player.id)), expected_version)

    def cancel_match(self, match_id: Any, player: Player, expected_version: Optional[int] = None) -> Saved:
        return self.cancel_match_as(match_id, str(player.id), expected_version)

    def cancel_match_as(self, match_id: Any, creator_id: str, expected_version: Optional[int] = None) -> Saved:
        """Cancel as ``creator_id``: a player's id, or the auditor's name for the forks it made."""
        return self._command(match_id, lambda match: match.cancel(creator_id), expected_version)

    def invite(self, match_id: Any, player: Player, invitee_id: Any,
               expected_version: Optional[int] = None) -> Saved:
        invitee = self.get_player(invitee_id)  # an unknown player is a 404
        return self._command(match_id, lambda match: match.invite(str(player.id), str(invitee.id)),
                             expected_version)

    def claim_match(self, match_id: Any, player: Player, expected_version: Optional[int] = None) -> Saved:
        return self._command(match_id, lambda match: match.claim(str(player.id)), expected_version)

    def resign_match(self, match_id: Any, player: Player, expected_version: Optional[int] = None) -> Saved:
        return self._command(match_id, lambda match: match.resign(str(player.id)), expected_version)

    def come_back(self, match_id: Any, player: Player, expected_version: Optional[int] = None) -> Saved:
        return self._command(match_id, lambda match: match.come_back(str(player.id)), expected_version)

    def rematch(self, match_id: Any, player: Player) -> tuple[UUID, bool]:
        """Play again: a new match of the same game, seats, computers and options, each seat kept for
        the player who held it, the caller seated; both matches link to each other. Asked twice (or
        by two players at once), it answers with the one rematch, the caller seated in the seat kept
        for it; once that one is cancelled, with a new one. Answers the rematch's id and whether this
        call made it."""
        for _ in range(RETRIES):
            old = self.get_match(match_id)
            if old.seat_of(str(player.id)) is None:
                raise errors.Forbidden("only a player of the match may ask for its rematch")
            if getattr(old, "imported", False):  # its rematch link, if any, is the original's
                raise errors.Conflict("an imported copy is the record of a match played elsewhere: ask for "
                                      "a rematch of that match", rule="rematch")
            # The one rematch, unless its creator called it off: then play again makes a new one (the
            # cancelled match answered every later ask, and nobody could ever play that match again).
            if old.rematch is not None:
                existing = self.read_match(old.rematch)
                if existing.status != match_domain.STATUS_CANCELLED:
                    mine = str(player.id) in existing.reserved.values() and existing.seat_of(str(player.id)) is None
                    if mine and existing.status == match_domain.STATUS_OPEN:
                        try:
                            self.join_match(existing.id, player)  # the seat kept for the caller
                        except errors.Conflict:
                            if self.read_match(existing.id).status == match_domain.STATUS_CANCELLED:
                                continue  # called off meanwhile: play again makes a new one
                            # else seated by a racing request of its own, or started meanwhile
                    return existing.id, False
            try:
                old.check_rematch_allowed()
            except match_domain.MatchError as error:
                raise errors.from_domain(error) from None
            new = self._new_match(
                player, old.game, old.num_seats, old.options,
                {int(seat): level for seat, level in old.bots.items()}, old.reveal_at_end, self._rated_as_created(old),
                turn_limit=old.turn_limit,
            )
            kept = {str(s): p for s, p in enumerate(old.players) if p is not None and not old.is_bot(s)}
            new.keep_seats_for_rematch(of_match=str(old.id), reserved=kept)
            if old.invitation is not None:
                new.make_unlisted(secrets.token_urlsafe(9))
            if old.versions_required:
                new.require_versions()
            new.join(str(player.id), player.name)
            old.link_rematch(str(new.id))
            try:
                self.save(old, new)  # one transaction: a racing rematch loses whole and finds this one
            except IntegrityError:
                continue
            for task in self.follow_ups(new):
                self.tasks.enqueue(task)
            return new.id, True
        raise errors.Conflict("the match is too busy; try again")

    def _rated_as_created(self, match: Match) -> bool:
        """Whether a rematch of ``match`` is rated: as its creator chose. A fork is unrated as a replay of
        another match's position, not by anyone's choice; its rematch is a fresh deal, rated as the match
        the forks began from was (it copied the fork's false, and every later rematch stayed unrated: a
        ratings probe)."""
        seen = 0
        while match.parent is not None and seen < RETRIES:  # a fork of a fork: up to the match played first
            try:
                match, seen = self.read_match(match.parent["match_id"]), seen + 1
            except errors.NotFound:
                return False
        return bool(match.rated) and match.parent is None

    def submit_move(
        self,
        match_id: Any,
        player: Player,
        action: Any,
        expected_version: Optional[int] = None,
        request_key: Optional[str] = None,
        stated: Optional[Collection[int]] = None,
    ) -> MoveReceipt:
        """A player's move. ``stated``: the versions the request states, any of which may be the one it was
        played at, for a retry's check (an If-Match list's; by default ``expected_version`` alone).

        It is tried first on a copy of the cached match, without asking the store
        whether the match moved on (a round trip a move, issue 16): if another process did move it, the
        save's versions collide with the stored ones and the move is tried again on the match read
        afresh (``_move``), and a refusal is only given once the store confirms the cached match was
        the latest. So the cache can cost a retry, never a wrong answer. The moves on one match in this
        process wait for each other (application/keyed_locks.py), so that players of a simultaneous
        phase do not collide with each other here."""
        match_uuid = parse_id(match_id, "match")
        states = frozenset(stated if stated is not None else () if expected_version is None else (expected_version,))
        with self.moving.hold(match_uuid):
            cached = self._get(match_uuid, "match", at_least=0)
            if not isinstance(cached, Match):
                raise errors.NotFound(f"no match with id {match_id}")
            try:
                return self._submit(cached, player, action, expected_version, request_key, states)
            except errors.ServiceError:
                if not list(self.events.get(match_uuid, gt=cached.version, limit=1)):
                    raise  # the cached match was the latest: the refusal stands
            return self._submit(self.get_match(match_uuid), player, action, expected_version, request_key, states)

    def _submit(self, match: Match, player: Player, action: Any, expected_version: Optional[int],
                request_key: Optional[str], stated: frozenset = frozenset()) -> MoveReceipt:
        seat = match.seat_of(str(player.id))
        if seat is None:
            raise errors.Forbidden("you hold no seat at this match")
        key = f"{player.id}:{request_key}" if request_key else None
        if key is not None and key in match.request_keys:
            # A retry of a move that was made: the first answer again, whatever happened since (a
            # resignation after the lost answer made it a 409 for a move that had been played).
            return self._replayed(match, key, action, stated)
        # The stated version before the resignation's 409, as before every other refusal of a move
        # (docs/problems.md: a move's 412 comes before its 409s; a resigned seat's stale move was a 409).
        self._check_version(match.version, expected_version)
        try:
            match.check_not_resigned(seat)
        except match_domain.MatchError as error:
            raise errors.from_domain(error) from None
        if match.versions_required and expected_version is None:
            raise errors.PreconditionRequired("this match requires each move to state the version it was based "
                                              "on: send If-Match or expected_version", rule="versions required")
        return self._move(match.id, seat, action, expected_version, key, loaded=match, stated=stated)

    def play_computer_move(self, match_id: Any, seat: int, since: Optional[int] = None) -> bool:
        """A computer opponent in ``seat`` sees its own observation and moves through the same path
        as a human. False when it is not that seat's turn (the task was a duplicate). ``since``: the
        version before the save that sent this task; the seat already at this decision then, a task
        sent by an earlier save plays it, and this one stands down."""
        match = self.get_match(match_id)
        if not match.stands_in(seat) or seat not in match.to_act().seats or match.to_act().kind != Phase.PLAYERS:
            return False
        engine = match.engine
        legal = engine.legal_actions(match.state, seat)
        # In a phase where several seats act at once every save (a person's move, another computer's)
        # sends a task for each computer still to act: on Celery, whose queue keeps every copy, the
        # copies searched side by side, as much CPU thrown away as spent, and the queue backed up.
        if since and self._same_decision(self.get_match(match.id, since), seat, since, legal, now=match):
            return False
        # A resigned seat is played by the game's first computer level, or at random if it has none.
        level = match.bots.get(str(seat)) or next(iter(sorted(engine.bots())), None)
        try:
            if level is None:
                action = self.rng.choice(legal)
            else:
                bot = engine.bots()[level]
                budgeted = getattr(bot, "with_budget", None)  # a search: bounded in time as well (issue 14)
                if budgeted is not None:
                    bot = budgeted(seconds=COMPUTER_SECONDS, clock=self.search_clock)
                action = bot(engine.observation(match.state, seat), legal, self.rng)
            engine.check(match.state, seat, action)
        except Exception:  # a faulty computer opponent must not stall the match: it plays at random
            log.exception("computer %s at seat %s of match %s failed", level, seat, match.id)
            action = self.rng.choice(legal)
        # A computer never makes a move its cooldown refuses (house rule 4.5's peeks): it waits until
        # the move it chose is allowed and is asked again then. It chooses among all its legal moves,
        # not only those allowed now: offered only what never cools down ("done"), it would end its
        # tax collection at every peek that came within the cooldown of the last.
        now = self.clock()
        wait = match.cooldown_left(seat, action, now)
        if wait > 0:
            self.tasks.enqueue(Task(TASK_BOT, (str(match.id), seat), eta=now + timedelta(seconds=wait)))
            return False
        chosen_at, loaded = match.version, match
        for _ in range(RETRIES):
            try:
                self._move(match.id, seat, action, expected_version=match.version, request_key=None,
                           loaded=loaded, by_player=False)
                return True
            except errors.StaleVersion:
                # Other seats moved during the search: in a phase where several act at once (sealed
                # commits, offers) they mostly do. Thrown away, the search began again and again, and the
                # computer's move came two or three searches late (docs/bots.md: 0.8 s a move). Its
                # choice stands while the seat is at the same decision: it has not moved since, and its
                # legal actions are the same (as a player's move sent without a version is taken).
                match = loaded = self.get_match(match_id)
                if not self._same_decision(match, seat, chosen_at, legal):
                    return False  # the match moved on: a later task will ask again
            except errors.TimeIsUp:
                return False  # the search outlasted a timed phase: its timeout closes it (house rule 4.5), no fault
        return False

    def _same_decision(self, match: Match, seat: int, chosen_at: int, legal: list,
                       now: Optional[Match] = None) -> bool:
        """Whether ``seat`` is at ``match`` (read at ``chosen_at`` or later) at the decision whose legal
        actions are ``legal``, and has not moved between ``chosen_at`` and ``now`` (by default
        ``match``): still at the decision its computer chose at, or already at it then."""
        turn, last = match.to_act(), (now or match).version
        if not match.stands_in(seat) or turn.kind != Phase.PLAYERS or seat not in turn.seats:
            return False
        if not same_json(match.engine.legal_actions(match.state, seat), legal):
            return False
        # Only other seats' moves and the clocks' bookkeeping came between: a step of the game (a timed
        # phase's end, a resolution, chance) is a new decision even where its legal actions look the same.
        return all((type(e).__name__ == "MoveMade" and getattr(e, "seat", None) != seat)
                   or type(e).__name__ in BESIDE_A_DECISION
                   for e in self.events.get(match.id, gt=chosen_at, lte=last))

    def resolve_automatic_step(self, match_id: Any) -> bool:
        """Append the engine's automatic step (scoring, round end) if one is due. Idempotent:
        delivered twice, the second finds nothing due and appends nothing."""
        return self._command(match_id, lambda match: match.resolve_automatic_step()).outcome

    def close_timed_phase(self, match_id: Any, phase: str, down_until: Optional[str] = None) -> bool:
        """Close the timed phase ``phase`` once its deadline has passed; idempotent. A task that
        arrives early (clocks differ a little) asks again at the deadline. ``down_until``: sent by the
        sweep of a process that starts, the time it started; a deadline that passed before it passed
        while the service (or its workers) was down: nobody could move, so the phase gets a whole
        period from now (``ClockExtended``) rather than closing at once (the players were made absent,
        or the hourglass ran out, before the API answered again)."""
        until = None if down_until is None else datetime.fromisoformat(down_until)
        saved = self._command(match_id, lambda match: self._close_or_extend(match, phase, until))
        closed = saved.outcome
        if not closed and saved.position is None:  # nothing saved (an extension's save sent its own task)
            match = self.get_match(match_id)
            for clock in (match.timer, match.turn_clock):
                # Only a deadline still ahead: one already passed that closed nothing is stale (the match
                # ended, or nobody it waited for is still to act), and asking again at once would loop.
                if (clock is not None and clock["phase"] == phase and match.status == match_domain.STATUS_ACTIVE
                        and self.clock() < clock["deadline"]):
                    self.tasks.enqueue(Task(TASK_TIMEOUT, (str(match.id), phase), eta=clock["deadline"]))
        return closed

    def _close_or_extend(self, match: Match, phase: str, down_until: Optional[datetime]) -> bool:
        now = self.clock()
        for clock in (match.timer, match.turn_clock):
            if (down_until is not None and clock is not None and clock["phase"] == phase
                    and clock["deadline"] < down_until <= now):
                match.extend_clock(phase, now)
                return False
        return match.time_out(phase, now)

    def history(self, match_id: Any, after: int = 0) -> Iterable[tuple[Any, Optional[Match]]]:
        """Each stored event of a match after version ``after`` with the match as it was just before it."""
        match_uuid = parse_id(match_id, "match")
        aggregate: Optional[Match] = self._get(match_uuid, "match", version=after) if after else None
        for domain_event in self.events.get(match_uuid, gt=after or None):
            before = aggregate
            # The stored events of a match are its own aggregate events (the library types them by protocol).
            aggregate = cast(AggregateEvent, domain_event).mutate(None if before is None else before.working_copy())
            yield domain_event, before

    def log_position(self) -> int:
        """The notification id of the last event stored (0 when none). A write answers with it as
        ``Motley-Position``; ``application.freshness`` waits for a read model to reach it."""
        return self.recorder.max_notification_id() or 0

    # -- the machinery ---------------------------------------------------------------------------
    def _get(self, aggregate_id: UUID, what: str, version: Optional[int] = None, shared: bool = False,
             at_least: Optional[int] = None) -> Any:
        try:
            return self.repository.get(aggregate_id, version=version, deepcopy_from_cache=not shared,
                                       at_least=at_least)
        except AggregateNotFoundError:
            raise errors.NotFound(f"no {what} with id {aggregate_id}") from None

    def _move(
        self,
        match_id: UUID,
        seat: int,
        action: Any,
        expected_version: Optional[int],
        request_key: Optional[str],
        loaded: Optional[Match] = None,
        by_player: bool = True,
        stated: frozenset = frozenset(),
    ) -> MoveReceipt:
        raced = False
        for _ in range(RETRIES):
            match, loaded = loaded or self.get_match(match_id), None
            if request_key is not None and request_key in match.request_keys:
                return self._replayed(match, request_key, action, stated)
            self._check_version(match.version, expected_version)
            now = self.clock()  # one instant for the move and its save: a clock it starts starts as it lands
            try:
                match.make_move(seat, action, now, request_key, by_player)
            except (match_domain.MatchError, IllegalAction) as error:
                raise self._refusal(error, raced) from None
            match.settle(self.rng, now, acted=(seat,))
            try:
                recordings = self._save_match(match)
            except IntegrityError:
                raced = True
                continue
            return MoveReceipt(match.id, match.version, recordings[-1].notification.id, match=match)
        raise errors.Conflict("the match is too busy; try again")

    @staticmethod
    def _check_version(version: int, expected_version: Optional[int]) -> None:
        if expected_version is not None and expected_version != version:
            raise errors.StaleVersion(
                f"you saw version {expected_version}, the match is at version {version}",
                current_version=version,
            )

    def _replayed(self, match: Match, request_key: str, action: Any, stated: frozenset) -> MoveReceipt:
        """The receipt of the first answer: the version at the end of the save that held the move
        (its chance draws, timer and resolution events), and a log position at or past it. A retry is
        the same request: the same action and, if it states versions (``stated``), one the move was
        played at (the only ones the first request could have stated and been answered 201)."""
        version = match.request_keys[request_key]
        saved = list(self.events.get(match.id, gt=max(0, version - 2), limit=REPLAY_LOOKAHEAD + 1))
        before = saved.pop(0) if saved[0].originator_version < version else None
        # Compared as JSON, not by Python's ==: {"from": false} or {"from": 0.0} is another request than
        # {"from": 0} (the engine would refuse it), not a retry to answer as the first was.
        if not same_json(cast(Any, saved[0]).action, action):  # a MoveMade, by its request key
            raise errors.Conflict(
                "this idempotency key was already used for a different move", rule="idempotency"
            )
        played_at = {version - 1}
        returned = before is not None and type(before).__name__ == "SeatReturned"
        if returned and cast(Any, before).seat == cast(Any, saved[0]).seat:
            played_at.add(version - 2)  # an absent seat's move returns it first, in the move's own save
        if stated and not stated & played_at:
            # Another precondition is another request: answered as a replay, the client was told its move
            # was played at the version it stated, which was never checked (a stress probe: 133 such).
            raise errors.Conflict(
                f"this idempotency key was already used for a move played at version {min(played_at)}, not at "
                f"version {', '.join(map(str, sorted(stated)))}", rule="idempotency"
            )
        end, clocked = version, False
        for later in saved[1:]:
            kind = type(later).__name__
            if kind not in SETTLING_EVENTS or (kind.startswith("TurnClock") and clocked) or not self._saved_with(
                    later, saved[0]):
                break  # the next command's first event: the move's save ended before it (it sets the clock once)
            clocked = clocked or kind.startswith("TurnClock")
            end = later.originator_version
        return MoveReceipt(match.id, end, self.log_position(), replayed=True)

    def _saved_with(self, later: Any, move: Any) -> bool:
        """Whether ``later``, of a settling kind, was saved with ``move``. A turn clock the move's save
        started (or narrowed) is one the match's rule starts at the version before it for the mover;
        otherwise it is a timeout's (``Match.turn_timed_out``: everyone it waited for moved and is to act
        again), the next command's first event. Decided by the rule, not by times: a timeout at the
        move's instant, or on a worker whose clock is behind, looked like the move's own."""
        if type(later).__name__ != "TurnClockStarted":
            return True
        before = self.read_match_at(later.originator_id, later.originator_version - 1)
        return before.turn_clock_change(acted=(move.seat,)) in ("start", "narrow")

    @staticmethod
    def _refusal(error: Exception, raced: bool) -> errors.ServiceError:
        if raced and isinstance(error, (IllegalAction, match_domain.NotYourTurn)):
            return errors.NoLongerLegal(
                f"another move landed first and this one is no longer legal: {error.detail}",
                rule=getattr(error, "rule", None),
            )
        return errors.from_domain(error)

    def _command(self, match_id: Any, act: Callable[[Match], Any], expected_version: Optional[int] = None) -> Saved:
        """Get, act, save, retrying on a lost race; refused (StaleVersion) when ``expected_version`` is
        stated and the match is past it, a lost race's retry included. The version is checked after
        the act: a refusal the command would get anyway (403, 409) is its answer, not the 412, as HTTP
        has a precondition ignored where the answer without it would be no success (RFC 9110 §13.2.1);
        a stranger leaving with a stale If-Match was told 412. Nothing acted is saved on a 412."""
        for _ in range(RETRIES):
            match = self.get_match(match_id)
            seen = match.version
            try:
                outcome = act(match)
            except match_domain.MatchError as error:
                raise self._refusal(error, raced=False) from None
            self._check_version(seen, expected_version)
            if not match.pending_events:  # nothing happened: nothing to save
                return Saved(outcome, match, None)
            match.settle(self.rng, self.clock())
            try:
                recordings = self._save_match(match)
            except IntegrityError:
                continue
            return Saved(outcome, match, recordings[-1].notification.id)
        raise errors.Conflict("the match is too busy; try again")

    def _save_match(self, match: Match) -> list[Recording]:
        saved_from = match.version - len(match.pending_events)
        clocks_set = any(type(e).__name__ in CLOCK_EVENTS for e in match.pending_events)
        # A new match's commitment names it (domain/commitments.py), saved in the same transaction; an
        # imported copy holds another match's commitment and is named by none.
        alongside = [ChanceCommitment(match.chance["commitment"], str(match.id))] if (
            saved_from == 0 and match.chance and not getattr(match, "imported", False)) else []
        recordings = [r for r in super().save(*alongside, match) if r.notification.originator_id == match.id]
        # The saved match is the newest: the next reads (its players' streams, the view) share it
        # instead of each copying the older cached one and applying the new events again. Nothing
        # acts on it after its save (every caller returns it or builds a view of it). Cached before
        # the save is announced, so the streams it wakes find it without asking the store.
        self.repository.remember(match)
        self._announce(recordings)
        snapshots.take_due(self, match, saved_from)
        for task in self.follow_ups(match, saved_from, clocks_set):
            self.tasks.enqueue(task)
        return recordings

    @staticmethod
    def follow_ups(match: Match, saved_from: Optional[int] = None, clocks_set: bool = True) -> list[Task]:
        """The work a saved match now waits for, besides its players. ``saved_from``: the version
        before the save, which a computer's task carries (``play_computer_move``'s ``since``).
        ``clocks_set``: whether the save started or moved a clock (else its close was sent already)."""
        tasks = [Task(TASK_PROJECT)]
        turn = match.to_act()
        match_id = str(match.id)
        if turn.kind == Phase.AUTO:
            tasks.append(Task(TASK_RESOLVE, (match_id,)))
        for clock in (match.timer, match.turn_clock):  # a timed phase, and a turn's time limit (issue 13)
            # Sent when the save set the clock: sent after every move, a soak's worker held 13,732
            # closes (one per move, each waiting for the same deadline) for 90 that closed anything.
            # A close arriving early asks again (close_timed_phase); the sweep finds any lost.
            if clock is not None and match.status == "active" and clocks_set:
                tasks.append(Task(TASK_TIMEOUT, (match_id, clock["phase"]), eta=clock["deadline"]))
        if turn.kind == Phase.PLAYERS:
            since = () if not saved_from else (saved_from,)
            tasks.extend(Task(TASK_BOT, (match_id, seat, *since)) for seat in turn.seats if match.stands_in(seat))
        return tasks


#: The events that start a clock or move its deadline (domain/match.py): a save holding one sends the
#: clock's close (``follow_ups``).
CLOCK_EVENTS = frozenset({"TimerStarted", "TurnClockStarted", "ClockExtended"})


def creation_terms(match: Match) -> tuple:
    """What a creation asked for: a retry under the same Idempotency-Key must ask for all of it again
    (a private match, a turn limit or required versions left out are another request, not a retry)."""
    return (match.game, match.options, match.bots, match.num_seats, match.rated, match.reveal_at_end,
            match.turn_limit, match.invitation is not None, match.versions_required)
