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
    # ... and it sat the round out: its committed cell says so, not "not yet" (a review probe)
    assert "sat out" in drawn[1]["text"] and "not yet" not in drawn[1]["text"], drawn[1]["text"]
    assert "sat out" not in drawn[0]["text"]
    page.close()


def test_a_match_without_the_safety_cap_names_no_last_round(server, browser):
    """The cap off (option safety_cap, HR 3.4), the observation's max_rounds is null: the page read
    "of at most null"."""
    capped = ENGINE.observation(exchanged_round(), 0)
    uncapped = ENGINE.observation(dict(exchanged_round(), options={**capped["options"], "safety_cap": False}), 0)
    assert capped["max_rounds"] == 30 and uncapped["max_rounds"] is None
    page = browser.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("body")
    lines = page.evaluate("""async (both) => {
        const game = await import('/web/games/fools_crown.js');
        return both.map((obs) => game.view(obs, [{name: 'ann'}, {name: 'bob'}], 0).querySelector('.phase').innerText);
    }""", json.loads(json.dumps([capped, uncapped])))
    assert lines[0].startswith("Round 1 of at most 30 ·"), lines
    assert lines[1].startswith("Round 1 ·") and "null" not in lines[1], lines
    page.close()
