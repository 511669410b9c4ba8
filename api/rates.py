"""Rate limits on what costs the service or its players: registration and failed authentication per
client address, match creation and moves per player, and matches with no human seat (they play
themselves on the workers) per player. Over a limit the answer is 429 ``rate-limited`` with
``Retry-After``; the counters are the ``limits`` library's (in memory, or in Redis to share them).

A request is counted only once it was authenticated (or, for failed authentication, once it was
refused with 401), so nobody can spend another player's budget with a wrong key. A keyed route's wrong
key is counted as it is refused, in one step with the test (api/limits.py, ``check_credentials``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Optional
from uuid import UUID

from flask import Flask, Response, g, request
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, StorageTypes, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from api.context import api_key, is_auditor_key, names_a_player, service
from api.keyless import tries_key
from application import errors
from application.service import creation_scope

log = logging.getLogger(__name__)

#: The defaults, generous enough for a tournament table registering at one address, tight enough
#: that a script cannot flood the event store. ``MOTLEY_RATE_LIMITS`` overrides any of them.
DEFAULTS = {
    "register": "60/minute",  # POST /players, per client address
    "auth_failures": "30/minute",  # answers 401, per client address
    "create": "60/minute",  # POST /matches, per player
    "computer_only": "10/hour",  # POST /matches with every seat a computer's, per player
    "moves": "600/minute",  # POST /matches/{id}/moves, per player (10 a second)
}


@dataclass(frozen=True)
class Rule:
    kind: str
    item: RateLimitItem


def parse_limits(text: str, namespace: str = "LIMITER") -> dict[str, RateLimitItem]:
    """``"register=10/minute,moves=5/second"`` over the defaults, their counters under ``namespace``."""
    chosen = dict(DEFAULTS)
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, _, rate = part.partition("=")
        if kind.strip() not in DEFAULTS:
            raise ValueError(f"MOTLEY_RATE_LIMITS: unknown rate limit {kind!r} (known: {', '.join(DEFAULTS)})")
        chosen[kind.strip()] = rate.strip()
    items = {}
    for kind, rate in chosen.items():
        try:
            items[kind] = parse(rate)
        except ValueError as error:  # the library's words name neither the variable nor the limit
            raise ValueError(f"MOTLEY_RATE_LIMITS: {kind}={rate!r} is no rate such as 10/minute ({error})") from None
    return {kind: type(item)(item.amount, item.multiples, namespace) for kind, item in items.items()}


def namespace_of(settings: Any) -> str:
    """The counters' namespace: one deployment's, named by its store (the PostgreSQL database and schema,
    or the SQLite file). Two deployments sharing one Redis shared every per-address budget: 60
    registrations on one were a 429 for the first on the other."""
    if settings is None:
        return "LIMITER"
    if getattr(settings, "store", "sqlite") == "postgres":
        where = (f"postgres://{settings.postgres_host}:{settings.postgres_port}/{settings.postgres_dbname}"
                 f"/{settings.postgres_schema}")
    else:
        where = "sqlite:" + os.path.abspath(settings.sqlite_path)
    return "MOTLEY-" + hashlib.sha256(where.encode()).hexdigest()[:16]


class MemoryCounters(MemoryStorage):
    """The limits library's in-memory counters, their expired entries cleared at most once a second by
    the request that finds the clean-up due.

    The library's own storage starts a 10 ms ``threading.Timer`` at every hit that finds the last one
    finished, which under load is nearly every hit: a hundred thread starts a second, 0.1-0.3 ms of
    CPU a hit (issue 16). The windows and the counting are the library's; the clean-up only frees
    memory (a moving window looks at its entries' times itself), so doing it once a second is enough.
    """

    SWEEP_EVERY = 1.0  # seconds between clean-ups of expired entries

    def __init__(self) -> None:
        super().__init__()
        self._next_sweep = time.monotonic() + self.SWEEP_EVERY
        # A key's entries are made again when missing: a hit looks its key up again after it made
        # the entries (`setdefault`, then `events[key][...]`), and a clean-up may drop them between
        # (the library's own clean-up pops an emptied key's lock, so a hit that waited on that lock
        # and ours on a new one do not exclude each other). The hit then counts in a new list.
        self.events = defaultdict(list)

    def _MemoryStorage__schedule_expiry(self) -> None:  # the library's per-hit Timer, replaced
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + self.SWEEP_EVERY
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]
            self._drop_emptied()

    def _drop_emptied(self) -> None:
        """Forget the keys whose entries have all expired: the library empties them but keeps each key,
        one for every player and client address ever counted, so a client rotating addresses and
        sending wrong keys grew the memory without end (a soak: 20,000 players left 20,001 keys)."""
        for key in [key for key, entries in list(self.events.items()) if not entries]:
            with self.locks[key]:  # as a hit takes it: none is adding an entry to this key meanwhile
                if not self.events.get(key):
                    self.events.pop(key, None)
                    self.locks.pop(key, None)


#: How long a request waits for a shared counter store (Redis) before it goes uncounted.
STORE_TIMEOUT_SECONDS = 0.5


def counters(storage: str) -> StorageTypes:
    """The counters a storage URI names: ``memory://`` in this process, else the library's storage."""
    scheme = storage.partition("://")[0]
    if scheme == "memory":
        return MemoryCounters()
    if scheme.startswith("redis"):  # else an unreachable (not refusing) Redis held every request for ever
        return storage_from_string(storage, socket_timeout=STORE_TIMEOUT_SECONDS,
                                   socket_connect_timeout=STORE_TIMEOUT_SECONDS)
    return storage_from_string(storage)


class RateLimits:
    def __init__(self, limits: str = "", storage: str = "memory://", namespace: str = "LIMITER"):
        self.items = parse_limits(limits, namespace)
        self.limiter = MovingWindowRateLimiter(counters(storage))
        self.warned = -60.0

    def counted(self, count: Callable[[], bool]) -> bool:
        """``count()``, or True (not spent) when the counter store cannot be reached: the limits fail
        open. A Redis outage made every keyed request a 500 while /ready said ready; a limit left
        uncounted for a while costs less than the whole service (logged, at most once a minute)."""
        try:
            return count()
        except Exception:  # noqa: BLE001 - the store's own errors (redis' ConnectionError, TimeoutError...)
            now = time.monotonic()
            if now - self.warned > 60:
                self.warned = now
                log.exception("the rate-limit counters cannot be reached: requests go uncounted meanwhile")
            return True

    def refuse_if_spent(self, kind: str, who: str, cost: int = 1) -> None:
        if not self.counted(lambda: self.limiter.test(self.items[kind], kind, who, cost=cost)):
            raise self.refusal(kind, who)

    def refuse_beyond_a_window(self, kinds: list[tuple[str, str, int]], planned: int) -> None:
        """A tournament whose tables play themselves costs its rounds against ``computer_only`` at its
        start: more rounds than the whole limit can never start, and its 429 said "try again later"
        with Retry-After an hour, for ever (a tournament bot's probe). Refused for what it is: at the
        creation (``planned``: its rounds, when its turn limit hands absent seats to the computer) a 422,
        at the start a 409, nothing spent."""
        item = self.items["computer_only"]
        starting = max((cost for kind, _, cost in kinds if kind == "computer_only"), default=0)
        if max(planned, starting) <= item.amount:
            return  # every request but such a tournament's: nothing more is built (this runs on each move)
        why = (f"more than the limit of {item} for computer only allows at once, so it would never start: "
               f"plan at most {item.amount} rounds, or a turn limit with on_timeout claim, or ask the operator "
               "to raise computer_only (MOTLEY_RATE_LIMITS)")
        if planned > item.amount:
            raise errors.InvalidRequest(f"a tournament of {planned} rounds whose tables play themselves counts "
                                        f"{planned} matches that play themselves at its start, {why}")
        raise errors.Conflict(f"this tournament's {starting} rounds would play themselves, {why}")

    def refusal(self, kind: str, who: str) -> errors.RateLimited:
        item = self.items[kind]
        reset = self.limiter.get_window_stats(item, kind, who).reset_time
        return errors.RateLimited(f"at most {item} for {kind.replace('_', ' ')}; try again later",
                                  retry_after=max(1.0, reset - time.time()), limit=kind)

    def spend(self, kind: str, who: str) -> None:
        self.counted(lambda: self.limiter.hit(self.items[kind], kind, who))

    def take(self, kind: str, who: str, cost: int = 1) -> None:
        """Count one request now, or refuse it (429) if the window is spent: in one step, so requests
        sent at once cannot all pass the test before any is counted (12 creations at once with
        ``create=3/minute`` made 10 matches when the count came after the answer)."""
        if not self.counted(lambda: self.limiter.hit(self.items[kind], kind, who, cost=cost)):
            raise self.refusal(kind, who)


def address() -> str:
    return request.remote_addr or "unknown"


#: Whom the auditor's streams count against: no player's cap (below).
AUDITOR_HOLDER = "auditor"


def holder() -> str:
    """Whom a stream or a waiting read counts against: the player of a valid key (several bots on one
    machine, each with its own stream, were refused past four together), the auditor, else the client
    address."""
    key = api_key(strict=False)
    if key is not None and is_auditor_key(key):
        return AUDITOR_HOLDER
    if key is not None and names_a_player(key):
        return "player:" + key.partition(".")[0]
    return address()


def caller() -> Optional[str]:
    """The player a key names (its id part); checked by authentication before it is ever counted."""
    key = api_key(strict=False)
    return None if key is None else key.partition(".")[0]


def plays_itself(seats: int, computers: int, turn_limit: Any) -> bool:
    """Computers play every seat; or all but one, whose player, absent past a turn limit, hands it to the
    computer too (on_timeout "computer", from 0.1 s): a whole match of computer moves."""
    return computers >= seats - (1 if hands_over(turn_limit) else 0)


def hands_over(turn_limit: Any) -> bool:
    """A turn limit whose timeout hands the absent seat to the computer (on_timeout "computer")."""
    return isinstance(turn_limit, dict) and turn_limit.get("on_timeout", "computer") == "computer"


#: The requests that create a match as a copy of another: a rematch (it keeps the turn limit) and a
#: fork (it does not). Each is a creation, and one of a match that plays itself is counted as such:
#: else a finished computer match forked again and again (by anyone, once it is revealed), or
#: rematched after each end, gave as many computer-only matches as a script asked for.
COPIES = {"lifecycle.Rematch": True, "audit.Forks": False}


def copy_plays_itself(keeps_turn_limit: bool) -> bool:
    try:
        original = service().read_match((request.view_args or {}).get("match_id"))
    except errors.ServiceError:
        return False  # no such match: the view answers 404, nothing is created
    turn_limit = original.turn_limit if keeps_turn_limit else None
    return plays_itself(original.num_seats, len(original.bots), turn_limit)


def replays_a_creation(kind: str, player: Optional[str]) -> bool:
    """A retried creation (the same Idempotency-Key as one made) creates nothing: counted, a client
    retrying after a lost answer, the reason the key exists, was refused (429) its own first answer."""
    request_key = request.headers.get("Idempotency-Key")
    if not request_key:
        return False
    if player is None:
        return service().was_created(kind, "", request_key)
    try:
        scope = creation_scope(service().get_player(UUID(player)))
    except (ValueError, errors.ServiceError):
        return False  # no player's key: the view answers 401
    return service().was_created(kind, scope, request_key)


def tournament_plays_itself() -> int:
    """How many matches a tournament being started may create that play themselves (0: none): with
    computers filling its tables, one person alone, or persons who hand their seats to the computer as
    their turns run out (on_timeout "computer"), its every table is a match of computer moves, round after
    round. Such a tournament counts each planned round as a match that plays itself: a one-player
    tournament of 20 rounds at 0.1 s a turn played 20 computer matches from three requests, past the
    limit of 10 an hour that a match's creation meets (a security probe)."""
    from api.context import container  # the tournaments service (the composition root's)

    try:
        tournament = container().tournaments.get((request.view_args or {}).get("tournament_id"))
    except errors.ServiceError:
        return 0  # no such tournament: the view answers 404
    if tournament.status != "open":
        return 0
    # A turn limit that hands seats to the computer plays every table by itself, with or without a computer
    # level filling seats: counted only with one, 12 rounds of 3 accounts at 0.1 s a turn played 12 computer
    # matches in 5 s past the limit (a cheater's probe).
    if hands_over(tournament.turn_limit) or (tournament.computer and len(tournament.entrants()) <= 1):
        return tournament.rounds_planned
    return 0


def planned_rounds_that_play_themselves() -> int:
    """The rounds of a tournament being created whose tables will play themselves (0: none known yet): its
    turn limit hands absent seats to the computer."""
    if request.method != "POST" or request.endpoint != "tournaments.Tournaments" or not caller():
        return 0  # (without a key a creation is the view's 401, not a refusal of what it asks)
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not hands_over(body.get("turn_limit")):
        return 0
    rounds = body.get("rounds")
    return rounds if type(rounds) is int else 0


def kinds_of_request() -> list[tuple[str, str, int]]:
    """The (limit, counted party, cost) of what this request spends if it is answered."""
    kinds = []
    endpoint, method, player = request.endpoint, request.method, caller()
    if method == "POST" and endpoint == "players.Players" and not replays_a_creation("player", None):
        kinds.append(("register", address()))
    if method == "POST" and endpoint == "matches.Matches" and player and not replays_a_creation("match", player):
        kinds.append(("create", player))
        body = request.get_json(silent=True)
        if isinstance(body, dict) and isinstance(body.get("seats"), int) and isinstance(body.get("computers"), dict):
            if plays_itself(body["seats"], len(body["computers"]), body.get("turn_limit")):
                kinds.append(("computer_only", player))
    if (method == "POST" and endpoint in COPIES and player and not is_auditor_key(api_key(strict=False))
            and not (endpoint == "audit.Forks" and replays_a_creation("fork", player))):
        kinds.append(("create", player))
        if copy_plays_itself(COPIES[endpoint]):
            kinds.append(("computer_only", player))
    if method == "POST" and endpoint == "matches.Moves" and player:
        kinds.append(("moves", player))
    # A tournament is a creation too (it was counted under no limit: 65 made in 0.2 s), and one that
    # plays itself counts its rounds as matches that do.
    if (method == "POST" and endpoint == "tournaments.Tournaments" and player
            and not replays_a_creation("tournament", player)):
        kinds.append(("create", player))
    if method == "POST" and endpoint == "tournaments.Start" and player and (rounds := tournament_plays_itself()):
        return [(kind, who, 1) for kind, who in kinds] + [("computer_only", player, rounds)]
    return [(kind, who, 1) for kind, who in kinds]


#: Requests that hold a request thread while they wait: streams (server-sent events, up to minutes)
#: and reads that wait for a read model (``?after=``, up to 5 s). A client may hold this many at once.
MAX_HELD_PER_CLIENT = 4

#: The Retry-After of a refused long-lived request: a stream whose client left gives its slot back at
#: its next wake, within the watcher's recheck (application/log_watcher.RECHECK_SECONDS); told "1",
#: a client retried five times before the slot came back.
RETRY_HELD_SECONDS = 5

#: The app setting naming this process's threads for long-lived requests (api/server.py, api/wsgi.py).
STREAM_SLOTS = "MOTLEY_STREAM_SLOTS"

#: One client address holds at most 1/ADDRESS_SHARE of a process's stream threads (at least two players' caps:
#: a spectator's page and a player's, from one address, on a small server).
ADDRESS_SHARE = 4


class HeldRequests:
    """How many long-lived requests each client address holds now (in this process)."""

    def __init__(self, limit: int = MAX_HELD_PER_CLIENT):
        self.limit = limit
        self.held: dict[str, int] = {}
        self.by_address: dict[str, int] = {}
        self.total = 0
        self.lock = threading.Lock()

    def take(self, who: str, slots: Optional[int] = None, address: Optional[str] = None) -> None:
        """Count one more for ``who``; refused past the client's cap (429), past the address's share of
        ``slots`` (429), or past ``slots``, the threads this process keeps for long-lived requests (503):
        under gunicorn a stream holds one of the process's threads, and 16 streams from 4 clients took
        them all, so every other request hung."""
        with self.lock:
            # The auditor (the operator's one credential) follows many matches at once: held to a
            # player's four, it was refused 1,905 times in a probe. Its address's share still holds it.
            if who != AUDITOR_HOLDER and self.held.get(who, 0) >= self.limit:
                raise errors.RateLimited(f"at most {self.limit} streams or waiting reads at once per player "
                                         "(per client address without a key); close one first",
                                         retry_after=RETRY_HELD_SECONDS, limit="held_requests")
            # One address's players together hold at most a quarter of the threads: the cap was per
            # player only, and registering is free, so one address with 150 accounts held all 600 and
            # everyone else's streams were 503s (a security probe). Bots on one machine keep plenty.
            share = None if slots is None or address is None else max(2 * self.limit, slots // ADDRESS_SHARE)
            if share is not None and address is not None and self.by_address.get(address, 0) >= share:
                raise errors.RateLimited(f"at most {share} streams or waiting reads at once from one address; "
                                         "close one first", retry_after=RETRY_HELD_SECONDS, limit="held_requests")
            if slots is not None and self.total >= slots:
                raise errors.Unavailable("every thread this server keeps for streams and waiting reads is taken; "
                                         "try again shortly", retry_after=RETRY_HELD_SECONDS)
            self.held[who] = self.held.get(who, 0) + 1
            if address is not None:
                self.by_address[address] = self.by_address.get(address, 0) + 1
            self.total += 1

    def give_back(self, who: str, address: Optional[str] = None) -> None:
        with self.lock:
            self.total = max(0, self.total - 1)
            for counts, key in ((self.held, who), (self.by_address, address)):
                if key is None:
                    continue
                left = counts.get(key, 1) - 1
                if left > 0:
                    counts[key] = left
                else:
                    counts.pop(key, None)


def holds_a_thread() -> bool:
    if request.method == "OPTIONS":  # a stream's preflight (CORS) is answered at once, and sends no key
        return False
    rule = request.url_rule.rule if request.url_rule is not None else ""
    # HEAD runs the GET view, its wait included: uncounted, a client held as many request threads as it
    # sent HEADs with ?after=.
    return rule.endswith("/stream") or (request.method in ("GET", "HEAD") and "after" in request.args
                                        and not rule.endswith("/events"))


def register(app: Flask, limits: str = "", storage: str = "memory://", namespace: str = "LIMITER") -> RateLimits:
    rates = RateLimits(limits, storage, namespace)
    held = HeldRequests()

    @app.before_request
    def hold() -> None:
        if holds_a_thread():
            # 429 over the client's cap, 503 when the process's stream threads are all taken; given
            # back when the answer closes.
            who, where = holder(), address()
            held.take(who, app.config.get(STREAM_SLOTS), where)
            g.held_by = (who, where)

    @app.after_request
    def release(response: Response) -> Response:
        # Given back when the server closes the answer: for a stream, once its last event was sent
        # or its client left (a streamed view returns long before that).
        holding = g.pop("held_by", None)
        if holding is not None:
            response.call_on_close(lambda: held.give_back(*holding))
        return response

    @app.before_request
    def check_rates() -> None:
        key = api_key(strict=False)
        if key is not None and tries_key():  # a key that is never tried is no guess to refuse
            rates.refuse_if_spent("auth_failures", address())
        kinds = kinds_of_request()
        if any(who != address() for _, who, _ in kinds) and not (key is not None and names_a_player(key)):
            return  # a key that is not valid: the view answers 401, and nothing is counted for the player it names
        rates.refuse_beyond_a_window(kinds, planned_rounds_that_play_themselves())
        for kind, who, cost in kinds:  # a request refused for one limit spends none of the others
            rates.refuse_if_spent(kind, who, cost)
        for kind, who, cost in kinds:  # then counted as it comes (a refusal of the view counts too)
            rates.take(kind, who, cost)

    @app.after_request
    def count(response: Response) -> Response:
        # A wrong key guessed, not a request that sent none (a page asking who it is before it has a
        # key): 30 of those locked every keyed request of the address out for a minute.
        if (response.status_code == 401 and api_key(strict=False) is not None
                and not g.pop("auth_failure_counted", False)):  # else counted already
            rates.spend("auth_failures", address())
        return response

    return rates
