"""A move the table offered, refused because the match moved on before it arrived (a phone probe played
two people against each other, one table's updates cut): said in the page's words, the table drawn as it
is now. An opponent's take of the same Tumult Royale tile was told only in the server's words ("another
player holds that tile"), and a move after the other player resigned was told to "choose again" in a match
that was over."""

from __future__ import annotations

import json
import time

import pytest
import requests

from tests.web.test_page_followups import auth, match_with, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def people_at(server, game, names):
    """A started match of ``game`` between people registered as ``names``, once a seat is to act (the deal
    is drawn by the worker, a moment after the start): (players, one to act first, match id)."""
    players = [register(server, name) for name in names]
    match_id = match_with(server, players[0], game, len(players), people=players[1:])
    for _ in range(100):
        acting = [player for player in players if view(server, match_id, player)["legal_actions"]]
        if acting:
            return players, acting[0], match_id
        time.sleep(0.1)
    raise AssertionError("nobody's turn came")


def view(server, match_id, player):
    return requests.get(f"{server}/matches/{match_id}", headers=auth(player), timeout=10).json()


def stale_table(browser, server, match_id, player):
    """``player``'s table, its stream cut (a tab left behind): nothing tells it the match moved on."""
    context, page, errors = signed_in(browser, server, player)
    page.route("**/stream**", lambda route: None)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("button.action:enabled", timeout=15_000)
    return context, page, errors


def test_a_move_the_others_move_made_illegal_is_said_as_the_table_changed(server, browser):
    (ann, bob, _), _, match_id = people_at(server, "jest", ["ann-raced", "bob-raced", "cy-raced"])
    assert len(view(server, match_id, ann)["to_act"]["seats"]) == 3  # Jest's offers: made at once
    context, page, errors = stale_table(browser, server, match_id, ann)
    shown = page.inner_text("#version")
    seen = view(server, match_id, bob)  # the match moves on: bob's offer
    moved = requests.post(f"{server}/matches/{match_id}/moves", headers=auth(bob), timeout=10,
                          json={"action": seen["legal_actions"][0]})
    assert moved.status_code == 201, moved.text
    # The answer a move gets where the others' moves landed first and took what it offered (two seats
    # acting at once send no version: the server judges the move on the state it lands on).
    detail = "another player holds that tile"
    page.route(f"**/matches/{match_id}/moves", lambda route: route.fulfill(
        status=422, content_type="application/problem+json", body=json.dumps({
            "type": "urn:motley:problem:illegal-move", "title": "Illegal move", "status": 422, "detail": detail})))
    page.locator("button.action:enabled").first.click()
    page.wait_for_selector("#refusal .problem")
    box = page.locator("#refusal .problem")
    assert box.get_attribute("data-type") == "urn:motley:problem:illegal-move"
    assert box.inner_text().startswith("The table changed before your move arrived"), box.inner_text()
    assert box.get_attribute("title") == detail  # the server's words kept, for whoever wants them
    page.wait_for_function("v => document.querySelector('#version').textContent !== v", arg=shown)
    assert page.inner_text("#version") == str(view(server, match_id, ann)["version"])
    assert not errors, errors
    context.close()


def test_a_move_after_the_other_player_resigned_says_the_match_ended(server, browser):
    players, ann, match_id = people_at(server, "jester", ["ann-resigned", "bob-resigned"])
    bob = next(player for player in players if player is not ann)
    context, page, errors = stale_table(browser, server, match_id, ann)
    resigned = requests.post(f"{server}/matches/{match_id}/resign", headers=auth(bob), timeout=10)
    assert resigned.status_code == 200, resigned.text
    assert view(server, match_id, ann)["status"] == "finished"
    page.locator("button.action:enabled").first.click()
    page.wait_for_selector("#refusal .problem")
    said = page.inner_text("#refusal .problem")
    assert said.startswith("The match ended before your move arrived"), said
    assert "choose again" not in said
    assert page.locator("button.action:enabled").count() == 0
    assert not errors, errors
    context.close()


def test_a_move_after_your_own_seat_was_resigned_elsewhere_says_so(server, browser):
    """A probe was forfeited, and another withdrawn from the tournament, while a move was on its way: the
    box said only that the table changed. It says the seat is the computer's now."""
    (ann, _, _), _, match_id = people_at(server, "jest", ["ann-gone", "bob-gone", "cy-gone"])
    context, page, errors = stale_table(browser, server, match_id, ann)
    resigned = requests.post(f"{server}/matches/{match_id}/resign", headers=auth(ann), timeout=10)
    assert resigned.status_code == 200, resigned.text  # from another device
    page.locator("button.action:enabled").first.click()
    page.wait_for_selector("#refusal .problem")
    said = page.inner_text("#refusal .problem")
    assert said.startswith("Your seat was resigned before your move arrived"), said
    assert "choose again" not in said
    assert not errors, errors
    context.close()
