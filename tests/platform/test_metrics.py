"""Observability (issue 16): Prometheus metrics at /metrics, as the OpenAPI document says, with the
request latency by route (the URL rule, not the raw path) and a move counter; and a request id on
every answer and in the request's JSON log line (api/metrics.py, api/request_log.py)."""

from __future__ import annotations

import json
import logging
import re
import time

import pytest

from api import create_app
from api.request_log import JsonFormatter
from tests.platform.client import ApiClient
from tests.platform.openapi_check import check_answer


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def scrape(client: ApiClient) -> str:
    response = client.http.get("/metrics")
    text = response.get_data(as_text=True)
    check_answer(client.http.application, response)  # as documented: 200 text/plain
    assert response.status_code == 200 and response.mimetype == "text/plain", response.status_code
    return text


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample (0 when absent); labels must all match."""
    total = 0.0
    for line in text.splitlines():
        match = re.fullmatch(rf"{name}(?:\{{(.*)\}})? (\S+)", line)
        if match is None:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1) or ""))
        if all(found.get(key) == value for key, value in labels.items()):
            total += float(match.group(2))
    return total


def first_offer(client: ApiClient, match_id: str, key: str) -> dict:
    view = client.get(f"/matches/{match_id}", key=key).body
    return view["legal_actions"][0]


def test_a_move_counts_and_its_latency_is_labelled_by_route(client):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    before = scrape(client)
    moved = client.post(f"/matches/{match_id}/moves", {"action": first_offer(client, match_id, keys[0])}, key=keys[0])
    assert moved.status == 201
    refused = client.post(f"/matches/{match_id}/moves", {"action": {"type": "take"}}, key=keys[0])
    assert refused.status in (409, 422)
    after = scrape(client)

    assert sample(after, "motley_moves_total") == sample(before, "motley_moves_total") + 1
    assert sample(after, "motley_moves_refused_total", status=str(refused.status)) == \
        sample(before, "motley_moves_refused_total", status=str(refused.status)) + 1
    route = "/matches/<match_id>/moves"
    count = "motley_http_request_duration_seconds_count"
    assert sample(after, count, method="POST", route=route) == sample(before, count, method="POST", route=route) + 2
    assert sample(after, "motley_http_requests_total", method="POST", route=route, status="201") >= 1
    assert match_id not in after  # the route, never the raw path: one series per route, not per match
    assert sample(after, "motley_saves_total") >= sample(before, "motley_saves_total") + 1
    assert sample(after, "motley_log_position") >= 1
    assert 'motley_projection_lag_events{read_model="match_list"}' in after
    assert "motley_task_queue_depth" in after
    # A match read keeps its label: the route that keeps /matches/import apart was named
    # "/matches/<match_id:match_id>", and a dashboard on the documented label went quiet.
    client.get(f"/matches/{match_id}")
    client.http.get("/web/app.js")
    labels = scrape(client)
    assert sample(labels, "motley_http_requests_total", method="GET", route="/matches/<match_id>", status="200") >= 1
    assert "<match_id:match_id>" not in labels
    # Only that one: the others keep their labels as they were (a first fix renamed every converter's).
    assert sample(labels, "motley_http_requests_total", method="GET", route="/web/<path:name>", status="200") >= 1


def test_an_unknown_method_is_one_label_however_many_are_sent(client):
    """Anyone may send any token as a method (a 405): one series per token would grow without bound."""
    before = scrape(client)
    for method in ("FOO", "M1234", "Q" * 3000):
        assert client.http.open("/games", method=method).status_code == 405
    after = scrape(client)
    count = "motley_http_requests_total"
    assert sample(after, count, method="other", route="unmatched", status="405") == \
        sample(before, count, method="other", route="unmatched", status="405") + 3
    assert "FOO" not in after and "QQQ" not in after and "M1234" not in after


def test_the_cpu_of_each_route_is_counted_a_streams_whole_life_included(client):
    """motley_http_request_cpu_seconds_total: the CPU of the threads that served a route (a stream's
    frames and heartbeats included), by route, never more than the process spent meanwhile."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    cpu = "motley_http_request_cpu_seconds_total"
    moves, stream = "/matches/<match_id>/moves", "/matches/<match_id>/stream"
    before = scrape(client)
    spent = time.process_time()
    assert client.post(f"/matches/{match_id}/moves", {"action": first_offer(client, match_id, keys[0])},
                       key=keys[0]).status == 201
    followed = client.http.get(f"/matches/{match_id}/stream?seconds=0.3",
                               headers={"Authorization": f"Bearer {keys[1]}"})
    assert followed.status_code == 200 and followed.get_data(as_text=True).startswith("id: ")
    followed.close()  # as a server does once the answer is sent: then it is counted
    spent = time.process_time() - spent
    after = scrape(client)

    moved = sample(after, cpu, method="POST", route=moves) - sample(before, cpu, method="POST", route=moves)
    streamed = sample(after, cpu, method="GET", route=stream) - sample(before, cpu, method="GET", route=stream)
    assert moved > 0 and streamed > 0
    assert sample(after, cpu) - sample(before, cpu) <= spent + 0.01  # one process's threads, counted once
    assert match_id not in after


