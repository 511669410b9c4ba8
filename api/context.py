"""Request helpers: the composition root's container and the caller's identity."""

from __future__ import annotations

from typing import Optional

from flask import current_app, request

from application.service import Motley
from domain.player import Player


def container():
    return current_app.extensions["motley"]


def service() -> Motley:
    return container().app


def api_key() -> Optional[str]:
    header = request.headers.get("Authorization", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return request.headers.get("X-API-Key") or None


def current_player() -> Player:
    """The authenticated caller; 401 without a valid key."""
    return service().authenticate(api_key())

