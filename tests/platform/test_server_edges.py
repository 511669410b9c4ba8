"""The embedded server's own edges (api/server.py), each on a real waitress server spoken to in raw HTTP:
the client address behind trusted proxies, the 503 past the stream threads, and waitress's own
refusals (bodies past the largest one the app reads, headers it cannot take) as problem documents."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Optional

import pytest

from api import create_app
from api.audit import IMPORT_MAX_BYTES
from api.catalogue import catalogue
from api.limits import MAX_BODY_BYTES
from api.problems import PROBLEM_JSON
from api.server import make_server
from infrastructure.composition import build
from infrastructure.settings import Settings
from tests.platform.test_faults import free_port, run_in_background, stop_serving


@contextmanager
def served(tmp_path, stream_threads: int = 16, **settings: Any) -> Iterator[int]:
    """The API on a fresh SQLite file under ``make_server`` (as ``motley serve`` runs it): its port."""
    container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "motley.sqlite"), **settings))
    port = free_port()
    server = make_server(create_app(container), "127.0.0.1", port, threads=4, stream_threads=stream_threads)
    run_in_background(server)
    try:
        yield port
    finally:
        stop_serving(server)
        container.close()


def call(port: int, method: str, path: str, body: Optional[dict] = None, headers: Optional[dict] = None,
         timeout: float = 10) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        sent = {**({"Content-Type": "application/json"} if payload is not None else {}), **(headers or {})}
        connection.request(method, path, body=payload, headers=sent)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def raw(port: int, request: bytes, timeout: float = 5) -> bytes:
    """Send ``request`` as it is and read the answer until the server closes the connection (a timeout
    fails: the server did not answer, or kept the connection open)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        try:
            connection.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before it had read all of it
        answer = b""
        while True:
            try:
                chunk = connection.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                return answer
            answer += chunk
    return answer


