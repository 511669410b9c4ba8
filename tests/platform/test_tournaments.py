"""Tournaments: pairing (pure), the aggregate's guards, and the HTTP API's refusals and reads on each
event store with the embedded task queue (docs/tournaments.md)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from uuid import uuid4

import pytest

from api import create_app
from domain import pairing
from domain.tournament import RegistrationError, Tournament, TournamentStateError, match_id_for, standings
from tests.platform.client import ApiClient, entered_tournament, play_randomly

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


# -- pairing --------------------------------------------------------------------------------------
def test_table_sizes_split_evenly_when_the_game_allows_smaller_tables_else_byes():
    assert pairing.table_sizes(16, 4, 3) == ([4, 4, 4, 4], 0)
    assert pairing.table_sizes(9, 4, 3) == ([3, 3, 3], 0)
    assert pairing.table_sizes(10, 4, 3) == ([4, 3, 3], 0)
    assert pairing.table_sizes(9, 6, 3) == ([5, 4], 0)
    assert pairing.table_sizes(5, 4, 4) == ([4], 1)  # a game for exactly four: one sits out
    assert pairing.table_sizes(2, 4, 3) == ([], 2)


def test_swiss_pairs_by_standing_and_avoids_repeat_opponents():
    order = [f"p{i}" for i in range(8)]
    first = pairing.pair(order, {}, {}, 4, 3)
    assert first.tables == [order[:4], order[4:]]
    met = pairing.meetings(first.tables)
    second = pairing.pair(order, met, {}, 4, 3)
    # p0 opens the first table, then the best-placed who have not met p0 or each other.
    assert second.tables[0][0] == "p0"
    repeats = sum(met.get(frozenset((a, b)), 0) for t in second.tables for a in t for b in t if a < b)
    assert repeats == 4  # 8 players in 2 tables of 4 cannot avoid all: 2 per table is the least


def test_byes_go_to_the_lowest_placed_with_the_fewest_byes():
    order = ["a", "b", "c", "d", "e"]
    assert pairing.pair(order, {}, {}, 4, 4).byes == ["e"]
    assert pairing.pair(order, {}, {"e": 1}, 4, 4).byes == ["d"]


# -- the aggregate --------------------------------------------------------------------------------
def new_tournament(rounds=2, deadline=None) -> Tournament:
    return Tournament(game="jest", name="t", organiser="org", table_size=3, min_players=3, format="swiss",
                      rounds=rounds, points=[2, 1, 0], bye_points=1, tie_breaks=["opponents-points", "wins"],
                      match_options={}, rated=True, round_deadline_seconds=deadline)


def test_a_field_smaller_than_the_table_size_starts_at_one_smaller_table():
    """Three Jest players, tables of 4: the start was refused (it asked for a full table), though the
    table sizes seat them at one table of 3, as a round after a withdrawal does. Two are too few."""
    t = new_tournament(rounds=1)
    t.table_size = 4
    for p in "abc":
        t.register(p, p.upper())
    (table,) = t.start("org", T0)
    assert table["players"] == ["a", "b", "c"]
    few = new_tournament(rounds=1)
    for p in "ab":
        few.register(p, p.upper())
    with pytest.raises(RegistrationError) as refused:
        few.start("org", T0)
    assert "at least 3 players" in str(refused.value)


def test_a_table_paired_before_computers_filled_seats_is_answered_with_none():
    """Tables paired before tournaments could fill seats with computers hold no "computers": the answer
    lists it (0), as the OpenAPI document says it always does."""
    from application.views import tournament_view

    t = new_tournament(rounds=1)
    for p in "abc":
        t.register(p, p.upper())
    t.start("org", T0)
    t.rounds[0]["tables"][0].pop("computers")  # as stored before the key existed
    (table,) = tournament_view(t)["rounds"][0]["tables"]
    assert table["computers"] == 0 and table["players"] == ["a", "b", "c"]


def test_a_round_is_paired_once_and_a_result_counted_once():
    t = new_tournament()
    for p in "abcdef":
        t.register(p, p.upper())
    tables = t.start("org", T0)
    assert [tb["match_id"] for tb in tables] == [str(match_id_for(t.id, 1, n)) for n in (1, 2)]
    with pytest.raises(TournamentStateError):
        t.pair_round(1, T0)  # the same round again: refused
    assert t.record_result(tables[0]["match_id"], [1, 2, 3], T0) == []
    assert t.record_result(tables[0]["match_id"], [3, 2, 1], T0) is None  # a duplicate delivery
    second = t.record_result(tables[1]["match_id"], [1, 1, 3], T0)
    assert len(second) == 2 and len(t.rounds) == 2
    rows = {r["player_id"]: r for r in standings(t)}
    assert (rows["a"]["points"], rows["d"]["points"], rows["e"]["points"], rows["f"]["points"]) == (2, 2, 2, 0)


def test_forfeits_wait_for_the_deadline_and_settle_the_table():
    t = new_tournament(rounds=1, deadline=60)
    for p in "abc":
        t.register(p, p.upper())
    (table,) = t.start("org", T0)
    with pytest.raises(TournamentStateError):
        t.forfeit("org", ["c"], T0 + timedelta(seconds=30))
    t.forfeit("org", ["c", "c"], T0 + timedelta(seconds=61))  # named twice: one absent player
    assert table["result"] == {"ranks": [1, 1, 3], "how": "forfeit"} and t.status == "finished"
    forfeited = [e for e in t.collect_events() if type(e).__name__ == "PlayersForfeited"]
    assert [e.player_ids for e in forfeited] == [["c"]]
    assert t.record_result(table["match_id"], [3, 2, 1], T0) is None  # the match finishing later: ignored


@pytest.mark.parametrize("sanction", ["withdraw", "disqualify"])
def test_a_player_gone_from_a_table_does_not_share_its_forfeit_win(sanction):
    """A player who withdrew (or was disqualified) during the table resigned its match; a forfeit of another
    player then counted it present: it shared the table's win (ranks [1, 3, 1]). It ranks last, below the
    absent player, as the match ranks a resigned seat below an absent one."""
    t = new_tournament(rounds=1, deadline=60)
    for p in "abc":
        t.register(p, p.upper())
    (table,) = t.start("org", T0)
    gone, absent, present = table["players"]
    if sanction == "withdraw":
        t.withdraw(gone, gone)
    else:
        t.disqualify("org", gone, "abuse")
    t.forfeit("org", [absent], T0 + timedelta(seconds=61))
    assert table["result"] == {"ranks": [3, 2, 1], "how": "forfeit"}
    rows = {r["player_id"]: r for r in standings(t)}
    assert rows[present]["wins"] == 1 and rows[gone]["wins"] == rows[absent]["wins"] == 0



@pytest.mark.parametrize("sanction", ["withdraw", "disqualify"])
def test_a_player_gone_from_a_table_is_not_forfeited_as_absent(sanction):
    """Named absent, a player who withdrew (or was disqualified) during the table shared the absent's
    place, above the last he takes as one who left: one disqualified scored a point (an organiser's
    walk through the page). Refused: he is not absent."""
    t = new_tournament(rounds=1, deadline=60)
    for p in "abc":
        t.register(p, p.upper())
    (table,) = t.start("org", T0)
    gone, absent, present = table["players"]
    t.withdraw(gone, gone) if sanction == "withdraw" else t.disqualify("org", gone, "abuse")
    with pytest.raises(TournamentStateError, match="left the tournament"):
        t.forfeit("org", [gone, absent], T0 + timedelta(seconds=61))
    assert table["result"] is None


def test_a_forfeit_naming_its_tables_match_is_refused_once_the_players_sit_elsewhere():
    """A forfeit decided about a table of round 1, sent once round 1 was over and round 2's deadline had
    passed, forfeited the players at their round-2 table (the page said "round 1"; an organiser's walk).
    Naming the table's match, it is refused unless that is the players' table of the current round."""
    t = new_tournament(rounds=2, deadline=60)
    for p in "abc":
        t.register(p, p.upper())
    (first,) = t.start("org", T0)
    (second,) = t.record_result(first["match_id"], [1, 2, 3], T0 + timedelta(seconds=10))
    late = T0 + timedelta(seconds=200)
    with pytest.raises(TournamentStateError, match="is round 1's table 1, not a table of round 2"):
        t.forfeit("org", ["c"], late, match_id=first["match_id"])
    assert second["result"] is None
    t.forfeit("org", ["c"], late, match_id=second["match_id"])
    assert second["result"]["how"] == "forfeit"


def test_a_table_forfeited_whole_is_lost_by_all_not_won_by_all():
    t = new_tournament(rounds=1, deadline=60)
    for p in "abcdef":
        t.register(p, p.upper())
    first, second = t.start("org", T0)
    t.record_result(second["match_id"], [1, 2, 3], T0)
    t.forfeit("org", list(first["players"]), T0 + timedelta(seconds=61))
    assert first["result"] == {"ranks": [3, 3, 3], "how": "forfeit"} and t.status == "finished"
    rows = {r["player_id"]: r for r in standings(t)}
    winner = second["players"][0]
    assert [rows[p]["points"] for p in first["players"]] == [0, 0, 0]
    assert [rows[p]["wins"] for p in first["players"]] == [0, 0, 0]
    assert rows[winner]["rank"] == 1 and all(rows[p]["rank"] > 1 for p in first["players"])


def computer_tournament(players, table_size, points, rounds=1) -> Tournament:
    t = Tournament(game="jester", name="c", organiser="org", table_size=table_size, min_players=3, format="swiss",
                   rounds=rounds, points=points, bye_points=0, tie_breaks=[], match_options={}, rated=True,
                   round_deadline_seconds=60, computer="random")
    for p in players:
        t.register(p, p.upper())
    return t


def test_the_computers_at_a_table_forfeited_whole_keep_its_places():
    """Alone with a computer, or two with two, the forfeited players take the table's last place: no win,
    no more points than a player who finished last at a full table."""
    t = computer_tournament("abcde", 4, [3, 2, 1, 0])  # 5 at tables of 4: 3 and a computer, 2 and two
    full, short = t.start("org", T0)
    assert (len(full["players"]), full["computers"], len(short["players"]), short["computers"]) == (3, 1, 2, 2)
    t.record_result(full["match_id"], [1, 2, 3, 4], T0)
    t.forfeit("org", list(short["players"]), T0 + timedelta(seconds=61))
    assert short["result"] == {"ranks": [4, 4], "how": "forfeit"}
    rows = {r["player_id"]: r for r in standings(t)}
    assert [rows[p]["points"] for p in short["players"]] == [0, 0]
    assert [rows[p]["wins"] for p in short["players"]] == [0, 0]


def test_a_player_forfeited_beside_computers_takes_the_tables_last_place_behind_them():
    """The computers count among a table's places: one absent player of two beside two computers was
    ranked 2nd (2 points of [3, 2, 1, 0]), of three beside one computer 3rd, where at a full table of
    four humans the absent player is 4th. They share the last place: 4th."""
    t = computer_tournament("abcde", 4, [3, 2, 1, 0])
    full, short = t.start("org", T0)
    t.forfeit("org", [full["players"][0]], T0 + timedelta(seconds=61))
    assert full["result"] == {"ranks": [4, 1, 1], "how": "forfeit"}
    t.forfeit("org", [short["players"][1]], T0 + timedelta(seconds=61))
    assert short["result"] == {"ranks": [1, 4], "how": "forfeit"}
    rows = {r["player_id"]: r for r in standings(t)}
    assert rows[full["players"][0]]["points"] == rows[short["players"][1]]["points"] == 0


def test_a_tournament_with_computers_plays_all_its_rounds_with_fewer_players_than_the_game_needs():
    """With computers filling the seats a table needs one entrant (docs/tournaments.md): two players of a
    game for three or more play every planned round, not one."""
    t = computer_tournament("ab", 3, [2, 1, 0], rounds=3)
    tables = t.start("org", T0)
    for round_no in (1, 2, 3):
        assert len(t.rounds) == round_no and t.status == "active"
        (table,) = tables
        tables = t.record_result(table["match_id"], [1, 2, 3], T0)
    assert t.status == "finished" and len(t.rounds) == 3


def round_robin_of_two(players, rounds: int, computer=None) -> tuple[Tournament, list]:
    """A started round-robin at tables of two of ``players`` over ``rounds``: (it, round 1's tables)."""
    t = Tournament(game="g", name="rr", organiser="org", table_size=2, min_players=2, format="round-robin",
                   rounds=rounds, points=[1, 0], bye_points=0, tie_breaks=[], match_options={}, rated=True,
                   round_deadline_seconds=None, computer=computer)
    for p in players:
        t.register(p, p)
    return t, t.start("org", T0)


def test_a_round_robin_of_four_at_tables_of_two_meets_every_pair_once():
    t, tables = round_robin_of_two("abcd", 3)
    for _ in range(3):
        for table in tables:
            nxt = t.record_result(table["match_id"], [1, 2], T0)
        tables = nxt
    assert t.status == "finished"
    met = pairing.meetings([tb["players"] for r in t.rounds for tb in r["tables"]])
    assert len(met) == 6 and set(met.values()) == {1}


@pytest.mark.parametrize("field", [5, 6, 8, 11, 12])
def test_a_round_robin_at_tables_of_two_meets_every_pair_exactly_once(field):
    """6 players over 5 rounds met AB and CD twice, AC and BD never (a greedy over a rotated order): the
    circle method meets every pair once, in n - 1 rounds, or n for an odd field with one bye each."""
    players = [f"p{i:02d}" for i in range(field)]
    rounds = field - 1 if field % 2 == 0 else field
    t, tables = round_robin_of_two(players, rounds)
    while t.status == "active":
        for table in tables:
            following = t.record_result(table["match_id"], [1, 2], T0)
        tables = following
    met = pairing.meetings([tb["players"] for r in t.rounds for tb in r["tables"]])
    assert len(t.rounds) == rounds and len(met) == field * (field - 1) // 2 and set(met.values()) == {1}
    byes = [p for r in t.rounds for p in r["byes"]]
    assert sorted(byes) == (players if field % 2 else [])


def _seats_over_a_round_robin(field: int, t: Tournament | None = None) -> dict[str, list[int]]:
    """Each player's seat (0 first, 1 second) in each game of a whole round-robin at tables of two."""
    players = [f"p{i:02d}" for i in range(field)]
    if t is None:
        t, tables = round_robin_of_two(players, field - 1 if field % 2 == 0 else field)
    else:
        tables = t.rounds[-1]["tables"]
    while t.status == "active":
        for table in tables:
            following = t.record_result(table["match_id"], [1, 2], T0)
        tables = following
    seats: dict[str, list[int]] = {p: [] for p in players}
    for r in t.rounds:
        for tb in r["tables"]:
            for seat, p in enumerate(tb["players"]):
                seats[p].append(seat)
    return seats


@pytest.mark.parametrize("field", range(3, 13))
def test_a_round_robin_at_tables_of_two_alternates_seats_and_balances_first_seats(field):
    """docs/tournaments.md: seats alternate. 5 players were first 3, 2, 2, 2 and 1 times in their 4
    games, one in the same seat three games running (the empty place of an odd field turned with the
    circle). An odd field now alternates every player's seat from game to game, first in half its games;
    an even field has at most one repeat a player (n - 2 players must have one in any schedule)."""
    seats = _seats_over_a_round_robin(field)
    games = field - 1
    for player, row in seats.items():
        assert len(row) == games
        assert row.count(0) in {games // 2, -(-games // 2)}, (player, row)
        repeats = sum(a == b for a, b in zip(row, row[1:]))
        assert repeats <= (0 if field % 2 else 1), (player, row)


def test_a_round_robin_refuses_the_registration_past_its_largest_field():
    """A 13th registration was taken and only the start refused: the player who registered last, and
    every other, learnt it only when the organiser could not start."""
    t = Tournament(game="g", name="rr", organiser="org", table_size=2, min_players=2, format="round-robin",
                   rounds=11, points=[1, 0], bye_points=0, tie_breaks=[], match_options={}, rated=True,
                   round_deadline_seconds=None)
    for i in range(12):
        t.register(f"p{i:02d}", f"p{i:02d}")
    with pytest.raises(RegistrationError, match="at most 12"):
        t.register("late", "late")
    t.withdraw("p00", "p00")
    t.register("late", "late")  # a place freed
    assert len(t.entrants()) == 12


@pytest.mark.parametrize("field", [3, 4, 5, 6])
def test_a_double_round_robin_seats_each_pair_both_ways(field):
    """Rounds past a cycle repeat it: a 3-player round-robin of 6 rounds seated each pair alike twice, so
    whoever sat first sat first again (an organiser's probe). The second cycle swaps each table's seats
    (docs/tournaments.md, "Round-robin"), as a double round-robin in chess reverses colours."""
    players = [f"p{i:02d}" for i in range(field)]
    cycle = field - 1 if field % 2 == 0 else field
    t, tables = round_robin_of_two(players, 2 * cycle)
    while t.status == "active":
        for table in tables:
            following = t.record_result(table["match_id"], [1, 2], T0)
        tables = following
    first, second = t.rounds[:cycle], t.rounds[cycle:]
    seated = lambda rounds: sorted(tuple(tb["players"]) for r in rounds for tb in r["tables"])  # noqa: E731
    assert len(seated(first)) == field * (field - 1) // 2  # every pair once a cycle
    assert seated(second) == sorted((b, a) for a, b in seated(first))
    assert [r["byes"] for r in second] == [r["byes"] for r in first]


def test_a_round_robin_started_before_the_seating_change_keeps_its_schedule():
    """A tournament whose Started event predates ``circle`` replays, and pairs its rounds, with the first
    entrant staying on the circle, as it was paired when it started."""
    players = [f"p{i:02d}" for i in range(5)]
    t = Tournament(game="g", name="rr", organiser="org", table_size=2, min_players=2, format="round-robin",
                   rounds=5, points=[1, 0], bye_points=0, tie_breaks=[], match_options={}, rated=True,
                   round_deadline_seconds=None)
    for p in players:
        t.register(p, p)
    t._started()  # as the code before ``circle`` started it
    events = t.collect_events()
    del events[-1].__dict__["circle"]  # and as its Started event is stored
    old = None
    for e in events:
        old = e.mutate(old)
    assert old.circle == 1
    tables = old.pair_round(1, T0)
    assert [tb["players"] for tb in tables] == pairing.circle(players, 0)[0]
    seats = _seats_over_a_round_robin(5, old)
    assert sorted(row.count(0) for row in seats.values()) == [1, 2, 2, 2, 3]


def _fresh_pairs_exist(players: list, met: dict) -> bool:
    """Whether ``players`` (an even number) split into pairs none of which met before (brute force)."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(not met.get(frozenset((first, other))) and _fresh_pairs_exist([p for p in rest if p != other], met)
               for other in rest)


def rounds_after_a_withdrawal(players, rounds: int, leaver: str, withdraw_in: int, computer=None):
    """A round-robin at tables of two played out, ``leaver`` withdrawing after round ``withdraw_in`` was
    paired: (the tournament, who had met before each round from 2, that round), round by round."""
    t, tables = round_robin_of_two(players, rounds, computer)
    while t.status == "active":
        if len(t.rounds) == withdraw_in:
            t.withdraw(leaver, leaver)
        for table in tables:
            following = t.record_result(table["match_id"], [1, 2], T0)  # a computer fills a table alone
        tables = following
        if t.status != "active":
            return
        yield t, pairing.meetings([tb["players"] for r in t.rounds[:-1] for tb in r["tables"]]), t.rounds[-1]


@pytest.mark.parametrize("leaver", list("abcde"))
def test_a_round_robin_at_tables_of_two_pairs_no_avoidable_rematch_after_a_withdrawal(leaver):
    """docs/tournaments.md: a withdrawal reshapes the circle, and pairing looks for tables where nobody
    meets an earlier opponent again. With a..e and c withdrawing in round 1, round 2 paired b v e again
    though a v e and b v d were both new (the circle was not checked for rematches)."""
    for withdraw_in in (1, 2, 3):
        for _, earlier, latest in rounds_after_a_withdrawal("abcde", 5, leaver, withdraw_in):
            seated = [p for tb in latest["tables"] for p in tb["players"]]
            rematch = any(earlier.get(frozenset(tb["players"])) for tb in latest["tables"])
            assert not (rematch and _fresh_pairs_exist(seated, earlier)), (withdraw_in, latest["tables"])


@pytest.mark.parametrize("field", [5, 6, 7, 8])
def test_a_round_robin_after_a_withdrawal_moves_the_bye_to_avoid_a_rematch(field):
    """With an odd field left after a withdrawal, the player alone may be another of those with the
    fewest byes where that avoids a rematch: keeping the circle's lone player, 170 of 839 rounds with a
    rematch (4-12 players, every leaver, every round) had a rematch-free pairing with another bye."""
    players = [f"p{i:02d}" for i in range(field)]
    rounds = field - 1 if field % 2 == 0 else field
    for leaver in players:
        for withdraw_in in range(1, rounds):
            for t, earlier, latest in rounds_after_a_withdrawal(players, rounds, leaver, withdraw_in):
                if not any(earlier.get(frozenset(tb["players"])) for tb in latest["tables"]):
                    continue
                byes: dict[str, int] = {}
                for r in t.rounds[:-1]:
                    for p in r["byes"]:
                        byes[p] = byes.get(p, 0) + 1
                entrants = t.entrants()
                fewest = min(byes.get(p, 0) for p in entrants)
                lone = [[]] if len(entrants) % 2 == 0 else [[p] for p in entrants if byes.get(p, 0) == fewest]
                assert not any(_fresh_pairs_exist([p for p in entrants if p not in c], earlier) for c in lone), (
                    leaver, withdraw_in, latest)
                assert all(byes.get(p, 0) == fewest for p in latest["byes"]), latest


def _byes_before_latest(t) -> dict:
    byes: dict[str, int] = {}
    for r in t.rounds[:-1]:
        for p in r["byes"]:
            byes[p] = byes.get(p, 0) + 1
    return byes


def _fewest_meetings(players: list, met: dict) -> int:
    """The fewest earlier meetings any pairing of ``players`` (an even number) has (brute force)."""
    if not players:
        return 0
    first, rest = players[0], players[1:]
    return min(met.get(frozenset((first, other)), 0) + _fewest_meetings([p for p in rest if p != other], met)
               for other in rest)


def _alone_before_latest(t) -> dict:
    """Each player's byes before the latest round, and with ``computer`` its tables alone with one."""
    alone = _byes_before_latest(t)
    for r in t.rounds[:-1]:
        for table in r["tables"]:
            if len(table["players"]) == 1:
                alone[table["players"][0]] = alone.get(table["players"][0], 0) + 1
    return alone


@pytest.mark.parametrize("computer", [None, "basic"])
def test_a_round_robin_after_a_withdrawal_gives_each_bye_to_one_with_the_fewest(computer):
    """docs/tournaments.md, "Byes": the lowest-placed among those with the fewest byes so far. Six
    players, the fourth withdrawing in round 2: round 5 repeated round 4's tables and gave its lone player
    a second bye while three had none (the circle's tables and lone player stood where no rematch-free
    round existed); then, taking the circle's or the greedy's tables, 5 players met twice again where
    once would do; and with ``computer`` one played the computer twice while two never did. Every field
    of 5-9, every leaver, every round: the player alone (a bye, or a computer's table) one with the
    fewest, and the fewest earlier meetings any such round has."""
    for field in range(5, 10):
        players = [f"p{i:02d}" for i in range(field)]
        rounds = field - 1 if field % 2 == 0 else field
        for leaver in players:
            for withdraw_in in range(1, rounds):
                for t, earlier, latest in rounds_after_a_withdrawal(players, rounds, leaver, withdraw_in, computer):
                    had = _alone_before_latest(t)
                    entrants = t.entrants()
                    fewest = min(had.get(p, 0) for p in entrants)
                    alone = [tb["players"][0] for tb in latest["tables"] if len(tb["players"]) == 1]
                    assert all(had.get(p, 0) == fewest for p in latest["byes"] + alone), (
                        field, leaver, withdraw_in, latest)
                    lone = [[]] if len(entrants) % 2 == 0 else [[p] for p in entrants if had.get(p, 0) == fewest]
                    least = min(_fewest_meetings([p for p in entrants if p not in c], earlier) for c in lone)
                    assert sum(earlier.get(frozenset(tb["players"]), 0) for tb in latest["tables"]) == least, (
                        field, leaver, withdraw_in, latest)


def _completable(players: list, met: dict, byes: dict, rounds: int) -> bool:
    """Whether ``rounds`` rounds of tables of two exist for ``players`` with no pair meeting twice (nor
    one that met before), each player alone (an odd field) one with the fewest byes then (brute force)."""
    if rounds == 0:
        return True
    fewest = min(byes.get(p, 0) for p in players)
    for lone in [p for p in players if byes.get(p, 0) == fewest] if len(players) % 2 else [None]:
        seated = [p for p in players if p != lone]

        def matchings(left):
            if not left:
                yield []
                return
            for other in left[1:]:
                if not met.get(frozenset((left[0], other))):
                    for rest in matchings([p for p in left[1:] if p != other]):
                        yield [(left[0], other), *rest]

        for pairs in matchings(seated):
            after = {**met, **{frozenset(pair): 1 for pair in pairs}}
            if _completable(players, after, {**byes, lone: byes.get(lone, 0) + 1} if lone else byes, rounds - 1):
                return True
    return False


def test_a_reshaped_round_robin_meets_every_unmet_pair_once_where_the_rounds_left_allow_it():
    """An organiser's probe: 6 players over 5 rounds, d withdrawn in round 2; rounds 3-5 met b and e
    twice and c and f never, each round chosen alone, though three rounds meeting every unmet pair once
    (a bye each to three players without one) existed. Every field of 5-8, every leaver, every round of
    withdrawal: where such rounds exist when the circle is reshaped, the rounds after meet nobody twice."""
    for field in range(5, 9):
        players = [f"p{i}" for i in range(field)]
        rounds = field - 1 if field % 2 == 0 else field
        for leaver in players:
            for withdraw_in in range(1, rounds - 1):
                played = list(rounds_after_a_withdrawal(players, rounds, leaver, withdraw_in))
                if not played:
                    continue
                t = played[-1][0]
                after = t.rounds[withdraw_in:]
                if not after:
                    continue
                met = pairing.meetings([tb["players"] for r in t.rounds[:withdraw_in] for tb in r["tables"]])
                byes: dict[str, int] = {}
                for r in t.rounds[:withdraw_in]:
                    for p in r["byes"]:
                        byes[p] = byes.get(p, 0) + 1
                entrants = t.entrants()
                if not _completable(entrants, met, byes, len(after)):
                    continue
                meetings = pairing.meetings([tb["players"] for r in t.rounds for tb in r["tables"]])
                twice = [pair for pair, count in meetings.items() if count > 1]
                assert not twice, (field, leaver, withdraw_in, [r["tables"] for r in after])


def test_the_probes_six_players_with_one_leaving_get_one_bye_each():
    """The probe's case: r0..r5, r3 withdrawing in round 2; rounds 3-5 have three byes for five players,
    so no one has two, and round 5 does not repeat round 4."""
    rounds = list(rounds_after_a_withdrawal([f"r{i}" for i in range(6)], 5, "r3", 2))
    t = rounds[-1][0]
    byes = [p for r in t.rounds for p in r["byes"]]
    assert len(byes) == 3 and len(set(byes)) == 3, t.rounds
    assert [tb["players"] for tb in t.rounds[4]["tables"]] != [tb["players"] for tb in t.rounds[3]["tables"]]


def test_swiss_at_tables_of_two_pairs_no_avoidable_rematch():
    """With 6 players over 3 rounds the greedy paired an earlier opponent again in two tournaments of
    three (F v C again where D-A, B-F, E-C had none): random results, 200 tournaments, no rematch."""
    for seed in range(200):
        rng = random.Random(seed)
        players = [f"p{i}" for i in range(6)]
        points = dict.fromkeys(players, 0)
        history: list = []
        for round_no in range(3):
            order = sorted(players, key=lambda p: (-points[p], players.index(p))) if round_no else players
            met = pairing.meetings(history)
            tables = pairing.pair(order, met, {}, 2, 2).tables
            assert not any(met.get(frozenset(t)) for t in tables), (seed, round_no, tables)
            for table in tables:
                points[rng.choice(table)] += 1
            history += tables


# -- the HTTP API ---------------------------------------------------------------------------------
@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def test_refusals_are_problem_answers_and_change_nothing(client, motley):
    _, org = client.register("org")
    _, ann = client.register("ann")
    bad = client.post("/tournaments", {"game": "jest", "name": "x", "rounds": 2, "table_size": 9}, key=org)
    assert bad.status == 422
    empty = client.post("/tournaments", {"game": "jest", "name": "x", "rounds": 2, "points": []}, key=org)
    assert empty.status == 422, empty.text  # no points at all: refused, not quietly the default
    assert client.post("/tournaments", {"game": "nope", "name": "x", "rounds": 2}, key=org).status == 404
    rising = client.post("/tournaments", {"game": "jest", "name": "x", "rounds": 2, "points": [1, 2, 3, 4]}, key=org)
    assert rising.status == 422
    # The option refused is named as a validation problem names a field, so a client marks it: points of
    # the wrong length, or rising, were refused in words alone (the page's points field stayed unmarked).
    assert rising.body["errors"] == {"json": {"points": ["a better place never scores fewer points"]}}, rising.body
    short = client.post("/tournaments", {"game": "jest", "name": "x", "rounds": 2, "points": [3, 1, 0]}, key=org)
    assert short.status == 422 and list(short.body["errors"]["json"]) == ["points"], short.body
    assert list(bad.body["errors"]["json"]) == ["table_size"], bad.body
    assert client.post("/tournaments", {"game": "jest", "name": "x", "rounds": 2}).status == 401
    created = client.post("/tournaments", {"game": "jest", "name": "x", "rounds": 2}, key=org)
    assert created.status == 201
    tid = created.body["id"]
    assert client.post(f"/tournaments/{tid}/players", key=ann).status == 201
    again = client.post(f"/tournaments/{tid}/players", key=ann)
    assert again.status == 409 and again.body["type"] == "urn:motley:problem:conflict"
    assert client.post(f"/tournaments/{tid}/start", key=ann).status == 403
    too_few = client.post(f"/tournaments/{tid}/start", key=org)
    assert too_few.status == 409 and "at least 3 players" in too_few.body["detail"]
    assert client.post(f"/tournaments/{tid}/sanctions", {"kind": "disqualify", "player_id": "x"},
                       key=ann).status == 403
    assert client.get(f"/tournaments/{uuid4()}").status == 404
    assert client.get("/tournaments/not-an-id").status == 404
    assert client.get(f"/tournaments/{uuid4()}/standings").status == 404
    assert client.get("/leaderboards/nope").status == 404
    assert client.call("DELETE", f"/tournaments/{tid}/players/{uuid4()}", key=org).status == 409
    assert len(client.get(f"/tournaments/{tid}").body["players"]) == 1
    for number in ("0", "1", "-1"):  # a negative number said how many there are, as the others do (a probe)
        missing = client.get(f"/tournaments/{tid}/sanctions/{number}")
        assert missing.status == 404 and "has 0 sanctions" in missing.body["detail"], missing.text


def test_a_position_not_yet_projected_is_answered_503_with_retry_after(sqlite_motley, tmp_path, monkeypatch):
    from application import freshness
    from application.ports import NoTaskQueue
    from infrastructure.composition import build
    from infrastructure.settings import Settings

    idle = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "idle.sqlite")), tasks=NoTaskQueue())
    monkeypatch.setattr(freshness, "WAIT_SECONDS", 0.5)  # how long a read waits before its 503
    try:  # no worker runs here: nothing is projected until the test says so
        client = ApiClient(create_app(idle))
        _, org = client.register("org")
        created = client.post("/tournaments", {"game": "jest", "name": "x", "rounds": 1}, key=org)
        tid = created.body["id"]
        position = int(created.headers["Motley-Position"])
        late = client.get(f"/tournaments/{tid}/standings", query={"after": position}, patient=False)
        assert late.status == 503 and late.headers["Retry-After"]
        idle.handlers.project()
        assert client.get("/tournaments", query={"after": position}).body["items"][0]["id"] == tid
    finally:
        idle.close()


