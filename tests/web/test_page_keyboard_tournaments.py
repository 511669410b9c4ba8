"""What a keyboard-only, screen-reader probe of the tournament pages found, each fixed and held here, in
Debian's chromium against a real `motley serve` (tests/web/conftest.py):

- 1 a pushed version left the focus on the page's body when it was on a link (a round's "playing", a
  standings name, "play your table"): it stays on that link (WCAG 2.4.3, 3.2.1);
- 2 a table's result and a void were not said: the status line says them (WCAG 4.1.3), and the page
  lists the tournament's sanctions with their reasons;
- 3 the tournaments list showed the newest 20 and nothing of the rest: it pages;
- 4 a button pressed from the keyboard (Start, Withdraw) was disabled while its request ran, dropping the
  focus to the page's body: it keeps the focus (aria-disabled), and presses meanwhile do nothing.
"""

from __future__ import annotations

import itertools
import time

import pytest
import requests

from tests.web.test_page_a11y_third import RECORD, SAID
from tests.web.test_page_followups import auth, entered_alone, play_out, register, signed_in, started_swiss
from tests.web.test_page_tournament_stream import PUSHED_MS, open_live

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

ACTIVE_LINK = "() => document.activeElement?.tagName === 'A' ? document.activeElement.getAttribute('href') : null"


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


# -- 1, 2 -------------------------------------------------------------------------------------------
def test_a_pushed_result_leaves_the_focus_on_its_link_and_is_said(server, browser):
    organiser, *players = (register(server, name) for name in ["kt-org", *(f"kt-p{i}" for i in range(6))])
    keys = {player["id"]: player for player in players}
    started = started_swiss(server, organiser, players, "Keyboard cup", rounds=2)
    tournament_id = started["id"]
    mine, other = started["rounds"][0]["tables"]
    me = keys[mine["players"][0]]
    context, page, errors = open_live(browser, server, me, tournament_id)
    page.evaluate(RECORD, "#tournament-announce")

    # On the other table's "playing" link as that table finishes: its words change, the focus stays.
    link = page.locator(f"#rounds a[href='#/match/{other['match_id']}?as=spectator']")
    assert link.inner_text() == "playing"
    link.focus()
    play_out(server, other["match_id"], [keys[p] for p in other["players"]])
    page.wait_for_selector(f"#rounds a[href*='{other['match_id']}'] >> text=finished", timeout=PUSHED_MS)
    assert page.evaluate(ACTIVE_LINK) == f"#/match/{other['match_id']}?as=spectator"
    ranks = requests.get(f"{server}/tournaments/{tournament_id}", timeout=10).json()["rounds"][0]["tables"][1][
        "result"]["ranks"]
    names = {player["id"]: player["name"] for player in players}
    places = ", ".join(f"\u2068{names[p]}\u2069 {rank}" for p, rank in zip(other["players"], ranks))
    page.wait_for_function(SAID, arg=f"Round 1, table 2 finished, places: {places}.", timeout=PUSHED_MS)

    # On "play your table" as the organiser voids the other table: the link is drawn anew, the focus on it.
    your_table = page.locator("#your-table a")
    your_table.focus()
    void = requests.post(f"{server}/tournaments/{tournament_id}/sanctions", headers=auth(organiser), timeout=10,
                         json={"kind": "void", "match_id": other["match_id"], "reason": "a test"})
    assert void.status_code == 201, void.text
    page.wait_for_selector(f"#rounds a[href*='{other['match_id']}'] >> text=voided", timeout=PUSHED_MS)
    page.wait_for_function(SAID, arg="Round 1, table 2 is void.", timeout=PUSHED_MS)
    assert page.evaluate(ACTIVE_LINK) == f"#/match/{mine['match_id']}"
    # The sanction is listed with its reason and its report, for every visitor (only the organiser's note
    # said it, at the moment it was made).
    sanction = page.locator("#sanction-list li[data-number='1']")
    said = "round 1, table 2 void: \u201ca test\u201d · what sanction 1 changed (JSON, a new tab)"
    assert sanction.inner_text() == said
    assert sanction.locator("a").get_attribute("href") == f"/tournaments/{tournament_id}/sanctions/1"
    assert not errors, errors
    context.close()


