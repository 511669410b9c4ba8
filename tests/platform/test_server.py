"""Streams and waiting reads have threads of their own (api/server.py): they cannot starve the API."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager

import pytest
import requests
from waitress import wasyncore

from api import create_app
from api.rates import MAX_HELD_PER_CLIENT
from api.server import InlineFlushChannel, is_long_lived, make_server
from application.log_watcher import RECHECK_SECONDS
from tests.platform.test_faults import free_port, run_in_background


def test_the_long_lived_requests_are_told_apart_as_the_rate_limits_count_them():
    assert is_long_lived("/matches/x/stream", "GET", "seconds=5")
    assert is_long_lived("/me/stream", "GET", "")
    assert is_long_lived("/matches", "GET", "after=12")
    assert not is_long_lived("/matches/x/events", "GET", "after=12")  # a page, not a wait
    assert not is_long_lived("/matches", "GET", "offset=5")
    assert not is_long_lived("/matches", "POST", "after=1")


@contextmanager
def serving(motley, request_threads: int):
    """The API under waitress as `motley serve` runs it, with a player and a Jest match: (base, key, match id)."""
    port = free_port()
    server = make_server(create_app(motley), "127.0.0.1", port, threads=request_threads, stream_threads=16)
    run_in_background(server)
    base = f"http://127.0.0.1:{port}"
    try:
        key = requests.post(f"{base}/players", json={"name": "ann"}, timeout=10).json()["api_key"]
        match_id = requests.post(f"{base}/matches", json={"game": "jest", "seats": 3},
                                 headers={"Authorization": f"Bearer {key}"}, timeout=10).json()["id"]
        yield base, key, match_id
    finally:
        server.close()


@pytest.mark.parametrize("request_threads", [1, 2])
def test_open_streams_leave_every_request_thread_to_the_rest_of_the_api(motley, request_threads):
    with serving(motley, request_threads) as (base, key, match_id):
        # More open streams than request threads (as many as a client may hold).
        opened = [requests.get(f"{base}/matches/{match_id}/stream", params={"seconds": 6}, stream=True, timeout=15)
                  for _ in range(MAX_HELD_PER_CLIENT)]
        assert all(r.status_code == 200 for r in opened)
        started = time.monotonic()
        for _ in range(5):
            assert requests.get(f"{base}/games", timeout=2).status_code == 200
        joined = requests.post(f"{base}/matches/{match_id}/seats", json={},
                               headers={"Authorization": f"Bearer {key}"}, timeout=2)
        assert joined.status_code == 201, joined.text
        assert time.monotonic() - started < 4  # served at once, not after the streams' 6 s
        # The streams still work: each got the match, then the change the seat made.
        for response in opened:
            text = response.content.decode()
            assert text.startswith("id: 1") and "id: 2" in text


def assert_left_streams_give_their_slots_back(base: str, match_id: str) -> None:
    """Every held-request slot taken by streams, the client closes them all: within one wait of the
    streams (RECHECK_SECONDS) the client may open a stream again."""
    stream = f"{base}/matches/{match_id}/stream"
    opened = [requests.get(stream, params={"seconds": 120}, stream=True, timeout=15)
              for _ in range(MAX_HELD_PER_CLIENT)]
    assert all(r.status_code == 200 for r in opened)
    assert requests.get(stream, params={"seconds": 1}, timeout=5).status_code == 429  # every slot is held
    for response in opened:
        response.close()  # the client leaves: its connection closes
    left = time.monotonic()
    while requests.get(stream, params={"seconds": 1}, timeout=5).status_code == 429:
        assert time.monotonic() - left < RECHECK_SECONDS + 3, "the left streams still hold their slots"
        time.sleep(0.2)


def test_a_stream_its_client_left_gives_its_slot_back_within_one_wait(motley):
    """A page that leaves a table closes its stream: the server sees the close at once (waitress reads
    the connection while the stream runs) and the stream ends at its next wait, so the client's next
    stream is not refused for long. It used to hold the slot until a write failed: two heartbeats."""
    with serving(motley, request_threads=2) as (base, _, match_id):
        assert_left_streams_give_their_slots_back(base, match_id)


def test_while_a_task_thread_sends_the_main_loop_leaves_its_connection_alone():
    """A task thread sends what it writes itself, holding the channel's lock: the main loop must not
    poll that connection as writable meanwhile (waitress did, and spun on the lock it could not take,
    ~17 times a move under load, issue 16), and must take over what the socket did not take."""
    port = free_port()
    server = make_server(lambda environ, start: [b""], "127.0.0.1", port, threads=1, stream_threads=1)
    try:
        client = socket.create_connection(("127.0.0.1", port))
        deadline = time.monotonic() + 5
        while not [c for c in server._map.values() if isinstance(c, InlineFlushChannel)]:
            wasyncore.loop(timeout=0.05, map=server._map, count=1)  # the main loop accepts the connection
            assert time.monotonic() < deadline
        channel = next(c for c in server._map.values() if isinstance(c, InlineFlushChannel))
        channel.requests = [object()]  # a task runs on this connection
        channel.total_outbufs_len = 10  # and has queued output
        taken, release = threading.Event(), threading.Event()

        def sender():
            with channel.outbuf_lock:  # the task thread sending
                taken.set()
                release.wait(5)

        thread = threading.Thread(target=sender)
        thread.start()
        taken.wait(5)
        assert not channel.writable()  # the sender flushes, or pulls the trigger once the lock is free
        release.set()
        thread.join(5)
        assert channel.writable()  # the lock free and output left: the main loop sends it
        channel.requests, channel.total_outbufs_len = [], 0
        client.close()
    finally:
        server.close()


def test_an_answer_larger_than_the_socket_takes_arrives_whole_to_a_slow_reader():
    """A task writing faster than its client reads leaves output the main loop must send: nothing is
    lost or left waiting when the client reads late (issue 16's InlineFlushChannel)."""
    chunk, count = b"x" * 65536, 128  # 8 MiB, far past a loopback socket's buffers

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "application/octet-stream")])
        return (chunk for _ in range(count))

    port = free_port()
    server = make_server(app, "127.0.0.1", port, threads=2, stream_threads=1)
    run_in_background(server)
    try:
        response = requests.get(f"http://127.0.0.1:{port}/big", stream=True, timeout=10)
        time.sleep(0.5)  # the task fills the socket and waits on it
        started = time.monotonic()
        received = sum(len(part) for part in response.iter_content(1 << 20))
        assert received == len(chunk) * count
        assert time.monotonic() - started < 5  # no second-long stalls per chunk
    finally:
        server.close()


def test_a_request_waitress_cannot_parse_is_answered_400_and_its_connection_closed(motley):
    """The dispatcher read the path of every request to choose its threads; a request waitress could not
    parse has none: the read raised, nothing was answered, and after a good request on the same
    connection the connection hung open past waitress's own timeouts."""
    with serving(motley, request_threads=2) as (base, _, _):
        port = int(base.rsplit(":", 1)[1])
        for prefix in (b"", b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
                connection.sendall(prefix + b"GET /health HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n")
                answer = b""
                while True:
                    chunk = connection.recv(65536)  # the server answers, then closes: no timeout
                    if not chunk:
                        break
                    answer += chunk
            assert answer.count(b"HTTP/1.") == (2 if prefix else 1), answer
            assert b"400 Bad Request" in answer, answer
