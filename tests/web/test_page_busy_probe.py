"""What a probe of the page's buttons and forms found after they kept the focus while their requests ran,
each fixed and held here, in Debian's chromium against a real `motley serve` (tests/web/conftest.py):

- 1 a redraw while a request ran (another player registering) drew a new copy of the button, not held:
  a second Enter on it sent the request again, refused as a repeat ("you are already registered");
- 2 Export and Verify chance were not held at all: Enter, Enter, Space downloaded the export three times;
- 3 the replay's "Fork from version N" was renamed only once the board's read came back: it could name
  version 8 while a press forked version 1, just chosen;
- 4 a field the browser's own check stopped inside the tournament form's closed fold (bye points of -1)
  was neither shown nor said, and a field the server refused there stayed folded away;
- 5 points of the wrong length, or rising, were refused without marking the points field.

And what its re-probe found:

- 6 the tournament form, its fold open, widened a 360 px phone's page to 454 px (the tie-breaks select);
- 7 a second address while the first view was drawn left the focus on the view, not on a heading; and a
  same address drawn anew (another tab signing in) left it on the body;
- 8 a refusal naming one field with its own detail said it twice;
- 9 a redraw's copy of a busy button was held but marked so only once pressed.
"""

from __future__ import annotations

import json

import pytest
import requests

from tests.web.test_page_followups import auth, match_with, play_out, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

# The page's requests to paths starting with one of `prefixes` sent `ms` late, and counted (method, path).
HOLD = """([prefixes, ms]) => { const real = window.fetch; window.sent = [];
    window.fetch = (url, init) => {
        const path = String(url);
        if (!prefixes.some((prefix) => path.startsWith(prefix))) return real(url, init);
        window.sent.push(`${init?.method || "GET"} ${path}`);
        return new Promise((resolve) => setTimeout(resolve, ms)).then(() => real(url, init)); }; }"""


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


# -- 1 ----------------------------------------------------------------------------------------------
def test_a_buttons_copy_drawn_while_its_request_runs_is_held_too(server, browser):
    organiser, ann, bob = (register(server, name) for name in ("bp-host", "bp-ann", "bp-bob"))
    created = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10,
                            json={"game": "jest", "name": "Busy cup", "format": "swiss", "rounds": 1})
    created.raise_for_status()
    tournament_id = created.json()["id"]
    context, page, errors = signed_in(browser, server, ann)
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#tournament-register")
    page.evaluate(HOLD, [[f"/tournaments/{tournament_id}/players"], 3000])
    page.focus("#tournament-register")
    page.keyboard.press("Enter")
    first = page.eval_on_selector("#tournament-register", "button => button")
    # Bob registers meanwhile: the stream's version redraws the actions, the focus on Register's copy.
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(bob), timeout=10).raise_for_status()
    page.wait_for_function("() => document.querySelector('#tournament-actions')?.textContent.includes('1 registered')")
    assert page.evaluate("old => document.getElementById('tournament-register') !== old", first)
    assert page.evaluate("document.activeElement.id") == "tournament-register"
    # Marked as held as soon as drawn (a screen reader heard an enabled button that did nothing: a re-probe).
    assert page.get_attribute("#tournament-register", "aria-disabled") == "true"
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.querySelector('#tournament-actions')?.textContent"
                           ".includes('you among them')", timeout=15_000)
    assert page.evaluate("window.sent") == [f"POST /tournaments/{tournament_id}/players"]
    assert page.locator("#tournament-actions [aria-disabled]").count() == 0  # nothing left greyed
    assert page.locator("#tournament-error .problem").count() == 0  # no "you are already registered"
    players = requests.get(f"{server}/tournaments/{tournament_id}", timeout=10).json()["players"]
    assert sorted(p["player_id"] for p in players) == sorted([ann["id"], bob["id"]])

    # Held while the request is in flight, not while the page reads the tournament back after it (8 s
    # here): the actions the stream draws meanwhile (Register, then Withdraw again) are taken at once.
    page.evaluate(HOLD, [[f"/tournaments/{tournament_id}/standings", f"/tournaments/{tournament_id}?"], 8000])
    page.evaluate("() => { window.sent = []; }")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#tournament-withdraw")
    page.wait_for_selector("#tournament-register", timeout=10_000)  # drawn by the stream's push
    page.click("#tournament-register")
    page.wait_for_selector("#tournament-withdraw", timeout=10_000)  # while the first Withdraw reads back
    page.click("#tournament-withdraw")
    page.wait_for_selector("#tournament-register", timeout=10_000)
    mutations = [sent for sent in page.evaluate("window.sent") if not sent.startswith("GET")]
    leave = f"DELETE /tournaments/{tournament_id}/players/{ann['id']}"
    assert mutations == [leave, f"POST /tournaments/{tournament_id}/players", leave], mutations
    assert not errors, errors
    context.close()


