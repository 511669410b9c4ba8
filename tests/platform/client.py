"""A small API client over Flask's test client: every answer is checked to be JSON of the right
media type, and problem documents to carry the RFC 9457 members."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any, Optional

from tests.platform.openapi_check import check_answer


@dataclass
class Answer:
    status: int
    body: Any
    headers: Any
    text: str


class ApiClient:
    def __init__(self, flask_app):
        self.http = flask_app.test_client()
        self.log: list[tuple[Optional[str], str]] = []  # (api key used, response text) of every call

    def call(self, method: str, path: str, body: Any = None, key: Optional[str] = None, raw: Optional[str] = None,
             headers: Optional[dict] = None, query: Optional[dict] = None, patient: bool = True) -> Answer:
        """One request and its checked answer. ``patient``: a read whose read model had not caught up
        with its ``after`` within the service's wait (a 503 naming the position) is asked again twice, as
        the problem says to: on a loaded machine (CI beside probes) the wait ran out now and then."""
        answer = self._call(method, path, body, key, raw, headers, query)
        for _ in range(2 if patient and method in ("GET", "HEAD") else 0):
            if not (answer.status == 503 and isinstance(answer.body, dict) and "position" in answer.body):
                break
            time.sleep(float(answer.body.get("retry_after", 1)))
            answer = self._call(method, path, body, key, raw, headers, query)
        return answer

    def _call(self, method: str, path: str, body: Any, key: Optional[str], raw: Optional[str],
              headers: Optional[dict], query: Optional[dict]) -> Answer:
        all_headers = dict(headers or {})
        if key is not None:
            all_headers["Authorization"] = f"Bearer {key}"
        kwargs: dict = {"headers": all_headers, "query_string": query}
        if raw is not None:
            kwargs.update(data=raw, content_type="application/json")
        elif body is not None:
            kwargs.update(json=body)
        response = self.http.open(path, method=method, **kwargs)
        # Read first: openapi-core swaps the body iterator for a tee, which would drop its close().
        text = response.get_data(as_text=True)
        check_answer(self.http.application, response)  # as the OpenAPI document says (issue 12)
        response.close()  # as a real server does once it has sent the answer (runs call_on_close: api/rates.py)
        self.log.append((key, text))
        if response.status_code >= 400:
            assert response.mimetype == "application/problem+json", (response.status_code, text)
            problem = json.loads(text)
            assert problem["status"] == response.status_code and problem["title"] and problem["type"], problem
        elif response.status_code in (204, 304):  # No Content, Not Modified: no body, no type (RFC 9110 §15.3.5)
            assert not text, text
        else:
            assert response.mimetype == "application/json", text
        return Answer(response.status_code, json.loads(text) if text else None, response.headers, text)

    def get(self, path, **kwargs):
        return self.call("GET", path, **kwargs)

    def post(self, path, body=None, **kwargs):
        return self.call("POST", path, body=body, **kwargs)

    # -- conveniences -----------------------------------------------------------------------------
    def register(self, name: str) -> tuple[str, str]:
        answer = self.post("/players", {"name": name})
        assert answer.status == 201, answer.text
        return answer.body["id"], answer.body["api_key"]

    def new_match(self, game: str, seats: int, keys: list[str], options=None, computers=None) -> str:
        answer = self.post("/matches", {"game": game, "seats": seats, "options": options or {},
                                        "computers": computers or {}}, key=keys[0])
        assert answer.status == 201, answer.text
        match_id = answer.body["id"]
        for key in keys:
            joined = self.post(f"/matches/{match_id}/seats", {}, key=key)
            assert joined.status == 201, joined.text
        started = self.post(f"/matches/{match_id}/start", key=keys[0])
        assert started.status == 200, started.text
        return match_id


def entered_tournament(client: ApiClient, names, **terms) -> tuple[str, str, dict[str, str]]:
    """A tournament of ``terms`` (game, name, rounds, table_size...) created by a new organiser, ``names``
    registered as new players and entered: (the organiser's key, its id, player id -> key)."""
    _, organiser = client.register("org")
    created = client.post("/tournaments", terms, key=organiser)
    assert created.status == 201, created.text
    keys = {}
    for name in names:
        player_id, key = client.register(name)
        keys[player_id] = key
        assert client.post(f"/tournaments/{created.body['id']}/players", key=key).status == 201
    return organiser, created.body["id"], keys


def same_kind(a, b) -> bool:
    """Two actions of one kind (a cooldown is per kind: house rule 4.5's peeks)."""
    return a == b or (isinstance(a, dict) and isinstance(b, dict) and a.get("type") == b.get("type"))


def play_randomly(client: ApiClient, match_id: str, keys: list[str], rng: random.Random,
                  settle=None, timeout: float = 120.0, max_moves: int = 20000,
                  seen: Optional[dict] = None) -> dict:
    """Play random legal moves for the human seats until the match is over. ``settle()`` is called
    while the match waits for a worker (automatic steps, timers, computers). ``seen`` collects
    seat 0's view of the match at each version read, for rewind checks."""
    deadline = time.monotonic() + timeout
    moves = 0
    while time.monotonic() < deadline and moves < max_moves:
        view = client.get(f"/matches/{match_id}", key=keys[0]).body
        if seen is not None:
            seen[view["version"]] = view
        if view["status"] == "finished":
            return view
        turn = view["to_act"]
        seats = turn["seats"] if turn["kind"] == "players" else []
        humans = [s for s in seats if s < len(keys) and keys[s] is not None]
        if not humans:
            settle() if settle else time.sleep(0.02)
            continue
        seat = rng.choice(humans)
        mine = client.get(f"/matches/{match_id}", key=keys[seat]).body
        if not mine["legal_actions"]:
            continue
        action = rng.choice(mine["legal_actions"])
        answer = client.post(f"/matches/{match_id}/moves", {"action": action}, key=keys[seat])
        if answer.status == 429:  # a cooldown between actions (Tumult Royale's peeks): do something else,
            others = [a for a in mine["legal_actions"] if not same_kind(a, action)]  # or wait it out
            if others:
                answer = client.post(f"/matches/{match_id}/moves", {"action": rng.choice(others)}, key=keys[seat])
            else:
                time.sleep(float(answer.body.get("retry_after", answer.headers.get("Retry-After", 0.2))))
        if answer.status == 429:
            continue
        # 409: a timer closed the phase or a computer moved first. A 422 is fair only when the match moved on
        # after the seat's view was read (a computer's move made the chosen action illegal); else a failure.
        if answer.status == 422:
            now = client.get(f"/matches/{match_id}", key=keys[seat]).body["version"]
            assert now > mine["version"], answer.text
            continue
        assert answer.status in (201, 409), answer.text
        moves += 1
    raise AssertionError(f"match {match_id} did not finish")
