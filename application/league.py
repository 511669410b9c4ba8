"""The league read models, projected from the event log with tracking (each event applied once):
ratings and leaderboards per game, player statistics, rating histories, the tournament list,
standings, and the report of what each sanction changed.

Ratings are updated in the log's order, one finished rated match at a time
(``application.ratings``). A voided match changes the past: the projection then replays the game's
finished matches (kept as ``finished`` rows) from the first, without the voided ones, so the live
numbers always equal a rebuild from the events. A sanction is applied in a batch of its own, so its
report compares the read models just before and just after it.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Optional, Sequence, cast
from uuid import UUID

from eventsourcing.domain import AggregateEvent
from eventsourcing.persistence import IntegrityError, PersistenceError, Tracking

from application.ports import Doc, LeagueView
from application.ratings import Rating, rate
from application.service import Motley
from domain.games import available_engines
from domain.tournament import Tournament, standings

log = logging.getLogger(__name__)
BATCH = 500
LEAGUE = "league"
KINDS = ("rating", "stats", "history", "finished", "voided", "tournament", "standing", "report")
#: The row that holds the position of the league's last change (``changed_at``): the tag of the pages it
#: shows. The league's own position moves with every event of the log, a move too, so a leaderboard
#: polled with If-None-Match was a 304 once in 1,500 reads on a busy server (soak run, 2026-12-04).
CHANGED = "changed"


def changed_at(view: LeagueView) -> int:
    """The log position of the last write that changed a row of the league (0 before any)."""
    doc = view.get(CHANGED, "", LEAGUE)
    return int(doc.data["position"]) if doc is not None else 0
SANCTIONS = ("Tournament.PlayerDisqualified", "Tournament.MatchVoided")


def _key(position: int) -> str:
    return f"{position:012d}"


class Changes:
    """The rows a batch writes, over the rows already stored (reads see the batch's own writes)."""

    def __init__(self, view: LeagueView):
        self.view = view
        self.docs: dict[tuple[str, str, str], Doc] = {}
        self.drops: list[tuple[str, str]] = []
        self.stored: dict[tuple[str, str, str], Optional[Doc]] = {}  # rows read ahead (``read_ahead``)
        self.writes = 0  # puts and drops so far: an event that moved it changed the league

    def read_ahead(self, keys: Sequence[tuple[str, str, str]]) -> None:
        """Read the stored rows of ``keys`` in one query, for the ``get``s to come: one query a batch
        rather than one a row (issue 16, P3: in a busy process, each query waits its turn for the GIL)."""
        wanted = [key for key in keys if key not in self.stored]
        if wanted:
            found = self.view.get_many(wanted)
            self.stored.update((key, found.get(key)) for key in wanted)

    def get(self, kind: str, group: str, key: str) -> Optional[Doc]:
        if (kind, group, key) in self.docs:
            return self.docs[(kind, group, key)]
        if (kind, group) in self.drops:
            return None
        if (kind, group, key) in self.stored:
            return self.stored[(kind, group, key)]
        return self.view.get(kind, group, key)

    def put(self, doc: Doc) -> None:
        self.docs[(doc.kind, doc.group, doc.key)] = doc
        self.writes += 1

    def drop(self, kind: str, group: str) -> None:
        self.drops.append((kind, group))
        self.writes += 1
        self.docs = {k: d for k, d in self.docs.items() if (k[0], k[1]) != (kind, group)}


class LeagueProjection:
    def __init__(self, app: Motley, view: LeagueView):
        self.app = app
        self.view = view
        self.name = f"{app.name}.{LEAGUE}"

    def run(self) -> int:
        applied = 0
        while True:
            start = self.view.position(self.name)
            notifications = self.app.recorder.select_notifications(start=start, limit=BATCH, inclusive_of_start=False)
            if not notifications:
                return applied
            cut = next((i for i, n in enumerate(notifications) if n.topic.endswith(SANCTIONS)), None)
            batch = notifications[:1] if cut == 0 else notifications[:cut]
            changes = Changes(self.view)
            touched: dict[str, tuple[int, int]] = {}  # tournament: (version, position) of its last event
            finished = [n for n in batch if n.topic.endswith("Match.Finished")]
            if finished:
                self._read_ahead(changes, finished)
            # The position of the batch's last event that changed a row, not the batch's end: a rebuild
            # reads 500 events a batch where a live run reads a few, and the pages' tags moved with it
            # ("reads the same after motley rebuild league": an operator probe).
            changed = 0
            for n in batch:
                before = changes.writes
                if n.topic.endswith("Match.Finished"):
                    # When it finished: the Finished event's own time (the match's last change may be a
                    # later rematch link, and a rebuild reads the match after all of them).
                    at = cast(AggregateEvent, self.app.mapper.to_domain_event(n)).timestamp
                    self._finished_once(changes, n.id, str(n.originator_id), n.originator_version, at)
                elif ":Tournament." in n.topic:
                    touched[str(n.originator_id)] = (n.originator_version, n.id)
                    if n.topic.endswith(SANCTIONS):
                        self._sanction(changes, n.id, str(n.originator_id), n.originator_version)
                if changes.writes != before:
                    changed = n.id
            for tournament_id, (version, position) in touched.items():
                before = changes.writes
                self._tournament(changes, self._tournament_at(tournament_id, version))
                if changes.writes != before:
                    changed = max(changed, position)
            docs = list(changes.docs.values())
            if docs or changes.drops:  # in the same transaction as the rows it dates
                docs.append(Doc(CHANGED, "", LEAGUE, "", 0.0, {"position": changed}))
            try:
                self.view.write(docs, changes.drops, start, Tracking(self.name, batch[-1].id))
            except IntegrityError:
                return applied  # another consumer moved the position: it carries on
            applied += len(batch)
            if len(batch) == len(notifications) < BATCH:
                return applied  # the log's end was read (a later save sends another run)

    def rebuild(self) -> int:
        """Forget every row and the position, then apply the whole log again."""
        self.view.reset(self.name, (*KINDS, CHANGED))
        return self.run()

    # -- matches and ratings ----------------------------------------------------------------------
    def _read_ahead(self, changes: Changes, finished: Sequence[Any]) -> None:
        """The rows the batch's finished matches will read (whether each is voided, its players'
        statistics and ratings), in one query."""
        keys = []
        for n in finished:
            match_id = str(n.originator_id)
            keys.append(("voided", "", match_id))
            try:
                match = self.app.read_match(match_id, at_least=n.originator_version)
            except PersistenceError:
                raise  # transient: the batch is tried again
            except Exception:  # a match that cannot be rebuilt: _finished_once logs it
                continue
            for seat, player in enumerate(match.players):
                if player is not None and not match.is_bot(seat):
                    keys.extend((kind, match.game, player) for kind in ("stats", "rating"))
        changes.read_ahead(keys)

    def _finished_once(self, changes: Changes, position: int, match_id: str, version: int, at: datetime) -> None:
        try:
            self._finished(changes, position, match_id, version, at)
        except PersistenceError:
            raise  # transient: the batch is tried again
        except Exception:  # one match that cannot be rebuilt must not stop every leaderboard
            log.exception("match %s could not be rated", match_id)

    def _finished(self, changes: Changes, position: int, match_id: str, version: int, at: datetime) -> None:
        # A match is read as it was at its end or later: the log's position says it has been saved.
        match = self.app.read_match(match_id, at_least=version)
        seats = [s for s, p in enumerate(match.players) if p is not None and not match.is_bot(s)]
        if match.result is None or not seats or getattr(match, "imported", False):
            return  # an imported copy: the match it copies counted where it was played
        ranks = match.league_ranks()
        row = {
            "match_id": match_id,
            "players": [{"player_id": match.players[s], "name": match.names[s]} for s in seats],
            # A seat the computer played from its first turn ranks last (``Match.league_ranks``).
            "ranks": [ranks[s] for s in seats],
            # Kept out of what others read of a player's ratings (api/players.py): its id named a match
            # its players kept to themselves.
            "unlisted": getattr(match, "invitation", None) is not None,
            # A match nobody won (abandoned by every player: domain/match.resignation_result) teaches the
            # ratings nothing: as a draw it raised every player's rating.
            # As it was at the end: a void since is the league's own row (``voided``), so a rebuild, which
            # reads the match voided, rates and reports what the live run did.
            "rated": match.rated_at_end and len(seats) >= 2 and bool(match.result.get("winners")),
            # A match no person made a move in (resigned at once; a fork its automatic steps finished, its
            # copied moves its parent's players') counts in nobody's statistics either: a second account's
            # resignation farmed a win a request, and a fork handed anyone the parent's winner's.
            "moved": match.people_moves != 0,
            "at": at.isoformat(),
            "position": position,
        }
        changes.put(Doc("finished", match.game, _key(position), "", float(position), row))
        if changes.get("voided", "", match_id) is None:
            self._score(changes, match.game, row)

    def _score(self, changes: Changes, game: str, row: dict) -> None:
        players, ranks = row["players"], row["ranks"]
        for player, place in zip(players, ranks) if row.get("moved", True) else ():
            pid = player["player_id"]
            stats = dict(getattr(changes.get("stats", game, pid), "data", None) or
                         {"player_id": pid, "game": game, "played": 0, "wins": 0, "place_sum": 0})
            stats.update(name=player["name"], played=stats["played"] + 1, wins=stats["wins"] + (place == 1),
                         place_sum=stats["place_sum"] + place)
            stats["average_place"] = round(stats["place_sum"] / stats["played"], 4)
            changes.put(Doc("stats", game, pid, pid, float(stats["played"]), stats))
        if not row["rated"]:
            return
        current = [changes.get("rating", game, p["player_id"]) for p in players]
        before = [Rating() if doc is None else Rating(doc.data["mu"], doc.data["sigma"]) for doc in current]
        after = rate(before, ranks)
        for player, place, doc, rating in zip(players, ranks, current, after):
            pid = player["player_id"]
            data = dict(doc.data) if doc is not None else {"player_id": pid, "game": game, "played": 0, "wins": 0}
            data.update(name=player["name"], mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal,
                        played=data["played"] + 1, wins=data["wins"] + (place == 1))
            changes.put(Doc("rating", game, pid, pid, rating.ordinal, data))
            changes.put(Doc("history", game, f"{pid}/{_key(row['position'])}", pid, float(row["position"]), {
                "match_id": row["match_id"], "unlisted": row.get("unlisted", False), "position": row["position"],
                "at": row["at"], "place": place,
                "mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal,
            }))

    def _replay_game(self, changes: Changes, game: str) -> None:
        """Ratings, statistics and histories of ``game`` again from its first finished match."""
        for kind in ("rating", "stats", "history"):
            changes.drop(kind, game)
        voided = {d.key for d in self.view.page("voided").rows} | {
            k[2] for k in changes.docs if k[0] == "voided"}
        for doc in self.view.page("finished", group=game).rows:
            if doc.data["match_id"] not in voided:
                self._score(changes, game, doc.data)

    # -- tournaments ------------------------------------------------------------------------------
    def _tournament_at(self, tournament_id: str, version: int) -> Tournament:
        return self.app.repository.get(UUID(tournament_id), version=version)

    def _tournament(self, changes: Changes, tournament: Tournament) -> None:
        tid = str(tournament.id)
        changes.put(Doc("tournament", tournament.game, tid, tournament.status, tournament.created_on.timestamp(), {
            "id": tid, "game": tournament.game, "name": tournament.name, "status": tournament.status,
            "format": tournament.format, "table_size": tournament.table_size,
            "rounds": tournament.rounds_planned, "rounds_paired": len(tournament.rounds),
            "players": len(tournament.players), "organiser": tournament.organiser,
            "created_at": tournament.created_on.isoformat(),
        }))
        changes.drop("standing", tid)
        for i, row in enumerate(standings(tournament)):
            changes.put(Doc("standing", tid, f"{i:04d}", row["player_id"], float(-i), row))

    def _sanction(self, changes: Changes, position: int, tournament_id: str, version: int) -> None:
        before = self._tournament_at(tournament_id, version - 1)
        after = self._tournament_at(tournament_id, version)
        sanction = after.sanctions[-1]
        game = after.game
        # A void replays the game's ratings: players outside the tournament who met its players later
        # can move too, and the report lists everyone whose rating changed (docs/tournaments.md).
        # (A sanction is a batch of its own: the stored rows are the rows before it.)
        rated = [d for d in self.view.page("rating", group=game).rows] if sanction["kind"] == "void" else []
        everyone = list(dict.fromkeys([*after.players, *(d.key for d in rated)]))
        names = {d.key: d.data.get("name") for d in rated}
        ratings_before = {p: self._rating(changes, game, p) for p in everyone}
        if sanction["kind"] == "void":
            changes.put(Doc("voided", "", sanction["match_id"], tournament_id, float(position),
                            {"match_id": sanction["match_id"], "tournament_id": tournament_id}))
            self._replay_game(changes, game)
        ratings_after = {p: self._rating(changes, game, p) for p in everyone}
        rows_before = {r["player_id"]: r for r in standings(before)}
        changed = []
        for row in standings(after):
            pid = row["player_id"]
            old = rows_before.get(pid, {})
            entry = {
                "player_id": pid, "name": row["name"], "in_tournament": True,
                "rank": {"before": old.get("rank"), "after": row["rank"]},
                "points": {"before": old.get("points"), "after": row["points"]},
                "tie_breaks": {"before": old.get("tie_breaks"), "after": row["tie_breaks"]},
                "rating": {"before": ratings_before[pid], "after": ratings_after[pid]},
            }
            if any(entry[k]["before"] != entry[k]["after"] for k in ("rank", "points", "tie_breaks", "rating")):
                changed.append(entry)
        for pid in everyone:  # players outside the tournament: only their ratings can have changed
            if pid not in after.players and ratings_before[pid] != ratings_after[pid]:
                changed.append({"player_id": pid, "name": names.get(pid), "in_tournament": False,
                                "rating": {"before": ratings_before[pid], "after": ratings_after[pid]}})
        report = {**sanction, "tournament_id": tournament_id, "position": position, "changed": changed}
        key = f"{sanction['number']:04d}"
        changes.put(Doc("report", tournament_id, key, sanction["kind"], float(position), report))

    @staticmethod
    def _rating(changes: Changes, game: str, player_id: str) -> Optional[dict[str, Any]]:
        doc = changes.get("rating", game, player_id)
        return None if doc is None else {k: doc.data[k] for k in ("mu", "sigma", "ordinal", "played")}


# -- reads ----------------------------------------------------------------------------------------
def tournament_page(view: LeagueView, game: Optional[str], status: Optional[str], limit: int,
                    offset: int, player: Optional[str] = None) -> tuple[list[dict], int]:
    """Tournaments newest first, of ``game`` and in ``status`` if given; with ``player``, only those
    that list the player (registered, playing, withdrawn or disqualified: as its standings do)."""
    if player is None:
        page = view.page("tournament", group=game, tag=status, by_sort=True, limit=limit, offset=offset)
        return [d.data for d in page.rows], page.total
    # The player's standing rows name its tournaments (their group); each one's row is read by its game
    # (the tournament rows' group), all of them at once: a player is in a few tournaments, not thousands.
    entered = list(dict.fromkeys(d.group for d in view.page("standing", tag=player).rows))
    games = [game] if game is not None else list(available_engines())
    found = view.get_many([("tournament", each, tid) for tid in entered for each in games])
    rows = sorted((d for d in found.values() if status is None or d.tag == status), key=lambda d: d.sort, reverse=True)
    return [d.data for d in rows[offset:offset + limit]], len(rows)


def standings_rows(view: LeagueView, tournament_id: str) -> list[dict]:
    return [d.data for d in view.page("standing", group=tournament_id).rows]


def leaderboard(view: LeagueView, game: str, limit: int, offset: int) -> tuple[list[dict], int]:
    """Players of ``game`` by ``mu - 3 sigma``, best first, with their place on the board: players with
    the same rating share the better place (1, 1, 3), as tied players do in standings."""
    page = view.page("rating", group=game, by_sort=True, limit=limit, offset=offset)
    items, place, previous = [], 0, None
    for i, doc in enumerate(page.rows):
        if previous is None:  # the page's first row: its tie may have begun on an earlier page
            place = 1 + (view.count_above("rating", game, doc.sort) if offset else 0)
        elif doc.sort != previous:
            place = offset + i + 1
        previous = doc.sort
        items.append({"place": place, **_rating_out(doc.data)})
    return items, page.total


def rating_history(view: LeagueView, game: str, player_id: str) -> tuple[Optional[dict], list[dict]]:
    doc = view.get("rating", game, player_id)
    history = [d.data for d in view.page("history", group=game, tag=player_id).rows]
    return (None if doc is None else _rating_out(doc.data)), history


def player_league(view: LeagueView, player_id: str) -> tuple[list[dict], list[dict]]:
    """A player's rating and statistics in every game played."""
    ratings = [_rating_out(d.data) for d in view.page("rating", tag=player_id).rows]
    stats = [{k: d.data[k] for k in ("game", "played", "wins", "average_place")}
             for d in view.page("stats", tag=player_id).rows]
    return ratings, stats


def _rating_out(data: dict) -> dict:
    return {k: data[k] for k in ("player_id", "name", "game", "mu", "sigma", "ordinal", "played", "wins")}
