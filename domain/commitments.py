"""Which match made a chance commitment: kept beside the match, so the service can name the match a
history belongs to by its commitment as well as by the id written on it.

A match's ``Created`` event holds its commitment (SHA-256 of its secret seed, ``domain/chance.py``),
unique to it. This small aggregate, one per commitment with an id derived from it
(``ChanceCommitment.create_id``), is saved with the match and names it. An auditor's export of a match
still being played, its end written on and its match id changed on every line, was imported as a new
finished copy that showed anyone the live match's seed: found by its commitment, it is refused as the
same history under its own id is (application/history.py, ``check_original``).
"""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event


class ChanceCommitment(Aggregate):
    @staticmethod
    def create_id(commitment: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"motley:/commitments/{commitment}")

    @event("Made")
    def __init__(self, commitment: str, match_id: str):
        self.commitment = commitment
        self.match_id = match_id
