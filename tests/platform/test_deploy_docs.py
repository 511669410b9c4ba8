"""docs/deploy.md's table of the Procfile's processes says what the Procfile runs: an operator copies its
rows into a supervisor's units, and a row with `-Q motley` took another deployment's tasks whatever
MOTLEY_QUEUE said, and `-s $TMPDIR/...` wrote to / with TMPDIR unset (an operator probe)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The options that decide which work a process takes, what it is called and where it writes.
DECISIVE = ("-Q", "-c", "-n", "-s", "--processes", "--threads", "--host", "--port")


def options(command: str) -> dict:
    words = shlex.split(command, posix=False)
    return {word: words[i + 1] for i, word in enumerate(words[:-1]) if word in DECISIVE}


def test_the_deploy_guide_states_each_procfile_line_as_it_runs():
    procfile = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line and not line.startswith("#"):
            name, command = line.split(":", 1)
            procfile[name] = command.strip()
    table = {}
    for row in re.findall(r"^\| `(\w+)` \| `([^`]+)` \|", (ROOT / "docs" / "deploy.md").read_text(), re.M):
        table[row[0]] = row[1]
    assert set(table) == set(procfile) == {"web", "worker", "computers", "beat"}
    for name, command in procfile.items():
        stated = options(table[name])
        assert stated == {k: v for k, v in options(command).items() if k in stated}, name
        if name != "web":  # the queue, the worker's name and the schedule's file are never left out
            assert set(options(command)) - {"-c"} <= set(stated), name
