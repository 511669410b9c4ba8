"""Whole tournaments end to end through the HTTP API on PostgreSQL with a real Celery worker: the
worker records each result and pairs the next round (this process only plays moves); the test
computes the standings and the openskill ratings itself and compares them with what the API serves,
then a sanction changes them as its report says."""

from __future__ import annotations

import random
import time

import pytest
from openskill.models import PlackettLuce

from api import create_app
from tests.platform.client import ApiClient, play_randomly

pytestmark = pytest.mark.slow


@pytest.fixture
def client(worker_motley):
    return ApiClient(create_app(worker_motley))


def wait_for(predicate, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("the worker did not do its work in time")


def play_tournament(client, tournament_id, keys_by_player, rng):
    """Play every table of every round with random legal moves; return the matches in the order
    they finished, as (player ids in seat order, ranks)."""
    finished = []
    round_no = 1
    while True:
        def paired(wanted=round_no):
            t = client.get(f"/tournaments/{tournament_id}").body
            return t if t["status"] == "finished" or len(t["rounds"]) >= wanted else None

        tournament = wait_for(paired)
        if len(tournament["rounds"]) < round_no:
            return finished, tournament
        for table in tournament["rounds"][round_no - 1]["tables"]:
            keys = [keys_by_player[p] for p in table["players"]]
            final = play_randomly(client, table["match_id"], keys, rng, settle=lambda: time.sleep(0.05), timeout=300)
            finished.append((table["players"], final["result"]["ranks"], table["match_id"]))
        round_no += 1
        if round_no > tournament["rounds_planned"]:
            tournament = wait_for(lambda: (lambda t: t if t["status"] == "finished" else None)(
                client.get(f"/tournaments/{tournament_id}").body))
            return finished, tournament


def expected_standings(tournament, finished, voided=(), disqualified=()):
    """Points per player from the rules of docs/tournaments.md, computed here from the results."""
    points = {p["player_id"]: 0 for p in tournament["players"]}
    wins = dict.fromkeys(points, 0)
    opponents = {p: [] for p in points}
    for round_ in tournament["rounds"]:
        for p in round_["byes"]:
            points[p] += tournament["bye_points"]
    for players, ranks, match_id in finished:
        if match_id in voided:
            continue
        for player, rank in zip(players, ranks):
            points[player] += tournament["points"][rank - 1]
            wins[player] += rank == 1
            opponents[player].extend(q for q in players if q != player)
    buchholz = {p: sum(points[q] for q in opponents[p]) for p in points}
    order = [p["player_id"] for p in tournament["players"]]
    ranked = sorted((p for p in points if p not in disqualified),
                    key=lambda p: (-points[p], -buchholz[p], -wins[p], order.index(p)))
    ranks, previous = {}, None
    for i, p in enumerate(ranked):
        key = (points[p], buchholz[p], wins[p])
        if key != previous:
            rank, previous = i + 1, key
        ranks[p] = rank
    for p in disqualified:
        ranks[p] = None
    tie_breaks = {p: {"opponents-points": buchholz[p], "wins": wins[p]} for p in points}
    return points, ranks, tie_breaks


def expected_ratings(finished, voided=()):
    model = PlackettLuce()
    ratings = {}
    for players, ranks, match_id in finished:
        if match_id in voided:
            continue
        teams = [[ratings.get(p) or model.rating()] for p in players]
        for p, team in zip(players, model.rate(teams, ranks=list(ranks))):
            ratings[p] = team[0]
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


def check_served(client, tournament_id, game, points, ranks, tie_breaks, ratings, position):
    standings = client.get(f"/tournaments/{tournament_id}/standings", query={"after": position}).body["items"]
    assert {r["player_id"]: r["tie_breaks"] for r in standings} == tie_breaks
    assert {r["player_id"]: r["points"] for r in standings} == points
    assert {r["player_id"]: r["rank"] for r in standings} == ranks
    board = client.get(f"/leaderboards/{game}", query={"after": position, "limit": 100}).body["items"]
    # Other tests of the session rate their own players of the game too: compare this field's.
    served = {r["player_id"]: (r["mu"], r["sigma"]) for r in board if r["player_id"] in points}
    assert served.keys() == ratings.keys()
    for player, (mu, sigma) in ratings.items():
        assert served[player] == pytest.approx((mu, sigma), abs=1e-9)
    ordinals = [r["ordinal"] for r in board]
    assert ordinals == sorted(ordinals, reverse=True)  # mu - 3 sigma, best first


def run(client, worker_motley, game, players, table_size, rounds, options, seed):
    rng = random.Random(seed)
    _, organiser_key = client.register("organiser")
    created = client.post("/tournaments", {"game": game, "name": f"{game} open", "format": "swiss",
                                           "rounds": rounds, "table_size": table_size,
                                           "match_options": options}, key=organiser_key)
    assert created.status == 201, created.text
    tournament_id = created.body["id"]
    keys = {}
    for i in range(players):
        player_id, key = client.register(f"{game[:4]}{i}")
        keys[player_id] = key
        answer = client.post(f"/tournaments/{tournament_id}/players", key=key)
        assert answer.status == 201, answer.text
    assert client.post(f"/tournaments/{tournament_id}/players", key=key).status == 409  # registered twice
    started = client.post(f"/tournaments/{tournament_id}/start", key=organiser_key)
    assert started.status == 200, started.text
    finished, tournament = play_tournament(client, tournament_id, keys, rng)
    assert tournament["status"] == "finished" and len(tournament["rounds"]) == rounds
    return tournament_id, organiser_key, keys, finished, tournament


def test_a_16_player_jest_tournament_of_four_rounds_at_tables_of_four(client, worker_motley):
    tournament_id, organiser_key, keys, finished, tournament = run(
        client, worker_motley, "jest", 16, 4, 4, {}, seed=1)
    assert all(len(r["tables"]) == 4 and not r["byes"] for r in tournament["rounds"])
    assert len(finished) == 16
    # Swiss avoids repeat opponents as far as possible: in round 2 nobody meets a round-1 opponent.
    first, second = ({frozenset((a, b)) for t in r["tables"] for a in t["players"] for b in t["players"] if a != b}
                     for r in tournament["rounds"][:2])
    assert not first & second
    position = worker_motley.app.log_position()
    points, ranks, tie_breaks = expected_standings(tournament, finished)
    ratings = expected_ratings(finished)
    check_served(client, tournament_id, "jest", points, ranks, tie_breaks, ratings, position)

    # A sanction: void a round-4 match. Its table scores nothing and it no longer counts for ratings.
    voided = finished[-1][2]
    answer = client.post(f"/tournaments/{tournament_id}/sanctions",
                         {"kind": "void", "match_id": voided, "reason": "collusion"}, key=organiser_key)
    assert answer.status == 201, answer.text
    position = int(answer.headers["Motley-Position"])
    report = client.get(answer.headers["Location"]).body
    new_points, new_ranks, new_tie_breaks = expected_standings(tournament, finished, voided={voided})
    new_ratings = expected_ratings(finished, voided={voided})
    check_served(client, tournament_id, "jest", new_points, new_ranks, new_tie_breaks, new_ratings, position)
    changed = {c["player_id"]: c for c in report["changed"]}
    for player in keys:
        moved = (points[player], ranks[player], tie_breaks[player], ratings[player]) != (
            new_points[player], new_ranks[player], new_tie_breaks[player], new_ratings[player])
        assert (player in changed) == moved
        if moved:
            assert changed[player]["points"] == {"before": points[player], "after": new_points[player]}
            assert changed[player]["rank"] == {"before": ranks[player], "after": new_ranks[player]}
            assert changed[player]["rating"]["after"]["mu"] == pytest.approx(new_ratings[player][0], abs=1e-9)
    assert set(finished[-1][0]) <= set(changed)  # the voided table's players lost its points
    # Refusals are problem answers.
    other = next(iter(keys.values()))
    assert client.post(f"/tournaments/{tournament_id}/sanctions", {"kind": "void", "match_id": voided},
                       key=other).status == 403
    assert client.get(f"/tournaments/{tournament_id}/sanctions/9").status == 404


def test_a_9_player_le_bouffon_tournament_whose_players_do_not_divide_into_tables(client, worker_motley):
    tournament_id, organiser_key, keys, finished, tournament = run(
        client, worker_motley, "le-bouffon", 9, 4, 2, {"deals": 1}, seed=2)
    # Nine do not divide into tables of four: three tables of three (the game seats three).
    assert all([len(t["players"]) for t in r["tables"]] == [3, 3, 3] for r in tournament["rounds"])
    position = worker_motley.app.log_position()
    points, ranks, tie_breaks = expected_standings(tournament, finished)
    ratings = expected_ratings(finished)
    check_served(client, tournament_id, "le-bouffon", points, ranks, tie_breaks, ratings, position)

    # Disqualify the leader: listed without a rank, everybody else moves up, ratings stay.
    leader = next(p for p, r in ranks.items() if r == 1)
    answer = client.post(f"/tournaments/{tournament_id}/sanctions",
                         {"kind": "disqualify", "player_id": leader, "reason": "abuse"}, key=organiser_key)
    assert answer.status == 201, answer.text
    position = int(answer.headers["Motley-Position"])
    report = client.get(answer.headers["Location"]).body
    new_points, new_ranks, new_tie_breaks = expected_standings(tournament, finished, disqualified={leader})
    check_served(client, tournament_id, "le-bouffon", new_points, new_ranks, new_tie_breaks, ratings, position)
    changed = {c["player_id"]: c for c in report["changed"]}
    assert changed[leader]["rank"] == {"before": 1, "after": None}
    assert {p for p in keys if ranks[p] != new_ranks[p]} == set(changed)
    assert all(c["rating"]["before"] == c["rating"]["after"] for c in changed.values())
    profile = client.get(f"/players/{leader}", query={"after": position}).body
    assert [r["game"] for r in profile["ratings"]] == ["le-bouffon"]
    assert profile["statistics"][0]["played"] == 2
    history = client.get(f"/players/{leader}/ratings/le-bouffon").body
    assert len(history["history"]) == 2 and history["rating"]["mu"] == pytest.approx(ratings[leader][0], abs=1e-9)
