"""What the service layer refuses, and why. The API maps each class to one HTTP status."""

from __future__ import annotations

from typing import Optional


class ServiceError(Exception):
    title = "Request refused"

    def __init__(self, detail: str, rule: Optional[str] = None, **extra):
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        self.extra = extra


class NotFound(ServiceError):
    title = "Not found"


class Unauthenticated(ServiceError):
    title = "Missing or wrong API key"


class Forbidden(ServiceError):
    title = "Not allowed"


class InvalidRequest(ServiceError):
    """The request is well-formed JSON but asks for something the rules never allow (422)."""

    title = "Invalid request"


class IllegalMove(ServiceError):
    """The move breaks a rule of the game in the state the client saw (422)."""

    title = "Illegal move"


class Conflict(ServiceError):
    """The match is not in a state where this request applies (409)."""

    title = "Conflict with the match's state"


class NotYourTurn(Conflict):
    title = "Not your turn"


class StaleVersion(Conflict):
    title = "Stale version"


class NoLongerLegal(Conflict):
    """The move was legal when sent, but another move landed first and made it illegal."""

    title = "Move overtaken"


class TimeIsUp(Conflict):
    """The timed phase the move belongs to is over (the server's clock decides)."""

    title = "Time is up"


class TooSoon(ServiceError):
    title = "Too many requests"
