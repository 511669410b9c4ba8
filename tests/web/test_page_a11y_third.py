"""What a keyboard and screen-reader probe of the page found (its findings 1-10), each
fixed and held here, in Debian's chromium against a real `motley serve` (tests/web/conftest.py):

- 1 Jest's take buttons name the face-up card and the seat number; seats of one name are told apart;
- 2 the table's status line says the others' moves, the result, a turn clock running low and run out;
- 3 an action focused and taken by another seat leaves the focus on the moves' heading, said;
- 4 a refused move puts the focus back on the button pressed;
- 5 the replay's step buttons are named, its position is a status, the current event's button is marked;
- 6 a tournament's page has a status line (entries, the start, a round paired, the viewer's table);
- 7 the form's own fields carry their help outside their label; 8 the claim help says computers end it;
- 9 each view titles the page, and the header's links put the focus on the new view's heading;
- 10 the join form's refusal is tied to its field.
"""

from __future__ import annotations

import json
import re

import pytest
import requests

from tests.web.test_page_a11y_second import described_by
from tests.web.test_page_fifth_probe import finished_fools_crown, open_replay, read
from tests.web.test_page_followups import auth, match_with, move, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

FOCUSED_TEXT = "() => document.activeElement?.textContent"

# Every text the table's status line (or another status, ``s``) has said since.
RECORD = """s => { window.said = []; const line = document.querySelector(s);
  new MutationObserver(() => window.said.push(line.textContent)).observe(line,
  { childList: true, characterData: true, subtree: true }); }"""
SAID = "t => window.said.some((text) => text.includes(t))"


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


# -- 1 ----------------------------------------------------------------------------------------------
TAKE = re.compile(r"take the (face-up (\S+)|face-down card) from seat ([0-2]) \((.+)\)")


def test_jests_take_buttons_name_the_card_and_the_seat(server, browser):
    jo = register(server, "a11y3-take")
    match_id = match_with(server, jo, "jest", 3, computers={"1": "basic", "2": "basic"})
    context, page, errors = signed_in(browser, server, jo)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("button.action:enabled")
    page.locator("button.action:enabled").first.click()  # the offer; the take comes round to this seat
    page.wait_for_selector("button.action:enabled:has-text('take the')", timeout=30_000)
    labels = page.locator("button.action").all_inner_texts()
    for label in labels:
        said = TAKE.fullmatch(label)
        assert said, labels
        seat = int(said.group(3))
        assert said.group(4) == ("computer (basic)" if seat else "a11y3-take"), labels
        if said.group(2):  # the face-up card, as the offer's row shows it
            row = page.locator(".jest tbody tr").nth(seat)
            assert row.locator(".chip.up").inner_text() == said.group(2), labels
    # The two computers of one level are told apart wherever the page names them.
    seats = page.locator(".match-head ol.seats li").all_inner_texts()
    assert any("computer (basic) (seat 1)" in text for text in seats), seats
    assert any("computer (basic) (seat 2)" in text for text in seats), seats
    rows = page.locator(".jest tbody th").all_inner_texts()
    assert len(set(rows)) == 3, rows
    assert not errors, errors
    context.close()


# -- 2 ----------------------------------------------------------------------------------------------
def test_the_status_line_says_the_others_moves(server, browser):
    jo = register(server, "a11y3-moves")
    match_id = match_with(server, jo, "jest", 3, computers={"1": "basic", "2": "basic"})
    context, page, errors = signed_in(browser, server, jo)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("button.action:enabled")
    page.evaluate(RECORD, "#announce")
    # Within a few of its own moves the computers move (take a card, offer): said by seat, in words.
    for _ in range(6):
        if page.evaluate("() => window.said.some((t) => /computer \\(basic\\) \\(seat [12]\\): /.test(t))"):
            break
        version = page.inner_text("#version")
        page.wait_for_selector("button.action:enabled", timeout=30_000)
        page.locator("button.action:enabled").first.click()
        page.wait_for_function("v => document.querySelector('#version').textContent !== v", arg=version)
        page.wait_for_timeout(1_000)
    said = page.evaluate("window.said")
    assert any(re.search(r"computer \(basic\) \(seat [12]\): \w", text) for text in said), said
    assert not errors, errors
    context.close()


