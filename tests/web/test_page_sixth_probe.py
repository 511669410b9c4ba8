"""What a walk through the page in Debian's chromium found (2026-12-05): a voided tournament table read
"finished"; a match that was over still told its away seat it could come back ("until you are back"),
and its result did not say who had left; a fork's kept seat was offered as any "Take a seat"."""

from __future__ import annotations

import time

import pytest
import requests

from tests.web.test_page_fifth_probe import finished_fools_crown, jester_with_a_late_seat, open_replay, press, read
from tests.web.test_page_followups import auth, register, signed_in, started_swiss

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def test_a_voided_table_reads_voided_on_its_tournament(server, browser):
    org = register(server, "org-void")
    players = [register(server, f"void-{i}") for i in range(3)]
    started = started_swiss(server, org, players, "Voids")
    (table,) = started["rounds"][0]["tables"]
    voided = requests.post(f"{server}/tournaments/{started['id']}/sanctions", headers=auth(org), timeout=10,
                           json={"kind": "void", "match_id": table["match_id"], "reason": "a test"})
    voided.raise_for_status()
    context, page, errors = signed_in(browser, server, players[0])
    page.goto(f"{server}/#/tournament/{started['id']}")
    link = page.locator(f"a[href*='{table['match_id']}']")
    link.first.wait_for()
    page.wait_for_function("id => [...document.querySelectorAll('a')].some(a => a.href.includes(id)"
                           " && a.textContent === 'voided')", arg=table["match_id"], timeout=10_000)
    assert not errors, errors
    context.close()


def test_a_claimed_match_says_who_was_away_and_offers_no_return(server, browser):
    match_id, late, present = jester_with_a_late_seat(server, ("eli-claimed", "fay-claimed"), 1.0)
    for _ in range(100):
        if read(server, match_id, present)["can_claim"]:
            break
        time.sleep(0.1)
    requests.post(f"{server}/matches/{match_id}/claim", headers=auth(present), timeout=10).raise_for_status()
    context, page, errors = signed_in(browser, server, late)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_function("() => document.querySelector('#status')?.textContent === 'finished'")
    page.wait_for_selector("#result-how")
    assert f"{late['name']} was away at the end" in page.inner_text("#result-how")
    assert "standings count that seat last" in page.inner_text("#result-how")  # whatever its place here
    board = page.inner_text("#board")
    assert "until you are back" not in board and "for now" not in board and "away when it ended" in board
    assert page.locator("#return").count() == 0
    assert not errors, errors
    context.close()


def test_a_forks_kept_seat_is_offered_as_yours(server, browser):
    ann, bob = register(server, "ann-kept"), register(server, "bob-kept")
    parent = finished_fools_crown(server, [ann, bob], reveal_at_end=True)
    seat = next(i for i, s in enumerate(read(server, parent)["seats"]) if s["player_id"] == ann["id"])
    forked = requests.post(f"{server}/matches/{parent}/forks", headers=auth(ann), timeout=10,
                           json={"version": read(server, parent)["version"] - 1, "reserved": {str(seat): ann["id"]}})
    forked.raise_for_status()
    context, page, errors = signed_in(browser, server, ann)
    page.goto(f"{server}/#/match/{forked.json()['id']}")
    page.wait_for_selector("#take-seat")
    assert page.inner_text("#take-seat") == "Take your kept seat"
    page.click("#take-seat")
    page.wait_for_function("() => !document.querySelector('#take-seat')", timeout=10_000)
    assert read(server, forked.json()["id"])["seats"][seat]["player_id"] == ann["id"]
    assert not errors, errors
    context.close()
    other, other_page, other_errors = signed_in(browser, server, bob)  # nothing kept for Bob: a plain seat
    other_page.goto(f"{server}/#/match/{forked.json()['id']}")
    other_page.wait_for_selector("#take-seat")
    assert other_page.inner_text("#take-seat") == "Take a seat"
    assert not other_errors, other_errors
    other.close()


def test_a_fork_pressed_from_the_keyboard_lands_on_the_new_tables_heading_and_the_page_says_rated(server, browser):
    """"Fork from this position" opened the new match with the focus on the page's body (a keyboard user
    started again from the top): a navigation puts it on the new page's heading. The match's page did not
    say whether it was rated (only the join screen did)."""
    ivy, jon = register(server, "ivy-keys"), register(server, "jon-keys")
    parent = finished_fools_crown(server, [ivy, jon], reveal_at_end=True)
    unrated = requests.post(f"{server}/matches", headers=auth(ivy), timeout=10,
                            json={"game": "jest", "seats": 3, "rated": False})
    unrated.raise_for_status()
    context, page, errors = signed_in(browser, server, ivy)
    open_replay(page, server, parent)
    press(page, "#fork")
    page.wait_for_function("id => location.hash.startsWith('#/match/') && !location.hash.includes(id)", arg=parent)
    page.wait_for_selector("#match-title")
    page.wait_for_function("() => document.activeElement?.id === 'match-title'", timeout=10_000)
    assert read(server, parent)["rated"] is True
    page.goto(f"{server}/#/match/{parent}")
    page.wait_for_function("() => document.querySelector('#rated')?.textContent === 'rated'", timeout=10_000)
    page.goto(f"{server}/#/match/{unrated.json()['id']}")
    page.wait_for_function("() => document.querySelector('#rated')?.textContent === 'not rated'", timeout=10_000)
    assert not errors, errors
    context.close()


def test_the_leaderboards_game_picker_keeps_the_focus_as_the_arrow_keys_step_through_the_games(server, browser):
    """A navigation puts the focus on the new page's heading; the leaderboard's game picker changes the
    page's address itself, so the arrow keys stepped one game, then the focus was on the heading (a
    review). A control drawn again on the new page keeps it."""
    kit = register(server, "kit-board")
    context, page, errors = signed_in(browser, server, kit)
    page.goto(f"{server}/#/leaderboard/jest")
    page.wait_for_selector("#board-game")
    first = page.evaluate("() => location.hash")
    page.focus("#board-game")
    for step in range(2):
        before = page.evaluate("() => { document.querySelector('#board-game').dataset.old = 'yes';"
                               " return location.hash; }")
        page.keyboard.press("ArrowDown")
        page.wait_for_function("h => location.hash !== h", arg=before, timeout=10_000)
        # The page drawn again (a new picker), and the hash change's handler done with the focus.
        page.wait_for_function("() => document.querySelector('#board-game:not([data-old])')", timeout=10_000)
        page.wait_for_timeout(300)
        assert page.evaluate("() => document.activeElement?.id") == "board-game", step
    assert page.evaluate("() => location.hash") not in (first, before)
    assert not errors, errors
    context.close()