def test_the_request_id_is_echoed_and_logged_as_json(client, caplog):
    caplog.handler.setFormatter(JsonFormatter())
    with caplog.at_level(logging.INFO, logger="motley.access"):
        given = client.post("/players", {"name": "ann"}, headers={"X-Request-Id": "trace-16-abc"})
        made = client.get("/games")
        refused = client.get("/matches/nope", headers={"X-Request-Id": "has spaces"})
    assert given.headers["X-Request-Id"] == "trace-16-abc"
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["X-Request-Id"])  # none sent: one is made
    assert refused.status == 404 and refused.headers["X-Request-Id"] != "has spaces"  # implausible: replaced
    lines = [json.loads(line) for line in caplog.text.splitlines() if line.startswith("{")]
    mine = [line for line in lines if line.get("request_id") == "trace-16-abc"]
    assert len(mine) == 1, lines
    assert mine[0]["route"] == "/players" and mine[0]["status"] == 201 and mine[0]["method"] == "POST"
    assert mine[0]["logger"] == "motley.access" and mine[0]["duration_ms"] >= 0
    assert any(line.get("request_id") == refused.headers["X-Request-Id"] and line["status"] == 404 for line in lines)


OUTBOX_PROCESS = """
import sys
from api import create_app
from application.ports import Task, TASK_RESOLVE
from infrastructure.composition import build
from infrastructure.settings import Settings

container = build(Settings(store="sqlite", sqlite_path=sys.argv[1], tasks="celery",
                           broker_url="amqp://guest:guest@127.0.0.1:1//"))  # no broker there: kept
create_app(container)
for number in range(int(sys.argv[2])):
    container.tasks.enqueue(Task(TASK_RESOLVE, (f"match-{number}",)))
assert container.tasks.waiting == int(sys.argv[2])
print("kept", container.tasks.waiting)
"""


def test_the_outbox_depth_sums_every_api_process(tmp_path):
    """Several API processes (gunicorn, multiprocess metrics): the outbox of tasks kept while the broker
    is away was read in the process that answered the scrape, so the series jumped between each
    process's count (16, 17) and never showed the total (33). Two processes keep 3 and 4 tasks; a
    third, which keeps none, answers the scrape with 7."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    folder = tmp_path / "metrics"
    folder.mkdir()
    env = dict(os.environ, PROMETHEUS_MULTIPROC_DIR=str(folder), PYTHONPATH=str(ROOT))
    for number, kept in enumerate((3, 4)):
        done = subprocess.run([sys.executable, "-c", OUTBOX_PROCESS, str(tmp_path / f"m{number}.sqlite"), str(kept)],
                              env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and f"kept {kept}" in done.stdout, done.stderr[-2000:]
    scraper = OUTBOX_PROCESS.replace("create_app(container)", "app = create_app(container)") + (
        "\nprint(app.test_client().get('/metrics').get_data(as_text=True))")
    done = subprocess.run([sys.executable, "-c", scraper, str(tmp_path / "m2.sqlite"), "0"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert 'motley_task_queue_depth{queue="outbox"} 7.0' in done.stdout, done.stdout[-3000:]


def test_an_operator_may_keep_the_metrics_to_its_scraper(motley):
    """/metrics was public on every deployment: with MOTLEY_METRICS_TOKEN set, a scrape without it (or
    with a player's key) is a 401 problem, as documented, and one with it is answered; wrong tokens are
    limited as wrong keys are."""
    import dataclasses

    settings = motley.settings
    motley.settings = dataclasses.replace(settings, metrics_token="s3cret-scrape")
    try:
        client = ApiClient(create_app(motley))
        _, player_key = client.register("ann")
        for headers in ({}, {"Authorization": f"Bearer {player_key}"}, {"Authorization": "Bearer s3cret"}):
            refused = client.http.get("/metrics", headers=headers)
            check_answer(client.http.application, refused)
            assert refused.status_code == 401 and refused.mimetype == "application/problem+json"
            assert refused.headers["WWW-Authenticate"].startswith("Bearer")
            assert "motley_moves_total" not in refused.get_data(as_text=True)
        scraped = client.http.get("/metrics", headers={"Authorization": "Bearer s3cret-scrape"})
        assert scraped.status_code == 200 and "motley_moves_total" in scraped.get_data(as_text=True)
        assert client.http.get("/metrics", headers={"Authorization": "bearer s3cret-scrape"}).status_code == 200
        # A scrape with no credential guesses nothing: not counted, as a request without a key. Counted,
        # 30 of them (a scraper not yet given the token) locked every key of the address out (a review).
        assert {client.http.get("/metrics").status_code for _ in range(40)} == {401}
        assert client.http.get("/players/me", headers={"Authorization": f"Bearer {player_key}"}).status_code == 200
        # Wrong tokens are guesses, limited as wrong keys are: they were answered without end.
        answers = [client.http.get("/metrics", headers={"Authorization": f"Bearer guess-{n}"}).status_code
                   for n in range(40)]
        assert answers.count(401) <= 30 and answers[-1] == 429, answers
    finally:
        motley.settings = settings