def test_the_status_line_says_the_clock_running_low_running_out_and_the_result(server, browser):
    jo = register(server, "a11y3-clock")
    created = requests.post(f"{server}/matches", headers=auth(jo), timeout=10, json={
        "game": "jest", "seats": 3, "computers": {"1": "basic", "2": "basic"},
        "turn_limit": {"seconds": 8, "on_timeout": "claim"}})
    created.raise_for_status()
    match_id = created.json()["id"]
    requests.post(f"{server}/matches/{match_id}/seats", headers=auth(jo), json={}, timeout=10).raise_for_status()
    context, page, errors = signed_in(browser, server, jo)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#start")
    page.evaluate(RECORD, "#announce")
    page.click("#start")
    # Nothing pressed: the clock runs low, then out, and with only computers left the match ends.
    page.wait_for_function(SAID, arg="Your time is running out", timeout=20_000)
    page.wait_for_function(SAID, arg="Your time ran out.", timeout=30_000)
    page.wait_for_function(SAID, arg="The match is over.", timeout=30_000)
    ranks = read(server, match_id)["result"]["ranks"]
    page.wait_for_function(SAID, arg=f"You: place {ranks[0]}", timeout=10_000)
    said = page.evaluate("window.said")
    assert sum("Your time is running out" in text for text in said) == 1, said  # once
    assert not errors, errors
    context.close()


# -- 3 ----------------------------------------------------------------------------------------------
def at_live_tax_collection(server: str, players: list[dict], match_id: str) -> list[dict]:
    """Every seat plays its first action until the first seat may take tiles (the live tax collection)."""
    for _ in range(100):
        views = [read(server, match_id, player) for player in players]
        if any(action["type"] == "peek" for action in views[0]["legal_actions"]):
            return views
        for player, view in zip(players, views):
            if view["legal_actions"]:
                move(server, match_id, player, view["legal_actions"][0])
    raise AssertionError("no tax collection")


def test_an_action_taken_by_another_seat_leaves_the_focus_on_the_moves_heading(server, browser):
    players = [register(server, f"a11y3-tile-{i}") for i in range(3)]
    match_id = match_with(server, players[0], "tumult-royale", 3, people=players[1:],
                          options={"tax_mode": "live", "tax_seconds": 120})
    views = at_live_tax_collection(server, players, match_id)
    tile = next(a for a in views[0]["legal_actions"] if a["type"] == "peek" and a["tile"] > 0)["tile"]
    context, page, errors = signed_in(browser, server, players[0])
    page.goto(f"{server}/#/match/{match_id}")
    button = page.locator("button.action", has_text=re.compile(f"^take tile {tile}$"))
    button.wait_for()
    page.evaluate(RECORD, "#announce")
    button.focus()
    move(server, match_id, players[1], {"type": "peek", "tile": tile}).raise_for_status()
    page.wait_for_function("() => document.activeElement?.id === 'moves-heading'", timeout=15_000)
    page.wait_for_function(SAID, arg=f'"take tile {tile}" is no longer offered.', timeout=5_000)
    assert page.locator("button.action:enabled").count() > 0  # other tiles are still there: not landed on
    # It stays there at the next update, the person having pressed nothing: the redraw moved it on to the
    # first action, and the next Enter took a tile nobody chose (a keyboard probe; WCAG 3.2.1).
    version = move(server, match_id, players[1], {"type": "return"}).json()["version"]
    page.wait_for_function("v => document.querySelector('#version')?.textContent === String(v)", arg=version,
                           timeout=15_000)
    page.wait_for_timeout(300)  # the redraw's focus is set in the same task; a moment for any late one
    assert page.evaluate("() => document.activeElement?.id") == "moves-heading"
    assert not errors, errors
    context.close()


# -- 4 ----------------------------------------------------------------------------------------------
ILLEGAL = {"type": "urn:motley:problem:illegal-move", "title": "Illegal move", "status": 409,
           "detail": "that action is not legal now"}


def test_a_refused_move_puts_the_focus_back_on_the_button_pressed(server, browser):
    kim = register(server, "a11y3-refused")
    match_id = match_with(server, kim, "fools-crown", 2, computers={"1": "basic"})
    context, page, errors = signed_in(browser, server, kim)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_function("() => document.querySelectorAll('button.action:enabled').length >= 2", timeout=30_000)
    page.route(f"**/matches/{match_id}/moves", lambda route: route.fulfill(
        status=409, content_type="application/problem+json", body=json.dumps(ILLEGAL)))
    second = page.locator("button.action").nth(1)
    label = second.inner_text()
    second.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#refusal .problem[role=alert]")
    page.wait_for_function(f"() => document.activeElement?.textContent === {json.dumps(label)}", timeout=5_000)
    assert page.evaluate("() => document.activeElement.matches('button.action:enabled')")
    assert not errors, errors
    context.close()


