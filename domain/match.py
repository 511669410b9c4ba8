"""The match: one game played at one table, an event-sourced aggregate.

Every change is a domain event: the match is created, players take seats, it starts, players move,
chance draws, automatic steps resolve, timed phases start and time out, and it finishes. The game's
state is never stored; it is rebuilt by replaying those events through the game's pure engine.
"""

from __future__ import annotations

import hmac
import math
import random
from datetime import datetime, timedelta
from typing import Any, Optional, Sequence, cast
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.chance import ChanceStream
from domain.engine import CHANCE, SYSTEM, Engine, IllegalAction, Phase, ToAct
from domain.games import get_engine


class MatchError(Exception):
    """A request the match refuses: the subclass says why."""

    def __init__(self, detail: str, rule: Optional[str] = None):
        super().__init__(detail)
        self.detail = detail
        self.rule = rule


class NotYourSeat(MatchError):
    pass


class SeatingError(MatchError):
    pass


class NoSuchSeat(SeatingError):
    """A seat number the match does not have: a wrong request, whatever the match's state."""


class MatchNotActive(MatchError):
    pass


class NotYourTurn(MatchError):
    pass


class TimeIsUp(MatchError):
    pass


class TooSoon(MatchError):
    """A cooldown: ``retry_after`` says in how many seconds the seat may act so again."""

    def __init__(self, detail: str, rule: Optional[str] = None, retry_after: Optional[float] = None):
        super().__init__(detail, rule)
        self.retry_after = retry_after


#: Seconds after a timed phase (or a turn clock) closed during which a refused move of a seat it waited
#: for is answered time-is-up: a move sent in time for it and late to arrive, not a move of the next phase.
LATE_MOVE_SECONDS = 10.0

STATUS_OPEN = "open"
STATUS_ACTIVE = "active"
STATUS_FINISHED = "finished"
STATUS_CANCELLED = "cancelled"


