"""docs/clients.md's whole bot runs as written against a served Motley (waitress, SQLite, the computers
playing in-process): it registers, plays a Jest match against two computers from its stream alone, and
prints the result. A guide whose example fails is worse than none."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from api import create_app

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "clients.md"


def run_the_guides_bot(motley, *edits: tuple[str, str]) -> tuple[dict, dict, str]:
    """Runs the guide's bot, with ``edits`` (old, new) made to its code, against a server on ``motley``;
    returns its namespace, the match it played and what it printed."""
    from api.server import make_server
    from tests.platform.test_faults import free_port, run_in_background, stop_serving

    (code,) = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    port = free_port()
    server = make_server(create_app(motley), "127.0.0.1", port, threads=8)
    run_in_background(server)
    try:
        code = code.replace('BASE = "http://127.0.0.1:8000"', f'BASE = "http://127.0.0.1:{port}"')
        code = code.replace('"seconds": 600', '"seconds": 120')  # a failure here ends, not hangs
        for old, new in edits:
            assert old in code
            code = code.replace(old, new)
        printed = io.StringIO()
        namespace: dict = {}
        with contextlib.redirect_stdout(printed):
            exec(compile(code, str(GUIDE), "exec"), namespace)  # noqa: S102 - the guide's own code
        return namespace, namespace["match"], printed.getvalue()
    finally:
        stop_serving(server)


def test_the_client_guides_bot_plays_a_match_to_its_end(sqlite_motley):
    namespace, played, printed = run_the_guides_bot(sqlite_motley)
    result = namespace["result"]
    assert result is not None and len(result["ranks"]) == 3 and result["winners"]
    match = sqlite_motley.app.get_match(played["id"])
    assert match.status == "finished" and match.result["ranks"] == result["ranks"]
    assert printed.strip() == str(result)


def test_the_client_guides_bot_comes_back_when_its_time_ran_out(sqlite_motley):
    """Its first decision takes longer than a 1 s limit: the `absent` item comes, it returns (or finds the
    match finished by the computer), and it plays on to the end from its stream."""
    namespace, played, _ = run_the_guides_bot(
        sqlite_motley, ('"seconds": 60', '"seconds": 1'),
        ('action = item["match"]["legal_actions"][0]',
         'action = item["match"]["legal_actions"][0]\n'
         '            if moved_to == 0:\n'
         '                __import__("time").sleep(2.5)  # the first decision outlasts the limit'))
    match = sqlite_motley.app.get_match(played["id"])
    events = list(sqlite_motley.app.events.get(match.id))
    assert match.status == "finished" and namespace["result"]["ranks"] == match.result["ranks"]
    assert [e.seats for e in events if type(e).__name__ == "SeatsTimedOut"][:1] == [[0]]