@pytest.mark.slow  # one of the longest platform tests: the full tier runs it
def test_a_small_tournament_runs_on_the_embedded_queue(client, motley):
    _, org = client.register("org")
    created = client.post("/tournaments", {"game": "jest", "name": "small", "rounds": 2, "table_size": 3,
                                           "format": "round-robin"}, key=org)
    tid = created.body["id"]
    keys = {}
    for name in ("ann", "bob", "cy", "dan", "eve", "fay"):
        pid, key = client.register(name)
        keys[pid] = key
        client.post(f"/tournaments/{tid}/players", key=key)
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    rng = random.Random(3)
    for round_no in (1, 2):
        view = client.get(f"/tournaments/{tid}").body
        for _ in range(600):
            if len(view["rounds"]) >= round_no:
                break
            motley.tasks.drain()
            view = client.get(f"/tournaments/{tid}").body
        for table in view["rounds"][round_no - 1]["tables"]:
            play_randomly(client, table["match_id"], [keys[p] for p in table["players"]], rng,
                          settle=motley.tasks.drain)
    motley.tasks.drain()
    view = client.get(f"/tournaments/{tid}").body
    assert view["status"] == "finished"
    position = motley.app.log_position()
    rows = client.get(f"/tournaments/{tid}/standings", query={"after": position}).body["items"]
    assert sum(r["played"] for r in rows) == 12
    listed = client.get("/tournaments", query={"status": "finished", "game": "jest", "after": position}).body
    assert [t["id"] for t in listed["items"]] == [tid]
    # A misspelt game is a 422 naming the games, as the match list's (it was an empty 200).
    for game in ("chess", "Jest", ""):
        wrong = client.get("/tournaments", query={"game": game})
        assert wrong.status == 422 and wrong.headers["Content-Type"] == "application/problem+json", wrong.text
    assert "jest" in client.get("/tournaments", query={"game": "chess"}).body["games"]
    board = client.get("/leaderboards/jest", query={"after": position}).body
    assert board["total"] == 6 and all(r["played"] == 2 for r in board["items"])


