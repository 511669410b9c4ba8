"""Which matches were forked from a match: kept beside it, so forking never changes the parent.

A fork records its parent in its own ``Created`` event; the parent's side is this small aggregate,
one per parent, with an id derived from the parent's (``Lineage.create_id``), appended to by each fork.
"""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event


class Lineage(Aggregate):
    @staticmethod
    def create_id(match_id: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"motley:/matches/{match_id}/forks")

    @event("Created")
    def __init__(self, match_id: str):
        self.match_id = match_id
        self.forks: list[dict] = []

    @event("Forked")
    def add_fork(self, fork_id: str, version: int, private: bool = False) -> None:
        # ``private``: a fork of a match whose secrets the public has not seen (application/history.py),
        # listed to the auditor only. Forks recorded before it was kept are public ones.
        fork = {"match_id": fork_id, "version": version}
        self.forks = [*self.forks, {**fork, "private": True} if private else fork]
