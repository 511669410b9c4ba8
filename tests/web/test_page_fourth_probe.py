"""The web page's fixes after the fourth probe of the page (api/web/app.js): Debian's chromium driven by
Playwright against a real `motley serve` process, as tests/web/test_browser.py does (its conftest's browser).

- A move sent while the connection is gone leaves the table playable once it is back: the page read the
  match again only when its version moved, which it does not on the person's own turn, so every action
  button stayed disabled until a reload (README, "The web client": the table reads on until it is back).
- A match created with "require_version" is played from the page: each move states the version it was
  chosen from (docs/clients.md: without one every move is a 428), and a stale one is redrawn with a
  plain message; so is a move chosen where the person's seat alone was to act, in any match.
- A refused button pressed from the keyboard keeps the focus: disabled while its request was in
  flight, it lost it to the page's body, and the person had to Tab again from the top.
- From the re-probe of these fixes: a move that landed without an answer is not told to be tried again,
  a table opened while the server is away opens once it answers, and the leaderboard pages.
"""

from __future__ import annotations

import json
import time

import pytest
import requests

from tests.web.test_page_followups import auth, entered_alone, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

@pytest.fixture(scope="module")
def server(module_server):
    return module_server


FOCUSED = ("document.activeElement === document.body ? 'BODY'"
           " : document.activeElement.id || document.activeElement.className || document.activeElement.tagName")


def against_a_computer(base: str, player: dict, **terms) -> str:
    """A started Jester match of ``player`` (seat 0) against a computer (seat 1), with the match's ``terms``."""
    created = requests.post(f"{base}/matches", headers=auth(player), timeout=10,
                            json={"game": "jester", "seats": 2, "computers": {"1": "basic"}, **terms})
    created.raise_for_status()
    match_id = created.json()["id"]
    requests.post(f"{base}/matches/{match_id}/seats", headers=auth(player), json={}, timeout=10).raise_for_status()
    requests.post(f"{base}/matches/{match_id}/start", headers=auth(player), timeout=10).raise_for_status()
    return match_id


def my_turn(base: str, match_id: str, player: dict) -> dict:
    """The match as ``player`` sees it once it is their turn (the computer moves by itself meanwhile)."""
    for _ in range(100):
        seen = requests.get(f"{base}/matches/{match_id}", headers=auth(player), timeout=10).json()
        if seen["legal_actions"] or seen["status"] != "active":
            return seen
        time.sleep(0.1)
    raise AssertionError("the player's turn did not come")


def play_one(page) -> None:
    """Click the first enabled action and wait until the page shows another version (or a refusal)."""
    page.wait_for_selector("button.action:enabled", timeout=15_000)
    version = page.inner_text("#version")
    page.locator("button.action:enabled").first.click()
    page.wait_for_function("v => document.querySelector('#version').textContent !== v"
                           " || document.querySelector('#refusal .problem')", arg=version, timeout=10_000)
    assert page.locator("#refusal .problem").count() == 0, page.inner_text("#refusal")


def test_a_move_sent_while_offline_leaves_the_table_playable_once_the_connection_is_back(server, browser):
    ada = register(server, "ada-offline")
    match_id = against_a_computer(server, ada)
    context, page, errors = signed_in(browser, server, ada)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("button.action:enabled", timeout=15_000)
    version = my_turn(server, match_id, ada)["version"]
    page.wait_for_function("v => document.querySelector('#version').textContent === String(v)", arg=version)

    # The browser goes offline and the person moves: the move and the read after it get no answer.
    context.set_offline(True)
    page.locator("button.action:enabled").first.click()
    page.wait_for_selector("#refusal .problem")
    # Said as it is: no answer, the move perhaps not arrived, the page waiting; not "try again" beside
    # buttons that cannot be pressed, under "Sending…" (a phone probe).
    said = page.inner_text("#refusal")
    assert "your move may not have arrived" in said and "try again" not in said, said
    assert page.inner_text("#moves-heading") == "No answer yet: waiting for the server…"
    assert page.locator("button.action:enabled").count() == 0  # it may have landed: nothing offered meanwhile

    # Back online: the table is drawn again by itself, at the same version (the move never left), its
    # buttons enabled and the stale "no answer" gone; the original stayed frozen until a reload.
    context.set_offline(False)
    page.wait_for_selector("button.action:enabled", timeout=8_000)
    assert page.locator("#refusal .problem").count() == 0, page.inner_text("#refusal")
    assert page.inner_text("#version") == str(version)
    assert requests.get(f"{server}/matches/{match_id}", timeout=10).json()["version"] == version

    # And a move then plays.
    play_one(page)
    assert requests.get(f"{server}/matches/{match_id}", timeout=10).json()["version"] > version
    assert not errors, errors
    context.close()


