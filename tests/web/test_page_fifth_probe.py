"""The web page's fixes after the fifth probe of the page (api/web/app.js, the web-flows probe): Debian's
chromium driven by Playwright against a real `motley serve` process, as tests/web/test_browser.py does.

- D1: the replay offers "Fork from this position" only where the API allows a fork (a finished match
  revealed at its end, or the auditor): a finished match created with reveal_at_end false showed the
  button to its players, and pressing it was a 403.
- D2: a button that the redraw its answer made takes away ("I'm back", Start, Leave, Resign, Claim) no
  longer leaves the keyboard focus on the page's body: it goes on in the table drawn again.
- D3: a player who withdrew from a running tournament is told so instead of "Your next table comes with
  the next round", and the standings mark each entry no longer in play (the row's status), during the
  tournament and after.
"""

from __future__ import annotations

import time

import pytest
import requests

from tests.web.test_page_followups import auth, play_out, register, signed_in, started_swiss
from tests.web.test_page_fourth_probe import FOCUSED

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


#: The focus is in the table drawn again (#board), not on the body.
IN_BOARD = ("() => document.activeElement && document.activeElement !== document.body"
            " && document.querySelector('#board')?.contains(document.activeElement)")


def read(base: str, match_id: str, player: dict | None = None) -> dict:
    answer = requests.get(f"{base}/matches/{match_id}", headers=auth(player) if player else {}, timeout=10)
    answer.raise_for_status()
    return answer.json()


def seated(base: str, players: list[dict], body: dict, start: bool = True) -> str:
    """A match of ``body`` with every one of ``players`` seated (in order), started unless ``start`` is false."""
    created = requests.post(f"{base}/matches", headers=auth(players[0]), json=body, timeout=10)
    created.raise_for_status()
    match_id = created.json()["id"]
    for player in players:
        requests.post(f"{base}/matches/{match_id}/seats", headers=auth(player), json={}, timeout=10).raise_for_status()
    if start:
        requests.post(f"{base}/matches/{match_id}/start", headers=auth(players[0]), timeout=10).raise_for_status()
    return match_id


def jester_with_a_late_seat(base: str, names: tuple[str, str], seconds: float) -> tuple[str, dict, dict]:
    """A started 2-seat Jester match of two new players, ``seconds`` a turn, to be claimed when the first
    seat's time runs out: its id, the late player (the first to act, who will not) and the present one."""
    players = [register(base, name) for name in names]
    match_id = seated(base, players, {"game": "jester", "seats": 2,
                                      "turn_limit": {"seconds": seconds, "on_timeout": "claim"}})
    first = read(base, match_id)["to_act"]["seats"][0]
    return match_id, players[first], players[1 - first]


def finished_fools_crown(base: str, players: list[dict], reveal_at_end: bool) -> str:
    """A 2-seat Fool's Crown match of ``players``, ended at once: one move, then the other resigns."""
    match_id = seated(base, players, {"game": "fools-crown", "seats": 2, "reveal_at_end": reveal_at_end})
    seen = {p["id"]: read(base, match_id, p) for p in players}
    mover = next(p for p in players if seen[p["id"]]["legal_actions"])
    requests.post(f"{base}/matches/{match_id}/moves", headers=auth(mover), timeout=10,
                  json={"action": seen[mover["id"]]["legal_actions"][0]}).raise_for_status()
    other = next(p for p in players if p is not mover)
    requests.post(f"{base}/matches/{match_id}/resign", headers=auth(other), timeout=10).raise_for_status()
    assert read(base, match_id)["status"] == "finished"
    return match_id


def open_replay(page, base: str, match_id: str, spectator: bool = False) -> None:
    # From the lobby: a hash change keeps the last replay drawn until the new one is, and two matches
    # at the same version passed the wait below on the old one (a fresh-clone CI run).
    page.goto(f"{base}/#/")
    page.wait_for_selector("#replay-tools", state="detached")
    page.goto(f"{base}/#/replay/{match_id}{'?as=spectator' if spectator else ''}")
    page.wait_for_selector("#replay-tools #export")
    last = read(base, match_id)["version"]
    page.wait_for_function("v => document.querySelector('#version')?.textContent === String(v)", arg=last)


