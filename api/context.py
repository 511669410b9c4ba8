"""Request helpers: the composition root's container and the caller's identity."""

from __future__ import annotations

import hmac
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any, Callable, Optional

import orjson
from flask import Response, current_app, g, request, stream_with_context

from application import errors
from application.history import is_uuid
from application.log_watcher import RECHECK_SECONDS
from application.service import Motley
from domain.player import Player


def json_text(value: Any) -> str:
    """``value`` as JSON text, for the answers and stream frames sent on every move (match views,
    events): orjson writes them in a twentieth of the standard library's time (issue 16). Keys that
    are not strings are written as strings, as ``json.dumps`` does."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def container():
    return current_app.extensions["motley"]


def service() -> Motley:
    return container().app


def check_game_filter(game: Optional[str]) -> None:
    """A list's ``?game=`` naming no game is a mistake to say (422, naming the games), not an empty
    list: a game's name misspelt. The match and tournament lists answer alike."""
    if game is not None and game not in service().games():
        raise errors.InvalidRequest(f"no game named {errors.quoted(game)}", games=sorted(service().games()))


def check_player_filter(player: Optional[str]) -> None:
    """A list's ``?player=`` that is no player's id (a UUID) is a 422, not an empty list: a name sent for
    the id. The match and tournament lists answer alike."""
    if player is not None and not is_uuid(player):
        raise errors.InvalidRequest(f"{player!r} is no player id (a player's id is a UUID)")


class ClientGone(Exception):
    """The client of a stream closed its connection, or this process is stopping: the stream ends
    (``event_stream``)."""


#: Set once this process is told to stop (SIGTERM to a gunicorn worker: api/wsgi.py). Every open stream
#: ends at its next wake, with its closing chunk, so that its client reconnects (Last-Event-ID) to a
#: process that stays. Streams went on past gunicorn's drain (10 s) until the 60 s worker timeout killed
#: the process mid-answer, and no process replaced it meanwhile.
STOPPING = threading.Event()


def stop_streams(watcher: Any = None) -> None:
    """End every stream of this process within one wake: ``watcher`` (the container's log watcher)
    wakes those it holds now."""
    STOPPING.set()
    if watcher is not None:  # closed on a thread of its own: this runs in a signal handler, and close() joins
        threading.Thread(target=watcher.close, name="motley-stop-streams", daemon=True).start()


def stream_waits(originator_id: Any, poll: float) -> tuple[float, Callable[[float], None]]:
    """How a stream of ``originator_id`` (None: of anything) waits between reads: (the longest wait,
    the sleep). With the container's log watcher (application/log_watcher.py) the stream is woken
    when the log moves and otherwise rechecks every RECHECK_SECONDS, whatever ``poll`` the client
    asked; without one it polls every ``poll`` seconds. After each wait the sleep raises ClientGone
    if the client has left (``client_gone``), so a stream a page left gives its slot back
    (api/rates.py) and its server thread within one wait, not at the first write that fails."""
    watcher = getattr(container(), "watcher", None)
    if watcher is None:
        longest, sleep = poll, time.sleep
    else:
        longest, sleep = max(poll, RECHECK_SECONDS), watcher.sleeper(originator_id)
    return longest, StreamSleep(sleep, client_gone(request.environ))


class StreamSleep:
    """A stream's sleep (the watcher's or ``time.sleep``), raising ClientGone after a wait if the
    client left; ``news`` is the watcher's word on the stream's originator (``Sleeper.news``)."""

    def __init__(self, sleep: Callable[[float], None], gone: Optional[Callable[[], bool]]):
        self.sleep, self.gone = sleep, gone

    def __call__(self, seconds: float) -> None:
        if STOPPING.is_set():
            raise ClientGone()
        self.sleep(seconds)
        if STOPPING.is_set() or (self.gone is not None and self.gone()):
            raise ClientGone()

    def news(self) -> Optional[int]:
        news = getattr(self.sleep, "news", None)
        return None if news is None else news()


def client_gone(environ: dict) -> Optional[Callable[[], bool]]:
    """Whether the client of this request has closed its connection, as the server can tell:
    waitress's own check (it reads the connection while the request runs, api/server.py), or under
    gunicorn a peek at the request's socket (an orderly close reads as end of file); None otherwise."""
    told = environ.get("waitress.client_disconnected")
    if told is not None:
        return told
    connection = environ.get("gunicorn.socket")
    if connection is None:
        return None

    def closed() -> bool:
        try:
            return connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except (BlockingIOError, ValueError):  # nothing to read: still open (TLS sockets cannot peek: unknown)
            return False
        except OSError:  # reset, or already closed
            return True

    return closed


