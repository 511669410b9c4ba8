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


def test_the_last_round_is_shown_as_it_was_resolved_once_it_is_over(server, browser):
    """A web-play probe: once the round's winner claimed, the page kept only "Round 1: ann won"; the
    round's cards, dice and strengths were gone until the replay. The observation's last_round keeps what
    the resolution showed everyone, and the page lists it (here a round whose winner had nothing to claim
    or challenge: the next round began at once)."""
    from tests.engines.test_fools_crown import HAND_A, HAND_B, act, auto, board, commit, roll

    s = board([HAND_A, ["JC", "QC", "KC", "JD", "QD"], HAND_B], crowns=[["AC"], ["AD", "AH", "AS"], []])
    s = commit(s, 0, "KH", "8H")
    s = act(s, 1, {"type": "noble-exchange", "cards": ["JC", "QC"]})
    s = commit(s, 2, "QS", "2C")
    s = auto(roll(roll(s, 0, [3, 3]), 2, [1, 2]))
    seen = ENGINE.observation(s, 1)
    assert seen["round"] == 2 and seen["commits"] == [None, None, None]  # the round's table is cleared
    page = browser.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("body")
    items = page.evaluate("""async (obs) => {
        const game = await import('/web/games/fools_crown.js');
        const board = game.view(obs, [{name: 'ann'}, {name: 'bob'}, {name: 'cy'}], 1);
        document.body.append(board);
        return [...board.querySelectorAll('.last-round-detail li')].map((li) => li.innerText);
    }""", json.loads(json.dumps(seen)))
    strength = seen["last_round"]["strengths"][0]
    assert len(items) == 2 and items[0].startswith("ann") and f"strength {strength}" in items[0], items
    assert items[1].startswith("cy") and "did not qualify" in items[1], items  # dice 1 + 2: failed
    page.close()