# -- 2, 3 -------------------------------------------------------------------------------------------
def test_export_and_verify_are_sent_once_and_the_fork_names_the_version_chosen(server, browser):
    kim, lee = register(server, "bp-kim"), register(server, "bp-lee")
    match_id = match_with(server, kim, "fools-crown", 2, people=[lee])
    last = play_out(server, match_id, [kim, lee])["version"]
    context, page, errors = signed_in(browser, server, kim)
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#fork")
    assert page.inner_text("#fork") == f"Fork from version {last}"
    page.evaluate(HOLD, [[f"/matches/{match_id}/export", f"/matches/{match_id}/verify",
                          f"/matches/{match_id}?version="], 1500])
    downloads = []
    page.on("download", lambda download: downloads.append(download))
    for control in ("#export", "#verify"):
        page.focus(control)
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        page.keyboard.press("Space")
    page.wait_for_function("() => document.querySelector('#verify-result')?.textContent.includes('verified')",
                           timeout=15_000)
    page.wait_for_timeout(500)
    assert page.evaluate("window.sent") == [f"GET /matches/{match_id}/export", f"GET /matches/{match_id}/verify"]
    assert len(downloads) == 1
    # The first version chosen: the fork is named for it at once, while its board is still being read.
    page.click("#first")
    assert page.inner_text("#fork") == "Fork from version 1"
    assert page.evaluate("document.getElementById('slider').value") == "1"
    assert not errors, errors
    context.close()


# -- 4, 5 -------------------------------------------------------------------------------------------
def test_a_refused_field_in_the_tournament_forms_fold_is_shown_and_marked(server, browser):
    organiser = register(server, "bp-folds")
    context, page, errors = signed_in(browser, server, organiser)
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#create-tournament")
    page.evaluate(HOLD, [["/tournaments"], 0])
    page.fill("#tournament-name", "Folded cup")
    page.click("#tournament-more summary")
    page.fill("#tournament-bye-points", "-1")  # below the field's min: the browser's own check stops it
    page.click("#tournament-more summary")  # folded away again
    assert page.get_attribute("#tournament-more", "open") is None
    page.click("#create-tournament-submit")
    page.wait_for_function("() => document.getElementById('tournament-more').open")
    assert page.evaluate("document.getElementById('tournament-bye-points').validity.rangeUnderflow")
    assert page.evaluate("window.sent") == []  # nothing sent
    # Refused by the server (a place too many for tables of 4), folded away: shown and marked.
    page.fill("#tournament-bye-points", "")
    page.fill("#tournament-points", "5, 4, 3, 2, 1")
    page.click("#tournament-more summary")
    page.click("#create-tournament-submit")
    page.wait_for_selector("#create-tournament .problem", timeout=15_000)
    assert page.get_attribute("#tournament-more", "open") is not None
    assert page.get_attribute("#tournament-points", "aria-invalid") == "true"
    # Rising points, the same.
    page.fill("#tournament-points", "0, 1, 2, 3")
    page.click("#create-tournament-submit")
    page.wait_for_function("() => document.querySelector('#create-tournament .problem')?.textContent"
                           ".includes('never scores fewer')", timeout=15_000)
    assert page.get_attribute("#tournament-points", "aria-invalid") == "true"
    assert page.input_value("#tournament-points") == "0, 1, 2, 3"  # kept as typed
    assert not errors, errors
    context.close()


# -- 6, 8 -------------------------------------------------------------------------------------------
def test_the_tournament_forms_fold_fits_a_phone_and_a_refusal_says_its_words_once(server, browser):
    organiser = register(server, "bp-phone")
    context, page, errors = signed_in(browser, server, organiser, viewport={"width": 360, "height": 740},
                                      is_mobile=True, has_touch=True)
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#create-tournament")
    page.click("#tournament-more summary")
    page.wait_for_selector("#tournament-tie-breaks", state="visible")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.fill("#tournament-name", "Phone cup")
    page.fill("#tournament-points", "0, 1, 2, 3")
    page.click("#create-tournament-submit")
    page.wait_for_selector("#create-tournament .problem", timeout=15_000)
    said = page.inner_text("#create-tournament .problem")
    assert said.count("never scores fewer") == 1, said
    # The field is still described by it.
    described = page.get_attribute("#tournament-points", "aria-describedby").split()
    assert any("never scores fewer" in page.evaluate("id => document.getElementById(id).textContent", one)
               for one in described), described
    assert not errors, errors
    context.close()


# -- 7 ----------------------------------------------------------------------------------------------
def test_the_focus_lands_on_a_heading_after_two_quick_addresses_and_after_another_tabs_sign_in(server, browser):
    ann, bob = register(server, "bp-quick"), register(server, "bp-other")
    context, page, errors = signed_in(browser, server, ann)
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#create-tournament")
    page.evaluate(HOLD, [["/leaderboards/"], 1500])  # the second view's reads answered late
    page.focus("#tournament-name")
    # Another address, then a second one while the first is drawn (the first drawn before the second).
    page.evaluate("() => { location.hash = '#/tournaments?offset=0'; setTimeout(() => { location.hash = "
                  "'#/leaderboard/jester'; }, 20); }")
    page.wait_for_selector("#board-game")
    page.wait_for_function("() => document.activeElement?.tagName === 'H1'", timeout=10_000)
    # Another tab of this browser signs in as bob: the same address is drawn anew, the focus on its heading.
    page.focus("#board-game")
    other = context.new_page()
    other.goto(f"{server}/#/")
    other.evaluate("([key, player]) => { localStorage.setItem('motley.key', key); "
                   "localStorage.setItem('motley.player', player); }",
                   [bob["api_key"], json.dumps({"id": bob["id"], "name": bob["name"]})])
    page.wait_for_function("name => document.body.textContent.includes(name)", arg=bob["name"], timeout=10_000)
    page.wait_for_function("() => document.activeElement?.tagName === 'H1'", timeout=10_000)
    assert not errors, errors
    context.close()
