"""A registered player: a name and the hash of the secret API key that lets it act for its seats."""

from __future__ import annotations

import hashlib
import hmac

from eventsourcing.domain import Aggregate, event


def hash_secret(secret: str) -> str:
    # The secret is 256 random bits, so a plain SHA-256 is as strong as a slow password hash here.
    return hashlib.sha256(secret.encode()).hexdigest()


class Player(Aggregate):
    @event("Registered")
    def __init__(self, name: str, key_hash: str):
        self.name = name
        self.key_hash = key_hash

    def verify(self, secret: str) -> bool:
        return hmac.compare_digest(self.key_hash, hash_secret(secret))
