"""A registered player: a name and the hashes of the secret API keys that let it act for its seats.

A player may hold several keys at once, so that a key can be rotated without a moment with none: a
new key is added, the clients move to it, the old one is revoked. A key is named by its id, the start
of its hash (the secret itself is never stored).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Optional
from uuid import UUID

from eventsourcing.domain import Aggregate, event

#: At most this many keys at once (rotation needs two; a few more serve several devices).
MAX_KEYS = 10
KEY_ID_LENGTH = 12


class KeyRefused(Exception):
    """A key request the player refuses: the subclass says why."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail
        self.rule = "api keys"


class UnknownKey(KeyRefused):
    pass


class KeyLimit(KeyRefused):
    pass


def hash_secret(secret: str) -> str:
    # The secret is 256 random bits, so a plain SHA-256 is as strong as a slow password hash here.
    return hashlib.sha256(secret.encode()).hexdigest()


def key_id(key_hash: str) -> str:
    return key_hash[:KEY_ID_LENGTH]


class Player(Aggregate):
    @event("Registered")
    def __init__(self, name: str, key_hash: str, id: Optional[UUID] = None, salt: str = ""):
        # ``id``: the library's own, given for an idempotent registration (application/service.py);
        # the library sets ``self.id`` and keeps it out of the stored event.
        self.name = name
        # A secret of the player's own in the ids of its idempotent creations (application/service.py
        # ``creation_scope``): from its public id and its Idempotency-Key alone, anyone could compute the
        # id of an unlisted match it made and read it. Players registered before it have none ("").
        self.salt = salt
        self.keys: dict[str, str] = {key_id(key_hash): key_hash}  # key id -> hash of its secret

    def verify(self, secret: str) -> bool:
        candidate = hash_secret(secret)
        stored = self.keys.get(key_id(candidate))
        return stored is not None and hmac.compare_digest(stored, candidate)

    def add_key(self, key_hash: str) -> str:
        if len(self.keys) >= MAX_KEYS:
            raise KeyLimit(f"a player holds at most {MAX_KEYS} keys; revoke one first")
        self._key_added(key_hash=key_hash)
        return key_id(key_hash)

    @event("KeyAdded")
    def _key_added(self, key_hash: str) -> None:
        self.keys[key_id(key_hash)] = key_hash

    def revoke_key(self, revoked: str) -> None:
        if revoked not in self.keys:
            raise UnknownKey(f"this player has no key {revoked!r}")
        if len(self.keys) == 1:
            raise KeyLimit("this is the player's only key: add a new one before revoking it")
        self._key_revoked(revoked=revoked)

    @event("KeyRevoked")
    def _key_revoked(self, revoked: str) -> None:
        del self.keys[revoked]