def test_withdrawals_and_forfeits_after_the_deadline_through_the_api(client, motley):
    import time

    _, org = client.register("org")
    created = client.post("/tournaments", {"game": "jest", "name": "late", "rounds": 2, "table_size": 3,
                                           "round_deadline_seconds": 1}, key=org)
    tid = created.body["id"]
    keys = {}
    for name in ("ann", "bob", "cy", "dan"):
        pid, key = client.register(name)
        keys[pid] = key
        client.post(f"/tournaments/{tid}/players", key=key)
    ann, bob, cy, dan = list(keys)
    # Before the start a player withdraws themself; the organiser may withdraw anyone.
    assert client.call("DELETE", f"/tournaments/{tid}/players/{dan}", key=keys[bob]).status == 403
    assert client.call("DELETE", f"/tournaments/{tid}/players/{dan}", key=keys[dan]).status == 200
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    (table,) = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"]
    early = client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [cy]}, key=org)
    assert early.status == 409 and "runs until" in early.body["detail"]
    time.sleep(1.1)
    assert client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [cy]}, key=keys[ann]).status == 403
    # Naming a table's match that is not the players' table of the current round: a 409, nothing settled.
    elsewhere = client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [cy], "match_id": str(uuid4())},
                            key=org)
    assert elsewhere.status == 409 and "not one of this tournament's tables" in elsewhere.body["detail"], elsewhere.text
    assert client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"][0]["result"] is None
    done = client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [cy], "match_id": table["match_id"]}, key=org)
    assert done.status == 200, done.text
    first = done.body["rounds"][0]["tables"][0]
    assert first["result"]["how"] == "forfeit"
    assert dict(zip(first["players"], first["result"]["ranks"])) == {ann: 1, bob: 1, cy: 3}
    assert len(done.body["rounds"]) == 2  # the forfeit settled round 1: round 2 is paired
    assert client.call("DELETE", f"/tournaments/{tid}/players/{cy}", key=org).status == 200
    position = int(done.headers["Motley-Position"])
    read = client.get(f"/tournaments/{tid}/standings", query={"after": position})
    assert {r["player_id"]: r["points"] for r in read.body["items"]} == {ann: 2, bob: 2, cy: 0}
    # Cheap polling: 304 while neither the standings nor the tournament moved; a sanction moves both.
    tag = read.headers["ETag"]
    assert client.get(f"/tournaments/{tid}/standings", headers={"If-None-Match": tag}).status == 304
    sanctioned = client.post(f"/tournaments/{tid}/sanctions", {"kind": "disqualify", "player_id": bob}, key=org)
    assert sanctioned.status == 201, sanctioned.text
    moved = client.get(f"/tournaments/{tid}/standings", headers={"If-None-Match": tag},
                       query={"after": sanctioned.headers["Motley-Position"]})
    assert moved.status == 200 and moved.headers["ETag"] != tag