# -- 5 ----------------------------------------------------------------------------------------------
def test_the_replays_steps_are_named_and_said(server, browser):
    ada, ben = register(server, "a11y3-ada"), register(server, "a11y3-ben")
    match_id = finished_fools_crown(server, [ada, ben], reveal_at_end=True)
    last = read(server, match_id)["version"]
    context, page, errors = signed_in(browser, server, ada)
    open_replay(page, server, match_id)
    assert page.get_attribute("#back", "aria-label") == "previous version"
    assert page.get_attribute("#forward", "aria-label") == "next version"
    assert page.get_attribute("#at", "role") == "status"
    page.focus("#back")
    page.keyboard.press("Enter")
    page.wait_for_function("v => document.querySelector('#at').textContent === `version ${v} of ${v + 1}`",
                           arg=last - 1)
    # The current event's button, the one read, says it is current.
    assert page.locator("#events button[aria-current=step]").count() == 1
    assert page.get_attribute(f"#events li[data-version='{last - 1}'] button", "aria-current") == "step"
    page.focus("#events li[data-version='2'] button")
    page.keyboard.press("Space")
    page.wait_for_selector("#events li[data-version='2'] button[aria-current=step]")
    assert page.locator("#events button[aria-current]").count() == 1
    assert not errors, errors
    context.close()


# -- 6 ----------------------------------------------------------------------------------------------
def test_a_tournaments_page_says_entries_the_start_and_the_viewers_table(server, browser):
    org, ivy, jon = (register(server, f"a11y3-t-{name}") for name in ("org", "ivy", "jon"))
    created = requests.post(f"{server}/tournaments", headers=auth(org), timeout=10, json={
        "game": "jest", "name": "Said Cup", "format": "swiss", "rounds": 1, "table_size": 3})
    created.raise_for_status()
    tournament_id = created.json()["id"]
    context, page, errors = signed_in(browser, server, org)
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#tournament-register")
    assert page.get_attribute("#tournament-announce", "role") == "status"
    page.evaluate(RECORD, "#tournament-announce")

    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(ivy), timeout=10).raise_for_status()
    page.wait_for_function(SAID, arg="Registered: \u2068a11y3-t-ivy\u2069.", timeout=20_000)
    page.focus("#tournament-register")
    page.keyboard.press("Enter")
    page.wait_for_function(SAID, arg="You are registered.", timeout=10_000)
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(jon), timeout=10).raise_for_status()
    page.wait_for_function(SAID, arg="3 registered.", timeout=20_000)
    # Withdrawn before the start, an entry leaves the list: nothing was said (a web organiser's probe).
    requests.delete(f"{server}/tournaments/{tournament_id}/players/{jon['id']}", headers=auth(jon),
                    timeout=10).raise_for_status()
    page.wait_for_function(SAID, arg="\u2068a11y3-t-jon\u2069 is withdrawn.", timeout=20_000)
    page.wait_for_function(SAID, arg="2 registered.", timeout=20_000)
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(jon), timeout=10).raise_for_status()
    page.wait_for_function(SAID, arg="3 registered.", timeout=20_000)

    page.focus("#tournament-start")
    page.keyboard.press("Enter")
    page.wait_for_function(SAID, arg="The tournament has started.", timeout=10_000)
    page.wait_for_function(SAID, arg="Round 1 is paired.", timeout=10_000)
    page.wait_for_function(SAID, arg="Your table is ready: table 1, with \u2068", timeout=10_000)
    # The table is a link above the standings while it is played (a phone probe: the line was text alone,
    # the table's link far below it), and opens the viewer's seat.
    link = page.locator("#your-table a")
    assert link.inner_text() == "play your table (table 1)"
    assert "a11y3-t-ivy" in page.inner_text("#your-table") and "a11y3-t-jon" in page.inner_text("#your-table")
    link.click()
    page.wait_for_url(lambda url: "#/match/" in url and "as=spectator" not in url, timeout=10_000)
    assert not errors, errors
    context.close()