def parse(answer: bytes) -> tuple[int, dict, bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return status, headers, body


def assert_problem(status: int, headers: dict, body: bytes, expected: int) -> dict:
    assert status == expected, (status, headers, body[:300])
    assert headers["content-type"] == PROBLEM_JSON, (headers, body[:300])
    problem = json.loads(body)
    assert problem["status"] == expected
    assert problem["type"] and problem["title"] and problem["detail"], problem
    assert int(headers["content-length"]) == len(body)
    return problem


# 1. MOTLEY_TRUSTED_PROXIES under waitress


def lock_out(port: int, forwarded_for: str) -> None:
    """Spend the auth-failure budget (3 a minute) of the client behind ``forwarded_for``."""
    seen = [call(port, "GET", "/players/me", headers={"Authorization": f"Bearer bad{i}",
                                                       "X-Forwarded-For": forwarded_for})[0] for i in range(4)]
    assert seen == [401, 401, 401, 429]


def test_behind_trusted_proxies_each_forwarded_client_has_its_own_address(tmp_path):
    """With one trusted proxy, the address is the last X-Forwarded-For entry: one client's wrong keys
    lock only that client out. waitress removed the header before werkzeug's ProxyFix read it, so every
    client behind the proxy shared the proxy's address and budget."""
    with served(tmp_path, trusted_proxies=1, rate_limits="auth_failures=3/minute") as port:
        lock_out(port, "10.0.0.2")
        status, _, _ = call(port, "GET", "/players/me", headers={"Authorization": "Bearer bad",
                                                                  "X-Forwarded-For": "10.0.0.3"})
        assert status == 401  # another client: its own budget
        # Only the last entry (the one the trusted proxy added) counts: the client's own is not believed.
        status, _, _ = call(port, "GET", "/players/me", headers={"Authorization": "Bearer bad",
                                                                  "X-Forwarded-For": "10.0.0.2, 10.0.0.4"})
        assert status == 401
        status, _, _ = call(port, "GET", "/players/me", headers={"Authorization": "Bearer bad",
                                                                  "X-Forwarded-For": "10.0.0.4, 10.0.0.2"})
        assert status == 429


def test_without_trusted_proxies_x_forwarded_for_is_ignored(tmp_path):
    with served(tmp_path, rate_limits="auth_failures=3/minute") as port:
        lock_out(port, "10.0.0.2")
        status, _, _ = call(port, "GET", "/players/me", headers={"Authorization": "Bearer bad",
                                                                  "X-Forwarded-For": "10.0.0.3"})
        assert status == 429  # the same connection's address: the header changes nothing


def test_wrong_keys_sent_at_once_get_no_more_answers_than_the_failure_budget(tmp_path):
    """Wrong keys were counted after their 401 and tested before: sent at once, every request passed the
    test before any was counted (15 guesses answered with auth_failures=10/minute). Each is now counted
    as it comes, in one step with the test."""
    import threading
    import uuid

    with served(tmp_path, rate_limits="auth_failures=3/minute") as port:
        start, seen = threading.Barrier(16), []

        def guess(i: int) -> None:
            start.wait()
            seen.append(call(port, "GET", "/players/me",
                             headers={"Authorization": f"Bearer {uuid.uuid4().hex}.guess{i}"})[0])

        guessers = [threading.Thread(target=guess, args=(i,)) for i in range(16)]
        for thread in guessers:
            thread.start()
        for thread in guessers:
            thread.join()
        assert sorted(seen) == [401] * 3 + [429] * 13


# 2. The stream-thread cap


def test_a_stream_past_the_stream_threads_is_answered_503_at_once(tmp_path):
    """With every stream thread held, one more stream is a 503 problem with Retry-After at once; it used
    to wait, silently, for a held stream to end (up to a day)."""
    with served(tmp_path, stream_threads=2) as port:
        _, _, body = call(port, "POST", "/players", {"name": "ann"})
        key = json.loads(body)["api_key"]
        auth = {"Authorization": f"Bearer {key}"}
        _, _, body = call(port, "POST", "/matches", {"game": "jest", "seats": 3}, headers=auth)
        stream = f"/matches/{json.loads(body)['id']}/stream?seconds=20"
        held: list[http.client.HTTPResponse] = []
        try:
            for _ in range(2):
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("GET", stream, headers=auth)
                # Kept: the answer owns the connection (it ends with it), and dropped it would close it.
                held.append(connection.getresponse())
                assert held[-1].status == 200
            started = time.monotonic()
            status, headers, body = call(port, "GET", stream, headers=auth, timeout=5)
            assert time.monotonic() - started < 3
            assert_problem(status, headers, body, 503)
            assert int(headers["retry-after"]) >= 1
            # The rest of the API is served meanwhile.
            assert call(port, "GET", "/games", timeout=5)[0] == 200
        finally:
            for response in held:  # the client leaves: the server ends the streams at their next wait
                response.close()


# 3. Bodies and waitress's own refusals


def test_a_declared_body_past_the_largest_the_app_reads_is_refused_before_it_is_read(tmp_path):
    """A Content-Length past IMPORT_MAX_BYTES is a 413 problem as soon as the headers arrive; waitress
    used to wait for (and spool) up to 1 GiB first. The answer names the route's limit: every route but
    the import was told 32 MiB, though it reads 64 KiB at most."""
    with served(tmp_path) as port:
        for path, limit in (("/players", MAX_BODY_BYTES), ("/matches/import", IMPORT_MAX_BYTES)):
            answer = raw(port, (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                f"Content-Length: {IMPORT_MAX_BYTES + 1}\r\n\r\n").encode())
            status, headers, body = parse(answer)
            problem = assert_problem(status, headers, body, 413)
            assert problem["type"] == "urn:motley:problem:too-large"
            assert f"larger than {limit} bytes" in problem["detail"], problem
            assert headers["connection"] == "close"


def test_a_body_of_exactly_the_largest_size_reaches_the_app(tmp_path):
    """The boundary: IMPORT_MAX_BYTES is still read, and the app answers with its own limit."""
    with served(tmp_path) as port:
        head = (f"POST /players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                f"Content-Length: {IMPORT_MAX_BYTES}\r\n\r\n").encode()
        status, headers, body = parse(raw(port, head + b" " * IMPORT_MAX_BYTES, timeout=30))
        problem = assert_problem(status, headers, body, 413)
        assert str(MAX_BODY_BYTES) in problem["detail"]  # the app's 64 KiB, not the server's limit


@pytest.mark.parametrize("request_bytes, expected, slug", [
    (b"GET /matches HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n", 431, "headers-too-large"),
    (b"POST /players HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400,
     "bad-request"),
    (b"POST /players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501,
     "not-implemented"),
], ids=["431", "400", "501"])
def test_waitress_own_refusals_are_problem_documents(tmp_path, request_bytes, expected, slug):
    """Each of a catalogued type (GET /problems, docs/problems.md), as the service's own refusals: the
    431 and 501 were about:blank, and the 431 named "/" as its instance (waitress's stand-in request line)."""
    with served(tmp_path) as port:
        status, headers, body = parse(raw(port, request_bytes))
        problem = assert_problem(status, headers, body, expected)
        assert problem["type"] == f"urn:motley:problem:{slug}"
        catalogued = {entry["slug"]: entry for entry in catalogue()}
        assert catalogued[slug]["status"] == expected and catalogued[slug]["title"] == problem["title"]
        if expected == 431:
            assert "instance" not in problem, problem
        if expected == 501:
            assert problem["instance"] == "/players"
        assert headers["connection"] == "close"  # and the connection closed, as waitress does (raw() saw it)


def test_an_application_that_fails_outright_gets_a_500_problem():
    """waitress's own 500 (the application raised before answering) is a problem document too."""

    def failing(environ, start_response):
        raise RuntimeError("boom")

    port = free_port()
    server = make_server(failing, "127.0.0.1", port, threads=1, stream_threads=1)
    run_in_background(server)
    try:
        status, headers, body = parse(raw(port, b"GET /x HTTP/1.1\r\nHost: x\r\n\r\n"))
        problem = assert_problem(status, headers, body, 500)
        assert problem["type"] == "urn:motley:problem:internal"
        assert "boom" not in body.decode()
    finally:
        stop_serving(server)
