"""The web page around time and absence (api/web/), after the probe of it: Debian's chromium driven by
Playwright against a real `motley serve` process, as tests/web/test_browser.py does (its conftest's browser).

- In a match whose turn limit is `on_timeout: "claim"` nobody plays an absent seat: the table says so (the
  seat list, "I'm back"), and tells a present player why Claim showed; with "computer" it says a computer
  plays the seat.
- Countdowns run on the server's clock (the answers' Date headers), not a device's that is off.
- The lobby's form creates a claim-mode match.
- A move that arrives after its timed phase closed is told in a short sentence (the server's detail kept as
  the box's title), and the box goes once the match moves on.
- A replay shows a past version's timers as what they were (their deadline), not as "0 s left".
"""

from __future__ import annotations

import re
import time
from datetime import datetime

import pytest
import requests

from tests.web.test_page_followups import auth, move, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

TIME_IS_UP = "urn:motley:problem:time-is-up"


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def started(base: str, players: list[dict], body: dict) -> str:
    """A match of ``body`` with every one of ``players`` seated (in order), started."""
    created = requests.post(f"{base}/matches", headers=auth(players[0]), json=body, timeout=10)
    created.raise_for_status()
    match_id = created.json()["id"]
    for player in players:
        requests.post(f"{base}/matches/{match_id}/seats", headers=auth(player), json={}, timeout=10).raise_for_status()
    requests.post(f"{base}/matches/{match_id}/start", headers=auth(players[0]), timeout=10).raise_for_status()
    return match_id


def read(base: str, match_id: str, player: dict | None = None) -> dict:
    answer = requests.get(f"{base}/matches/{match_id}", headers=auth(player) if player else {}, timeout=10)
    answer.raise_for_status()
    return answer.json()


def seconds_left(deadline: str) -> float:
    return datetime.fromisoformat(deadline).timestamp() - time.time()


def shown_seconds(page, selector: str) -> int:
    text = page.inner_text(selector)
    found = re.search(r"(\d+) s left", text)
    assert found, text
    return int(found.group(1))


def tumult_at_ready(base: str, players: list[dict], ready_seconds: float) -> str:
    """A 2-seat Tumult Royale match played through the API up to its timed ready step."""
    match_id = started(base, players, {"game": "tumult-royale", "seats": 2,
                                       "options": {"ready_seconds": ready_seconds, "tax_seconds": 60}})
    for _ in range(200):
        view = read(base, match_id, players[0])
        if view["observation"]["phase"] == "ready" and view["timer"]:
            return match_id
        for seat in view["to_act"]["seats"] if view["to_act"]["kind"] == "players" else []:
            legal = read(base, match_id, players[seat])["legal_actions"]
            if legal:
                move(base, match_id, players[seat], legal[0])
    raise AssertionError("the match never reached its ready step")


def test_an_absent_seat_is_told_as_its_mode_has_it_and_a_present_player_why_claim_showed(server, browser):
    ann, bob = register(server, "ann"), register(server, "bob")
    claim_id = started(server, [ann, bob], {"game": "jester", "seats": 2,
                                           "turn_limit": {"seconds": 2, "on_timeout": "claim"}})
    first = read(server, claim_id)["to_act"]["seats"][0]
    late, present = ([ann, bob][first], [ann, bob][1 - first])
    pages = {}
    for player in (late, present):
        context, page, errors = signed_in(browser, server, player)
        page.goto(f"{server}/#/match/{claim_id}")
        pages[player["name"]] = (context, page, errors)
    late_page, present_page = pages[late["name"]][1], pages[present["name"]][1]

    # The first seat to act lets its time run out: absent, and nothing plays it (the match waits).
    for page in (late_page, present_page):
        page.wait_for_selector(".match-head .absent", timeout=15_000)
    view = read(server, claim_id, present)
    assert view["absent"] == [first] and view["can_claim"] and view["turn_clock"] is None
    for page in (late_page, present_page):
        label = page.inner_text(".match-head .absent")
        assert "computer" not in label and "claim" in label, label
    # The absent player: "I'm back" and a line say what really happens meanwhile.
    back = late_page.get_attribute("#return", "title")
    assert "computer" not in back and "claim" in back, back
    note = late_page.inner_text("#absent-note")
    assert "claim" in note and "computer" not in note, note
    # The present player: why Claim showed.
    present_page.wait_for_selector("#claim")
    reason = present_page.inner_text("#claim-reason")
    assert late["name"] in reason and "time ran out" in reason and "claim the match" in reason, reason
    assert read(server, claim_id)["version"] == view["version"]  # still waiting: nobody played the seat
    for context, _, errors in pages.values():
        assert not errors, errors
        context.close()

    # With "computer" (the default), the table says a computer plays the absent seat.
    computer_id = started(server, [ann, bob], {"game": "jester", "seats": 2, "turn_limit": {"seconds": 4}})
    first = read(server, computer_id)["to_act"]["seats"][0]
    late = [ann, bob][first]
    context, page, errors = signed_in(browser, server, late)
    page.goto(f"{server}/#/match/{computer_id}")
    page.wait_for_selector("#return", timeout=15_000)  # absent, the match still running
    assert "computer" in page.inner_text(".match-head .absent")
    assert "computer" in page.get_attribute("#return", "title")
    assert page.locator("#claim").count() == 0
    assert not errors, errors
    context.close()


