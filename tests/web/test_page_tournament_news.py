"""The lobby tells a signed-in player what their stream says of their tournaments (docs/tournaments.md,
"A bot in a tournament"): a bye and its points, a disqualification and why, the end. Debian's chromium
driven by Playwright against a real `motley serve` process (tests/web/conftest.py). Before, a player
sitting a round out learned it only from the tournament's own page."""

from __future__ import annotations

import time

import pytest
import requests

from tests.web.test_page_followups import auth, register, signed_in, started_swiss

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def news(page) -> list[tuple[str, str]]:
    return [(item.get_attribute("data-kind"), item.inner_text())
            for item in page.locator("#tournament-news-list li").all()]


def news_after_a_reload(page) -> list[tuple[str, str]]:
    """The news once the page is loaded again and its stream has told what it resumed on."""
    page.reload()
    page.wait_for_selector("#invitations[data-live='true']", state="attached")
    page.wait_for_timeout(1_000)
    return news(page)


def test_the_lobby_tells_a_player_of_a_bye_a_disqualification_and_the_end(server, browser):
    organiser, bob, cy, dee, ada = (register(server, name) for name in ["org", "bob", "cy", "dee", "ada"])
    context, page, errors = signed_in(browser, server, ada)
    page.goto(f"{server}/#/")
    page.wait_for_selector("#invitations[data-live='true']", state="attached")
    assert page.locator("#tournament-news").is_hidden()

    # Four players at tables of three: the last registered (ada, lowest placed) sits round 1 out.
    tournament = started_swiss(server, organiser, [bob, cy, dee, ada], "News of the day")
    assert tournament["rounds"][0]["byes"] == [ada["id"]]
    page.wait_for_selector("#tournament-news li[data-kind='bye']", timeout=15_000)
    assert news(page) == [("bye", "News of the day: you sit out round 1 (a bye, worth 1 point) dismiss")]
    # Said in a sentence of its own, not as the box read out with its button (a keyboard probe).
    assert page.inner_text("#invitations-said") == "News of the day: you sit out round 1 (a bye, worth 1 point)"
    assert page.get_attribute("#tournament-news", "aria-live") is None
    link = page.locator("#tournament-news li a")
    assert link.get_attribute("href") == f"#/tournament/{tournament['id']}"

    sanction = requests.post(f"{server}/tournaments/{tournament['id']}/sanctions", headers=auth(organiser),
                             json={"kind": "disqualify", "player_id": ada["id"], "reason": "two accounts"},
                             timeout=10)
    assert sanction.status_code == 201, sanction.text
    (table,) = tournament["rounds"][0]["tables"]
    void = requests.post(f"{server}/tournaments/{tournament['id']}/sanctions", headers=auth(organiser),
                         json={"kind": "void", "match_id": table["match_id"], "reason": "a test"}, timeout=10)
    assert void.status_code == 201, void.text
    page.wait_for_selector("#tournament-news li[data-kind='tournament-finished']", timeout=15_000)
    assert [kind for kind, _ in news(page)] == ["tournament-finished", "disqualified", "bye"]  # newest first
    assert "the organiser disqualified you: two accounts" in news(page)[1][1]

    # Kept across a reload (and heard once, though the stream resumes inside what it told); dismissed, gone.
    assert [kind for kind, _ in news_after_a_reload(page)] == ["tournament-finished", "disqualified", "bye"]
    page.click("#tournament-news li[data-kind='bye'] button")
    assert [kind for kind, _ in news(page)] == ["tournament-finished", "disqualified"]
    page.reload()
    page.wait_for_selector("#tournament-news li")
    assert [kind for kind, _ in news(page)] == ["tournament-finished", "disqualified"]
    assert not errors, errors
    context.close()


def test_a_players_page_lists_the_tournaments_they_entered(server, browser):
    organiser, eve, fay, gus = (register(server, name) for name in ["org", "eve", "fay", "gus"])
    tournament = started_swiss(server, organiser, [eve, fay, gus], "Entered <b>cup</b>")
    position = requests.get(f"{server}/health", timeout=10).json()["position"]
    requests.get(f"{server}/tournaments", params={"after": position}, timeout=10).raise_for_status()  # projected
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/player/{eve['id']}")
    page.wait_for_selector("#entered li", timeout=15_000)
    assert page.locator("#entered li").all_inner_texts() == ["Entered <b>cup</b> · Jest · active"]
    assert page.get_attribute("#entered li a", "href") == f"#/tournament/{tournament['id']}"
    page.goto(f"{server}/#/player/{organiser['id']}")  # the organiser did not enter it
    page.wait_for_function("document.querySelector('#view h1')?.textContent === 'org' && [...document"
                           ".querySelectorAll('#view h2')].some((h) => h.textContent === 'Tournaments')")
    assert page.locator("#entered").count() == 0
    assert not errors, errors
    context.close()