def test_a_match_that_requires_versions_is_played_from_the_page(server, browser):
    bea = register(server, "bea-versions")
    match_id = against_a_computer(server, bea, require_version=True)
    assert requests.get(f"{server}/matches/{match_id}", timeout=10).json()["versions_required"] is True
    context, page, errors = signed_in(browser, server, bea)
    sent = []  # each move's body, as the page sends it
    page.on("request", lambda request: request.method == "POST" and request.url.endswith("/moves")
            and sent.append(json.loads(request.post_data)))
    page.goto(f"{server}/#/match/{match_id}")

    # Three moves from the page, none refused (each was a 428 without a stated version), each stating the
    # version the table showed when it was chosen.
    start = my_turn(server, match_id, bea)["version"]
    for _ in range(3):
        my_turn(server, match_id, bea)
        play_one(page)
    assert len(sent) == 3 and all(isinstance(body.get("expected_version"), int) for body in sent), sent
    assert sent[0]["expected_version"] == start
    assert requests.get(f"{server}/matches/{match_id}", timeout=10).json()["version"] > start + 2
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("required", [True, False], ids=["versions-required", "alone-to-act"])
def test_a_stale_move_is_drawn_again_with_a_plain_message(server, browser, required):
    """In a match created with require_version, and in any match where the person's seat alone is to act
    (a web-play probe: the click on a tab left behind landed as a move in a later turn it never saw)."""
    cal = register(server, f"cal-stale-{'required' if required else 'alone'}")
    match_id = against_a_computer(server, cal, **({"require_version": True} if required else {}))
    if not required:  # on to a decision of this seat alone (Jester's setup has the seats act at once)
        for _ in range(20):
            seen = my_turn(server, match_id, cal)
            if seen["to_act"]["seats"] == [seen["your_seat"]]:
                break
            requests.post(f"{server}/matches/{match_id}/moves", headers=auth(cal), timeout=10,
                          json={"action": seen["legal_actions"][0]}).raise_for_status()
        assert seen["to_act"]["seats"] == [seen["your_seat"]], seen["to_act"]
    context, page, errors = signed_in(browser, server, cal)
    # The stream never answers (a tab left behind): nothing tells this table that the match moved on.
    page.route("**/stream**", lambda route: None)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("button.action:enabled", timeout=15_000)
    shown = page.inner_text("#version")

    # Meanwhile the player moves from elsewhere (the API), and the computer answers.
    seen = my_turn(server, match_id, cal)
    assert str(seen["version"]) == shown
    moved = requests.post(f"{server}/matches/{match_id}/moves", headers=auth(cal), timeout=10,
                          json={"action": seen["legal_actions"][0], "expected_version": seen["version"]})
    assert moved.status_code == 201, moved.text
    now = my_turn(server, match_id, cal)["version"]

    # The stale table's move states the version it showed: refused (409), and the table drawn again as it
    # is now, with words for a person rather than the server's detail.
    page.locator("button.action:enabled").first.click()
    page.wait_for_selector("#refusal .problem")
    assert page.get_attribute("#refusal .problem", "data-type") == "urn:motley:problem:stale-version"
    assert "The table changed before your move arrived" in page.inner_text("#refusal")
    page.wait_for_function("v => document.querySelector('#version').textContent === String(v)", arg=now)
    assert page.locator("button.action:enabled").count() > 0  # choose again, from the table as it is
    assert requests.get(f"{server}/matches/{match_id}", timeout=10).json()["version"] == now
    assert not errors, errors
    context.close()


def test_a_refused_create_pressed_from_the_keyboard_keeps_the_focus_on_its_button(server, browser):
    dan = register(server, "dan-keys")
    context, page, errors = signed_in(browser, server, dan)
    page.goto(server + "/")
    page.wait_for_selector("#create")
    page.select_option("#create-game", "jester")
    # More seats than the game takes: the field's max would stop the browser, the API refuses it (422).
    page.evaluate("document.getElementById('create-seats').removeAttribute('max')")
    page.fill("#create-seats", "9")
    page.focus("#create-seats")
    page.keyboard.press("Tab")  # on to the next field, and so on to "Create match", as a keyboard user goes
    while page.evaluate("document.activeElement.id") != "create-submit":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("#create .problem")
    # The button was disabled while its request was in flight; the focus is back on it, not on the body.
    assert page.evaluate(FOCUSED) == "create-submit"
    assert not errors, errors
    context.close()