# -- D1 ---------------------------------------------------------------------------------------------
def test_the_replay_offers_a_fork_only_where_the_api_allows_one(server, browser):
    ada, ben = register(server, "ada-fork"), register(server, "ben-fork")
    hidden = finished_fools_crown(server, [ada, ben], reveal_at_end=False)
    shown = finished_fools_crown(server, [ada, ben], reveal_at_end=True)
    # The API's rule: a finished match that is never revealed is forked by the auditor alone.
    refused = requests.post(f"{server}/matches/{hidden}/forks", headers=auth(ada), timeout=10,
                            json={"version": 3, "reserved": {}})
    assert refused.status_code == 403, refused.text
    assert read(server, hidden, ada)["viewer"]["sees_all"] is False

    context, page, errors = signed_in(browser, server, ada)
    # Never revealed: no fork for its player, as its seat or as a spectator (it was offered, then a 403).
    open_replay(page, server, hidden)
    assert page.locator("#fork").count() == 0
    open_replay(page, server, hidden, spectator=True)
    assert page.locator("#fork").count() == 0

    # Revealed at its end: offered, and the API takes it.
    open_replay(page, server, shown)
    assert page.locator("#fork").count() == 1
    page.click("#fork")
    page.wait_for_function("id => location.hash.startsWith('#/match/') && !location.hash.includes(id)", arg=shown)
    assert page.locator("#tools-error .problem").count() == 0
    assert not errors, errors
    context.close()


# -- D2 ---------------------------------------------------------------------------------------------
def press(page, selector: str) -> None:
    """Focus ``selector`` and press Enter on it, as a keyboard user does."""
    page.wait_for_selector(f"{selector}:enabled")
    page.focus(selector)
    assert page.evaluate("s => document.activeElement === document.querySelector(s)", selector)
    page.keyboard.press("Enter")


def test_start_leave_and_resign_pressed_from_the_keyboard_leave_the_focus_in_the_table(server, browser):
    cal, dee = register(server, "cal-focus"), register(server, "dee-focus")
    context, page, errors = signed_in(browser, server, cal)
    page.on("dialog", lambda dialog: dialog.accept())  # Resign asks first

    # Leave: the open match is drawn again without the seat (no Leave any more): the focus goes to the
    # table's heading, not the body.
    left = seated(server, [cal], {"game": "jester", "seats": 2}, start=False)
    page.goto(f"{server}/#/match/{left}")
    press(page, "#leave")
    page.wait_for_selector("#take-seat")
    page.wait_for_function(IN_BOARD, timeout=5_000)
    assert page.evaluate(FOCUSED) == "match-title"
    assert page.get_attribute("#match-title", "tabindex") == "-1"  # focusable, out of the Tab order

    # Start: the running table has no Start button; the focus goes to the first legal move, or, while the
    # other seat is to act, to the moves area's heading.
    match_id = seated(server, [cal, dee], {"game": "jester", "seats": 2}, start=False)
    page.goto(f"{server}/#/match/{match_id}")
    press(page, "#start")
    page.wait_for_function("() => document.querySelector('#status')?.textContent === 'active'")
    page.wait_for_function(IN_BOARD, timeout=5_000)
    mine = bool(read(server, match_id, cal)["legal_actions"])
    assert page.evaluate("s => document.activeElement.matches(s)",
                         "button.action" if mine else "#moves-heading"), page.evaluate(FOCUSED)

    # Resign: two players, one resigns, the match is over: the focus goes to the table's heading.
    press(page, "#resign")
    page.wait_for_function("() => document.querySelector('#status')?.textContent === 'finished'")
    page.wait_for_function(IN_BOARD, timeout=5_000)
    assert page.evaluate(FOCUSED) == "match-title"
    assert not errors, errors
    context.close()


