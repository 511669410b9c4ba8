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


def test_the_client_guides_bot_plays_a_match_to_its_end(sqlite_motley):
    from api.server import make_server
    from tests.platform.test_faults import free_port, run_in_background, stop_serving

    (code,) = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    port = free_port()
    server = make_server(create_app(sqlite_motley), "127.0.0.1", port, threads=8)
    run_in_background(server)
    try:
        code = code.replace('BASE = "http://127.0.0.1:8000"', f'BASE = "http://127.0.0.1:{port}"')
        code = code.replace('"seconds": 600', '"seconds": 120')  # a failure here ends, not hangs
        printed = io.StringIO()
        namespace: dict = {}
        with contextlib.redirect_stdout(printed):
            exec(compile(code, str(GUIDE), "exec"), namespace)  # noqa: S102 - the guide's own code
        result = namespace["result"]
        assert result is not None and len(result["ranks"]) == 3 and result["winners"]
        match = sqlite_motley.app.get_match(namespace["match"]["id"])
        assert match.status == "finished" and match.result["ranks"] == result["ranks"]
        assert printed.getvalue().strip() == str(result)
    finally:
        stop_serving(server)