def test_a_refused_tournament_start_pressed_from_the_keyboard_keeps_the_focus(server, browser):
    eve, tournament_id = entered_alone(server, "eve-keys", "Alone")
    context, page, errors = signed_in(browser, server, eve)
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#tournament-start")
    page.focus("#tournament-start")
    page.keyboard.press("Enter")  # one entrant: the API refuses the start
    page.wait_for_selector("#tournament-error .problem")
    assert page.evaluate(FOCUSED) != "BODY"
    assert page.evaluate("document.activeElement.closest('#tournament-actions, #tournament-error') !== null")
    assert not errors, errors
    context.close()


def test_a_refused_seat_whose_button_a_redraw_took_away_puts_the_focus_on_the_refusal(server, browser):
    fay, gil, hal = register(server, "fay-seat"), register(server, "gil-seat"), register(server, "hal-seat")
    created = requests.post(f"{server}/matches", headers=auth(fay), timeout=10, json={"game": "jester", "seats": 2})
    created.raise_for_status()
    match_id = created.json()["id"]
    requests.post(f"{server}/matches/{match_id}/seats", headers=auth(fay), json={}, timeout=10).raise_for_status()
    context, page, errors = signed_in(browser, server, hal)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#take-seat")

    # hal's request is held until gil has taken the last seat and the stream has drawn the table again
    # (no "Take a seat" there any more): the request is then refused, and its button is gone.
    def late(route):
        requests.post(f"{server}/matches/{match_id}/seats", headers=auth(gil), json={}, timeout=10).raise_for_status()
        time.sleep(1.5)  # the stream's redraw, in the browser meanwhile
        route.continue_()

    page.route(f"**/matches/{match_id}/seats", late)
    page.focus("#take-seat")
    page.keyboard.press("Enter")
    page.wait_for_selector("#refusal .problem")
    assert page.locator("#take-seat").count() == 0
    # The focus is on the refusal (focusable, out of the Tab order), where a screen reader reads on.
    assert page.evaluate("document.activeElement.matches('#refusal .problem')"), page.evaluate(FOCUSED)
    assert page.get_attribute("#refusal .problem", "tabindex") == "-1"
    assert not errors, errors
    context.close()


# -- the re-probe of these fixes ------------------------------------------------------------------
def test_a_move_that_landed_without_an_answer_is_not_told_to_be_tried_again(server, browser):
    """The move reaches the server but its answer is lost (the connection drops on the way back): the
    read after it shows the match moved on, yet the page said "could not be reached… try again", and
    the person, offered new moves, could send a second one thinking it a retry."""
    # Two people, no computer: after the move nothing else moves the match (a computer's next move
    # redraws the table and clears the message, which made the check race on a loaded machine).
    people = [register(server, f"cy-lost-answer-{i}") for i in range(2)]
    created = requests.post(f"{server}/matches", headers=auth(people[0]), timeout=10,
                            json={"game": "jester", "seats": 2})
    match_id = created.json()["id"]
    for player in people:
        requests.post(f"{server}/matches/{match_id}/seats", headers=auth(player), json={},
                      timeout=10).raise_for_status()
    requests.post(f"{server}/matches/{match_id}/start", headers=auth(people[0]), timeout=10).raise_for_status()
    cy = next(p for p in people if requests.get(f"{server}/matches/{match_id}", headers=auth(p),
                                                 timeout=10).json()["legal_actions"])
    context, page, errors = signed_in(browser, server, cy)
    page.goto(f"{server}/#/match/{match_id}")
    version = my_turn(server, match_id, cy)["version"]
    page.wait_for_function("v => document.querySelector('#version')?.textContent === String(v)", arg=version)
    page.wait_for_selector("button.action:enabled")

    def landed_but_lost(route):
        route.fetch()  # the server takes the move ...
        route.abort("connectionreset")  # ... and its answer never arrives

    page.route("**/moves", landed_but_lost)
    page.locator("button.action:enabled").first.click()
    page.wait_for_selector("#refusal .problem", timeout=10_000)
    said = page.inner_text("#refusal")
    assert "moved on" in said and "could not be reached" not in said, said
    assert requests.get(f"{server}/matches/{match_id}", timeout=10).json()["version"] > version  # it landed
    assert not errors, errors
    context.close()


