"""A cheater's probe of the page: the lobby's join seated a person at once, who never saw the match's
0.1 s turn limit with claims (the creator's bot claimed a rated win before his first move), and a
tournament's round deadline of 1 s read "round deadline 0 min"."""

from __future__ import annotations

import pytest
import requests

from tests.web.test_page_followups import auth, register, signed_in, started_swiss

pytestmark = pytest.mark.slow  # a browser and a server process


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def test_the_lobbys_join_shows_the_matchs_terms_and_seats_nobody_before_join(server, browser):
    host, guest = register(server, "trap-host"), register(server, "trap-guest")
    created = requests.post(f"{server}/matches", headers=auth(host), timeout=10, json={
        "game": "jester", "seats": 2, "turn_limit": {"seconds": 0.1, "on_timeout": "claim"}})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    assert requests.post(f"{server}/matches/{match_id}/seats", headers=auth(host), json={},
                         timeout=10).status_code in (200, 201)
    context, page, errors = signed_in(browser, server, guest)
    page.goto(f"{server}/")
    page.locator(f'tr[data-match="{match_id}"] button', has_text="join").click()
    page.wait_for_selector("#join-confirm")
    terms = page.inner_text("#join-turn-limit")
    assert "0.1 s per turn" in terms and "claim" in terms, terms
    seats = requests.get(f"{server}/matches/{match_id}", timeout=10).json()["seats"]
    assert not any(seat["player_id"] == guest["id"] for seat in seats)  # nothing sent yet
    page.click("#join-confirm")
    page.wait_for_function("id => location.hash === `#/match/${id}`", arg=match_id)
    seats = requests.get(f"{server}/matches/{match_id}", timeout=10).json()["seats"]
    assert seats[1]["player_id"] == guest["id"]
    assert not errors, errors
    context.close()


def test_a_round_deadline_under_a_minute_is_shown_in_seconds(server, browser):
    organiser = register(server, "quick-organiser")
    players = [register(server, f"quick-{i}") for i in range(3)]
    view = started_swiss(server, organiser, players, "Quick", round_deadline_seconds=1)
    context, page, errors = signed_in(browser, server, players[0])
    page.goto(f"{server}/#/tournament/{view['id']}")
    terms = page.wait_for_selector("#tournament-terms").inner_text()
    assert "round deadline 1 s" in terms and "0 min" not in terms, terms
    assert not errors, errors
    context.close()
