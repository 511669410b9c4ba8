"""A tournament: rounds of matches of one game, an event-sourced aggregate (docs/tournaments.md).

Its creator is its organiser. Players register and withdraw; the organiser starts it; each round is
paired into tables (``RoundPaired`` names each table's match id, derived from the tournament id, the
round and the table, so a pairing can never create a second set of matches); each table's result
is recorded once (``TableResultRecorded``); sanctions (a disqualification, a voided match) and
forfeits are events too, never deletions. Standings are computed from the events by
:func:`standings`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Callable, Collection, Optional, Sequence, cast
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain import pairing

FORMATS = ("swiss", "round-robin")
TIE_BREAKS = ("opponents-points", "wins", "average-place")
#: A round-robin is offered where the field is small enough for every pair to meet in a few rounds.
ROUND_ROBIN_MAX_FIELD = 12

STATUS_OPEN = "open"
STATUS_ACTIVE = "active"
STATUS_FINISHED = "finished"
STATUS_CANCELLED = "cancelled"  # called off by its organiser before it started
#: A tournament in these states never changes but by a sanction (a finished one): its stream ends.
OVER = frozenset({STATUS_FINISHED, STATUS_CANCELLED})

ENTRANT = "registered"
WITHDRAWN = "withdrawn"
DISQUALIFIED = "disqualified"

PLAYED, FORFEIT, VOID = "played", "forfeit", "void"


class TournamentError(Exception):
    """A request the tournament refuses; the subclass says why."""

    def __init__(self, detail: str, rule: Optional[str] = None, option: Optional[str] = None):
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        self.option = option  # the tournament option refused, where one is (a client marks its field)


class InvalidTournament(TournamentError):
    """Options that can never make a tournament (a bad format, points or table size)."""


class NotOrganiser(TournamentError):
    pass


class RegistrationError(TournamentError):
    pass


class TournamentStateError(TournamentError):
    """The tournament is not in a state where the request applies."""


def match_id_for(tournament_id: UUID, round_no: int, table: int) -> UUID:
    """The one match id a table can ever have: pairing the same round again creates nothing new."""
    return uuid5(tournament_id, f"round-{round_no}/table-{table}")


def default_points(table_size: int) -> list[int]:
    return [table_size - place for place in range(1, table_size + 1)]


class Tournament(Aggregate):
    # A class default, so that tournaments (and snapshots) stored before it replay unchanged; unannotated
    # (typed by cast) so that the library's dataclass treatment leaves it a class attribute.
    turn_limit = cast(Optional[dict], None)
    # How a round-robin at tables of two seats an odd field (``pairing.circle``): 1, the first entrant
    # stays on the circle; 2, the empty place stays, so seats alternate; 3, also the seats swapped in
    # every second cycle (rounds past n - 1); 4, also a circle reshaped by a withdrawal planned to the
    # cycle's end (``planned_round_robin``). Recorded when the tournament starts, so a tournament
    # started before keeps its schedule (the default fills its Started event).
    circle = 1

    @event("Created")
    def __init__(
        self,
        game: str,
        name: str,
        organiser: str,
        table_size: int,
        min_players: int,
        format: str,
        rounds: int,
        points: list,
        bye_points: int,
        tie_breaks: list,
        match_options: dict,
        rated: bool,
        round_deadline_seconds: Optional[int],
        computer: Optional[str] = None,
        id: Optional[UUID] = None,
        turn_limit: Optional[dict] = None,
    ):
        # ``id``: the library's own, given for an idempotent creation (application/tournaments.py); the
        # library keeps it out of the stored Created event.
        self.game = game
        self.name = name
        self.organiser = organiser
        self.table_size = table_size
        self.min_players = min_players
        self.format = format
        self.rounds_planned = rounds
        self.points = points
        self.bye_points = bye_points
        self.tie_breaks = tie_breaks
        self.match_options = match_options
        self.rated = rated
        self.round_deadline_seconds = round_deadline_seconds
        # A computer level: where the field does not divide, computer opponents fill the tables
        # (spread evenly) instead of smaller tables or byes. Computers score nothing themselves.
        self.computer = computer
        # Each table's match's time limit per turn ({"seconds", "on_timeout"}, as a match's): a player who
        # vanishes is played by the computer (or claimed against), and the round goes on by itself.
        self.turn_limit = turn_limit
        self.status = STATUS_OPEN
        self.players: dict[str, dict] = {}  # player id -> {"name", "status"}, in registration order
        self.rounds: list[dict] = []
        self.sanctions: list[dict] = []

    @staticmethod
    def check_options(
        table_size: int, min_players: int, max_players: int, format: str, rounds: int, points: list,
        tie_breaks: list,
    ) -> None:
        if not min_players <= table_size <= max_players:
            raise InvalidTournament(f"tables of this game seat {min_players} to {max_players} players",
                                    option="table_size")
        if format not in FORMATS:
            raise InvalidTournament(f"format must be one of {', '.join(FORMATS)}", option="format")
        if not 1 <= rounds <= 20:
            raise InvalidTournament("a tournament has 1 to 20 rounds", option="rounds")
        if len(points) != table_size or any(type(p) is not int or p < 0 for p in points):
            raise InvalidTournament(f"points name one whole number (>= 0) per place 1 to {table_size}", option="points")
        if list(points) != sorted(points, reverse=True):
            raise InvalidTournament("a better place never scores fewer points", option="points")
        unknown = [t for t in tie_breaks if t not in TIE_BREAKS]
        if unknown or len(set(tie_breaks)) != len(tie_breaks):
            raise InvalidTournament(f"tie-breaks are distinct ones of {', '.join(TIE_BREAKS)}", option="tie_breaks")

    # -- who may do what --------------------------------------------------------------------------
    def check_organiser(self, player_id: str) -> None:
        if player_id != self.organiser:
            raise NotOrganiser("only the tournament's organiser may do this")

    def check_not_judging_own_table(self, by: str, player_ids: Sequence[str] = (), match_id: Optional[str] = None,
                                    what: str = "") -> None:
        """An organiser who plays in his own tournament may not judge a table he sits at: void it (finished
        or not), or forfeit, withdraw or disqualify another player of it while it is played (each of those
        resigns or ranks the player below him there). Each changes his own result: an organiser seated at
        a table he was losing voided it mid-match, and its opponents scored nothing (a cheating probe).
        What is objective stays his: pairing, the start, a void of another table, a disqualification for
        good of a player whose tables with him are over (the results stand), his own withdrawal."""
        if by not in self.players:
            return
        tables = [table for round_ in self.rounds for table in round_["tables"] if by in table["players"]]
        if match_id is not None and any(table["match_id"] == match_id for table in tables):
            raise NotOrganiser(f"you play at this table: as its player you may not {what} it (it would change your "
                               "own result); an organiser who does not play judges a tournament's tables")
        shared = {p for table in tables if table["result"] is None for p in table["players"]} - {by}
        if shared & set(player_ids):
            raise NotOrganiser(f"you play at a table with {', '.join(self.who(p) for p in player_ids if p in shared)} "
                               f"that is still being played: as its player you may not {what} (it would change "
                               "your own result); an organiser who does not play judges a tournament's tables")

    def check_status(self, *allowed: str) -> None:
        if self.status not in allowed:
            raise TournamentStateError(f"the tournament is {self.status}")

    def entrants(self) -> list[str]:
        """Players still in the tournament, in registration order."""
        return [p for p, info in self.players.items() if info["status"] == ENTRANT]

    # -- registration -----------------------------------------------------------------------------
    def register(self, player_id: str, name: str) -> None:
        self.check_status(STATUS_OPEN)
        if player_id in self.players and self.players[player_id]["status"] == ENTRANT:
            raise RegistrationError("you are already registered for this tournament")
        if self.format == "round-robin" and len(self.entrants()) >= ROUND_ROBIN_MAX_FIELD:
            # Refused as it comes: a 13th registration was taken, and only the start was refused.
            raise RegistrationError(f"this round-robin is full: it takes at most {ROUND_ROBIN_MAX_FIELD} players")
        self._registered(player_id=player_id, name=name)

    @event("PlayerRegistered")
    def _registered(self, player_id: str, name: str) -> None:
        self.players.pop(player_id, None)  # one registered again after withdrawing moves to the end
        self.players[player_id] = {"name": name, "status": ENTRANT}

    def who(self, player_id: str) -> str:
        """A player as a refusal names him: by name where the tournament knows him (an organiser read
        "player f3364f11-... is not registered"), else by id."""
        entry = self.players.get(player_id)
        return f"{entry['name']} ({player_id})" if entry else f"player {player_id}"

    def now_is(self, player_id: str) -> str:
        status = self.players.get(player_id, {}).get("status")
        return f" ({status} already)" if status in (WITHDRAWN, DISQUALIFIED) else ""

    def withdraw(self, player_id: str, by: str) -> None:
        if by != player_id:
            self.check_organiser(by)
        self.check_status(STATUS_OPEN, STATUS_ACTIVE)
        if by != player_id:
            self.check_not_judging_own_table(by, [player_id], what="withdraw him")
        if self.players.get(player_id, {}).get("status") != ENTRANT:
            raise RegistrationError(f"{self.who(player_id)} is not registered for this tournament"
                                    + self.now_is(player_id))
        self._withdrawn(player_id=player_id, by=by)

    @event("PlayerWithdrawn")
    def _withdrawn(self, player_id: str, by: str) -> None:
        if self.status == STATUS_OPEN:
            del self.players[player_id]  # before the start a withdrawal leaves no trace in standings
        else:
            self.players[player_id]["status"] = WITHDRAWN
            self._forfeit_bye_of_round_in_play(player_id)

    def _forfeit_bye_of_round_in_play(self, player_id: str) -> None:
        """Withdrawn (or disqualified) while the round he sits out is played: he does not sit it out, he
        left. Its bye scored him a free win's points for a round he withdrew from (a probe). A bye of a
        round over (every table's result in) is earned, and kept."""
        last = self.rounds[-1] if self.rounds else None
        if last is not None and player_id in last["byes"] and not self.round_complete(last):
            self.players[player_id]["bye_forfeited"] = last["round"]

    def call_off(self, by: str) -> None:
        """Called off by its organiser before it starts (made by mistake, or the club night did not happen):
        it stayed listed as open for good, taking registrations (an organiser's probe). Once started, its
        rounds are its players': an organiser ends it early by withdrawing or disqualifying them."""
        self.check_organiser(by)
        self.check_status(STATUS_OPEN)
        self._called_off()

    @event("Cancelled")
    def _called_off(self) -> None:
        self.status = STATUS_CANCELLED

    # -- rounds -----------------------------------------------------------------------------------
    def start(self, by: str, now: datetime) -> list[dict]:
        """Start and pair round 1; returns its tables, for the application to create the matches."""
        self.check_organiser(by)
        self.check_status(STATUS_OPEN)
        entrants = self.entrants()
        # As many as the game's smallest table (the table sizes then seat them all at smaller tables,
        # as a round after withdrawals does): a start asked for a full table of ``table_size``.
        if len(entrants) < (1 if self.computer else self.min_players):
            raise RegistrationError(
                f"a tournament of this game needs at least {self.min_players} players; {len(entrants)} registered"
            )
        if self.format == "round-robin" and len(entrants) > ROUND_ROBIN_MAX_FIELD:
            raise RegistrationError(
                f"a round-robin takes at most {ROUND_ROBIN_MAX_FIELD} players; use swiss for {len(entrants)}"
            )
        self._started(circle=4)
        return self.pair_round(1, now)

    @event("Started")
    def _started(self, circle: int = 1) -> None:
        self.status = STATUS_ACTIVE
        self.circle = circle

    def pair_round(self, round_no: int, now: datetime) -> list[dict]:
        self.check_status(STATUS_ACTIVE)
        if round_no != len(self.rounds) + 1:
            # The guard that makes pairing idempotent: a round is paired once, whoever asks again.
            raise TournamentStateError(f"round {round_no} cannot be paired: {len(self.rounds)} rounds are")
        if self.rounds and not self.round_complete(self.rounds[-1]):
            raise TournamentStateError(f"round {len(self.rounds)} is still being played")
        order = self.pairing_order()
        met = pairing.meetings([t["players"] for r in self.rounds for t in r["tables"]])
        byes_had: dict[str, int] = {}
        for r in self.rounds:
            for p in r["byes"]:
                byes_had[p] = byes_had.get(p, 0) + 1
        if self.format == "round-robin" and self.table_size == 2:
            # Tables of two: the circle method, every pair once (docs/tournaments.md, "Round-robin").
            pairs, alone = pairing.circle(self.entrants(), len(self.rounds), empty_place_stays=self.circle >= 2,
                                          second_cycle_swaps=self.circle >= 3)
            if self.computer:
                # The player alone plays a computer instead of a bye: those games are spread as byes are
                # (a player otherwise met the computer twice while two others never did).
                for r in self.rounds:
                    for table in r["tables"]:
                        if len(table["players"]) == 1:
                            byes_had[table["players"][0]] = byes_had.get(table["players"][0], 0) + 1
            fewest = min((byes_had.get(p, 0) for p in self.entrants()), default=0)
            if self.circle >= 4 and self.reshaped():
                pairs, alone = self.planned_round_robin(pairs, alone, met, byes_had)
            elif any(met.get(frozenset(pair), 0) for pair in pairs) or any(byes_had.get(p, 0) > fewest for p in alone):
                # A withdrawal reshaped the circle, which then may pair earlier opponents again, or leave
                # alone a player who had a bye already: tables where nobody meets again, if there are any
                # (as for every other pairing), the player alone one of those with the fewest byes (the
                # circle's own first). Keeping the circle's lone player, 170 of 839 such rounds (4-12
                # players) met again where another had no rematch, and 6 players losing one gave a
                # second bye in round 5 while three players had none.
                pairs, alone = self.fresh_round_robin(pairs, alone, met, byes_had)
            # The player drawn against the empty place plays a computer, or has a bye.
            result = (pairing.Pairing(pairs + [[p] for p in alone], []) if self.computer
                      else pairing.Pairing(pairs, alone))
        else:
            # With computers filling seats, a table needs only one entrant.
            result = pairing.pair(order, met, byes_had, self.table_size, 1 if self.computer else self.min_players)
        tables = [
            {"table": i + 1, "match_id": str(match_id_for(self.id, round_no, i + 1)), "players": players,
             "computers": self.table_size - len(players) if self.computer else 0, "result": None}
            for i, players in enumerate(result.tables)
        ]
        deadline = None if self.round_deadline_seconds is None else now + timedelta(seconds=self.round_deadline_seconds)
        self._round_paired(round=round_no, tables=tables, byes=result.byes, deadline=deadline)
        return tables

    def reshaped(self) -> bool:
        """Whether the field is no longer the one round 1 paired (a player withdrew or was disqualified):
        the circle, drawn over the players left, is then another circle."""
        first = self.rounds[0] if self.rounds else {"tables": [], "byes": []}
        started = {p for t in first["tables"] for p in t["players"]} | set(first["byes"])
        return bool(self.rounds) and set(self.entrants()) != started

    def planned_round_robin(
        self, pairs: list[list[str]], alone: list[str], met: dict, byes_had: dict[str, int]
    ) -> tuple[list[list[str]], list[str]]:
        """A round of a circle a withdrawal reshaped, chosen so that the rounds left of the cycle can all
        be played without a rematch, each player alone one of those with the fewest byes, where such
        rounds exist (``pairing.rematch_free_rounds``): the circle's own tables if they begin such rounds,
        else the first found. Round by round, each round's choice was free of rematches and the later
        ones not: 6 players, one withdrawn in round 2, met b and e twice and c and f never, though three
        rounds meeting every unmet pair once existed (an organiser's probe). Else as before
        (``fresh_round_robin``)."""
        everyone = [p for pair in pairs for p in pair] + alone
        per_round = len(everyone) // 2
        unmet = sum(1 for i, a in enumerate(everyone) for b in everyone[i + 1:] if not met.get(frozenset((a, b)), 0))
        target = min(self.rounds_planned - len(self.rounds), unmet // per_round) if per_round else 0
        fewest = min((byes_had.get(p, 0) for p in everyone), default=0)
        circles_own = not any(met.get(frozenset(pair), 0) for pair in pairs) and \
            all(byes_had.get(p, 0) == fewest for p in alone)
        if target >= 1:
            if circles_own:
                after = dict(met)
                for pair in pairs:
                    after[frozenset(pair)] = 1
                byes_after = {**byes_had, **{p: byes_had.get(p, 0) + 1 for p in alone}}
                if target == 1 or pairing.rematch_free_rounds(everyone, after, byes_after, target - 1, alone):
                    return pairs, alone
            plan = pairing.rematch_free_rounds(everyone, met, byes_had, target, alone)
            if plan:
                return plan[0]
        return (pairs, alone) if circles_own else self.fresh_round_robin(pairs, alone, met, byes_had)

    def fresh_round_robin(
        self, pairs: list[list[str]], alone: list[str], met: dict, byes_had: dict[str, int]
    ) -> tuple[list[list[str]], list[str]]:
        """Tables of two for the players of ``pairs`` and ``alone`` (the circle's), the player alone (if
        any) one of those with the fewest byes (docs/tournaments.md, "Byes"): tables where nobody meets an
        earlier opponent if there are any, else those meeting earlier opponents the fewest times (an exact
        search, ``pairing.fewest_meetings_pairs``; the circle's own tables where they are as good)."""
        seated = [p for pair in pairs for p in pair]
        everyone = seated + alone
        fewest = min((byes_had.get(p, 0) for p in everyone), default=0)
        if alone:
            candidates = [[p] for p in alone + seated if byes_had.get(p, 0) == fewest]
        else:
            candidates = [[]]
        for lone in candidates:
            found = pairing.fresh_tables([p for p in everyone if p not in lone], met, [2] * len(pairs))
            if found is not None:
                return found, lone

        # No rematch-free tables: those meeting earlier opponents the fewest times (exact: at most 12
        # players), the player alone still one of those with the fewest byes; the circle's own tables
        # where they are as good, else the first found in the circle's order.
        best: tuple = (None, pairs, alone)
        if candidates[0] == alone:
            best = (sum(met.get(frozenset(pair), 0) for pair in pairs), pairs, alone)
        for lone in candidates:
            fewer = pairing.fewest_meetings_pairs([p for p in everyone if p not in lone], met, below=best[0])
            if fewer is not None:
                best = (fewer[0], fewer[1], lone)
        return best[1], best[2]

    def pairing_order(self) -> list[str]:
        entrants = self.entrants()
        if self.format == "round-robin" or not self.rounds:
            # A fixed seed order, a rotation of the registration order by the round (round-robin),
            # or the registration order itself for the first swiss round.
            shift = len(self.rounds) % max(1, len(entrants))
            return entrants[shift:] + entrants[:shift] if self.format == "round-robin" else entrants
        ranked = [row["player_id"] for row in standings(self)]
        return [p for p in ranked if p in entrants]

    @event("RoundPaired")
    def _round_paired(self, round: int, tables: list, byes: list, deadline: Optional[datetime]) -> None:
        self.rounds.append({"round": round, "tables": tables, "byes": byes, "deadline": deadline})

    @staticmethod
    def round_complete(round_: dict) -> bool:
        return all(t["result"] is not None for t in round_["tables"])

    def unsettled_tables_of(self, player_id: str) -> list[str]:
        """The matches of the tables ``player_id`` sits at that have no result yet (the round in play)."""
        return [table["match_id"] for round_ in self.rounds for table in round_["tables"]
                if table["result"] is None and player_id in table["players"]]

    def table_of_match(self, match_id: str) -> Optional[tuple[dict, dict]]:
        for round_ in self.rounds:
            for table in round_["tables"]:
                if table["match_id"] == match_id:
                    return round_, table
        return None

    def record_result(self, match_id: str, ranks: Sequence[int], now: datetime) -> Optional[list[dict]]:
        """Record a finished match's ranks (one per seat: the table's players in order, then any
        computers, whose ranks only place the players among them) once. Returns
        the next round's tables if this completed a round (empty after the last round), ``None`` if
        nothing was recorded (already recorded, forfeited or voided: a duplicate delivery)."""
        found = self.table_of_match(match_id)
        if found is None:
            raise TournamentStateError(f"match {match_id} is not one of this tournament's")
        round_, table = found
        if table["result"] is not None:
            return None
        seats = len(table["players"]) + table.get("computers", 0)
        if len(ranks) != seats:
            raise TournamentStateError(f"match {match_id} has {len(ranks)} ranks for {seats} seats")
        self._result_recorded(round=round_["round"], table=table["table"], ranks=list(ranks)[:len(table["players"])],
                              how=PLAYED)
        return self._advance(now)

    @event("TableResultRecorded")
    def _result_recorded(self, round: int, table: int, ranks: list, how: str) -> None:
        self.rounds[round - 1]["tables"][table - 1]["result"] = {"ranks": ranks, "how": how}

    def forfeit(self, by: str, player_ids: Sequence[str], now: datetime,
                match_over: Optional[Callable[[str], bool]] = None,
                match_id: Optional[str] = None,
                resigned_in: Optional[Callable[[str], Collection[str]]] = None) -> Optional[list[dict]]:
        """The organiser forfeits absent players of an unfinished table of the current round once its
        deadline has passed: they share the last place, the players present share the first (with
        nobody present, everyone takes the table's last place). ``match_over(match_id)`` says whether
        the table's match has finished (the application reads it; the aggregate holds no matches).
        ``match_id``, when given, names the table meant: a forfeit decided about one round's table, sent
        as that round ended and the next one's deadline passed, forfeited the players at their next
        table (a probe). A player withdrawn or disqualified is not absent: he resigned (below).
        ``resigned_in(match_id)``: the players who resigned the table's match themselves (read after
        ``match_over``, from the match it read)."""
        self.check_organiser(by)
        self.check_status(STATUS_ACTIVE)
        player_ids = list(dict.fromkeys(player_ids))  # a player named twice is one absent player
        round_ = self.rounds[-1]
        if match_id is not None and all(t["match_id"] != match_id for t in round_["tables"]):
            # Said first: a forfeit meant for an earlier round's table, sent again once the next round
            # was paired, was told the new round's deadline, not that its table is no longer in play.
            found = self.table_of_match(match_id)
            where = (f"round {found[0]['round']}'s table {found[1]['table']}" if found
                     else "not one of this tournament's tables")
            raise TournamentStateError(f"match {match_id} is {where}, not a table of round {round_['round']}, "
                                       "the current one: only its tables can be forfeited")
        if round_["deadline"] is None:
            raise TournamentStateError("this tournament's rounds have no deadline: nobody can be forfeited")
        if now < round_["deadline"]:
            raise TournamentStateError(f"round {round_['round']} runs until {round_['deadline'].isoformat()}")
        tables = {t["table"] for t in round_["tables"] for p in player_ids if p in t["players"]}
        if not player_ids or len(tables) != 1:
            raise TournamentStateError("name the absent players of one table of the current round")
        table = next(t for t in round_["tables"] if t["table"] in tables)
        if not set(player_ids) <= set(table["players"]):
            raise TournamentStateError("every forfeited player must sit at that table")
        if match_id is not None and table["match_id"] != match_id:
            raise TournamentStateError(f"match {match_id} is not the table of these players in round "
                                       f"{round_['round']}, the current one")
        # Absence is the organiser's word: not at a table he plays himself. His own forfeit too: it settled
        # the table at once, his tablemates sharing its first place unplayed (a probe); he withdraws
        # instead, and the table plays on.
        self.check_not_judging_own_table(by, match_id=table["match_id"], what="forfeit players of")
        left = [p for p in player_ids if self.players[p]["status"] != ENTRANT]
        if left:  # forfeited, he shared the absent's place, above the last he takes as one who left
            raise TournamentStateError(f"{', '.join(self.players[p]['name'] for p in left)} left the tournament "
                                       "(withdrawn or disqualified): not absent, and ranks last at the table already")
        if table["result"] is not None:
            raise TournamentStateError(f"table {table['table']} already has its result")
        if match_over is not None and match_over(table["match_id"]):
            # Its players were not absent: the match was played to its end, and the round keeper records
            # that result (a worker, moments later). A forfeit now would replace it with a made-up one.
            raise TournamentStateError(f"table {table['table']}'s match is over: its result is being recorded")
        # A player who withdrew or was disqualified during the table resigned its match: gone, it is not
        # present either, and ranks below the absent, as the match ranks a resigned seat below an absent
        # one. Counted as present, it shared the table's win (a withdrawal, then a forfeit of the other).
        # So is one who resigned the match himself, still an entrant: counted as present, he shared the
        # table's first place while the match ranked him last (a probe).
        quit = set(resigned_in(table["match_id"])) if resigned_in is not None else set()
        gone = [p for p in table["players"]
                if p not in player_ids and (self.players[p]["status"] != ENTRANT or p in quit)]
        present = sum(1 for p in table["players"] if p not in player_ids and p not in gone)
        # The computers filling the table count among its places: the absent share the table's last place
        # (k absent at a table of n seats: n - k + 1, as k players tied last rank), behind the computers
        # too (they took 2nd of 4 beside two computers). With nobody present, nobody won: all take the
        # table's very last place (as a double forfeit loses for both), not a shared first.
        seats = len(table["players"]) + table.get("computers", 0)
        below = seats - len(gone) + 1  # the gone, last of all
        last = below - len(player_ids) if present else seats
        ranks = [seats if not present else below if p in gone else last if p in player_ids else 1
                 for p in table["players"]]
        self._players_forfeited(round=round_["round"], table=table["table"], player_ids=list(player_ids))
        self._result_recorded(round=round_["round"], table=table["table"], ranks=ranks, how=FORFEIT)
        return self._advance(now)

    @event("PlayersForfeited")
    def _players_forfeited(self, round: int, table: int, player_ids: list) -> None:
        pass  # the result that follows carries the ranks; this event says who was absent

    def _advance(self, now: datetime) -> list[dict]:
        if not self.round_complete(self.rounds[-1]):
            return []
        # Fewer entrants than a table needs end it: with computers filling seats a table needs only one
        # (as start and pair_round count), else the game's minimum.
        if len(self.rounds) >= self.rounds_planned or len(self.entrants()) < (1 if self.computer else self.min_players):
            self._finished()
            return []
        return self.pair_round(len(self.rounds) + 1, now)

    @event("Finished")
    def _finished(self) -> None:
        self.status = STATUS_FINISHED

    # -- sanctions --------------------------------------------------------------------------------
    def disqualify(self, by: str, player_id: str, reason: str) -> int:
        self.check_organiser(by)
        self.check_status(STATUS_ACTIVE, STATUS_FINISHED)
        if self.players.get(player_id, {}).get("status") not in (ENTRANT, WITHDRAWN):
            raise RegistrationError(f"{self.who(player_id)} is not in this tournament" + self.now_is(player_id))
        if player_id != by:
            self.check_not_judging_own_table(by, [player_id], what="disqualify him")
        number = len(self.sanctions) + 1
        self._disqualified(number=number, player_id=player_id, reason=reason, by=by)
        return number

    @event("PlayerDisqualified")
    def _disqualified(self, number: int, player_id: str, reason: str, by: str) -> None:
        self.players[player_id]["status"] = DISQUALIFIED
        self._forfeit_bye_of_round_in_play(player_id)  # as a withdrawal does: his bye scored his past opponents
        self.sanctions.append({"number": number, "kind": "disqualify", "player_id": player_id, "reason": reason})

    def void_match(self, by: str, match_id: str, reason: str, now: datetime) -> tuple[int, list[dict]]:
        self.check_organiser(by)
        self.check_status(STATUS_ACTIVE, STATUS_FINISHED)
        found = self.table_of_match(match_id)
        if found is None:
            raise TournamentStateError(f"match {match_id} is not one of this tournament's")
        if found[1]["result"] is not None and found[1]["result"]["how"] == VOID:
            raise TournamentStateError(f"match {match_id} is already void")
        self.check_not_judging_own_table(by, match_id=match_id, what="void")
        number = len(self.sanctions) + 1
        self._voided(number=number, match_id=match_id, reason=reason, by=by)
        # A void table counts as settled: a round waiting only for it goes on.
        return number, self._advance(now) if self.status == STATUS_ACTIVE else []

    @event("MatchVoided")
    def _voided(self, number: int, match_id: str, reason: str, by: str) -> None:
        round_, table = self.table_of_match(match_id)  # type: ignore[misc]
        table["result"] = {"ranks": None, "how": VOID}
        self.sanctions.append({"number": number, "kind": "void", "match_id": match_id, "reason": reason})


def standings(tournament: Tournament) -> list[dict]:
    """Points, tie-breaks and rank of every player (docs/tournaments.md, "Standings").

    A table scores ``points[place - 1]`` for each player's place (tied players share the better
    place); a bye scores ``bye_points``; a void table scores nothing and counts for no tie-break.
    Disqualified players are listed last without a rank; their past opponents keep what they scored.
    A tournament called off before its start ranks nobody: nothing was played to rank by.
    """
    rows: dict[str, dict[str, Any]] = {
        p: {"player_id": p, "name": info["name"], "status": info["status"], "points": 0, "played": 0,
            "wins": 0, "byes": 0, "places": [], "opponents": []}
        for p, info in tournament.players.items()
    }
    for round_ in tournament.rounds:
        for p in round_["byes"]:
            if tournament.players[p].get("bye_forfeited") == round_["round"]:
                continue  # withdrawn or disqualified during the round he had a bye in
            rows[p]["points"] += tournament.bye_points
            rows[p]["byes"] += 1
        for table in round_["tables"]:
            result = table["result"]
            if result is None or result["how"] == VOID:
                continue
            for seat, p in enumerate(table["players"]):
                place = result["ranks"][seat]
                rows[p]["points"] += tournament.points[place - 1]
                rows[p]["played"] += 1
                rows[p]["wins"] += 1 if place == 1 else 0
                rows[p]["places"].append(place)
                rows[p]["opponents"].extend(q for q in table["players"] if q != p)
    for row in rows.values():
        row["opponents-points"] = sum(rows[q]["points"] for q in row["opponents"])
        row["average-place"] = round(sum(row["places"]) / len(row["places"]), 4) if row["places"] else None

    def key(row: dict) -> tuple:
        parts: list[Any] = [-row["points"]]
        for tie_break in tournament.tie_breaks:
            value = row[tie_break]
            if tie_break == "average-place":
                parts.append(value if value is not None else float("inf"))  # lower is better
            else:
                parts.append(-value)
        return tuple(parts)

    order = list(tournament.players)  # registration order settles what the tie-breaks do not
    ranked = sorted((r for r in rows.values() if r["status"] != DISQUALIFIED),
                    key=lambda r: (key(r), order.index(r["player_id"])))
    out = []
    previous, rank = None, 0
    called_off = tournament.status == STATUS_CANCELLED
    for i, row in enumerate(ranked):
        if key(row) != previous:
            rank, previous = i + 1, key(row)
        out.append(_public(row, None if called_off else rank, tournament.tie_breaks))
    out.extend(_public(r, None, tournament.tie_breaks) for r in rows.values() if r["status"] == DISQUALIFIED)
    return out


def _public(row: dict, rank: Optional[int], tie_breaks: list) -> dict:
    return {
        "rank": rank,
        "player_id": row["player_id"],
        "name": row["name"],
        "status": row["status"],
        "points": row["points"],
        "played": row["played"],
        "wins": row["wins"],
        "byes": row["byes"],
        "tie_breaks": {t: row[t] for t in tie_breaks},
    }