def test_the_lobby_creates_a_match_whose_absent_seats_may_be_claimed(server, browser):
    cat = register(server, "cat")
    context, page, errors = signed_in(browser, server, cat)
    page.goto(server + "/")
    page.wait_for_selector("#create")
    page.select_option("#create-game", "jester")
    assert page.is_disabled("#create-on-timeout")  # chosen with a turn limit only
    page.fill("#create-turn-limit", "5")
    assert page.input_value("#create-on-timeout") == "computer"  # the default
    page.select_option("#create-on-timeout", "claim")
    page.click("#create-submit")
    page.wait_for_url("**/#/match/*")
    match_id = page.url.rsplit("/", 1)[1]
    assert read(server, match_id)["turn_limit"] == {"seconds": 5, "on_timeout": "claim"}
    assert not errors, errors
    context.close()


def test_countdowns_run_on_the_servers_clock_whatever_the_device_says(server, browser):
    dee, eve = register(server, "dee"), register(server, "eve")
    match_id = started(server, [dee, eve], {"game": "jester", "seats": 2, "turn_limit": {"seconds": 120}})
    for skew in (+40, -40):  # a device whose clock is fast, and one whose clock is slow
        context, page, errors = signed_in(browser, server, dee)
        page.clock.install(time=time.time() + skew)  # the clock runs on from there, `skew` s off
        page.goto(f"{server}/#/match/{match_id}")
        page.wait_for_selector(".match-head .timer")
        page.wait_for_timeout(600)  # a tick or two
        deadline = read(server, match_id)["turn_clock"]["deadline"]
        shown = shown_seconds(page, ".match-head .timer")
        assert abs(shown - seconds_left(deadline)) <= 2.5, (skew, shown, seconds_left(deadline))
        assert not errors, errors
        context.close()


def test_a_late_move_is_told_in_short_and_the_box_goes_once_the_match_moves_on(server, browser):
    fay, gus = register(server, "fay"), register(server, "gus")
    match_id = tumult_at_ready(server, [fay, gus], ready_seconds=6)
    context, page, errors = signed_in(browser, server, gus)
    # gus's table falls behind: its stream is broken, and its reads fail until his move is sent.
    stale = {"on": False}
    page.route("**/stream*", lambda route: route.abort())
    page.route(f"**/matches/{match_id}", lambda route: route.abort() if stale["on"] else route.continue_())
    page.route("**/moves", lambda route: (stale.update(on=False), route.continue_()))
    page.goto(f"{server}/#/match/{match_id}")
    ready = page.get_by_role("button", name="ready")
    ready.wait_for()
    stale["on"] = True
    # The ready step closes on the server (its deadline passes without gus); his table still offers it.
    for _ in range(100):
        if read(server, match_id)["observation"]["phase"] != "ready":
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the ready step never closed")
    ready.click()
    box = page.locator("#refusal .problem")
    box.wait_for()
    assert box.inner_text() == "Too late: that phase closed before your move arrived."
    assert box.get_attribute("data-type") == TIME_IS_UP
    assert "ready" in (box.get_attribute("title") or "")  # the server's detail, kept
    page.wait_for_function("document.querySelector('.tumult-royale .phase b')?.textContent !== 'ready'")

    # The match moves on (fay resigns): the table is drawn anew, and the refusal about the old one goes.
    shown_at = time.monotonic()
    requests.post(f"{server}/matches/{match_id}/resign", headers=auth(fay), timeout=10).raise_for_status()
    page.wait_for_function("document.querySelector('#status')?.textContent === 'finished'", timeout=6_000)
    assert page.locator("#refusal .problem").count() == 0
    assert time.monotonic() - shown_at < 7  # the move on cleared it, not the box's own timer
    assert not errors, errors
    context.close()


def test_a_replay_shows_a_past_timer_as_it_was(server, browser):
    hal, ida = register(server, "hal"), register(server, "ida")
    match_id = tumult_at_ready(server, [hal, ida], ready_seconds=60)
    at_ready = read(server, match_id)
    move(server, match_id, hal, {"type": "ready"}).raise_for_status()  # a later version, the step still timed
    latest = read(server, match_id)
    assert latest["version"] > at_ready["version"] and latest["timer"]
    deadline = datetime.fromisoformat(at_ready["timer"]["deadline"]).astimezone()

    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#replay-board #version")
    # The last version of a running match counts down.
    assert "s left" in page.inner_text("#replay-board .match-head .timer")
    page.click(f"#events li[data-version='{at_ready['version']}'] > button")
    page.wait_for_function("v => Number(document.querySelector('#replay-board #version')?.textContent) === v",
                           arg=at_ready["version"])
    timers = page.locator("#replay-board .timer").all_inner_texts()
    assert len(timers) == 2, timers  # the header's and the hourglass
    for text in timers:
        assert "s left" not in text and f"timed, deadline {deadline:%H:%M:%S}" in text, text
    page.wait_for_timeout(600)  # they tick no more
    assert page.locator("#replay-board .timer").all_inner_texts() == timers
    assert not errors, errors
    context.close()
