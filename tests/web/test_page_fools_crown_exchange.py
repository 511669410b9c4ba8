"""Fool's Crown's board names the two Nobles a Noble Exchange discarded (api/web/games/fools_crown.js), as
the observation does since a rules audit (rulebook: "If you have no Squire, you must perform a Noble
Exchange: reveal your hand, discard two Nobles, draw two replacements"): public, so a person at the table
knows which three Nobles stayed in the hand shown beside them.

The observation is the engine's own, of a round where seat 1 held no Squire (tests/engines/
test_fools_crown_house_rules.py), drawn by the page's module in Debian's chromium (tests/web/conftest.py)."""

from __future__ import annotations

import json

import pytest

from domain.games.fools_crown import ENGINE
from tests.engines.test_fools_crown_house_rules import exchanged_round

pytestmark = pytest.mark.slow  # a browser and a server process


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def test_the_board_names_the_nobles_a_noble_exchange_discarded(server, browser):
    seen = ENGINE.observation(exchanged_round(), 0)
    assert seen["exchange_discards"] == [None, ["JC", "QC"]]
    page = browser.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("body")
    drawn = page.evaluate("""async (obs) => {
        const game = await import('/web/games/fools_crown.js');
        const board = game.view(obs, [{name: 'ann'}, {name: 'bob'}], 0);
        document.body.append(board);
        const rows = [...board.querySelectorAll('tbody tr')];
        return rows.map((row) => ({
            discarded: [...row.querySelectorAll('.exchange-discards .chip')].map((chip) => chip.title),
            text: row.innerText}));
    }""", json.loads(json.dumps(seen)))
    assert drawn[0]["discarded"] == []  # seat 0 committed: nothing exchanged
    assert drawn[1]["discarded"] == ["JC", "QC"], drawn
    assert "discarded" in drawn[1]["text"] and "discarded" not in drawn[0]["text"]
    page.close()
