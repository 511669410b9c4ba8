"""The lobby tells a signed-in player what their stream says of their tournaments (docs/tournaments.md,
"A bot in a tournament"): a bye and its points, a disqualification and why, the end. Debian's chromium
driven by Playwright against a real `motley serve` process (tests/web/conftest.py). Before, a player
sitting a round out learned it only from the tournament's own page."""

from __future__ import annotations

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
    page.reload()
    page.wait_for_selector("#invitations[data-live='true']", state="attached")
    page.wait_for_timeout(1_000)
    assert [kind for kind, _ in news(page)] == ["tournament-finished", "disqualified", "bye"]
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
    page.wait_for_function("document.querySelector('#view h1')?.textContent === 'org'"
                           " && [...document.querySelectorAll('#view h2')].some((h) => h.textContent === 'Tournaments')")
    assert page.locator("#entered").count() == 0
    assert not errors, errors
    context.close()