def test_a_place_replaces_the_earlier_one_and_a_dismissal_keeps_the_focus_and_holds_in_every_tab(server, browser):
    """A sanction after the end told a second place beside the first, both as the present; a dismissal by
    keyboard dropped the focus to the page's body; a second tab of the player saved its own list over a
    dismissal made in the first (a probe of the page's tournaments)."""
    organiser, ida, jon = (register(server, name) for name in ["org", "ida", "jon"])
    context, page, errors = signed_in(browser, server, ida)
    other = context.new_page()
    for tab in (page, other):
        tab.goto(f"{server}/#/")
        tab.wait_for_selector("#invitations[data-live='true']", state="attached")
    created = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jester", "name": "Short", "rounds": 1, "table_size": 2, "round_deadline_seconds": 1})
    tournament_id = created.json()["id"]
    for player in (ida, jon):
        entered = requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player), timeout=10)
        entered.raise_for_status()
    started = requests.post(f"{server}/tournaments/{tournament_id}/start", headers=auth(organiser), timeout=10).json()
    (table,) = started["rounds"][0]["tables"]
    time.sleep(1.1)
    forfeit = requests.post(f"{server}/tournaments/{tournament_id}/forfeits", headers=auth(organiser), timeout=10,
                            json={"player_ids": [jon["id"]]})
    assert forfeit.status_code == 200, forfeit.text
    page.wait_for_selector("#tournament-news li[data-kind='tournament-finished']", timeout=15_000)
    assert "you finished 1 of 2" in news(page)[0][1]
    void = requests.post(f"{server}/tournaments/{tournament_id}/sanctions", headers=auth(organiser), timeout=10,
                         json={"kind": "void", "match_id": table["match_id"], "reason": "a test"})
    assert void.status_code == 201, void.text
    page.wait_for_selector("#tournament-news li[data-kind='standings-changed']", timeout=15_000)
    assert [kind for kind, _ in news(page)] == ["standings-changed"]  # the end's place is replaced
    other.wait_for_selector("#tournament-news li[data-kind='standings-changed']", timeout=15_000)
    # Disqualified after the end, she has no place any more: the place line goes with it.
    disqualified = requests.post(f"{server}/tournaments/{tournament_id}/sanctions", headers=auth(organiser),
                                 timeout=10, json={"kind": "disqualify", "player_id": ida["id"], "reason": "late"})
    assert disqualified.status_code == 201, disqualified.text
    page.wait_for_selector("#tournament-news li[data-kind='disqualified']", timeout=15_000)
    assert [kind for kind, _ in news(page)] == ["disqualified"]
    other.wait_for_selector("#tournament-news li[data-kind='disqualified']", timeout=15_000)

    # Dismissed by keyboard in one tab: the focus stays on the page, and the other tab drops it too.
    page.focus("#tournament-news li button")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#tournament-news li').length === 0")
    assert page.evaluate("document.activeElement?.tagName") == "H1"
    other.wait_for_function("document.querySelectorAll('#tournament-news li').length === 0", timeout=5_000)
    assert news_after_a_reload(other) == []
    assert not errors, errors
    context.close()


def test_the_kept_stream_position_only_moves_on(server, browser):
    """Two tabs of one player keep one stream position. A tab whose stream lagged wrote an older position
    over the other's newer one, and a reload heard again, and showed again, news the other tab had
    dismissed (a fresh-clone CI run beside a probe). An item heard now leaves a later kept position alone."""
    from tests.web.test_page_third_probe import invite

    eve, fay = register(server, "feed-eve"), register(server, "feed-fay")
    context, page, errors = signed_in(browser, server, eve)
    page.goto(f"{server}/#/")
    page.wait_for_selector("#invitations[data-live='true']", state="attached")
    key = f"motley.feed.{eve['id']}"
    later = "999999999"  # as another tab, further on, had kept it
    page.evaluate("([key, later]) => localStorage.setItem(key, later)", [key, later])
    invite(server, fay, eve)
    page.wait_for_selector("#invitations li", timeout=15_000)  # heard, with its position
    page.wait_for_timeout(300)
    assert page.evaluate("key => localStorage.getItem(key)", key) == later
    assert not errors, errors
    context.close()


def test_a_dismissed_item_heard_again_stays_dismissed(server, browser):
    """A tab whose stream was behind another's heard an item after the other tab had dismissed it, and
    showed it again (a fresh-clone CI run beside a probe). Heard again, here from the stream's start, a
    dismissed item stays gone."""
    organiser, bob, cy, dee, gia = (register(server, name) for name in ["org2", "bob2", "cy2", "dee2", "gia"])
    context, page, errors = signed_in(browser, server, gia)
    page.goto(f"{server}/#/")
    page.wait_for_selector("#invitations[data-live='true']", state="attached")
    started_swiss(server, organiser, [bob, cy, dee, gia], "Heard twice")  # gia sits round 1 out
    page.wait_for_selector("#tournament-news li[data-kind='bye']", timeout=15_000)
    page.click("#tournament-news li[data-kind='bye'] button")
    page.wait_for_function("document.querySelectorAll('#tournament-news-list li').length === 0")
    page.evaluate("key => localStorage.setItem(key, '0')", f"motley.feed.{gia['id']}")  # the whole stream again
    assert news_after_a_reload(page) == []
    assert not errors, errors
    context.close()