class Match(Aggregate):
    # Issue 13's lifecycle state, as class defaults so that matches (and snapshots) stored before it
    # replay unchanged; each is only ever replaced, never mutated in place. Unannotated (typed by
    # cast) so the library's dataclass treatment leaves them class attributes, not fields.
    resigned = cast("tuple[int, ...]", ())  # seats that resigned, in order; the computer plays them on
    # Seats its tournament's organiser forfeited (absent after the round's deadline; they resigned too):
    # their players read only "resigned", and were never told by whom (an organiser's walk).
    forfeited = cast("tuple[int, ...]", ())
    rematch_of = cast(Optional[str], None)  # the match this one is the rematch of
    rematch = cast(Optional[str], None)  # the rematch of this match, once a player asked for one
    turn_limit = cast(Optional[dict], None)  # {"seconds", "on_timeout": "computer" | "claim"}
    turn_clock = cast(Optional[dict], None)  # {"phase": "turn-<n>", "deadline", "seats"}: the running turn
    clock_moved = cast("tuple[int, ...]", ())  # the clock's seats that moved since it started (not late)
    absent = cast("tuple[int, ...]", ())  # seats whose turn ran out (until their player moves again)
    invitation = cast(Optional[str], None)  # an unlisted match's invitation code (only its creator reads it)
    versions_required = False  # moves must state the version they were based on (issue 13)
    # The last timed phase or turn clock that closed: {"phase", "deadline", "seats": those still to act
    # then, each dropped once its player moves again, "earlier": the closes before it whose late window
    # may still be open}. A move of theirs that came too late for it is refused as time-is-up, not as the
    # next phase's illegal move (derived from the events, never stored).
    closed = cast(Optional[dict], None)
    invited = cast("tuple[str, ...]", ())  # players the creator invited by id: they join without the code
    voided = cast(Optional[str], None)  # the reason a tournament's organiser voided it during play
    # The moves its people made themselves (not a computer standing in); None for a match stored before
    # it was counted, whose ratings go on counting every move (``counts_for_ratings``).
    people_moves = cast(Optional[int], None)
    # The seats whose people made a move themselves; None for a match stored before it was kept.
    people_moved = cast("Optional[tuple[int, ...]]", None)
    # The tournament table this match is ({"id", "round", "table"}); None for every other match, and for
    # a tournament's match created before it was kept (a match's view did not name its tournament).
    tournament = cast(Optional[dict], None)

    @event("Created")
    def __init__(
        self,
        game: str,
        rules_version: str,
        seats: int,
        options: dict,
        bots: dict,
        created_by: Optional[str],
        reveal_at_end: bool = True,
        chance: Optional[dict] = None,
        parent: Optional[dict] = None,
        rated: bool = True,
        imported: bool = False,
        id: Optional[UUID] = None,
        tournament: Optional[dict] = None,
    ):
        # ``id``: the library's own, given for an idempotent creation (application/service.py); the
        # library sets ``self.id`` and keeps it out of the stored Created event.
        # Defaults keep matches stored before issue 11 readable: they reveal at the end, drew chance
        # from the server's generator (no commitment) and have no parent.
        self.game = game
        self.rules_version = rules_version
        self.options = options
        self.bots = bots  # seat (as str, JSON keys) -> computer opponent level
        self.created_by = created_by
        self.players: list[Optional[str]] = [None] * seats
        self.names: list[Optional[str]] = [None] * seats
        for seat in bots:
            self.names[int(seat)] = f"computer ({bots[seat]})"
        self.status = STATUS_OPEN
        self.state: Any = None
        self.request_keys: dict[str, int] = {}  # idempotency key -> version it produced
        self.timer: Optional[dict] = None  # {"phase": ..., "deadline": datetime}
        self.last_acted_at: dict[str, Optional[datetime]] = {}  # None: an imported move without its time
        self.moves = 0
        self.people_moves = 0
        self.people_moved = ()
        self.result: Optional[dict] = None
        self.awaiting_resolution = False
        self.reveal_at_end = reveal_at_end
        # {"scheme", "commitment", "seed"}: the seed stays secret until the end (application/views.py).
        self.chance = chance
        self.parent = parent  # {"match_id", "version"} of the match this one was forked from
        self.rated = rated  # counted for the players' ratings (issue 10); "rated": false opts out
        # A copy rebuilt from an auditor's export (POST /matches/import): audited, never counted in
        # anyone's ratings or statistics again (the match it copies was, where it was played).
        self.imported = imported
        self.tournament = tournament
        self.reserved: dict = {}  # a fork's seats kept for a player: seat (str) -> player id
        self.seed_revealed = False

    # -- copies ------------------------------------------------------------------------------------
    #: The attributes its events change in place (an item set, a key added); every other attribute is
    #: only ever replaced whole, and engine states are never changed in place (the contract's apply
    #: is pure, tests/engines/test_contract.py).
    _CHANGED_IN_PLACE = ("players", "names", "request_keys", "last_acted_at", "_pending_events")

    def working_copy(self) -> Match:
        """A copy to act on or to apply events to, sharing with this match only what no event changes
        in place (the engine state above all, the bulk of a deep copy: issue 16)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        for attribute in self._CHANGED_IN_PLACE:
            value = clone.__dict__.get(attribute)
            if value is not None:
                clone.__dict__[attribute] = type(value)(value)
        return clone

    # -- the engine ------------------------------------------------------------------------------
    @property
    def engine(self) -> Engine:
        # The rules this match was created under, forever: a later rules version never replays it.
        return get_engine(self.game, self.rules_version)

    @property
    def num_seats(self) -> int:
        return len(self.players)

    def to_act(self) -> ToAct:
        if self.status != STATUS_ACTIVE:
            # Waiting: an open match waits for its seats and its start; a cancelled one for nothing.
            return ToAct(kind="waiting") if self.status == STATUS_OPEN else ToAct.over()
        return self.engine.to_act(self.state)

    def seat_of(self, player_id: str) -> Optional[int]:
        for seat, occupant in enumerate(self.players):
            if occupant == player_id:
                return seat
        return None

    def held_seat(self, player_id: str) -> int:
        """The seat a lifecycle command acts for; asking for a seat you do not hold is a 403, checked
        before the match's state (RFC 9110 §15.5.4 before §15.5.10: who asks, then what it asks of)."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise NotYourSeat("you hold no seat at this match")
        return seat

    def is_bot(self, seat: int) -> bool:
        return str(seat) in self.bots

    def empty_seats(self) -> list[int]:
        """The seats nobody holds and no computer plays (a seat kept for a named player among them)."""
        return [s for s in range(self.num_seats) if self.players[s] is None and not self.is_bot(s)]

    def stands_in(self, seat: int) -> bool:
        """Whether the computer plays ``seat``: a computer opponent's seat, one that resigned, or one
        whose turn ran out when the match's turn limit says the computer then plays it."""
        if self.is_bot(seat) or seat in self.resigned:
            return True
        return seat in self.absent and self.turn_limit is not None and self.turn_limit["on_timeout"] == "computer"

    def playing_seats(self) -> list[int]:
        return [s for s in range(self.num_seats) if s not in self.resigned]

    # -- seating and starting --------------------------------------------------------------------
    def join(self, player_id: str, name: str, seat: Optional[int] = None, code: Optional[str] = None) -> int:
        self.check_open()
        invited = (self.invitation is None
                   or (code is not None and hmac.compare_digest(code.encode(), self.invitation.encode()))
                   or player_id in (self.created_by, *self.invited))
        if not invited and player_id not in self.reserved.values():
            # Say which: a person who typed a code was told to send one (a probe's page showed that).
            raise NotYourSeat("this match is unlisted: join it with its invitation code" if not code else
                              "that is not this match's invitation code", rule="invitation")
        if self.seat_of(player_id) is not None:
            raise SeatingError("you already hold a seat at this match")
        free = self.empty_seats()
        if seat is None:
            mine = [s for s in free if self.reserved.get(str(s)) == player_id]
            free = mine or [s for s in free if str(s) not in self.reserved]
            if not free:
                kept = [s for s in range(self.num_seats) if self.players[s] is None and str(s) in self.reserved]
                raise SeatingError("every seat at this match is taken" if not kept else
                                   f"every free seat at this match ({kept}) is kept for a player of the earlier match")
            seat = free[0]
        elif not 0 <= seat < self.num_seats:
            raise NoSuchSeat(f"seat {seat} does not exist (seats are 0 to {self.num_seats - 1})")
        elif seat not in free:
            raise SeatingError(f"seat {seat} is already taken")
        holder = self.reserved.get(str(seat))
        if holder is not None and holder != player_id:
            raise SeatingError(f"seat {seat} is kept for another player (a player of the earlier match)")
        self._seat_taken(seat=seat, player_id=player_id, name=name)
        return seat

    @event("SeatTaken")
    def _seat_taken(self, seat: int, player_id: str, name: str) -> None:
        self.players[seat] = player_id
        self.names[seat] = name

    def start(self, player_id: str) -> None:
        # Who may act is checked before the match's state, on every lifecycle command: a stranger is
        # told it may not (403), whatever the state, rather than why nobody could now (409).
        if self.seat_of(player_id) is None and player_id != self.created_by:
            raise NotYourSeat("only the match's creator or a seated player may start it")
        self.check_open("starting" if self.status != STATUS_ACTIVE else None)
        empty = self.empty_seats()
        if empty:
            raise SeatingError(f"seats {empty} are still empty")
        if self.state is None:
            self._started()
        else:  # a fork: play goes on from the state its parent had at the fork point
            self._resumed()

    @event("Started")
    def _started(self) -> None:
        self.status = STATUS_ACTIVE
        self.state = self.engine.initial_state(self.num_seats, self.options)

    @event("Resumed")
    def _resumed(self) -> None:
        self.status = STATUS_ACTIVE

    def reopen(self, reserved: dict) -> None:
        """End a fork's copied prefix: every seat is free again, ``reserved`` (seat as str -> player
        id) keeps a seat for one player, and play resumes at the next start."""
        self._reopened(reserved=reserved)

    @event("Reopened")
    def _reopened(self, reserved: dict) -> None:
        self.status = STATUS_OPEN
        self.players = [None] * self.num_seats
        self.names = [None] * self.num_seats
        for seat in self.bots:
            self.names[int(seat)] = f"computer ({self.bots[seat]})"
        self.reserved = dict(reserved)
        self.timer = None
        self.awaiting_resolution = False
        self.last_acted_at = {}
        # The fork's people are new: only their own moves count as played (``played_out``); the copied
        # prefix's were its parent's players' (a fork finished by its automatic steps alone credited
        # whoever sat in the parent's winning seat with a win in the statistics: a probe).
        if self.people_moves is not None:
            self.people_moves = 0
        if self.people_moved is not None:
            self.people_moved = ()

    # -- leaving, cancelling, resigning, rematches (issue 13) ---------------------------------------
    def leave(self, player_id: str) -> int:
        """Give up a seat before the start; it is free for anyone again."""
        seat = self.held_seat(player_id)
        self.check_open()
        self._seat_left(seat=seat)
        if self.reserved.get(str(seat)) == player_id:
            # Its player left the seat kept for it (a rematch, a fork): it is free for anyone now, else
            # nobody could ever fill it and the match could never start.
            self._reservation_released(seat=seat)
        return seat

    @event("SeatLeft")
    def _seat_left(self, seat: int) -> None:
        self.players[seat] = None
        self.names[seat] = None

    @event("ReservationReleased")
    def _reservation_released(self, seat: int) -> None:
        self.reserved = {key: holder for key, holder in self.reserved.items() if key != str(seat)}

    def cancel(self, player_id: str) -> None:
        """The creator calls an open match off: nobody can join or start it any more."""
        if player_id != self.created_by:
            raise NotYourSeat("only the match's creator may cancel it")
        self.check_open("cancelling (a player resigns during play instead)" if self.status == STATUS_ACTIVE
                        else "cancelling")
        self._cancelled()

    @event("Cancelled")
    def _cancelled(self) -> None:
        self.status = STATUS_CANCELLED

    def resign(self, player_id: str) -> int:
        """Give up during play. The seat is ranked last when the match ends (tied with any other
        resigned seat); until then the computer plays it, so the others' game goes on. When one
        playing seat is left, or only computers, the match ends at once (``settle``)."""
        seat = self.held_seat(player_id)
        self.check_active()
        if seat in self.resigned:
            raise SeatingError("you have already resigned this match")
        self._resigned(seat=seat)
        return seat

    @event("Resigned")
    def _resigned(self, seat: int) -> None:
        self.resigned = (*self.resigned, seat)

    def record_forfeit(self, seats: Sequence[int]) -> None:
        """A tournament's organiser forfeited the players of ``seats`` (absent from the table, after the
        round's deadline): said in the match's own history, saved with the forfeit, so that the match
        moving meanwhile (its end) fails the forfeit's save. They resign it next (``resign``)."""
        self.check_active()
        self._forfeited(seats=sorted(seats))

    @event("Forfeited")
    def _forfeited(self, seats: list) -> None:
        # A seat that had resigned itself before was not absent: it stays "resigned" (a review).
        self.forfeited = (*self.forfeited, *(seat for seat in seats if seat not in self.resigned))

    def void(self, reason: str) -> None:
        """A tournament's organiser voided this match while it was played: it stops here, called off
        (``cancelled``), and nobody moves in it any more. Saved with the tournament's void, so that the
        match ending meanwhile fails the save (a finished match voided keeps its result; only the
        tournament stops counting it)."""
        self.check_active()
        self._voided(reason=reason)

    def void_result(self, reason: str) -> None:
        """A tournament's organiser voided this match after it finished: its result and history stay,
        but it counts for nobody (the table, the ratings), and its view says so (``rated`` false,
        ``voided``). Its view said it was rated, though the ratings had left it out."""
        if self.status != STATUS_FINISHED or self.voided is not None:
            raise MatchNotActive(f"the match is {self.status}: only a finished match's result is voided")
        self._result_voided(reason=reason)

    @event("ResultVoided")
    def _result_voided(self, reason: str) -> None:
        self.voided = reason

    @event("Voided")
    def _voided(self, reason: str) -> None:
        self.status = STATUS_CANCELLED
        self.timer = None
        self.turn_clock = None  # nobody is waited for any more
        self.voided = reason

    @property
    def secrets_shown(self) -> bool:
        """Whether the public has seen its hidden cards and chance seed: finished, and created to reveal
        them at the end. Who sees what (application/views.lens_for), whether a fork of it is private and
        whether an imported fork's history may reveal them all ask this one question."""
        return self.status == STATUS_FINISHED and self.reveal_at_end and not self.chance_unproven

    @property
    def chance_unproven(self) -> bool:
        """An imported history that made no chance commitment (recorded before commitments): nothing tells
        its deal from that of a match still played here, whose export with the commitment cut out and a new
        id imported as a finished copy that showed anyone with its id the live match's hidden cards (a sizes
        probe). Its hidden cards are the auditor's alone: no reveal, no seat's own view."""
        return bool(getattr(self, "imported", False)) and self.chance is None

    @property
    def counts_for_ratings(self) -> bool:
        """Whether its result is rated: ``rated_at_end``, and not voided, while it was played (``void``) or
        since (``void_result``): its tournament's organiser called it off. A match called off before its
        end (cancelled) has no result to rate: its view said rated all the same (a statistics probe)."""
        return self.rated_at_end and self.voided is None and self.status != STATUS_CANCELLED

    @property
    def rated_at_end(self) -> bool:
        """Whether its result was rated when it ended (a later void aside: the league keeps voids apart, so
        a rebuild reads what the live run read): created rated, not an imported copy, two or more seats for
        people (one person against computers teaches the ratings nothing: the view said rated all the
        same), and ``played_out``."""
        rated, imported = getattr(self, "rated", True), getattr(self, "imported", False)  # stored before them
        return bool(rated) and not imported and len(self.players) - len(self.bots) >= 2 and self.played_out

    @property
    def played_out(self) -> bool:
        """Whether a person played it: not over yet, or over with a winner and a move of a person who did
        not leave. A match every person resigned or was absent from (abandoned by all,
        ``resignation_result``, or left to the computers at the table) teaches nothing: rated as a draw
        between them, it raised every one's leaderboard score; nor one where only people who left moved."""
        nobody_played_on = False
        if self.result is not None:
            # Absent at the end counts too: with ``on_timeout: computer`` the result lists nobody absent,
            # and two accounts that never moved, the computer playing both, farmed a rated win.
            gone = {*self.result.get("resigned", ()), *self.result.get("absent", ()), *self.absent}
            people = [seat for seat, player in enumerate(self.players) if player is not None and not self.is_bot(seat)]
            # Ended before any move of a person (a seat resigned, or was absent, at once): nothing was
            # played. A second account resigning at once farmed its first one a rated win a request, the
            # top of the board; and so it did when the computer standing in for it had made a move. (A
            # second account resigning after its owner's first move still hands it a win: two people
            # who moved were asked for instead, and any player could leave before its first move, its
            # hand seen, without a rated loss. Accounts are free: no rule of the match tells them apart.)
            played = self.moves if self.people_moves is None else self.people_moves
            # And a person who stayed moved: a second account that made one move and then resigned farmed
            # its owner, who never moved, a rated win (a probe: two such topped a leaderboard).
            stayed_moved = self.people_moved is None or any(seat not in gone for seat in self.people_moved)
            nobody_played_on = (not self.result.get("winners") or all(seat in gone for seat in people)
                                or played == 0 or not stayed_moved)
        return not nobody_played_on

    def no_shows(self) -> list[int]:
        """The people's seats the computer was playing when the match ended (``on_timeout: computer``):
        away to the end, whether they moved before or not; a seat the result already ranks as left
        (resigned, absent at a claim) is not among them, nor one whose player came back before the end. A
        seat that never had a turn, the others resigning first, is not either: it won, present. Only the
        seats that never moved were counted at first: a bot made one move, let its clock run out, and won a
        tournament's table and a rated win on the computer's play (a cheater's probe)."""
        if self.result is None:
            return []
        left = {*self.result.get("resigned", ()), *self.result.get("absent", ())}
        return [seat for seat, player in enumerate(self.players)
                if player is not None and not self.is_bot(seat) and seat in self.absent and seat not in left]

    def league_ranks(self) -> list[int]:
        """The ranks the ratings, the players' statistics and a tournament's table take: the result's, but a
        seat away at the end (``no_shows``) ranks last, below every seat that played on, as if it had
        resigned when it went away. Credited with the computer's play, an account that never moved topped a
        leaderboard with the computer's wins (a probe: three rated wins in a tournament, none of its own).
        Left out instead, a player who saw a strong opponent could dodge its loss by never moving.
        Competition ranking among the rest, as ``resignation_result`` ranks: 1, 1, 3."""
        assert self.result is not None
        ranks = list(self.result["ranks"])
        no_shows = set(self.no_shows())
        if not no_shows:
            return ranks
        # Tied with the seats that left (resigned, absent at a claim): re-ranked among the seats that
        # played, a resigned seat rose to a win over the no-shows above it (a review).
        gone = no_shows | {*self.result.get("resigned", ()), *self.result.get("absent", ())}
        playing = [seat for seat in range(len(ranks)) if seat not in gone]
        # All at the bottom (nobody played on: tied at the top, each was counted a win).
        adjusted = [len(playing) + 1 if playing else len(ranks)] * len(ranks)
        for seat in playing:
            adjusted[seat] = 1 + sum(1 for other in playing if ranks[other] < ranks[seat])
        return adjusted

    def make_unlisted(self, code: str) -> None:
        """Keep the match out of the open list; only a player with ``code`` (or a kept seat) joins."""
        self.check_open()
        self._unlisted(code=code)

    def invite(self, by_player: str, player_id: str) -> None:
        """The creator invites a player by id: the player's stream says so, and it joins without a code."""
        if by_player != self.created_by:
            raise NotYourSeat("only the match's creator invites players")
        self.check_open()
        # Inviting the creator, a seated player or one already invited changes nothing: no event.
        if player_id not in self.invited and player_id != self.created_by and self.seat_of(player_id) is None:
            self._invited(player_id=player_id)

    @event("Invited")
    def _invited(self, player_id: str) -> None:
        self.invited = (*self.invited, player_id)

    def require_versions(self) -> None:
        self.check_open()
        self._versions_required()

    @event("VersionsRequired")
    def _versions_required(self) -> None:
        self.versions_required = True

    @event("Unlisted")
    def _unlisted(self, code: str) -> None:
        self.invitation = code

    # -- absent players: a time limit per turn (issue 13) --------------------------------------------
    def limit_turns(self, seconds: float, on_timeout: str) -> None:
        """Give every turn ``seconds``; a seat still to act after them is absent, and then the
        computer plays it (``on_timeout="computer"``) or the others may claim the match ("claim")."""
        self.check_open()
        self._turn_limit_set(seconds=seconds, on_timeout=on_timeout)

    @event("TurnLimitSet")
    def _turn_limit_set(self, seconds: float, on_timeout: str) -> None:
        self.turn_limit = {"seconds": seconds, "on_timeout": on_timeout}

    def waiting_humans(self) -> list[int]:
        turn = self.to_act()
        if turn.kind != Phase.PLAYERS:
            return []
        return [s for s in turn.seats if not self.stands_in(s) and s not in self.absent]

    def turn_timed_out(self, now: datetime) -> bool:
        """The turn clock ran out: the seats it waited for that still have not acted are absent."""
        clock = self.turn_clock
        if self.status != STATUS_ACTIVE or clock is None or now < clock["deadline"]:
            return False
        late = self.late_seats()
        if not late:
            waiting = self.waiting_humans()
            if not waiting:
                return False
            # Every seat the clock waited for has moved since it started, and is to act again (a
            # simultaneous phase in which they all play on): their next turn gets the whole limit.
            assert self.turn_limit is not None
            self._turn_clock_started(phase=f"turn-{self.version + 1}",
                                     deadline=now + timedelta(seconds=self.turn_limit["seconds"]), seats=waiting)
            return True
        self._seats_timed_out(seats=late, phase=clock["phase"])
        return True

    def late_seats(self) -> list[int]:
        """The seats the running turn clock waited for that are still to act and have not moved since it
        started: those it times out."""
        clock = self.turn_clock
        if clock is None:
            return []
        return [s for s in self.waiting_humans() if s in clock["seats"] and s not in self.clock_moved]

    @event("SeatsTimedOut")
    def _seats_timed_out(self, seats: list, phase: str) -> None:
        if self.turn_clock is not None:
            self._closing({"phase": phase, "deadline": self.turn_clock["deadline"], "seats": tuple(seats),
                           "turn": True, "moves": self.moves})
        self.absent = (*self.absent, *seats)
        self.turn_clock = None
        self.clock_moved = ()

    def claim(self, player_id: str) -> None:
        """A present player ends the match because others are absent: the absent seats rank last."""
        seat = self.held_seat(player_id)
        self.check_active()
        if self.turn_limit is None or self.turn_limit["on_timeout"] != "claim":
            raise SeatingError("this match was not created to be claimed when a player is absent", rule="claim")
        if not self.may_claim(seat):
            raise SeatingError("only a present player may claim, once another seat's time ran out", rule="claim")
        self._claimed(seat=seat)
        seed = None if self.chance is None else self.chance["seed"]
        self._finished(result=resignation_result(None, self.num_seats, self.resigned, self.absent), seed=seed)

    def may_claim(self, seat: Optional[int]) -> bool:
        """Whether ``seat`` may claim the match now: a present player's, in an active match created to
        be claimed, once another seat's time ran out."""
        return (self.status == STATUS_ACTIVE and seat is not None and self.turn_limit is not None
                and self.turn_limit["on_timeout"] == "claim" and bool(self.absent) and seat not in self.absent
                and seat not in self.resigned and self.players[seat] is not None and not self.is_bot(seat))

    @event("Claimed")
    def _claimed(self, seat: int) -> None:
        pass

    def nobody_left_to_claim(self) -> bool:
        """A match to be claimed whose every human seat still playing is absent: no present player is
        left to claim it or to play on (the others are computers), so it would wait for ever."""
        if self.turn_limit is None or self.turn_limit["on_timeout"] != "claim" or not self.absent:
            return False
        humans = [s for s in self.playing_seats() if not self.is_bot(s)]
        return bool(humans) and all(s in self.absent for s in humans)

    @event("Abandoned")
    def _abandoned(self, seats: list) -> None:
        pass

    def check_not_resigned(self, seat: int) -> None:
        if seat in self.resigned:
            raise SeatingError(f"seat {seat} resigned; the computer plays it now", rule="resignation")

    def keep_seats_for_rematch(self, of_match: str, reserved: dict) -> None:
        """Open this match as the rematch of ``of_match``: each seat is kept for the player who held
        it there (``reserved``: seat as str -> player id)."""
        self._rematch_opened(of_match=of_match, reserved=reserved)

    @event("RematchOpened")
    def _rematch_opened(self, of_match: str, reserved: dict) -> None:
        self.rematch_of = of_match
        self.reserved = dict(reserved)

    def link_rematch(self, match_id: str) -> None:
        self.check_rematch_allowed()
        self._rematch_linked(match_id=match_id)

    def check_rematch_allowed(self) -> None:
        if self.status != STATUS_FINISHED:
            raise MatchNotActive(f"the match is {self.status}; only a finished match has a rematch")

    @event("RematchLinked")
    def _rematch_linked(self, match_id: str) -> None:
        self.rematch = match_id

    # -- moves -----------------------------------------------------------------------------------
    def check_open(self, doing: Optional[str] = "seating") -> None:
        """Refuse what only an open match allows (``doing``: what the refusal names; None: a start)."""
        if self.status != STATUS_OPEN:
            if doing is None:
                raise SeatingError("the match has already started")
            raise SeatingError(f"the match is {self.status}, no longer open for {doing}")

    def check_active(self) -> None:
        if self.status != STATUS_ACTIVE:
            raise MatchNotActive(f"the match is {self.status}" + ("" if self.voided is None else
                                 f": its tournament's organiser voided it ({self.voided or 'no reason given'})"))

    def cooldown_left(self, seat: int, action: Any, now: datetime) -> float:
        """Seconds before ``seat`` may make ``action`` again (0: it may now), by the game's cooldown."""
        wait = self.engine.cooldown(self.state, seat, action)
        last = self.last_acted_at.get(_cooldown_key(seat, action))
        if not wait or last is None:
            return 0.0
        return max(0.0, (last + timedelta(seconds=wait) - now).total_seconds())

    def check_can_move(self, seat: int, action: Any, now: datetime) -> None:
        try:
            self._check_can_move(seat, action, now)
        except (NotYourTurn, IllegalAction) as refused:
            # The latest close that waited for this seat and whose late window is still open.
            closes = () if self.closed is None else (self.closed, *self.closed.get("earlier", ()))
            closed = next((c for c in closes if seat in c["seats"]
                           and now <= c["deadline"] + timedelta(seconds=LATE_MOVE_SECONDS)), None)
            if closed is None:
                raise
            if closed.get("turn") and isinstance(refused, IllegalAction) and self.moves == closed["moves"]:
                # A turn clock changes no rule: a seat still to act in the very turn that ran out (nothing
                # moved since: a match to be claimed waits for it) that sends an illegal move gets the
                # plain answer, not "too late". Once the turn moved on (the computer played it), a move
                # meant for it is too late.
                raise
            # The phase (or turn) the seat was to act in closed without its move, which came too late for
            # it: said so, rather than "illegal" by the next phase's rules (a bot read that as its bug).
            raise TimeIsUp(f"time ran out: {closed['phase']} closed at {closed['deadline'].isoformat()} before "
                           f"seat {seat} acted (now {refused})", rule="time limit") from None

    def _check_can_move(self, seat: int, action: Any, now: datetime) -> None:
        self.check_active()
        turn = self.to_act()
        if turn.kind != Phase.PLAYERS or seat not in turn.seats:
            waiting = {
                Phase.AUTO: "the match is resolving an automatic step",
                Phase.CHANCE: "the match is waiting for chance",
                Phase.PLAYERS: f"seats {list(turn.seats)} are to act",
            }.get(turn.kind, "nobody may act")
            raise NotYourTurn(f"it is not seat {seat}'s turn: {waiting}", rule="turn order")
        if self.timer is not None and now >= self.timer["deadline"]:
            raise TimeIsUp(f"the timed phase {self.timer['phase']} is over", rule="time limit")
        # The contract's one checked path, before the cooldown: a move no wait would make legal (a second
        # peek with a tile in hand) is its 422, not a 429 whose retry only meets the 422.
        self.engine.check(self.state, seat, action)
        left = self.cooldown_left(seat, action, now)
        if left > 0:
            wait = self.engine.cooldown(self.state, seat, action)
            # Rounded up to the millisecond: rounded, a wait under half of one read "retry_after": 0.0.
            raise TooSoon(f"seat {seat} must wait {wait:g} s between these actions", rule="cooldown",
                          retry_after=math.ceil(left * 1000) / 1000)

    def make_move(self, seat: int, action: Any, now: datetime, request_key: Optional[str] = None,
                  by_player: bool = True) -> None:
        if by_player:  # a resigned seat is the computer's: its player's own move is refused, whenever it lands
            self.check_not_resigned(seat)
        self.check_can_move(seat, action, now)
        if by_player and seat in self.absent:  # an absent player who moves again is back (issue 13)
            self._seat_returned(seat=seat)
        self._move_made(seat=seat, action=action, request_key=request_key, at=now)

    def come_back(self, player_id: str) -> int:
        """An absent player takes its seat back from the computer (``on_timeout="computer"``, where the
        computer plays the seat the moment its turn comes, so a move of the player's own could never
        land first); with ``"claim"`` its next move does the same. Its turn clock runs again."""
        seat = self.held_seat(player_id)
        self.check_active()
        # A seat that resigned after its time ran out stays absent, and is the computer's for good: its
        # return was taken (a SeatReturned for a resigned seat), a bot answering its ``absent`` item.
        self.check_not_resigned(seat)
        if seat not in self.absent:
            raise SeatingError(f"seat {seat} is not absent", rule="absence")
        self._seat_returned(seat=seat)
        return seat

    @event("SeatReturned")
    def _seat_returned(self, seat: int) -> None:
        self.absent = tuple(s for s in self.absent if s != seat)
        self._acted_since_close(seat)  # back: its next refusals are about the match as it is

    def _closing(self, record: dict) -> None:
        """A phase or turn closed (``closed``), the earlier closes kept while their late window may be
        open: a seat's turn ran out, then another seat's, and the first seat's late move was refused as
        not its turn, 2.5 s after its own clock closed (docs/problems.md: time-is-up for 10 s)."""
        earlier = []
        if self.closed is not None:
            since = record["deadline"] - timedelta(seconds=LATE_MOVE_SECONDS)
            for old in (self.closed, *self.closed.get("earlier", ())):
                if old["seats"] and old["deadline"] >= since:
                    earlier.append({key: value for key, value in old.items() if key != "earlier"})
        self.closed = {**record, "earlier": tuple(earlier)}

    def _acted_since_close(self, seat: int) -> None:
        """``seat`` is no longer one the closed phases waited for (``closed``): its player is back."""
        closed = self.closed
        # Every move comes here (a replay's too): nothing to do unless a close still waits for the seat.
        if closed is None or not any(seat in c["seats"] for c in (closed, *closed.get("earlier", ()))):
            return

        def without(record: dict) -> dict:
            return {**record, "seats": tuple(s for s in record["seats"] if s != seat)}
        self.closed = {**without(closed), "earlier": tuple(without(old) for old in closed.get("earlier", ()))}

    @event("MoveMade")
    def _move_made(self, seat: int, action: Any, request_key: Optional[str], at: Optional[datetime]) -> None:
        if seat not in self.absent:  # its player moved again (a computer's move for an absent seat is not its)
            self._acted_since_close(seat)
        self.state = self.engine.apply(self.state, seat, action)
        self.moves += 1
        if self.people_moves is not None and not self.stands_in(seat):
            self.people_moves += 1
            if self.people_moved is not None and seat not in self.people_moved:
                self.people_moved = (*self.people_moved, seat)
        self.last_acted_at[_cooldown_key(seat, action)] = at
        if self.turn_clock is not None and seat in self.turn_clock["seats"] and seat not in self.clock_moved:
            self.clock_moved = (*self.clock_moved, seat)
        if request_key is not None:
            self.request_keys[request_key] = self.version + 1

    def draw_chance(self, rng: random.Random) -> None:
        """Draw chance outcomes (in the application, never on replay) until someone else acts."""
        while self.status == STATUS_ACTIVE and self.to_act().kind == Phase.CHANCE:
            if self.chance is not None and self.chance.get("seed"):  # provable chance (domain/chance.py)
                rng = ChanceStream(self.chance["seed"], self.version + 1)
            self._chance_drawn(outcome=self.engine.sample_chance(self.state, rng))

    @event("ChanceDrawn")
    def _chance_drawn(self, outcome: Any) -> None:
        self.state = self.engine.apply(self.state, CHANCE, outcome)

    def resolve_automatic_step(self) -> bool:
        """Apply the engine's automatic step; False (and nothing appended) if none is due."""
        if self.status != STATUS_ACTIVE or self.to_act().kind != Phase.AUTO:
            return False
        self._step_resolved(step=self.engine.auto_action(self.state))
        return True

    @event("StepResolved")
    def _step_resolved(self, step: Any) -> None:
        self.state = self.engine.apply(self.state, SYSTEM, step)
        self.awaiting_resolution = False

    def time_out(self, phase: str, now: datetime) -> bool:
        """Close the timed phase ``phase`` if it is still running and its time is up (or the turn
        clock of that name, issue 13)."""
        if self.turn_clock is not None and self.turn_clock["phase"] == phase:
            return self.turn_timed_out(now)
        if self.status != STATUS_ACTIVE or self.timer is None or self.timer["phase"] != phase:
            return False
        if now < self.timer["deadline"]:
            return False
        self._timed_out(phase=phase, step=self.engine.timeout_action(self.state))
        return True

    def extend_clock(self, phase: str, now: datetime) -> bool:
        """Give the timed phase (or turn clock) ``phase`` a whole period from ``now``: it ran out while
        the service was down, and nobody could move. False if no such clock runs."""
        if self.status != STATUS_ACTIVE:
            return False
        if self.turn_clock is not None and self.turn_clock["phase"] == phase and self.turn_limit is not None:
            seconds = float(self.turn_limit["seconds"])
        elif self.timer is not None and self.timer["phase"] == phase:
            timer = self.engine.timer(self.state)
            if timer is None or timer.phase != phase:
                return False
            seconds = float(timer.seconds)
        else:
            return False
        self._clock_extended(phase=phase, deadline=now + timedelta(seconds=seconds))
        return True

    @event("ClockExtended")
    def _clock_extended(self, phase: str, deadline: datetime) -> None:
        if self.turn_clock is not None and self.turn_clock["phase"] == phase:
            self.turn_clock = {**self.turn_clock, "deadline": deadline}
        if self.timer is not None and self.timer["phase"] == phase:
            self.timer = {**self.timer, "deadline": deadline}

    @event("TimedOut")
    def _timed_out(self, phase: str, step: Any) -> None:
        turn = self.to_act()
        if self.timer is not None and turn.kind == Phase.PLAYERS:
            self._closing({"phase": phase, "deadline": self.timer["deadline"], "seats": tuple(turn.seats)})
        self.state = self.engine.apply(self.state, SYSTEM, step)

    # -- bookkeeping after every change -------------------------------------------------------------
    def settle(self, rng: random.Random, now: datetime, acted: Sequence[int] = ()) -> None:
        """Bring the match to the point where it waits for a player, a worker or nothing.

        Draws pending chance, starts or clears the timer of a timed phase, and records the finish.
        Called by the application after each command, before saving, so the command and its
        consequences commit together; ``acted``: the seat the command moved for (a move), which the
        turn clock needs to tell a seat's new turn.
        """
        if self.status != STATUS_ACTIVE:
            return
        self.draw_chance(rng)
        timer = self.engine.timer(self.state)
        if timer is None and self.timer is not None:
            self._timer_cleared(phase=self.timer["phase"])
        elif timer is not None and (self.timer is None or self.timer["phase"] != timer.phase):
            self._timer_started(phase=timer.phase, deadline=now + timedelta(seconds=timer.seconds))
        playing = self.playing_seats()
        if self.resigned and (len(playing) <= 1 or all(self.is_bot(s) for s in playing)):
            # Nobody is left to play against: the match ends by resignation.
            seed = None if self.chance is None else self.chance["seed"]
            self._finished(result=resignation_result(None, self.num_seats, self.resigned), seed=seed)
            return
        if self.nobody_left_to_claim():
            # House rule (README, the turn limit): the match ends as if claimed for the present seats
            # (computers, if any): the absent seats rank last, tied, like a claim's.
            seed = None if self.chance is None else self.chance["seed"]
            self._abandoned(seats=sorted(self.absent))
            self._finished(result=resignation_result(None, self.num_seats, self.resigned, self.absent), seed=seed)
            return
        if self.turn_limit is not None:
            self.start_turn_clock(now, acted)
        kind = self.engine.to_act(self.state).kind
        if kind == Phase.AUTO and not self.awaiting_resolution:
            # The play of a round (or of the match) has ended: say so, for the worker to resolve.
            self._resolution_due()
        if kind == Phase.OVER:
            seed = None if self.chance is None else self.chance["seed"]
            result = self.engine.result(self.state)
            assert result is not None, "an engine whose match is over gives its result"
            outcome = result.to_json()
            if self.resigned:
                outcome = resignation_result(outcome, self.num_seats, self.resigned)
            self._finished(result=outcome, seed=seed)

    def start_turn_clock(self, now: datetime, acted: Sequence[int] = ()) -> None:
        """A new turn gets the whole limit: a seat to act that the running clock does not cover, or a
        seat that has just moved and is alone to act again (a Jest player whose offer makes it the first
        taker, the next action of a turn: each move earns the mover a fresh limit). A seat that
        acted in a simultaneous phase, done or to act again, does not restart the others' clock: a
        Tumult Royale player peeking on and on gave an idle one a fresh limit with every peek, and the
        idle one was never absent. The mover is not late for it (``clock_moved``, ``late_seats``)."""
        assert self.turn_limit is not None
        change, waiting = self._clock_change(acted)
        clock = self.turn_clock
        if change == "stop" and clock is not None:
            self._turn_clock_stopped(phase=clock["phase"])
        elif change == "start":
            deadline = now + timedelta(seconds=self.turn_limit["seconds"])
            self._turn_clock_started(phase=f"turn-{self.version + 1}", deadline=deadline, seats=waiting)
        elif change == "narrow" and clock is not None:  # some of a simultaneous turn acted: the rest keep its time
            self._turn_clock_started(phase=clock["phase"], deadline=clock["deadline"], seats=waiting)

    def turn_clock_change(self, acted: Sequence[int] = ()) -> Optional[str]:
        """What ``start_turn_clock`` does to the turn clock now, after a command for the seats ``acted``:
        "stop", "start" (a new clock), "narrow" (the running one, for fewer seats) or None. Pure: the
        service also asks it of a past version, to tell the clock a move's save started from one a
        timeout restarted just after it (``Motley._saved_with``)."""
        return self._clock_change(acted)[0]

    def _clock_change(self, acted: Sequence[int]) -> tuple[Optional[str], list[int]]:
        """``turn_clock_change`` with the waiting seats it was judged on, which a new clock covers."""
        waiting = self.waiting_humans()
        clock = self.turn_clock
        if not waiting:
            return ("stop" if clock is not None else None), waiting
        if (clock is None or not set(waiting) <= set(clock["seats"])
                or (set(waiting) & set(acted) and not set(waiting) - set(acted))):
            return "start", waiting
        return ("narrow" if set(waiting) != set(clock["seats"]) else None), waiting

    @event("TurnClockStarted")
    def _turn_clock_started(self, phase: str, deadline: datetime, seats: list) -> None:
        if self.turn_clock is None or self.turn_clock["phase"] != phase:
            self.clock_moved = ()  # a new clock: nobody has moved under it yet
        self.turn_clock = {"phase": phase, "deadline": deadline, "seats": list(seats)}

    @event("TurnClockStopped")
    def _turn_clock_stopped(self, phase: str) -> None:
        self.turn_clock = None
        self.clock_moved = ()

    @event("ResolutionDue")
    def _resolution_due(self) -> None:
        self.awaiting_resolution = True

    @event("TimerStarted")
    def _timer_started(self, phase: str, deadline: datetime) -> None:
        self.timer = {"phase": phase, "deadline": deadline}

    @event("TimerCleared")
    def _timer_cleared(self, phase: str) -> None:
        self.timer = None

    @event("Finished")
    def _finished(self, result: dict, seed: Optional[str] = None) -> None:
        # The seed is revealed with the result, so anyone can re-derive every chance outcome.
        self.status = STATUS_FINISHED
        self.result = result
        self.timer = None
        self.turn_clock = None  # a finished match waits for nobody (it ended by resignation or a claim)
        self.seed_revealed = seed is not None