# -- 3 ----------------------------------------------------------------------------------------------
def test_the_tournaments_list_pages_past_its_newest_twenty(server, browser):
    organiser = register(server, "kt-many")
    for i in range(21):
        requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
            "game": "jest", "name": f"Cup {i}", "format": "swiss", "rounds": 1}).raise_for_status()
    for _ in range(100):  # the list is a read model: the last few may take a moment (all 21 listed, then)
        listed_now = requests.get(f"{server}/tournaments", params={"limit": 100}, timeout=10).json()
        if sum(t["name"].startswith("Cup ") for t in listed_now["items"]) == 21:
            break
        time.sleep(0.1)
    total = listed_now["total"]
    assert total > 20
    context, page, errors = signed_in(browser, server, organiser)
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#tournament-pages")
    assert page.inner_text("#tournament-pages").startswith(f"Tournaments 1–20 of {total}, newest first.")
    assert page.locator("table.grid tbody tr").count() == 20
    page.click("#tournaments-next")
    page.wait_for_function("() => location.hash === '#/tournaments?offset=20'")
    page.wait_for_function("n => document.querySelectorAll('table.grid tbody tr').length === n",
                           arg=min(20, total - 20))
    rows = "21" if total == 21 else f"21–{min(40, total)}"  # a page of one row names it alone
    assert page.inner_text("#tournament-pages").startswith(f"Tournaments {rows} of {total}")
    listed = page.locator("table.grid tbody tr td:first-child").all_inner_texts()
    api = requests.get(f"{server}/tournaments?limit=20&offset=20", timeout=10).json()["items"]
    assert listed == [t["name"] for t in api]
    assert page.locator("#tournaments-previous").count() == 1
    # Past the end: said once (not also "No tournaments yet."), Previous to the last page (a today probe).
    page.goto(f"{server}/#/tournaments?offset=1000")
    # (the page before stays drawn until this one is: its own "Tournaments 21–…" line is not the one)
    page.wait_for_function("() => document.querySelector('#tournament-pages')?.textContent.startsWith('No ')")
    assert page.inner_text("#tournament-pages").startswith(f"No tournaments on this page: there are {total}.")
    assert page.locator("text=No tournaments yet.").count() == 0
    last = (total - 1) // 20 * 20
    assert page.get_attribute("#tournaments-previous", "href") == f"#/tournaments?offset={last}"
    # A page of one row names it alone ("27–27 of 27" before); an offset in hex is no offset (Number() read
    # "0x14" as 20).
    page.goto(f"{server}/#/tournaments?offset={total - 1}")
    page.wait_for_function("t => document.querySelector('#tournament-pages')?.textContent.startsWith(t)",
                           arg=f"Tournaments {total} of {total}, newest first.")
    page.goto(f"{server}/#/tournaments?offset=0x14")
    page.wait_for_function("t => document.querySelector('#tournament-pages')?.textContent.startsWith(t)",
                           arg=f"Tournaments 1–20 of {total}")
    assert not errors, errors
    context.close()


# -- 4 ----------------------------------------------------------------------------------------------
FOCUS_LOG = """() => { window.focusLog = []; window.focusTimer = setInterval(() =>
    window.focusLog.push(document.activeElement?.id || document.activeElement?.tagName), 5); }"""
# The tournament's Start and Withdraw requests sent 1.5 s late (the page's presses meanwhile), and counted.
HOLD = """id => { const real = window.fetch; window.sent = [];
    window.fetch = (url, init) => {
        const held = [`/tournaments/${id}/start`, `/tournaments/${id}/players/`];
        if (!held.some((path) => String(url).startsWith(path))) return real(url, init);
        window.sent.push(init?.method || "GET");
        return new Promise((resolve) => setTimeout(resolve, 1500)).then(() => real(url, init)); }; }"""
PRESS_AGAIN = "() => [300, 700].forEach((ms) => setTimeout(() => document.activeElement?.click(), ms))"


def test_a_button_pressed_from_the_keyboard_keeps_the_focus_while_its_request_runs(server, browser):
    """Start and Withdraw, pressed from the keyboard, were disabled while their requests ran, which drops the
    focus to the page's body (a screen reader read from the top): the focus stays on the button, and a
    second press meanwhile sends nothing and asks no question again (Withdraw's confirm)."""
    eve, tournament_id = entered_alone(server, "kt-alone", "Alone again")
    context, page, errors = signed_in(browser, server, eve)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#tournament-start")
    page.evaluate(HOLD, tournament_id)

    # Start: one entrant, so refused (409), the focus on the button throughout.
    page.focus("#tournament-start")
    page.evaluate(FOCUS_LOG)
    page.keyboard.press("Enter")
    page.evaluate(PRESS_AGAIN)
    page.wait_for_selector("#tournament-error .problem", timeout=15_000)
    page.wait_for_timeout(300)
    log = page.evaluate("() => { clearInterval(window.focusTimer); return window.focusLog; }")
    assert page.evaluate("window.sent") == ["POST"]
    assert "BODY" not in log, log
    assert page.evaluate("document.activeElement.id") == "tournament-start"
    assert page.get_attribute("#tournament-start", "aria-disabled") is None  # pressable again

    # Withdraw: asked once, sent once; the focus stays on the button until the redraw takes it away.
    page.focus("#tournament-withdraw")
    page.evaluate(FOCUS_LOG)
    page.keyboard.press("Enter")
    page.evaluate(PRESS_AGAIN)
    page.wait_for_selector("#tournament-register", timeout=15_000)
    log = page.evaluate("() => { clearInterval(window.focusTimer); return window.focusLog; }")
    assert page.evaluate("window.sent") == ["POST", "DELETE"]
    assert len(dialogs) == 1, dialogs
    assert "BODY" not in log, log
    held = len(list(itertools.takewhile(lambda focused: focused == "tournament-withdraw", log)))
    assert held >= 20 and set(log[held:]) <= {"tournament-register"}, log  # on it, then its replacement
    assert not errors, errors
    context.close()
