"""The rule-engine contract that every Motley game implements.

A game is a pure rule engine in the manner of OpenSpiel's Python games: it knows how a match starts,
who acts now, which actions are legal, what chance may do, how an action changes the state, what each
player may see and who won. It does no I/O and keeps no clock and no random generator: chance outcomes
are drawn by the caller (`sample_chance`) and fed back through `apply`, so that they can be stored as
events and replay never draws again.

Conventions every engine follows:

* Seats are the integers ``0 .. num_players - 1``.
* An action, a chance outcome and an automatic step are JSON objects (``dict``) with a ``"type"`` key,
  built of ``str``, ``int``, ``bool``, ``None``, ``list`` and ``dict`` only (never tuples or sets), so an
  action a client sends compares equal to the one the engine lists.
* ``apply`` never mutates the state it is given and returns a new one; states compare with ``==``, so
  a state rebuilt by replaying the stored actions can be checked against the live one.
* ``observation(state, seat)`` holds what that seat may know and nothing more; ``public_observation``
  what a spectator may know. Both are JSON.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence, Union

JSON = Any
State = Any

#: The actor of a chance outcome (a shuffle, a deal, a roll).
CHANCE = "chance"
#: The actor of an automatic step: scoring, a round end, the close of a timed phase.
SYSTEM = "system"

Actor = Union[int, str]


class Phase:
    """What kind of actor the match waits for (the ``kind`` of :class:`ToAct`)."""

    PLAYERS = "players"  # one or several seats (several: a simultaneous, sealed phase)
    CHANCE = "chance"  # the caller must draw a chance outcome and apply it
    AUTO = "auto"  # a deterministic automatic step (`auto_action`), computed by a worker
    OVER = "over"  # the match is over; `result` is set


@dataclass(frozen=True)
class ToAct:
    kind: str
    seats: tuple[int, ...] = ()

    @classmethod
    def players(cls, *seats: int) -> "ToAct":
        return cls(Phase.PLAYERS, tuple(sorted(seats)))

    @classmethod
    def chance(cls) -> "ToAct":
        return cls(Phase.CHANCE)

    @classmethod
    def auto(cls) -> "ToAct":
        return cls(Phase.AUTO)

    @classmethod
    def over(cls) -> "ToAct":
        return cls(Phase.OVER)

    def to_json(self) -> dict:
        return {"kind": self.kind, "seats": list(self.seats)}


@dataclass(frozen=True)
class Timer:
    """A phase whose length the server enforces (a sealed, real-time phase).

    ``phase`` names this occurrence of the phase uniquely within the match (say ``"tax-3"``), so the
    caller can tell a new timed phase from the one already running.
    """

    phase: str
    seconds: float


@dataclass(frozen=True)
class Result:
    """The outcome of a finished match."""

    scores: tuple  # one number per seat
    ranks: tuple[int, ...]  # 1 is best; tied seats share a rank
    detail: JSON = field(default=None)  # the engine's own breakdown (JSON)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    def to_json(self) -> dict:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "detail": self.detail,
        }


class RuleViolation(Exception):
    """An action or option the rules do not allow.

    ``rule`` cites the rule it breaks (a rulebook section or a house-rule tag such as ``"jest R3"``);
    ``detail`` explains it in a sentence a player understands.
    """

    def __init__(self, rule: str, detail: str):
        super().__init__(f"{detail} ({rule})")
        self.rule = rule
        self.detail = detail

    def __reduce__(self):  # picklable, so a worker can report it
        return type(self), (self.rule, self.detail)


class IllegalAction(RuleViolation):
    """The action is not legal in this state for this actor."""


class InvalidOptions(RuleViolation):
    """The player count or the options do not make a valid match of this game."""


#: A computer opponent: it sees only its own observation and the legal actions, like a human.
Bot = Callable[[JSON, Sequence[JSON], random.Random], JSON]


class Engine(ABC):
    """One game's rules. Subclasses are stateless; every method is a pure function of its arguments."""

    name: str  # stable identifier used in URLs and stored events ("jest")
    title: str  # display name ("Jest")
    rules_version: str  # bumped whenever the rules as implemented change
    min_players: int
    max_players: int
    summary: str = ""

    # -- setting up ----------------------------------------------------------------------------
    def default_options(self) -> dict:
        return {}

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> dict:
        """Validate the player count and options; return the full options (defaults filled in).

        Raises :class:`InvalidOptions`. The default accepts no options at all.
        """
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(
                f"{self.name} players",
                f"{self.title} is played by {self.min_players} to {self.max_players} players",
            )
        merged = dict(self.default_options())
        for key, value in options.items():
            if key not in merged:
                raise InvalidOptions(f"{self.name} options", f"unknown option {key!r}")
            if type(value) is not type(merged[key]):
                raise InvalidOptions(
                    f"{self.name} options",
                    f"option {key!r} must be of type {type(merged[key]).__name__}",
                )
            merged[key] = value
        return merged

    @abstractmethod
    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> State:
        """The state before anything happened (typically chance acts first, to shuffle)."""

    # -- whose move ----------------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: State) -> ToAct:
        ...

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        """The legal actions of ``seat`` now; empty when that seat may not act."""

    def check_action(self, state: State, seat: int, action: JSON) -> None:
        """Raise :class:`IllegalAction`, citing the rule, unless ``action`` is legal for ``seat``.

        Engines override this to say *which* rule an illegal action breaks, and where the legal
        actions are too many to list cheaply.
        """
        if seat not in self.to_act(state).seats:
            raise IllegalAction("turn order", "it is not this seat's turn to act")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("legal actions", "this action is not legal now")

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, state: State) -> Optional[list[tuple[JSON, float]]]:
        """The possible chance outcomes with their probabilities, or ``None`` when there are too
        many to list (a shuffle); ``sample_chance`` then draws one."""
        return None

    @abstractmethod
    def sample_chance(self, state: State, rng: random.Random) -> JSON:
        """Draw one chance outcome. Only the caller draws; ``apply`` never does."""

    def chance_is_public(self, state: State, outcome: JSON) -> bool:
        """Whether every player may see this outcome in the event list (a die roll: yes; a
        shuffle: no). The observation still governs what each player sees of the state."""
        return False

    # -- automatic steps and timed phases --------------------------------------------------------
    def auto_action(self, state: State) -> JSON:
        """The deterministic automatic step when ``to_act`` is AUTO (round-end scoring...)."""
        raise NotImplementedError(f"{self.name} has no automatic steps")

    def timer(self, state: State) -> Optional[Timer]:
        """The server-enforced time limit of the current phase, or ``None``."""
        return None

    def timeout_action(self, state: State) -> JSON:
        """The system action that closes a timed phase when its time has run out."""
        raise NotImplementedError(f"{self.name} has no timed phases")

    def cooldown(self, state: State, seat: int, action: JSON) -> float:
        """Seconds the server makes ``seat`` wait after its previous action of the same ``type``
        before this one (a rate limit that a physical game imposes by hand, say one peek at a time)."""
        return 0.0

    # -- applying ------------------------------------------------------------------------------
    @abstractmethod
    def apply(self, state: State, actor: Actor, action: JSON) -> State:
        """Return the state after ``actor`` (a seat, CHANCE or SYSTEM) did ``action``.

        Pure: ``state`` is left as it was. Callers check legality first (``check_action``); an
        engine may raise :class:`IllegalAction` here too.
        """

    # -- what each one sees ----------------------------------------------------------------------
    @abstractmethod
    def observation(self, state: State, seat: int) -> JSON:
        ...

    @abstractmethod
    def public_observation(self, state: State) -> JSON:
        ...

    def redact(self, state: State, actor: Actor, action: JSON, viewer: Optional[int]) -> Optional[JSON]:
        """How an action appears in the event list to ``viewer`` (a seat, or ``None`` for a
        spectator), given the state *before* it. ``None`` hides its content entirely.

        Default: chance outcomes are hidden unless public; everything else is shown. Engines with
        sealed or secret actions override this.
        """
        if actor == CHANCE:
            return action if self.chance_is_public(state, action) else None
        return action

    # -- the end -------------------------------------------------------------------------------
    @abstractmethod
    def result(self, state: State) -> Optional[Result]:
        """The result once the match is over, else ``None``."""

    # -- computer opponents --------------------------------------------------------------------
    def bots(self) -> Mapping[str, Bot]:
        """Computer opponents by level name; empty when the game has none."""
        return {}
