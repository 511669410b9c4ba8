"""What a keyboard-only, screen-reader probe of the table found, each fixed and held here, in Debian's
chromium against a real `motley serve` (tests/web/conftest.py):

- 1 the focus the page parks on the moves' heading stays there at the next update (in
  test_page_a11y_third's 3);
- 2 a timed phase the person acts in (Tumult Royale's hourglass) is said to run low, and its end is said
  as such, not as a tile "no longer offered" (WCAG 2.2.1, 4.1.3);
- 3 while a move is sent the focus waits on the moves' heading, never on the page's body (WCAG 2.4.3);
- 5 resigning is said on the status line (WCAG 4.1.3).
"""

from __future__ import annotations

import time

import pytest

from tests.web.test_page_a11y_third import RECORD, SAID, at_live_tax_collection
from tests.web.test_page_fifth_probe import read
from tests.web.test_page_followups import match_with, move, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each



@pytest.fixture(scope="module")
def server(module_server):
    return module_server


# -- 2 ----------------------------------------------------------------------------------------------
def test_the_hourglass_is_said_to_run_low_and_its_end_is_said(server, browser):
    players = [register(server, f"kbd-glass-{i}") for i in range(2)]
    match_id = match_with(server, players[0], "tumult-royale", 2, people=players[1:],
                          options={"tax_mode": "live", "tax_seconds": 14})
    context, page, errors = signed_in(browser, server, players[0])
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#announce", state="attached")
    page.evaluate(RECORD, "#announce")
    views = at_live_tax_collection(server, players, match_id)
    phase = views[0]["timer"]["phase"]
    assert phase.startswith("tax-"), views[0]["timer"]
    round_ = phase.split("-")[1]
    # Nobody takes a tile: the hourglass runs low (said once), then out (the round keeper closes it).
    page.wait_for_function(SAID, arg=f"Tax collection, round {round_}: ", timeout=20_000)
    page.wait_for_function(SAID, arg=f"Tax collection, round {round_} is over.", timeout=30_000)
    said = page.evaluate("window.said")
    assert sum(f"Tax collection, round {round_}: " in text for text in said) == 1, said
    assert not any("no longer offered" in text for text in said), said
    assert not errors, errors
    context.close()


# -- 3 ----------------------------------------------------------------------------------------------
def test_a_move_on_its_way_leaves_the_focus_on_the_moves_heading_not_the_body(server, browser):
    """Then, answered, on the person's next move: the stream's redraw of the move, landing before its
    answer, left the focus on the heading for good (a today probe: a Tab before every move)."""
    kim = register(server, "kbd-flight")
    match_id = match_with(server, kim, "fools-crown", 2, computers={"1": "basic"})
    context, page, errors = signed_in(browser, server, kim)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("button.action:enabled", timeout=30_000)
    answered = []

    def held_back(route):  # the move lands; its answer comes 2 s later, after the stream's news of it
        response = route.fetch()
        time.sleep(2.0)
        route.fulfill(response=response)
        answered.append(response.json()["version"])

    page.route(f"**/matches/{match_id}/moves", held_back)
    page.locator("button.action:enabled").first.focus()
    # Each 5 ms: where the focus is, and what the heading says while every move is held (disabled).
    page.evaluate("""() => { window.focusLog = []; window.heldSaid = [];
      window.focusTimer = setInterval(() => {
        window.focusLog.push(document.activeElement?.id || document.activeElement?.tagName);
        const buttons = [...document.querySelectorAll('button.action')];
        const heading = document.querySelector('#moves-heading');
        if (heading && buttons.length && buttons.every((b) => b.disabled))
          window.heldSaid.push(document.querySelector('#version')?.textContent + ' ' + heading.textContent);
      }, 5); }""")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#moves-heading')?.textContent.startsWith('Sending')",
                           timeout=15_000)
    while not answered:
        page.wait_for_timeout(100)
    page.wait_for_timeout(500)
    log = page.evaluate("() => { clearInterval(window.focusTimer); return window.focusLog; }")
    assert "moves-heading" in log, log  # where it waited
    assert "BODY" not in log, log
    # "Sending" until the answer, also over the table the stream drew meanwhile (a today probe: "Your move"
    # over buttons that could not be pressed).
    held = page.evaluate("window.heldSaid")
    assert held and all(" Sending: " in said for said in held), held
    assert len({said.split()[0] for said in held}) == 2, held  # the stream's news drawn before the answer
    mine = bool(read(server, match_id, kim)["legal_actions"])
    assert page.evaluate("s => document.activeElement.matches(s)", "button.action:enabled" if mine
                         else "#moves-heading"), page.evaluate("() => document.activeElement?.outerHTML")
    assert not errors, errors
    context.close()


# -- 5 ----------------------------------------------------------------------------------------------
def test_resigning_is_said(server, browser):
    players = [register(server, f"kbd-resign-{i}") for i in range(2)]
    match_id = match_with(server, players[0], "le-bouffon", 3, people=players[1:], computers={"2": "basic"})
    context, page, errors = signed_in(browser, server, players[0])
    page.on("dialog", lambda dialog: dialog.accept())  # Resign asks first
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#resign")
    page.evaluate(RECORD, "#announce")
    page.focus("#resign")
    page.keyboard.press("Enter")
    page.wait_for_function(SAID, arg="You resigned: a computer plays your seat.", timeout=15_000)
    assert read(server, match_id)["status"] == "active"
    assert not errors, errors
    context.close()


# -- a today probe ----------------------------------------------------------------------------------
def test_the_persons_own_move_from_another_device_is_said_as_theirs(server, browser):
    """A move of the person's seat made in another tab was left out of the others' moves (as the person's
    own) and said only as '"…" is no longer offered', as if another seat had taken it."""
    kim = register(server, "kbd-elsewhere")
    match_id = match_with(server, kim, "fools-crown", 2, computers={"1": "basic"})
    context, page, errors = signed_in(browser, server, kim)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("button.action:enabled", timeout=30_000)
    page.evaluate(RECORD, "#announce")
    page.locator("button.action:enabled").first.focus()
    move(server, match_id, kim, read(server, match_id, kim)["legal_actions"][0]).raise_for_status()
    page.wait_for_function(SAID, arg="you (from another tab or device): ", timeout=15_000)

    # This tab's own moves are not said so.
    page.wait_for_selector("button.action:enabled", timeout=30_000)
    version = read(server, match_id, kim)["version"]
    page.locator("button.action:enabled").first.click()
    page.wait_for_function("v => Number(document.querySelector('#version')?.textContent) > v", arg=version,
                           timeout=15_000)
    page.wait_for_timeout(1_500)  # the status line's burst, and the read of the moves it says
    said = page.evaluate("window.said")
    assert sum("from another tab or device" in text for text in said) == 1, said
    assert not errors, errors
    context.close()
