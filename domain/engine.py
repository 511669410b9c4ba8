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
  what a spectator may know. Both are JSON and share nothing mutable with the state (a caller may
  change an observation freely).

Legality is checked once. ``apply`` is the *trusted* transition: it assumes its input was checked
and is what replay uses (a stored event was checked when it was first made). ``step`` is the one
checked entry point for anything new (a player's action, a chance outcome, an automatic step or a
timeout): it runs the shared checks of this base class (actor and seat types, plain JSON, strict
JSON equality, chance outcomes) and the engine's own ``check_action``, then ``apply``. No engine
keeps module-level mutable state (read-only tables and pure ``functools`` caches are fine).
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Collection, Mapping, Optional, Sequence, Union

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
    def players(cls, *seats: int) -> ToAct:
        return cls(Phase.PLAYERS, tuple(sorted(seats)))

    @classmethod
    def chance(cls) -> ToAct:
        return cls(Phase.CHANCE)

    @classmethod
    def auto(cls) -> ToAct:
        return cls(Phase.AUTO)

    @classmethod
    def over(cls) -> ToAct:
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


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Ranks by key, highest first, equal keys sharing a rank and the next rank skipping past them
    ("1224" competition ranking), as ``Result.ranks`` holds them: 1 plus the number of seats ahead."""
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def json_key(value: JSON) -> str:
    """A canonical text of a JSON value in which types stay distinct: ``true`` is not ``1`` and
    ``1.0`` is not ``1`` (Python's ``==`` says both pairs are equal)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def same_json(a: JSON, b: JSON) -> bool:
    """Strict JSON equality (see :func:`json_key`)."""
    if a != b:
        return False
    try:
        return json_key(a) == json_key(b)
    except (TypeError, ValueError):
        return False


def strictly_in(value: JSON, candidates: Sequence[JSON]) -> bool:
    """Whether ``value`` is one of ``candidates`` under strict JSON equality."""
    return any(same_json(value, candidate) for candidate in candidates)


_PLAIN_SCALARS = frozenset((str, int, bool, type(None)))


def is_plain_json(value: JSON, depth: int = 0) -> bool:
    """Built of dict (str keys), list, str, int, float, bool and None only, and not absurdly deep."""
    if depth > 64:
        return False
    if type(value) in _PLAIN_SCALARS:  # the common case first: every check of every step runs this
        return True
    if type(value) is dict and depth < 64:
        scalars = _PLAIN_SCALARS
        return all(
            type(k) is str and (type(v) in scalars or is_plain_json(v, depth + 1)) for k, v in value.items()
        )
    if type(value) is list and depth < 64:
        scalars = _PLAIN_SCALARS
        return all(type(item) in scalars or is_plain_json(item, depth + 1) for item in value)
    if value is None or isinstance(value, (str, bool, int)):
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if type(value) is list:
        return all(is_plain_json(item, depth + 1) for item in value)
    if type(value) is dict:
        return all(type(k) is str and is_plain_json(v, depth + 1) for k, v in value.items())
    return False


def copy_json(value: JSON) -> JSON:
    """A deep copy of a JSON value (dicts and lists copied; tuples become lists), cheaper than
    ``copy.deepcopy``. Observations pass through it so they never alias the state."""
    if type(value) is dict:
        return {k: copy_json(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return [copy_json(v) for v in value]
    return value


def json_type(value: JSON) -> str:
    """The JSON Schema type of a JSON value (``True`` is a boolean, not an integer)."""
    for kind, name in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
                       (list, "array"), (dict, "object")):
        if isinstance(value, kind):
            return name
    return "null"


def is_seat(seat: Any, num_players: int) -> bool:
    """A real int seat in range (``True`` and ``-1`` are not seats)."""
    return type(seat) is int and 0 <= seat < num_players


class RuleViolation(Exception):
    """An action or option the rules do not allow.

    ``rule`` cites the rule it breaks (a rulebook section or a house-rule tag such as ``"jest R3"``);
    ``detail`` explains it in a sentence a player understands.
    """

    def __init__(self, rule: str, detail: str):
        super().__init__(f"{detail} ({rule})")
        self.rule = rule
        self.detail = detail

    def __reduce__(self) -> tuple[type, tuple[str, str]]:  # picklable, so a worker can report it
        return type(self), (self.rule, self.detail)


class IllegalAction(RuleViolation):
    """The action is not legal in this state for this actor."""


class InvalidOptions(RuleViolation):
    """The player count or the options do not make a valid match of this game."""


#: A computer opponent: it sees only its own observation and the legal actions, like a human.
Bot = Callable[[JSON, Sequence[JSON], random.Random], JSON]


@dataclass(frozen=True)
class HouseRule:
    """A rule Motley decided where the rulebook is silent or unplayable ([PROPOSAL] in house-rules.md
    and docs/rules/<game>.md, or an engine's own tagged decision a player notices at the table, such as
    Fool's Crown's FC-ORDER or Jester's J-SHOP): not the publisher's rule, so the catalogue lists it and the
    page flags it (house-rules.md: "Flag these in the UI and keep them configurable"). Only Motley's part:
    a clause the rulebook states is not listed."""

    id: str  # its tag in docs/rules/<game>.md ("R4 timing", "3.4 step 2", "FC-ORDER")
    text: str  # what it decides, in one or two sentences
    option: Optional[str] = None  # the option that switches it, where one does

    def to_json(self) -> dict:
        return {"id": self.id, "text": self.text, "option": self.option}


def without_switches(rules: Sequence[HouseRule], options: Collection[str]) -> tuple[HouseRule, ...]:
    """The house rules of an older rules version that played them without ``options`` switching them."""
    return tuple(replace(rule, option=None) if rule.option in options else rule for rule in rules)


class Engine(ABC):
    """One game's rules. Subclasses are stateless; every method is a pure function of its arguments."""

    name: str  # stable identifier used in URLs and stored events ("jest")
    title: str  # display name ("Jest")
    rules_version: str  # bumped whenever the rules as implemented change
    min_players: int
    max_players: int
    summary: str = ""
    #: Its house rules (``HouseRule``), in the order docs/rules/<game>.md gives them.
    house_rules: tuple[HouseRule, ...] = ()
    #: Each option's ``title`` in plain words, for a player choosing it (JSON Schema's short label): its
    #: ``description`` is the exact rule, house-rule tags and all, which a newcomer could not read (a probe).
    option_titles: Mapping[str, str] = {}

    # -- setting up ----------------------------------------------------------------------------
    def default_options(self) -> dict:
        return {}

    def describe_options(self) -> dict[str, dict]:
        """Each option as a JSON Schema property, so a front end can build a create-match form: its
        ``type`` and ``default`` (derived from ``default_options``), and where an engine refines it
        (by extending this), what ``check_options`` enforces (``enum``, ``minimum``/``maximum``) and a
        ``description`` of what it means; a ``title`` in plain words (``option_titles``)."""
        return {key: {"type": json_type(value), "default": copy_json(value),
                      **({"title": self.option_titles[key]} if key in self.option_titles else {})}
                for key, value in self.default_options().items()}

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> dict:
        """Validate the player count and options; return the full options (defaults filled in).

        Raises :class:`InvalidOptions`. The default accepts no options at all. An option's ``enum``,
        ``minimum`` and ``maximum`` in ``describe_options`` are enforced here, so what the published
        schema says is what is checked (an engine extends this for anything a schema cannot say).
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
            if type(merged[key]) is int and type(value) is float and value.is_integer():
                # JSON has one number type, and the published options schema's "integer" takes 5.0 (JSON
                # Schema counts a number with no fraction as an integer): the match keeps the int.
                value = int(value)
            if type(value) is not type(merged[key]):
                raise InvalidOptions(
                    f"{self.name} options",
                    # In the published schema's words (string, boolean, integer), not Python's (str, bool, int).
                    f"option {key!r} must be of type {json_type(merged[key])}",
                )
            merged[key] = value
        described = self.describe_options() if options else {}
        for key, value in options.items():
            schema = described.get(key, {})
            if "enum" in schema and value not in schema["enum"]:
                raise InvalidOptions(f"{self.name} options",
                                     f"option {key!r} must be one of {', '.join(map(str, schema['enum']))}")
            low, high = schema.get("minimum"), schema.get("maximum")
            if (low is not None and merged[key] < low) or (high is not None and merged[key] > high):
                raise InvalidOptions(f"{self.name} options", f"option {key!r} must be between {low} and {high}")
        return merged

    @abstractmethod
    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> State:
        """The state before anything happened (typically chance acts first, to shuffle)."""

    def num_players(self, state: State) -> int:
        """How many seats the match in ``state`` has (every engine says where its state keeps it)."""
        raise NotImplementedError(f"{self.name} does not say how many seats its state has")

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
        if not strictly_in(action, self.legal_actions(state, seat)):
            raise IllegalAction("legal actions", "this action is not legal now")

    def check_seat(self, state: State, seat: Any) -> int:
        """Refuse anything but a real int seat of this match (``True``, ``-1``, ``"0"``...)."""
        if not is_seat(seat, self.num_players(state)):
            raise IllegalAction("seats", f"{seat!r} is not a seat of this match")
        return seat

    def check_chance(self, state: State, outcome: JSON) -> None:
        """Raise :class:`IllegalAction` unless ``outcome`` is a possible chance outcome now.

        Where the outcomes are listed, ``outcome`` must strictly equal one of them; otherwise the
        engine's ``validate_chance`` decides (say: a shuffle is a permutation of the cards).
        """
        if self.to_act(state).kind != Phase.CHANCE:
            raise IllegalAction("chance", "no chance outcome is due now")
        if not (isinstance(outcome, dict) and type(outcome.get("type")) is str and is_plain_json(outcome)):
            raise IllegalAction("chance", "a chance outcome is a JSON object with a type")
        listed = self.chance_outcomes(state)
        if listed is not None:
            if not strictly_in(outcome, [o for o, _ in listed]):
                raise IllegalAction("chance", "this is not a possible chance outcome now")
        else:
            self.validate_chance(state, outcome)

    def validate_chance(self, state: State, outcome: JSON) -> None:
        """Check an unlisted chance outcome (engines with shuffles override this)."""
        raise IllegalAction("chance", f"{self.name} cannot check this chance outcome")

    def check_system(self, state: State, step: JSON) -> None:
        """An automatic step must be the one due now, or the timeout of the running timed phase."""
        kind = self.to_act(state).kind
        if kind == Phase.AUTO and same_json(step, self.auto_action(state)):
            return
        if kind == Phase.PLAYERS and self.timer(state) is not None and same_json(step, self.timeout_action(state)):
            return
        raise IllegalAction("automatic step", "this is not the automatic step due now")

    def check(self, state: State, actor: Any, action: JSON) -> None:
        """The shared checks and the engine's own, for any actor; raises :class:`IllegalAction`."""
        if actor == CHANCE and type(actor) is str:
            return self.check_chance(state, action)
        if actor == SYSTEM and type(actor) is str:
            return self.check_system(state, action)
        self.check_seat(state, actor)
        if not (isinstance(action, dict) and type(action.get("type")) is str and is_plain_json(action)):
            raise IllegalAction("action format", "an action is a JSON object with a string type")
        self.check_action(state, actor, action)

    def step(self, state: State, actor: Actor, action: JSON) -> State:
        """The checked transition: ``check`` then ``apply``. Use it for anything not yet checked."""
        self.check(state, actor, action)
        return self.apply(state, actor, action)

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

        Pure: ``state`` is left as it was. Trusted: it does not check legality again (``step``
        does, once); replay calls it directly with stored, once-checked events.
        """

    # -- what each one sees ----------------------------------------------------------------------
    @abstractmethod
    def observation(self, state: State, seat: int) -> JSON:
        ...

    @abstractmethod
    def public_observation(self, state: State) -> JSON:
        ...

    def observe(self, state: State, seat: Optional[int]) -> JSON:
        """The checked view: ``seat``'s observation (a real seat of this match) or, for ``None``, a
        spectator's; always a fresh copy that shares nothing with the state."""
        if seat is None:
            return copy_json(self.public_observation(state))
        return copy_json(self.observation(state, self.check_seat(state, seat)))

    def redact(self, state: State, actor: Actor, action: JSON, viewer: Optional[int]) -> Optional[JSON]:
        """How an action appears in the event list to ``viewer`` (a seat, or ``None`` for a
        spectator), given the state *before* it. ``None`` hides its content entirely.

        Default: chance outcomes are hidden unless public; everything else is shown. Engines with
        sealed or secret actions override this.
        """
        if actor == CHANCE:
            return copy_json(action) if self.chance_is_public(state, action) else None
        return self.redact_action(state, actor, action, viewer)

    def redact_action(self, state: State, actor: Actor, action: JSON, viewer: Optional[int]) -> Optional[JSON]:
        """How a player's action or an automatic step appears to ``viewer`` (the chance branch of
        ``redact`` is shared). Default: shown as it is."""
        return copy_json(action)

    # -- the end -------------------------------------------------------------------------------
    @abstractmethod
    def result(self, state: State) -> Optional[Result]:
        """The result once the match is over, else ``None``."""

    # -- computer opponents --------------------------------------------------------------------
    def bots(self) -> Mapping[str, Bot]:
        """Computer opponents by level name; empty when the game has none."""
        return {}