def stream_ended(over: bool, seen: int, version: int) -> Optional[Response]:
    """The answer to a stream whose match or tournament is ``over`` while its client holds the last
    ``version``: 204, as nothing will ever come. HTML's server-sent events: "a client can be told to stop
    reconnecting using the HTTP 204 No Content response code"; a 200 that ended at once had an
    EventSource reconnect every few seconds for as long as its page stayed open (a spectator probe)."""
    return Response(status=204) if over and seen >= version else None


def event_stream(frames: Iterator[str], quiet_at_first: bool = False) -> Response:
    """A server-sent event answer of ``frames``, ended quietly when its client has left, or when the
    player key it was opened with is revoked: the stream went on for its whole life (up to a day)
    after the key was refused everywhere else, showing that seat's hidden cards to whoever held it."""
    key = api_key(strict=False)
    player_key = key is not None and not is_auditor_key(key)

    def until_gone() -> Iterator[str]:
        if quiet_at_first:
            # A stream with nothing to send yet (resumed at the last version, a player with nothing
            # waiting): a comment at once, so the status and headers reach the client now, not with the
            # first heartbeat 10 s later (a client's read timeout, EventSource's onopen, waited for it).
            yield ": open\n\n"
        try:
            for frame in frames:
                if player_key and not still_valid(key):
                    return
                yield frame
        except ClientGone:
            return

    response = Response(stream_with_context(until_gone()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    return response


def api_key(strict: bool = True) -> Optional[str]:
    """The caller's API key, or None. ``strict`` (for whoever decides who the caller is): an
    Authorization header that is not ``Bearer <key>`` is a 401; else (the rate limiter, which runs
    before every route, /health and /metrics included) it is no key."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, credentials = header.partition(" ")
        if scheme.lower() != "bearer" or not credentials.strip():
            if not strict:
                return None
            # A credential sent in a form we do not read would otherwise make a spectator of its
            # sender without a word: say so (401), as for a wrong key.
            raise errors.Unauthenticated("send the API key as 'Authorization: Bearer <api key>'")
        if strict and "," in credentials:
            # Two Authorization headers reach the app joined by a comma (RFC 9110 §5.3), which no key holds:
            # "the API key is not valid" of the caller's own key misled (a security probe).
            raise errors.Unauthenticated("the Authorization header holds more than one value (two Authorization "
                                         "headers?): send one, 'Bearer <api key>'")
        other = request.headers.get("X-API-Key")
        if strict and other and other.strip() != credentials.strip():
            # Two keys, one of them perhaps wrong or another player's: answering as the first would act
            # for a caller the request does not name for sure, and leave a wrong key unsaid.
            raise errors.Unauthenticated("two different API keys were sent (Authorization and X-API-Key): "
                                         "send one")
        return credentials.strip()
    key = request.headers.get("X-API-Key")
    if key is not None and not key.strip():
        if not strict:
            return None
        # An empty key is a key sent, and not a valid one (README): taken for none, a client whose key
        # variable was empty read as a spectator without a word, where an empty Authorization was a 401.
        raise errors.Unauthenticated("the X-API-Key header is empty: send the API key in it, or no such header")
    return key


def is_auditor_key(key: Optional[str]) -> bool:
    expected = container().settings.auditor_key
    return bool(expected) and key is not None and hmac.compare_digest(key.encode(), expected.encode())


def authenticated(key: Optional[str]) -> Player:
    """The player ``key`` names, looked up once a request: the view, its rate limits and its ETag's mark
    (``reader_mark``) name the same player, and a key revoked meanwhile cannot mark a seat's view as a
    spectator's (a review). A wrong key is a 401, each time it is asked."""
    memo = g.get("motley_authenticated")
    if memo is not None and memo[0] == key:
        return memo[1]
    player = service().authenticate(key)
    g.motley_authenticated = (key, player)
    return player


def names_a_player(key: Optional[str]) -> bool:
    """Whether ``key`` names a player, as this request found it (``authenticated``: once a request)."""
    try:
        authenticated(key)
    except errors.Unauthenticated:
        return False
    return True


def still_valid(key: Optional[str]) -> bool:
    """Whether ``key`` still names a player (verified keys are cached: a revocation in this process
    counts at once, in another within the cache's seconds). Asked afresh each time, never from the
    request's memo (``authenticated``): a stream asks it while it runs, and ends once its key is revoked."""
    try:
        service().authenticate(key)
    except errors.Unauthenticated:
        return False
    return True


def current_player() -> Player:
    """The authenticated caller; 401 without a valid key, 403 with the auditor's credential, which is
    valid but names no player: told "not valid" (401), the auditor was counted as a guesser on every
    player route, and 30 of those locked him out of the audit routes for a minute."""
    key = api_key()
    if is_auditor_key(key):
        raise errors.Forbidden("the auditor's credential names no player: this needs a player's API key")
    return authenticated(key)


def reader_mark() -> str:
    """The caller's part of a match view's entity tag: ``-<12 hex digits of its player id>``, ``-auditor``,
    or nothing for a reader without a key. Views differ by reader (a seat sees its hand, the creator its
    invitation code), and one tag for all of them was a strong validator of several representations: a
    client that kept a tag across keys, or a browser's cache, took a 304 of another reader's view
    (RFC 9110 §8.8.3; an HTTP probe). ``If-Match`` reads the version only (``version_from_etag``)."""
    key = api_key(strict=False)
    if key is None:
        return ""
    if is_auditor_key(key):
        return "-auditor"
    try:
        player = authenticated(key)
    except errors.Unauthenticated:
        return ""  # refused elsewhere (a 401), before any tag is sent
    return "-" + player.id.hex[:12]


def version_from_etag(value: str) -> int:
    """``If-Match: "12"`` (the ETag of a match read; ``"12.1"`` for one that lists a fork, ``"12.1.30"``
    for a rewound read, ``"12.0.12e"`` for a page of its events) states the version the client saw."""
    text = value.strip().removeprefix("W/").strip('"').split("-", 1)[0].split(".", 1)[0]
    if not text.isdigit():
        raise errors.InvalidRequest("If-Match must be the ETag of a match read, a version such as \"12\"")
    return int(text)


def check_match_if_match(version_now: Callable[[], int]) -> None:
    """RFC 9110 §13.1.1 on a read of a match's history (its events, a diff, the export, the verdict): a 412
    unless ``If-Match`` states the match's version now (``version_now``, read only when there is one), as
    the match's own read answers. These checked the header's form and answered a stale one anyway."""
    stated = if_match_versions(version_from_etag)
    if stated is None:
        return
    current = version_now()
    if current not in stated:
        raise read_precondition_failed(current, weak_only=not stated)


def read_precondition_failed(current: int, weak_only: bool) -> errors.PreconditionFailed:
    """The 412 of a match read whose If-Match does not hold; of weak tags only, saying that is why (a weak
    tag never matches: strong comparison), as a write's 412 does."""
    if weak_only:
        return weak_tag_refused(current, current_version=current)
    return errors.PreconditionFailed(f"the match is at version {current}, and If-Match does not hold for this read",
                                     current_version=current)


def weak_tag_refused(current: Any, **extra: Any) -> errors.PreconditionFailed:
    """The 412 of an If-Match of weak tags only: a weak tag never matches (strong comparison, RFC 9110 §13.1.1)."""
    return errors.PreconditionFailed(f'a weak ETag never matches If-Match; send the strong one, "{current}" now',
                                     **extra)


def if_match_versions(version_of: Callable[[str], int]) -> Optional[frozenset[int]]:
    """The versions ``If-Match``'s strong tags state, each read by ``version_of`` (a match's or a
    tournament's tag): None without the header or with ``*`` (any current version will do, RFC 9110
    §13.1.1); a weak tag states none, as comparison is strong, so a header of weak tags only is empty.
    api/limits.py has checked each tag's form."""
    header = (request.headers.get("If-Match") or "").strip()
    if not header or header == "*":
        return None
    return frozenset(version_of(tag) for tag in header.split(",") if not tag.strip().startswith("W/"))


def not_modified(tag: str) -> Optional[Response]:
    """The 304 of a read whose If-None-Match holds ``tag`` (compared weakly, RFC 9110 §13.1.2), or None.
    Before it, a read model page's ``If-Match`` (RFC 9110 §13.1.1): a 412 unless it holds ``tag``, so a
    client paging through a list (a leaderboard by offset) learns that it moved between its pages, rather
    than reading a player twice and another never (a statistics probe: 10 walks of 15 so)."""
    if request.if_match and not request.if_match.star_tag and not request.if_match.contains(tag):
        raise errors.PreconditionFailed(f'the page has moved since the ETag sent as If-Match: it is "{tag}" now; '
                                        "read it again from the first page")
    if request.if_none_match.contains_weak(tag):
        return Response(status=304, headers={"ETag": f'"{tag}"'}, mimetype="application/json")
    return None