def resignation_result(result: Optional[dict], seats: int, resigned: Sequence[int],
                       absent: Sequence[int] = ()) -> dict:
    """The engine's result (``None`` when the match ended before the engine finished it) with the
    resigned seats, and the ``absent`` ones a claim ends the match against, ranked last, tied; the
    others keep the engine's order (competition ranking: 1, 1, 3). No rulebook under ../shared/rules/
    covers resigning or absence, so this house rule holds for every game. ``resigned`` and ``absent``
    say which seats did which (a seat that resigned is not listed absent)."""
    left = {*resigned, *absent}
    playing = [s for s in range(seats) if s not in left]
    engine_ranks = [1] * seats if result is None else list(result["ranks"])
    ranks = [0] * seats
    for seat in playing:
        ranks[seat] = 1 + sum(1 for other in playing if engine_ranks[other] < engine_ranks[seat])
    for seat in left:
        ranks[seat] = len(playing) + 1
    if not playing:
        # Nobody played on (a match abandoned by all): nobody won it. Tied at the top of their shared place
        # (competition ranking), the absent seats all ranked 1st: each player was counted a win, and the
        # ratings a draw, for a match nobody played. They take the bottom of it instead, as a tournament
        # table forfeited whole (domain/tournament.py); a seat that resigned is below them.
        for seat in left:
            ranks[seat] = seats if seat in resigned else seats - len(set(resigned))
    return {
        "scores": [0] * seats if result is None else list(result["scores"]),
        "ranks": ranks,
        "winners": [s for s in range(seats) if ranks[s] == 1],
        "detail": None if result is None else result.get("detail"),
        "resigned": sorted(resigned),
        "absent": sorted(set(absent) - set(resigned)),
    }


def _cooldown_key(seat: int, action: Any) -> str:
    kind = action.get("type") if isinstance(action, dict) else None
    return f"{seat}:{kind}"
