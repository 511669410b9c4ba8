"""Provable chance, the service's side: a fresh committed seed per match, and the check anyone can run.

The procedure itself (HMAC-SHA-256 stream, Fisher-Yates with rejection sampling) is in
``domain/chance.py``, which the match uses to draw. ``verify`` re-derives every chance outcome of a
history from the revealed seed and compares it with the recorded one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Optional, Sequence

from domain.chance import SCHEME, ChanceStream, commitment
from domain.engine import CHANCE, SYSTEM, same_json
from domain.games import get_engine


def new_chance() -> dict:
    """A match's chance commitment: the secret seed and its public hash."""
    seed = secrets.token_hex(32)
    return {"scheme": SCHEME, "commitment": commitment(seed), "seed": seed}


@dataclass
class Verdict:
    ok: bool
    checked: int = 0  # chance outcomes re-derived and found equal
    reason: Optional[str] = None
    version: Optional[int] = None  # the event where the check failed
    inherited: int = 0  # outcomes copied from a parent match (a fork's prefix), not derived here
    details: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"verified": self.ok, "chance_outcomes_checked": self.checked, "reason": self.reason,
                "version": self.version, "inherited_from_parent": self.inherited, **self.details}


def verify(lines: Iterable[dict]) -> Verdict:
    """Check a whole, unredacted history in the export form (``application/history.py``): the seed
    matches the commitment of its first event, and every chance outcome is the one the seed gives.
    Every verdict on a history names what it held: its last version and whether it holds the end (a
    refusal left them out, though the README promises them with every verdict)."""
    lines = list(lines)
    verdict = _verify(lines)
    if lines:
        verdict.details.setdefault("last_version", lines[-1]["version"])
        verdict.details.setdefault("ended", any(line["event"] in ENDINGS for line in lines))
    return verdict


def verify_lineage(histories: Sequence[Iterable[dict]]) -> Verdict:
    """The verdict on the first history (a fork's, say), whose outcomes copied from its parent
    (``inherited``) hold only as far as the parent's history, the next one, proves them, and so on up the
    lineage. A fork of a history that proves no chance (an imported copy of a match recorded before
    provable chance) said verified, though its deal, drawn in that history, could never be proven (a
    versions probe)."""
    verdict = verify(histories[0])
    if not (verdict.ok and verdict.inherited and len(histories) > 1):
        return verdict
    upstream = verify_lineage(histories[1:])
    if upstream.ok:
        return verdict
    return replace(verdict, ok=False, reason=f"its {verdict.inherited} chance outcomes copied from its parent "
                                             f"are not proven there: {upstream.reason}")


def _verify(lines: list[dict]) -> Verdict:
    if not lines or lines[0]["event"] != "Created":
        return Verdict(False, reason="a history starts with its Created event", version=1)
    created = lines[0]
    chance = created["data"].get("chance")
    if not chance or chance.get("scheme") != SCHEME:
        return Verdict(False, reason="this match made no chance commitment", version=1)
    seed = chance.get("seed") or next(
        (line["data"].get("seed") for line in lines if line["event"] == "Finished"), None)
    if seed is None:
        if any(line["event"] in ("Cancelled", "Voided") for line in lines):  # as GET /matches/{id}/verify says it
            return Verdict(False, reason="the match was cancelled before it ended: its chance seed is never "
                                         "revealed (an auditor's export holds it)")
        return Verdict(False, reason="the seed is not revealed yet (it is when the match ends)")
    if commitment(seed) != chance["commitment"]:
        return Verdict(False, reason="the revealed seed does not match the commitment of the first event", version=1)
    engine = get_engine(created["game"], created["rules_version"])
    parent = created["data"].get("parent")
    prefix_end = parent.get("prefix_end", 0) if isinstance(parent, dict) else 0
    state = None
    checked = inherited = 0
    for line in lines:
        kind, data, version = line["event"], line["data"], line["version"]
        if kind == "Started":
            state = engine.initial_state(created["data"]["seats"], created["data"]["options"])
        elif kind in STEPS:
            actor, action = step_of(kind, data)
            if kind == "ChanceDrawn":
                if version <= prefix_end:  # drawn in the parent, from the parent's seed
                    inherited += 1
                else:
                    derived = engine.sample_chance(state, ChanceStream(seed, version))
                    if not same_json(derived, action):
                        return Verdict(False, checked, f"event {version}: the recorded chance outcome is not "
                                       "the one the committed seed gives", version, inherited)
                    checked += 1
            state = engine.apply(state, actor, action)
    # What the verdict covers: a history cut short (the end, or more, left off) verifies what it holds,
    # and said nothing to show it was not the whole match.
    ended = any(line["event"] in ENDINGS for line in lines)
    return Verdict(True, checked, inherited=inherited, details={
        "commitment": chance["commitment"], "last_version": lines[-1]["version"], "ended": ended})


#: The events that end a match: a history without one stops while the match is (or was) being played.
ENDINGS = ("Finished", "Cancelled", "Voided")


STEPS = ("ChanceDrawn", "MoveMade", "StepResolved", "TimedOut")


def step_of(kind: str, data: dict) -> tuple[Any, Any]:
    if kind == "ChanceDrawn":
        return CHANCE, data["outcome"]
    if kind == "MoveMade":
        return data["seat"], data["action"]
    return SYSTEM, data["step"]