def test_a_player_who_leaves_mid_round_resigns_his_table_and_the_round_goes_on(client, motley):
    """Withdrawn (or disqualified) while his table was being played, a player left it waiting for his
    moves: with no round deadline nothing but a void (which scores nothing for his opponent) let the
    round, and the tournament, go on. He now resigns it: ranked last there, the round completes."""
    org, tid, keys = entered_tournament(client, ("ann", "bob", "cy", "dan"), game="fools-crown", name="leavers",
                                        rounds=2, table_size=2)
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    first, second = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"]
    leaver, stayer = first["players"]
    cheat, other = second["players"]
    assert client.call("DELETE", f"/tournaments/{tid}/players/{leaver}", key=keys[leaver]).status == 200
    sanction = client.post(f"/tournaments/{tid}/sanctions", {"kind": "disqualify", "player_id": cheat}, key=org)
    assert sanction.status == 201, sanction.text
    motley.tasks.drain()
    for table, loser, winner in ((first, leaver, stayer), (second, cheat, other)):
        match = client.get(f"/matches/{table['match_id']}").body
        assert match["status"] == "finished", match["status"]
        ranks = dict(zip(table["players"], match["result"]["ranks"]))
        assert ranks[loser] > ranks[winner] and match["result"]["resigned"], match["result"]
    view = client.get(f"/tournaments/{tid}").body
    assert [t["result"] is not None for t in view["rounds"][0]["tables"]] == [True, True]
    (paired,) = view["rounds"][1]["tables"]  # round 2: the two who stayed
    assert sorted(paired["players"]) == sorted([stayer, other])
    position = motley.app.log_position()
    rows = client.get(f"/tournaments/{tid}/standings", query={"after": position}).body["items"]
    points = {r["player_id"]: r["points"] for r in rows}
    assert points[stayer] == points[other] > points[leaver] == 0


