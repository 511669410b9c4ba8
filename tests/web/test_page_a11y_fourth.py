"""What a fourth keyboard and screen-reader probe of the page found, each fixed and held here, in Debian's
chromium against a real `motley serve` (tests/web/conftest.py):

- a spectator's status line said whose turn it was, never a move (the others' moves were read for a seat only);
- the computer's moves for a resigned seat were said under the person's name;
- another seat's move closed the open "everything you see" fold and put the focus on the first move button,
  which Enter then played;
- Jester's marker moves said "your reserve" of another seat's;
- Fool's Crown's dice were glyphs only; the replay's board had no heading of its own.
"""

from __future__ import annotations

import re

import pytest
import requests

from tests.web.test_page_a11y_third import RECORD
from tests.web.test_page_fifth_probe import finished_fools_crown, open_replay, read
from tests.web.test_page_followups import auth, match_with, move, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def said(page) -> list[str]:
    return page.evaluate("window.said")


def play_first(server, match_id, players, until, page, rounds=40):
    """Each seat of ``players`` to act plays its first legal action, until ``until(said)`` holds."""
    for _ in range(rounds):
        if until(said(page)):
            return
        acted = False
        for player in players:
            view = read(server, match_id, player)
            if view["status"] != "active":
                return
            if view["legal_actions"]:
                move(server, match_id, player, view["legal_actions"][0])
                acted = True
        page.wait_for_timeout(700 if acted else 300)


def test_a_spectator_hears_the_players_moves(server, browser):
    ann, bob, cy = (register(server, f"a11y4-watched-{n}") for n in ("ann", "bob", "cy"))
    match_id = match_with(server, ann, "jest", 3, people=[bob, cy])
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/match/{match_id}?as=spectator")
    page.wait_for_selector("#observation-heading:has-text('spectator')")
    page.evaluate(RECORD, "#announce")
    named = re.compile(r"a11y4-watched-(ann|bob|cy): (offer|take)")
    play_first(server, match_id, [ann, bob, cy], lambda texts: any(named.search(t) for t in texts), page)
    assert any(named.search(text) for text in said(page)), said(page)
    assert not errors, errors
    context.close()


def test_the_computers_moves_for_a_resigned_seat_are_said_as_the_computers(server, browser):
    ivy, jon = register(server, "a11y4-stays"), register(server, "a11y4-resigns")
    match_id = match_with(server, ivy, "jest", 3, people=[jon], computers={"2": "random"})
    assert requests.post(f"{server}/matches/{match_id}/resign", headers=auth(jon), timeout=10).status_code == 200
    context, page, errors = signed_in(browser, server, ivy)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#observation-heading")
    page.evaluate(RECORD, "#announce")
    play_first(server, match_id, [ivy], lambda texts: any("the computer for a11y4-resigns: " in t for t in texts), page)
    texts = said(page)
    assert any("the computer for a11y4-resigns: " in text for text in texts), texts
    assert not any(re.search(r"(?<!for )a11y4-resigns: ", text) for text in texts), texts
    assert not errors, errors
    context.close()


def test_another_seats_move_leaves_the_everything_you_see_fold_open_and_focused(server, browser):
    ann, bob, cy = (register(server, f"a11y4-fold-{n}") for n in ("ann", "bob", "cy"))
    match_id = match_with(server, ann, "jest", 3, people=[bob, cy])
    context, page, errors = signed_in(browser, server, ann)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#seen-all-summary")
    page.focus("#seen-all-summary")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.querySelector('#seen-all').open")
    version = page.inner_text("#version")
    offer = read(server, match_id, bob)["legal_actions"][0]
    move(server, match_id, bob, offer).raise_for_status()
    page.wait_for_function("v => document.querySelector('#version').textContent !== v", arg=version)
    page.wait_for_timeout(300)
    assert page.evaluate("() => document.querySelector('#seen-all').open")
    assert page.evaluate("() => document.activeElement?.id") == "seen-all-summary"
    assert not errors, errors
    context.close()


def test_jesters_reserve_is_the_movers_and_fools_crowns_dice_say_their_numbers(server, browser):
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/")
    page.wait_for_selector("#register-name")
    labels = page.evaluate("""async () => {
        const jester = await import('/web/games/jester.js');
        const { die } = await import('/web/games/fools_crown.js');
        const tragedy = { type: 'tragedy', from: 'reserve', to: 1 };
        return [jester.describe(tragedy), jester.describe(tragedy, null, null, false), die(5).textContent];
    }""")
    assert labels[0].startswith("tragedy: a marker from your reserve to "), labels
    assert labels[1].startswith("tragedy: a marker from their reserve to "), labels
    assert re.fullmatch(r"⚄\s*5\s*", labels[2]), labels
    assert not errors, errors
    context.close()


def test_the_replays_board_has_a_heading_of_its_own(server, browser):
    players = [register(server, f"a11y4-replay-{n}") for n in ("ann", "bob")]
    match_id = finished_fools_crown(server, players, reveal_at_end=True)
    context, page, errors = signed_in(browser, server, players[0])
    open_replay(page, server, match_id)
    heading = page.locator("#replay-board-heading")
    heading.wait_for()
    assert re.fullmatch(r"The board at version \d+", heading.inner_text())
    assert not errors, errors
    context.close()


def test_a_jester_table_ended_otherwise_names_nobody_to_decide(server, browser):
    """A web organiser's probe: a Jester table voided during play still read "... · ann to decide"."""
    ann, bob = register(server, "a11y4-jester-ann"), register(server, "a11y4-jester-bob")
    match_id = match_with(server, ann, "jester", 2, people=[bob])
    seen = read(server, match_id, ann)
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/")
    page.wait_for_selector("#register-name")
    lines = page.evaluate("""async ([obs, seats]) => {
        const jester = await import('/web/games/jester.js');
        const phase = (match) => jester.view(obs, seats, 0, match).querySelector('.phase').textContent;
        return [phase({ status: 'active' }), phase({ status: 'cancelled', voided: 'a dispute' }),
                phase({ status: 'cancelled' }), phase({ status: 'finished' })];
    }""", [seen["observation"], seen["seats"]])
    assert "to decide" in lines[0], lines
    assert "voided by the tournament's organiser" in lines[1] and "to decide" not in lines[1], lines
    assert "the match was cancelled" in lines[2] and "the game is over" in lines[3], lines
    assert not any("to decide" in line for line in lines[1:]), lines
    assert not errors, errors
    context.close()


def test_the_lobbys_row_links_are_named_with_their_match(server, browser):
    """A screen reader's list of links read "table, watch, replay" once per row, no match told apart."""
    host = register(server, "a11y4-lobby-host")
    match_id = match_with(server, host, "jest", 3)
    context, page, errors = signed_in(browser, server, register(server, "a11y4-lobby-guest"))
    page.goto(f"{server}/#/")
    row = page.locator(f"tr[data-match='{match_id}']").first
    row.wait_for()
    for word in ("join", "open", "watch", "replay"):
        control = row.get_by_role("button" if word == "join" else "link",
                                  name=f"{word}: Jest, 3 seats: a11y4-lobby-host, free, free", exact=True)
        assert control.count() == 1, word
    assert not errors, errors
    context.close()