def test_im_back_and_claim_pressed_from_the_keyboard_leave_the_focus_in_the_table(server, browser):
    match_id, late, present = jester_with_a_late_seat(server, ("eli-back", "fay-back"), 1.5)
    late_context, late_page, late_errors = signed_in(browser, server, late)
    late_page.goto(f"{server}/#/match/{match_id}")

    # The first seat's time runs out (nobody plays it: "claim"); its player presses "I'm back": the button
    # goes with the redraw, and the focus lands on the seat's first legal move.
    late_page.wait_for_selector("#return", timeout=15_000)
    press(late_page, "#return")
    late_page.wait_for_function("() => !document.querySelector('#return')", timeout=10_000)
    late_page.wait_for_function(IN_BOARD, timeout=5_000)
    assert late_page.evaluate("document.activeElement.matches('button.action')"), late_page.evaluate(FOCUSED)
    assert not late_errors, late_errors
    late_context.close()

    # The time runs out again; the other player claims the match: it is over, Claim is gone, and the focus
    # is on the table's heading.
    for _ in range(100):
        if read(server, match_id, present)["can_claim"]:
            break
        time.sleep(0.1)
    context, page, errors = signed_in(browser, server, present)
    page.on("dialog", lambda dialog: dialog.accept())  # Claim asks first
    page.goto(f"{server}/#/match/{match_id}")
    press(page, "#claim")
    page.wait_for_function("() => document.querySelector('#status')?.textContent === 'finished'")
    page.wait_for_function(IN_BOARD, timeout=5_000)
    assert page.evaluate(FOCUSED) == "match-title"
    assert read(server, match_id)["status"] == "finished"
    assert not errors, errors
    context.close()


# -- D3 ---------------------------------------------------------------------------------------------
def test_a_player_who_withdrew_is_told_so_and_the_standings_mark_the_withdrawal(server, browser):
    org = register(server, "org-withdraw")
    players = [register(server, f"wd-{i}") for i in range(5)]
    started = started_swiss(server, org, players, "Withdrawals")
    tournament_id = started["id"]
    round_one = started["rounds"][0]
    assert len(round_one["tables"]) == 1 and len(round_one["byes"]) == 2, round_one  # 5 at tables of 3
    by_id = {player["id"]: player for player in players}
    resting = by_id[round_one["byes"][0]]

    # A player with a bye in the round being played is told so ...
    context, page, errors = signed_in(browser, server, resting)
    page.on("dialog", lambda dialog: dialog.accept())  # Withdraw asks first
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_function("() => document.querySelector('#your-bye')?.textContent.includes('You have a bye')")
    assert page.locator("#standings .entry-status").count() == 0  # every entry in play

    # ... and withdraws (from the keyboard): told they withdrew, not that their next table comes; the
    # focus, its button gone, on that notice; their standings row marked as the API's status says.
    press(page, "#tournament-withdraw")
    page.wait_for_function("() => document.querySelector('#your-bye')?.textContent.includes('You are withdrawn')",
                           timeout=10_000)
    assert "next table" not in page.inner_text("#your-bye")
    assert page.locator("#tournament-withdraw").count() == 0
    # The tournament's stream may draw the withdrawal before the DELETE's answer; the focus is put on the
    # notice once the page has that answer (the button's action is done).
    page.wait_for_function(f"() => ({FOCUSED}) === 'your-bye'", timeout=5_000)
    # The standings are a read model, written once the worker has projected the withdrawal (it may lag
    # the DELETE's answer by a moment; CI once read it before).
    for _ in range(100):
        standings = requests.get(f"{server}/tournaments/{tournament_id}/standings", timeout=10).json()["items"]
        if {row["player_id"]: row["status"] for row in standings}[resting["id"]] == "withdrawn":
            break
        time.sleep(0.1)
    assert {row["player_id"]: row["status"] for row in standings}[resting["id"]] == "withdrawn"
    row = page.locator("#standings tbody tr", has_text=resting["name"])
    page.wait_for_function("() => document.querySelectorAll('#standings .entry-status').length === 1")
    assert "withdrawn" in row.inner_text()
    assert page.locator("#standings tbody tr[data-status='withdrawn']").count() == 1

    # The round's table plays to the end: the tournament finishes, and both still show.
    play_out(server, round_one["tables"][0]["match_id"], [by_id[p] for p in round_one["tables"][0]["players"]])
    page.wait_for_function("() => document.querySelector('#tournament-status')?.textContent === 'finished'",
                           timeout=20_000)
    assert "You are withdrawn" in page.inner_text("#your-bye")
    page.wait_for_function("() => document.querySelectorAll('#standings .entry-status').length === 1")
    assert "withdrawn" in page.locator("#standings tbody tr", has_text=resting["name"]).inner_text()
    assert not errors, errors
    context.close()