@pytest.mark.slow  # one of the longest platform tests: the full tier runs it
def test_computer_opponents_fill_the_tables_where_the_players_do_not_divide(client, motley):
    _, org = client.register("org")
    created = client.post("/tournaments", {"game": "le-bouffon", "name": "bots", "rounds": 1, "table_size": 4,
                                           "match_options": {"deals": 1}, "computer": "random"}, key=org)
    assert created.status == 201, created.text
    assert client.post("/tournaments", {"game": "le-bouffon", "name": "x", "rounds": 1, "computer": "genius"},
                       key=org).status == 422  # no such computer level
    tid = created.body["id"]
    keys = {}
    for name in ("ann", "bob", "cy", "dan", "eve"):
        pid, key = client.register(name)
        keys[pid] = key
        client.post(f"/tournaments/{tid}/players", key=key)
    started = client.post(f"/tournaments/{tid}/start", key=org).body
    tables = started["rounds"][0]["tables"]
    assert [(len(t["players"]), t["computers"]) for t in tables] == [(3, 1), (2, 2)]
    rng = random.Random(5)
    for table in tables:
        match = client.get(f"/matches/{table['match_id']}").body
        assert [s["computer"] for s in match["seats"]][len(table["players"]):] == ["random"] * table["computers"]
        play_randomly(client, table["match_id"], [keys[p] for p in table["players"]], rng, settle=motley.tasks.drain)
    motley.tasks.drain()
    view = client.get(f"/tournaments/{tid}").body
    assert view["status"] == "finished"
    for table in view["rounds"][0]["tables"]:
        ranks = client.get(f"/matches/{table['match_id']}").body["result"]["ranks"]
        assert table["result"]["ranks"] == ranks[:len(table["players"])]  # computers place, score nothing
    rows = client.get(f"/tournaments/{tid}/standings", query={"after": motley.app.log_position()}).body["items"]
    assert {r["player_id"] for r in rows} == set(keys)


