"""What the service refuses, and the one table of how each refusal is answered.

Each refusal class states its HTTP answer once, in its own body: the status, the problem type (the
slug of ``urn:motley:problem:<slug>``) and the title. The API reads those attributes and keeps no list
of its own. A refusal raised by the domain (a rule engine's ``IllegalAction``, a match's
``NotYourTurn``) becomes the refusal that ``FROM_DOMAIN`` names for its class, found along the
error's class hierarchy, so the most specific entry wins without a hand-kept order.
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional

from domain import match as match_domain
from domain import player as player_domain
from domain.engine import IllegalAction, InvalidOptions


class ServiceError(Exception):
    """A request refused; nothing was changed."""

    status: ClassVar[int] = 400  # the HTTP status the API answers with
    slug: ClassVar[str] = "bad-request"  # the problem type: urn:motley:problem:<slug>
    title: ClassVar[str] = "Request refused"
    headers: ClassVar[dict[str, str]] = {}  # HTTP headers every answer of this refusal carries
    retry_after: ClassVar[Optional[float]] = None  # seconds (Retry-After) unless the refusal states its own

    def __init__(self, detail: str, rule: Optional[str] = None, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        self.extra = extra


class BadRequest(ServiceError):
    """The request cannot be read at all: a JSON body nested deeper than any action, a body that is not
    UTF-8."""


class Unauthenticated(ServiceError):
    status, slug, title = 401, "unauthenticated", "Missing or wrong API key"
    headers = {"WWW-Authenticate": 'Bearer realm="motley"'}


class Forbidden(ServiceError):
    status, slug, title = 403, "forbidden", "Not allowed"


class NotFound(ServiceError):
    status, slug, title = 404, "not-found", "Not found"


class Conflict(ServiceError):
    """The match (or tournament, or player) is not in a state where this request applies."""

    status, slug, title = 409, "conflict", "Conflict with the current state"


class NotYourTurn(Conflict):
    slug, title = "not-your-turn", "Not your turn"


class StaleVersion(Conflict):
    slug, title = "stale-version", "Stale version"


class PreconditionFailed(StaleVersion):
    """The version stated in ``If-Match`` is not the match's version now (RFC 9110 §13.1.1)."""

    status, slug, title = 412, "precondition-failed", "Precondition failed"


class PreconditionRequired(ServiceError):
    """The match was created with ``require_version``: a move states the version it was based on
    (``If-Match`` or ``expected_version``), RFC 6585 §3."""

    status, slug, title = 428, "precondition-required", "Precondition required"


class NoLongerLegal(Conflict):
    """The move was legal when sent, but another move landed first and made it illegal."""

    slug, title = "move-overtaken", "Move overtaken"


class TimeIsUp(Conflict):
    """The timed phase the move belongs to is over (the server's clock decides)."""

    slug, title = "time-is-up", "Time is up"


class UnsupportedMediaType(ServiceError):
    """The body is not JSON: send it with ``Content-Type: application/json`` (an import takes the JSON
    Lines of an export, any media type)."""

    status, slug, title = 415, "unsupported-media-type", "Unsupported media type"


class UnsupportedEncoding(UnsupportedMediaType):
    """The body is sent compressed (``Content-Encoding``): bodies are read as sent, uncompressed."""

    headers = {"Accept-Encoding": "identity"}  # RFC 9110 §15.5.16: what this server reads


class TooLarge(ServiceError):
    """The request body is larger than the service reads."""

    status, slug, title = 413, "too-large", "Request too large"


class InvalidRequest(ServiceError):
    """The request is well-formed JSON but asks for something the rules never allow."""

    status, slug, title = 422, "invalid-request", "Invalid request"


class IllegalMove(ServiceError):
    """The move breaks a rule of the game in the state the client saw."""

    status, slug, title = 422, "illegal-move", "Illegal move"


class TooSoon(ServiceError):
    """A game's cooldown: the seat may act again in a moment (the detail says how long)."""

    # Its own title: a bot waits out a game's cooldown (retry_after) and a rate limit (Retry-After)
    # differently, and both read "Too many requests" (a bot-author probe).
    status, slug, title = 429, "too-soon", "Too soon for the game"
    retry_after = 1


class RateLimited(ServiceError):
    """The caller sent more requests of a kind than the service's limits allow."""

    status, slug, title = 429, "rate-limited", "Too many requests"


class Unavailable(ServiceError):
    """A dependency (the database, the broker) cannot be reached now; nothing was changed."""

    status, slug, title = 503, "unavailable", "Service unavailable"


#: The refusal each domain error becomes.
FROM_DOMAIN: dict[type[Exception], type[ServiceError]] = {
    IllegalAction: IllegalMove,
    InvalidOptions: InvalidRequest,
    match_domain.MatchError: Conflict,
    match_domain.NotYourTurn: NotYourTurn,
    match_domain.NotYourSeat: Forbidden,
    match_domain.NoSuchSeat: InvalidRequest,
    match_domain.TooSoon: TooSoon,
    match_domain.TimeIsUp: TimeIsUp,
    player_domain.UnknownKey: NotFound,
    player_domain.KeyLimit: Conflict,
}


def from_domain(error: Exception) -> ServiceError:
    """The refusal for a domain error (its nearest class in ``FROM_DOMAIN``; a Conflict if none)."""
    refusal = next((FROM_DOMAIN[cls] for cls in type(error).__mro__ if cls in FROM_DOMAIN), Conflict)
    retry_after = getattr(error, "retry_after", None)  # a cooldown's exact wait (match_domain.TooSoon)
    extra = {"retry_after": retry_after} if retry_after is not None else {}
    return refusal(getattr(error, "detail", str(error)), rule=getattr(error, "rule", None), **extra)


def quoted(value: object, limit: int = 80) -> str:
    """``value`` as a refusal names it, in quotes, in part when long: a 262,000-character id, or a game
    name of 300 characters, was echoed whole (and drawn whole by the page, wider than any screen)."""
    text = str(value)
    return repr(text if len(text) <= limit else text[:limit] + "...")