# -- 7, 8 -------------------------------------------------------------------------------------------
def test_the_forms_own_fields_are_named_short_and_described_once(server, browser):
    lee = register(server, "a11y3-form")
    context, page, errors = signed_in(browser, server, lee)
    page.goto(server + "/")
    page.wait_for_selector("#create")
    for role, name, selector in [("spinbutton", "turn limit (s)", "#create-turn-limit"),
                                 ("combobox", "when a turn runs out", "#create-on-timeout"),
                                 ("checkbox", "private (invitation code)", "#create-unlisted")]:
        field = page.get_by_role(role, name=name, exact=True)
        assert field.count() == 1, (role, name, page.locator(selector).aria_snapshot())
        assert field.get_attribute("id") == selector[1:]
        assert described_by(page, selector) == page.inner_text(f"{selector}-help")
    # Claims with only computers left: the match ends when the person's own turn runs out (README).
    assert "With only computers left to claim, the match ends as soon as your turn runs out." in \
        page.inner_text("#create-on-timeout-help")

    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#create-tournament")
    assert page.get_by_role("spinbutton", name="table size", exact=True).get_attribute("id") == "tournament-table-size"
    assert "players per table" in described_by(page, "#tournament-table-size")
    assert not errors, errors
    context.close()


# -- 9 ----------------------------------------------------------------------------------------------
def test_each_view_titles_the_page_and_the_headers_links_focus_its_heading(server, browser):
    max_ = register(server, "a11y3-title")
    match_id = match_with(server, max_, "jest", 3, computers={"1": "basic", "2": "basic"})
    context, page, errors = signed_in(browser, server, max_)
    titles = [("#/", "Lobby · Motley"), (f"#/match/{match_id}", "Jest match · Motley"),
              (f"#/replay/{match_id}", "Replay: Jest match · Motley"), ("#/tournaments", "Tournaments · Motley"),
              ("#/leaderboard/jest", "Leaderboard: Jest · Motley")]
    for route, title in titles:
        page.goto(f"{server}/{route}")
        page.wait_for_function("t => document.title === t", arg=title, timeout=10_000)

    # The header's Tournaments, then Lobby: the focus goes to the new view's heading, as in-page links do.
    for link, heading in [("Tournaments", "Tournaments"), ("Lobby", "Lobby")]:
        page.locator("header nav a", has_text=link).focus()
        page.keyboard.press("Enter")
        page.wait_for_function("h => document.activeElement?.tagName === 'H1'"
                               " && document.activeElement.textContent === h", arg=heading, timeout=10_000)
    assert not errors, errors
    context.close()


# -- 10 ---------------------------------------------------------------------------------------------
def test_the_join_forms_refusal_is_tied_to_its_field(server, browser):
    ned = register(server, "a11y3-join")
    context, page, errors = signed_in(browser, server, ned)
    page.goto(server + "/")
    page.wait_for_selector("#join-match")
    page.fill("#join-match", "not-a-match")
    page.press("#join-match", "Enter")
    page.wait_for_selector("#join-private .problem")
    assert page.get_attribute("#join-match", "aria-invalid") == "true"
    assert "not-a-match" in described_by(page, "#join-match")
    assert page.get_attribute("#join-code", "aria-invalid") is None

    # A private match's wrong code: the code's field.
    created = requests.post(f"{server}/matches", headers=auth(register(server, "a11y3-host")), timeout=10,
                            json={"game": "jest", "seats": 3, "unlisted": True})
    created.raise_for_status()
    page.fill("#join-match", created.json()["id"])
    page.fill("#join-code", "wrong-code")
    page.press("#join-code", "Enter")
    page.wait_for_selector("#join-code[aria-invalid='true']")
    assert page.get_attribute("#join-match", "aria-invalid") is None
    assert "invitation code" in described_by(page, "#join-code")
    assert not errors, errors
    context.close()


# -- a cheater probe: a resigned seat's view ------------------------------------------------------
def test_a_resigned_seats_table_says_it_sees_as_a_spectator_does(server, browser):
    """A player who resigned a match still played watches it as a spectator does: its table's heading said
    "What your seat sees" over the spectator's view, its own cards gone without a word."""
    ivy, jon = register(server, "a11y3-stay"), register(server, "a11y3-resign")
    match_id = match_with(server, ivy, "jest", 3, people=[jon], computers={"2": "random"})
    context, page, errors = signed_in(browser, server, jon)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#observation-heading")
    assert page.inner_text("#observation-heading") == "What your seat sees"
    assert requests.post(f"{server}/matches/{match_id}/resign", headers=auth(jon), timeout=10).status_code == 200
    page.reload()
    page.wait_for_selector("#observation-heading:has-text('you resigned')", timeout=10_000)
    assert page.inner_text("#observation-heading").startswith("What a spectator sees (you resigned")
    assert not errors, errors
    context.close()