def test_a_tournament_with_a_turn_limit_plays_on_when_its_players_vanish(client, motley):
    """Tournament matches had no turn limit (`match_options.turn_limit` was an unknown option), so a
    vanished player held the round up until the organiser forfeited, voided or disqualified by hand.
    With ``turn_limit`` each table's match has it: nobody moves here, the computer plays every absent
    seat, and the tournament finishes by itself."""
    import time

    _, org = client.register("org")
    bad = client.post("/tournaments", {"game": "jest", "name": "t", "rounds": 1, "table_size": 3,
                                       "turn_limit": {"seconds": 0}}, key=org)
    assert bad.status == 422 and "turn_limit" in bad.body["errors"]["json"], bad.text
    created = client.post("/tournaments", {"game": "jest", "name": "t", "rounds": 1, "table_size": 3,
                                           "turn_limit": {"seconds": 0.2, "on_timeout": "computer"}}, key=org)
    assert created.status == 201 and created.body["turn_limit"] == {"seconds": 0.2, "on_timeout": "computer"}
    tid = created.body["id"]
    for name in ("ann", "bob", "cy"):
        client.post(f"/tournaments/{tid}/players", key=client.register(name)[1])
    (table,) = client.post(f"/tournaments/{tid}/start", key=org).body["rounds"][0]["tables"]
    match = client.get(f"/matches/{table['match_id']}").body
    assert match["turn_limit"] == {"seconds": 0.2, "on_timeout": "computer"}
    # The clock runs, or the computer has already played the whole match out (0.2 s turns, a loaded machine).
    assert match["turn_clock"] is not None or match["status"] == "finished", match
    deadline = time.monotonic() + 120
    while client.get(f"/tournaments/{tid}").body["status"] != "finished":
        assert time.monotonic() < deadline, "the round waited for the vanished players"
        time.sleep(0.1)
    match = client.get(f"/matches/{table['match_id']}").body
    assert match["status"] == "finished" and sorted(match["absent"]) == [0, 1, 2]
    assert client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"][0]["result"]["how"] == "played"