def test_a_table_opened_while_the_server_is_away_opens_once_it_answers(server, browser):
    """A table opened while no answer came showed the error and stayed so until a reload."""
    dee = register(server, "dee-opened-away")
    match_id = against_a_computer(server, dee)
    context, page, errors = signed_in(browser, server, dee)
    page.goto(server + "/")
    page.wait_for_selector("#create", state="attached")
    context.set_offline(True)
    page.evaluate("id => { location.hash = `#/match/${id}`; }", match_id)
    page.wait_for_selector(".problem", timeout=10_000)
    context.set_offline(False)
    page.wait_for_selector("#board .match-head", timeout=10_000)  # read again by itself
    assert page.locator("#version").count() == 1
    assert not errors, errors
    context.close()


def test_the_leaderboard_pages_past_its_first_rows(server, browser):
    """The page asked for 100 rows and said nothing of the rest (120 rated players, 20 unseen). It pages
    with the API's offset: here pages of 3 over every rated player of this server's Fool's Crown board."""
    people = [register(server, f"fc-board-{i}") for i in range(4)]
    for first, second in (people[:2], people[2:]):
        created = requests.post(f"{server}/matches", headers=auth(first), timeout=10,
                                json={"game": "fools-crown", "seats": 2})
        match_id = created.json()["id"]
        for player in (first, second):
            requests.post(f"{server}/matches/{match_id}/seats", headers=auth(player), json={},
                          timeout=10).raise_for_status()
        requests.post(f"{server}/matches/{match_id}/start", headers=auth(first), timeout=10).raise_for_status()
        moved: set = set()
        for _ in range(40):  # each of them moves once at least: a match fewer than two people moved in is unrated
            if len(moved) == 2:
                break
            seen = {p["id"]: requests.get(f"{server}/matches/{match_id}", headers=auth(p), timeout=10).json()
                    for p in (first, second)}
            able = [p for p in (first, second) if seen[p["id"]]["legal_actions"]]
            if not able:
                time.sleep(0.05)  # the worker resolves a step
                continue
            mover = next((p for p in able if p["id"] not in moved), able[0])
            action = seen[mover["id"]]["legal_actions"][0]
            requests.post(f"{server}/matches/{match_id}/moves", headers=auth(mover), json={"action": action},
                          timeout=10).raise_for_status()
            moved.add(mover["id"])
        assert len(moved) == 2
        requests.post(f"{server}/matches/{match_id}/resign", headers=auth(second), timeout=10).raise_for_status()
    for _ in range(100):  # the league follows the log in the background
        total = requests.get(f"{server}/leaderboards/fools-crown", timeout=10).json()["total"]
        if total >= 4:
            break
        time.sleep(0.1)
    assert total >= 4
    context, page, errors = signed_in(browser, server, people[0])
    page.goto(f"{server}/#/leaderboard/fools-crown?limit=3")
    page.wait_for_selector("#board-pages")
    assert page.locator("#leaderboard tbody tr").count() == 3
    assert f"1–3 of {total}" in page.inner_text("#board-pages")
    page.click("#board-next")
    page.wait_for_function("() => location.hash.includes('offset=3')")
    page.wait_for_selector("#board-previous")
    assert page.locator("#leaderboard tbody tr").count() == min(3, total - 3)
    rows = "4" if total == 4 else f"4–{min(6, total)}"  # a page of one row names it alone
    assert f"Players {rows} of {total}" in page.inner_text("#board-pages")
    # Past the end (a link kept while players left the board, or typed): said so, and one step back
    # is the last page; a number the API cannot take is clamped, not its 422 without the board.
    page.goto(f"{server}/#/leaderboard/fools-crown?offset=1000&limit=3")
    page.wait_for_function("() => document.querySelector('#board-pages')?.textContent.includes('No players')")
    assert "No rated matches" not in page.inner_text("main")
    page.click("#board-previous")
    page.wait_for_function("() => document.querySelectorAll('#leaderboard tbody tr').length > 0")
    assert f"of {total}" in page.inner_text("#board-pages")
    # Just past the end, Previous is the last page too (it was one page back from the offset, rows 2 to N).
    page.goto(f"{server}/#/leaderboard/fools-crown?offset={total}&limit={total - 1}")
    page.wait_for_function("() => document.querySelector('#board-pages')?.textContent.includes('No players')")
    last_page = f"#/leaderboard/fools-crown?offset={total - 1}&limit={total - 1}"
    assert page.get_attribute("#board-previous", "href") == last_page
    page.goto(f"{server}/#/leaderboard/fools-crown?offset=Infinity&limit=1e12")
    page.wait_for_selector("#board-game")
    assert page.locator(".problem").count() == 0
    assert not errors, errors
    context.close()