def test_a_player_withdrawn_or_disqualified_during_the_round_of_his_bye_scores_nothing_for_it():
    """Four at tables of three: d sits round 1 out. Withdrawn while round 1 was played, he kept its bye,
    a free win's points for a round he left (a probe). A bye of a round already over is his."""
    t = new_tournament(rounds=2)
    for p in "abcd":
        t.register(p, p.upper())
    (table,) = t.start("org", T0)
    assert t.rounds[0]["byes"] == ["d"]
    t.withdraw("d", by="d")
    row = next(r for r in standings(t) if r["player_id"] == "d")
    assert (row["points"], row["byes"]) == (0, 0)
    # Disqualified instead (a review): the same, for his points count in his past opponents' tie-breaks.
    sanctioned = new_tournament(rounds=2)
    for p in "abcd":
        sanctioned.register(p, p.upper())
    sanctioned.start("org", T0)
    sanctioned.disqualify("org", "d", "a test")
    row = next(r for r in standings(sanctioned) if r["player_id"] == "d")
    assert (row["points"], row["byes"], row["status"]) == (0, 0, "disqualified")
    # The same bye, the round over: he withdraws after it, and keeps it.
    kept = new_tournament(rounds=2)
    for p in "abcd":
        kept.register(p, p.upper())
    (table,) = kept.start("org", T0)
    second = kept.record_result(table["match_id"], [1, 2, 3], T0)
    assert second and kept.rounds[0]["byes"] == ["d"] and "d" in second[0]["players"]
    kept.withdraw("d", by="d")
    row = next(r for r in standings(kept) if r["player_id"] == "d")
    assert (row["points"], row["byes"]) == (1, 1)


def test_a_refusal_about_a_player_names_him():
    """The organiser read "player f3364f11-... is not registered" for a player he knows by name, withdrawn
    a moment before in another tab (an organiser's walk): the refusal names him and says why."""
    t = new_tournament(rounds=2)
    for p in "abcd":
        t.register(p, p.upper())
    t.start("org", T0)
    t.withdraw("d", by="org")
    with pytest.raises(RegistrationError, match=r"^D \(d\) is not registered for this tournament \(withdrawn already"):
        t.withdraw("d", by="org")
    t.disqualify("org", "c", "a test")
    with pytest.raises(RegistrationError, match=r"^C \(c\) is not in this tournament \(disqualified already\)$"):
        t.disqualify("org", "c", "again")
    with pytest.raises(RegistrationError, match=r"^player zed is not in this tournament$"):
        t.disqualify("org", "zed", "unknown")


def test_a_tables_match_names_its_tournament_round_and_table_and_its_fork_does_not(client, motley):
    """A bot or a page reading a match learns which tournament table it is (a match's view did not name
    its tournament: only the tournament's rounds said which tables were whose)."""
    org, tid, keys = entered_tournament(client, ("ann", "bob", "cy", "dan"), game="fools-crown", name="named",
                                        rounds=2, table_size=2)
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    tables = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"]
    for table in tables:
        seen = client.get(f"/matches/{table['match_id']}", key=keys[table["players"][0]]).body
        assert seen["tournament"] == {"id": tid, "round": 1, "table": table["table"]}
    for table in tables:  # one of each table leaves: his table is resigned, and round 2 pairs the others
        assert client.call("DELETE", f"/tournaments/{tid}/players/{table['players'][0]}", key=org).status == 200
    motley.tasks.drain()
    (second,) = client.get(f"/tournaments/{tid}").body["rounds"][1]["tables"]
    assert client.get(f"/matches/{second['match_id']}").body["tournament"] == {"id": tid, "round": 2, "table": 1}
    stayer = tables[0]["players"][1]
    fork = client.post(f"/matches/{tables[0]['match_id']}/forks", {"version": 3}, key=keys[stayer])
    assert fork.status == 201, fork.text
    assert fork.body["tournament"] is None  # a fork is nobody's table


def test_a_tournament_is_followed_live_to_its_end_with_its_standings(client, motley):
    """An organiser or a spectator follows a tournament on one stream (its view and standings at each
    version) instead of polling it for every round and result (a tournament bot's probe)."""
    import threading
    import time

    from tests.platform.test_my_stream import sse

    org, tid, keys = entered_tournament(client, ("ann", "bob", "cy"), game="fools-crown", name="live", rounds=2,
                                        table_size=2)
    path = f"/tournaments/{tid}/stream"
    ((opened, kind, frame),) = list(sse(client, None, seconds=0.5, path=path))
    assert kind == "tournament" and frame["tournament"]["status"] == "open" and opened == frame["tournament"]["version"]
    assert sorted(row["player_id"] for row in frame["standings"]) == sorted(keys)
    # Followed from there while the organiser runs it: each change is pushed as it happens.
    frames: list = []
    follower = threading.Thread(target=lambda: frames.extend(sse(client, None, last_event_id=opened, seconds=30,
                                                                 path=path)))
    began = time.monotonic()
    follower.start()
    time.sleep(0.5)
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    time.sleep(0.5)
    (table,) = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"]
    assert client.call("DELETE", f"/tournaments/{tid}/players/{table['players'][0]}", key=org).status == 200
    motley.tasks.drain()
    time.sleep(0.5)
    (second,) = client.get(f"/tournaments/{tid}").body["rounds"][1]["tables"]
    assert client.call("DELETE", f"/tournaments/{tid}/players/{second['players'][0]}", key=org).status == 200
    motley.tasks.drain()
    follower.join(timeout=30)
    assert time.monotonic() - began < 15  # it ends once the tournament is finished, not after 30 s
    versions = [version for version, _, _ in frames]
    assert versions == sorted(set(versions)) and versions[0] > opened
    shown = [(frame["tournament"]["status"], len(frame["tournament"]["rounds"])) for _, _, frame in frames]
    assert ("active", 1) in shown and ("active", 2) in shown and shown[-1] == ("finished", 2), shown
    last = frames[-1][2]
    assert last["tournament"] == client.get(f"/tournaments/{tid}").body
    final = client.get(f"/tournaments/{tid}/standings", query={"after": motley.app.log_position()}).body["items"]
    assert last["standings"] == final
    # Resumed at the last version of a finished tournament: nothing will come, said by a 204, which stops an
    # EventSource reconnecting (a 200 that ended at once had it reconnect for ever: a spectator probe).
    ended = client.get(path, headers={"Last-Event-ID": str(versions[-1])})
    assert ended.status == 204 and ended.text == "" and "Content-Type" not in ended.headers
    # A version this stream never sent, and a tournament that is not, are refused before it starts.
    past = client.get(path, headers={"Last-Event-ID": str(versions[-1] + 1)})
    assert past.status == 422 and past.headers["Content-Type"] == "application/problem+json"
    assert client.get(f"/tournaments/{uuid4()}/stream").status == 404


def test_the_tournament_list_names_those_a_player_entered(client, motley):
    """A bot started again (or a player's page) finds the tournaments it entered: the list had no filter
    by player, and a bot that lost its ids had to read every tournament."""
    org, first, keys = entered_tournament(client, ("ann", "bob", "cy"), game="fools-crown", name="first", rounds=1,
                                          table_size=2)
    ann, bob, cy = keys
    _, second = client.register("org2")
    other = client.post("/tournaments", {"game": "jest", "name": "second", "rounds": 1}, key=second).body["id"]
    assert client.post(f"/tournaments/{other}/players", key=keys[ann]).status == 201
    assert client.post(f"/tournaments/{first}/start", key=org).status == 200
    position = client.call("DELETE", f"/tournaments/{other}/players/{ann}", key=keys[ann]).headers["Motley-Position"]
    listed = client.get("/tournaments", query={"player": ann, "after": position}).body
    # Withdrawn before the start she is no longer in the second: only the first lists her.
    assert [t["id"] for t in listed["items"]] == [first] and listed["total"] == 1
    assert client.post(f"/tournaments/{other}/players", key=keys[ann]).status == 201
    position = client.post(f"/tournaments/{other}/players", key=keys[bob]).headers["Motley-Position"]
    both = client.get("/tournaments", query={"player": ann, "after": position}).body
    assert [t["id"] for t in both["items"]] == [other, first]  # newest first
    def ids(**query):
        return [t["id"] for t in client.get("/tournaments", query={"player": ann, **query}).body["items"]]

    assert ids(status="active") == [first] and ids(game="jest") == [other] and ids(status="finished") == []
    paged = client.get("/tournaments", query={"player": ann, "limit": 1, "offset": 1}).body
    assert [t["id"] for t in paged["items"]] == [first] and paged["total"] == 2
    assert client.get("/tournaments", query={"player": cy}).body["total"] == 1
    # An unknown player, as the match list's filter: none; something that is no player id: a 422, as there.
    assert client.get("/tournaments", query={"player": str(uuid4())}).body == {"items": [], "total": 0, "limit": 20,
                                                                              "offset": 0}
    assert client.get("/tournaments", query={"player": "not-an-id"}).status == 422


def test_an_organiser_who_plays_may_not_judge_a_table_he_sits_at():
    """A cheating probe: an organiser seated at a table he was losing voided it mid-match, and his
    opponents scored nothing. Voiding his own table (played or over), and forfeiting, withdrawing or
    disqualifying a player of a table he is still playing with him, each change his own result: refused
    (403). Other tables, his own withdrawal, and a disqualification once their tables are over stay his."""
    from domain.tournament import NotOrganiser

    t = new_tournament(rounds=1, deadline=60)
    for p in ("org", "b", "c", "d", "e", "f"):
        t.register(p, p.upper())
    tables = t.start("org", T0)
    mine, other = (tables[0], tables[1]) if "org" in tables[0]["players"] else (tables[1], tables[0])
    rival = next(p for p in mine["players"] if p != "org")
    stranger = other["players"][0]
    late = T0 + timedelta(seconds=61)
    for refused, said in ((lambda: t.void_match("org", mine["match_id"], "losing", T0), "may not void it"),
                          (lambda: t.forfeit("org", [rival], late, match_id=mine["match_id"]), "may not forfeit"),
                          (lambda: t.forfeit("org", ["org"], late, match_id=mine["match_id"]), "may not forfeit"),
                          (lambda: t.withdraw(rival, "org"), "may not withdraw him"),
                          (lambda: t.disqualify("org", rival, "rude"), "may not disqualify him")):
        with pytest.raises(NotOrganiser) as no:
            refused()
        assert said in str(no.value) and "your own result" in str(no.value)
    assert t.sanctions == [] and t.players[rival]["status"] == "registered" and mine["result"] is None
    # Another table is his to judge, a player of it his to disqualify (he sits at no table with him).
    assert t.disqualify("org", stranger, "rude") == 1
    number, _ = t.void_match("org", other["match_id"], "a fault", T0)
    assert number == 2
    # Once his table is over (the last round's: the tournament ends), its result stands (no void), and its
    # players may be disqualified.
    assert t.record_result(mine["match_id"], [1, 2, 3], T0) == [] and t.status == "finished"
    with pytest.raises(NotOrganiser):
        t.void_match("org", mine["match_id"], "lost", T0)
    assert t.disqualify("org", rival, "found cheating") == 3
    # An organiser who does not play judges every table.
    judge = new_tournament(rounds=1)
    for p in "abc":
        judge.register(p, p.upper())
    (table,) = judge.start("org", T0)
    assert judge.void_match("org", table["match_id"], "a fault", T0)[0] == 1
