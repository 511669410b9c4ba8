"""The web page's fixes after the second probe of the page (api/web/): Debian's chromium driven by Playwright
against a real `motley serve` process, as tests/web/test_browser.py does (its conftest's browser).

- The replay of a finished, revealed match draws what the whole `state` holds: every hand, the face-down
  offers and commits (docs/architecture.md, "Visibility").
- A tab follows an identity changed in another tab of the browser: it never acts as one player while it
  names another.
- The key is shown on demand, signing out asks first (naming the key), and a key signs in again.
- At phone width no view is wider than the screen, and replay steps keep their buttons on it.
- An emptied number option is left to the server's default; a "number" takes fractions; options say what
  they are.
- Replay events are buttons inside list items, table headers have names, focus stays in the moves after
  one's own move, face-down cards are named.
- Fool's Crown's end names its winner, absent seats are marked, tournament tables name their players, and
  the lobby reads its lists again.
"""

from __future__ import annotations

import json
import time

import pytest
import requests

from tests.web.test_page_followups import auth, match_with, move, play_out, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

PHONE = {"width": 360, "height": 740}  # a small phone: at 360 the lobby's join field and Tumult Royale's slots spilled


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


@pytest.fixture(scope="module")
def finished(server):
    """Two finished, revealed matches of one person against computers: Jest and Fool's Crown."""
    kim = register(server, "kim")
    matches = {"jest": match_with(server, kim, "jest", 3, computers={"1": "random", "2": "random"}),
               "fools-crown": match_with(server, kim, "fools-crown", 2, computers={"1": "random"})}
    for match_id in matches.values():
        play_out(server, match_id, [kim])
    return {"player": kim, **matches}


def versions(base: str, match_id: str) -> list[dict]:
    """The match at every version, as a spectator reads it."""
    last = requests.get(f"{base}/matches/{match_id}", timeout=10).json()["version"]
    return [requests.get(f"{base}/matches/{match_id}", params={"version": v}, timeout=10).json()
            for v in range(1, last + 1)]


def open_version(page, version: int) -> None:
    page.click(f"#events li[data-version='{version}'] > button")
    page.wait_for_function("v => Number(document.querySelector('#replay-board #version')?.textContent) === v",
                           arg=version)


def card_title(code: str) -> str:
    return "Joker" if code == "JK" else code  # render.js chip(): the card's title


def phone(browser, base: str, registered: dict | None):
    """A phone-sized browser context, holding the key a registration gave (as signed_in does)."""
    return signed_in(browser, base, registered, viewport=PHONE)


def test_the_replay_of_a_revealed_match_shows_every_hand_and_every_face_down_card(server, browser, finished):
    # Jest, as a spectator: a version whose offers hold face-down cards, and one where hands are held.
    views = versions(server, finished["jest"])
    assert all(view["viewer"]["sees_all"] for view in views)  # finished and revealed: at every version
    face_down = next(view for view in views if view["observation"]
                     and any(offer and offer.get("down") is True for offer in view["observation"]["offers"]))
    holding = next(view for view in views if view.get("state") and any(view["state"]["hands"]))

    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/replay/{finished['jest']}")
    page.wait_for_selector("#events li")
    open_version(page, face_down["version"])
    # The board shows the face-down offer cards, as the event list beside it does: no card back left.
    assert page.locator("#replay-board .jest .back").count() == 0
    shown = page.locator("#replay-board .jest tbody .card").evaluate_all("nodes => nodes.map((n) => n.title)")
    for offer in face_down["state"]["offers"]:
        if offer and offer["down"]:
            assert card_title(offer["down"]) in shown, (offer, shown)

    # Every hand, the others' too.
    open_version(page, holding["version"])
    for seat, hand in enumerate(holding["state"]["hands"]):
        row = page.locator(f"#every-hand li[data-seat='{seat}']")
        assert row.locator(".card").evaluate_all("nodes => nodes.map((n) => n.title)") == [card_title(c) for c in hand]

    # Fool's Crown: a version with a commit the spectator's observation keeps face down, shown in full.
    views = versions(server, finished["fools-crown"])
    sealed = next(view for view in views if view["observation"]
                  and any(commit and None in commit for commit in view["observation"]["commits"])
                  and "JOKER" not in json.dumps(view["state"]["commits"]))  # cards only: each drawn with its code
    page.goto(f"{server}/#/replay/{finished['fools-crown']}")
    # The Jest replay's list is still there until the new one replaces it (the hash alone changed).
    page.wait_for_selector(f"#events[data-match='{finished['fools-crown']}'] li")
    open_version(page, sealed["version"])
    assert page.locator("#replay-board .fools-crown .back").count() == 0
    rows = page.locator("#replay-board .fools-crown tbody tr")
    for seat, commit in enumerate(sealed["state"]["commits"]):
        if commit:
            titles = rows.nth(seat).locator("td").nth(2).locator(".card").evaluate_all("ns => ns.map((n) => n.title)")
            assert titles == [card_title(card) for card in commit], (commit, titles)
    for seat, hand in enumerate(sealed["state"]["hands"]):
        titles = page.locator(f"#every-hand li[data-seat='{seat}'] .card").evaluate_all("ns => ns.map((n) => n.title)")
        assert [t for t in titles if t != "Joker"] == hand
    assert not errors, errors
    context.close()


def test_a_tab_acts_only_as_the_player_it_shows_when_another_tab_changes_identity(server, browser):
    lea, max_ = register(server, "lea"), register(server, "max")
    match_id = match_with(server, lea, "jest", 3, people=[max_], computers={"2": "random"})
    keys = {lea["api_key"]: "lea", max_["api_key"]: "max"}

    context = browser.new_context(viewport={"width": 1200, "height": 900})
    first = context.new_page()
    first.goto(server + "/")
    first.evaluate("r => { localStorage.setItem('motley.key', r.api_key);"
                   " localStorage.setItem('motley.player', JSON.stringify({id: r.id, name: r.name})); }", lea)
    first.goto(f"{server}/#/match/{match_id}")
    first.reload()
    first.wait_for_selector("button.action:enabled")  # the offers: lea and max both choose now
    assert "lea" in first.inner_text("#whoami") and "you are seat 0" in first.inner_text(".match-head")
    sent = []  # whose key each move was sent with
    first.on("request", lambda request: "/moves" in request.url
             and sent.append(keys.get(request.headers.get("authorization", "").removeprefix("Bearer "))))

    # Another tab of the browser: max's key is stored there, as his registration would store it.
    second = context.new_page()
    second.goto(server + "/")
    second.evaluate("r => { localStorage.setItem('motley.key', r.api_key);"
                    " localStorage.setItem('motley.player', JSON.stringify({id: r.id, name: r.name})); }", max_)

    # The first tab shows the identity it now holds: max, his seat and his choices.
    first.wait_for_function("document.querySelector('#whoami')?.textContent.includes('max')", timeout=5_000)
    first.wait_for_function("document.querySelector('.match-head')?.textContent.includes('you are seat 1')")
    first.wait_for_selector("button.action:enabled")
    version = first.inner_text("#version")
    first.locator("button.action:enabled").first.click()
    first.wait_for_function("v => document.querySelector('#version').textContent !== v"
                            " || document.querySelector('.problem')", arg=version)
    assert first.locator(".problem").count() == 0, first.inner_text(".problem")
    assert sent == ["max"] and "max" in first.inner_text("#whoami")  # the key sent is the player the page names
    context.close()


def test_the_key_is_shown_sign_out_asks_first_and_a_key_signs_in_again(server, browser):
    context, page, errors = signed_in(browser, server, None)
    page.goto(server + "/")
    page.fill("#register-name", "ned")
    page.click("#register button[type=submit]")
    page.wait_for_selector("#whoami")
    key = page.evaluate("localStorage.getItem('motley.key')")

    # "your key": shown on demand, to keep.
    page.click("#your-key summary")
    assert page.inner_text("#api-key") == key
    assert page.is_visible("#api-key")

    # Sign out asks first, naming the key; declined, nothing changes.
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#sign-out")
    assert asked and key in asked[0]
    assert page.evaluate("localStorage.getItem('motley.key')") == key
    assert "ned" in page.inner_text("#whoami")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#sign-out")
    page.wait_for_selector("#register-name")
    assert page.evaluate("localStorage.getItem('motley.key')") is None

    # Sign in with a key: a wrong one is refused with a clear message, the kept one signs ned in again.
    page.click("#sign-in-box summary")
    page.fill("#sign-in-key", "not-a-key")
    page.click("#sign-in button[type=submit]")
    page.wait_for_selector("#sign-in-error .problem")
    assert "refused" in page.inner_text("#sign-in-error")
    assert page.evaluate("localStorage.getItem('motley.key')") is None
    page.fill("#sign-in-key", key)
    page.click("#sign-in button[type=submit]")
    page.wait_for_selector("#whoami")
    assert "ned" in page.inner_text("#whoami")
    assert page.evaluate("localStorage.getItem('motley.key')") == key
    page.wait_for_selector("#create")  # the lobby, drawn again as ned
    assert not errors, errors
    context.close()


WIDER_THAN_THE_SCREEN = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_at_phone_width_no_view_is_wider_than_the_screen_and_replay_steps_keep_the_controls(server, browser,
                                                                                           finished):
    context, page, errors = phone(browser, server, finished["player"])
    tumult = match_with(server, finished["player"], "tumult-royale", 2, computers={"1": "random"},
                        options={"tax_mode": "async"})
    for _ in range(100):  # on to the tax collection, whose slots spilled at 360 px
        seen = requests.get(f"{server}/matches/{tumult}", headers=auth(finished["player"]), timeout=10).json()
        if seen["observation"].get("slots"):
            break
        if seen["legal_actions"]:
            move(server, tumult, finished["player"], seen["legal_actions"][0])
        else:
            time.sleep(0.05)
    views = [("/", "#lobby-lists table"), (f"/#/match/{tumult}", ".tumult-royale .slots"),
             (f"/#/match/{finished['fools-crown']}", ".fools-crown table"),
             (f"/#/replay/{finished['fools-crown']}", "#replay-board .fools-crown table"),
             (f"/#/replay/{finished['jest']}", "#replay-board .jest table")]
    for path, drawn in views:
        page.goto(server + path)
        page.wait_for_selector(drawn)
        page.wait_for_timeout(300)
        assert page.evaluate(WIDER_THAN_THE_SCREEN) <= 0, path

    # Stepping back through the replay: the page stays where it is, the step buttons on the screen.
    page.evaluate("scrollTo(0, 0)")
    for _ in range(4):
        version = int(page.inner_text("#replay-board #version"))
        page.click("#back")
        page.wait_for_function("v => Number(document.querySelector('#replay-board #version')?.textContent) === v",
                               arg=version - 1)
        assert page.evaluate("scrollY") == 0
        assert page.evaluate("document.querySelector('.controls').getBoundingClientRect().top") >= 0
    # The list scrolled itself to the current event.
    assert page.evaluate("""() => {
        const box = document.querySelector('.replay aside').getBoundingClientRect();
        const item = document.querySelector('#events li.current').getBoundingClientRect();
        return item.top >= box.top && item.bottom <= box.bottom; }""")
    assert not errors, errors
    context.close()


def test_an_emptied_number_option_is_left_out_and_a_number_takes_fractions(server, browser):
    oda = register(server, "oda")
    games = {game["name"]: game for game in requests.get(f"{server}/games", timeout=10).json()}
    context, page, errors = signed_in(browser, server, oda)
    bodies = []
    page.on("request", lambda request: request.method == "POST" and request.url.endswith("/matches")
            and bodies.append(json.loads(request.post_data)))
    page.goto(server + "/")
    page.wait_for_selector("#create")

    # Le Bouffon, "deals" emptied: left out, the server's default applies.
    page.select_option("#create-game", "le-bouffon")
    page.locator("select.computer").nth(0).select_option("random")
    page.locator("select.computer").nth(1).select_option("random")
    page.fill("#create [name=deals]", "")
    page.click("#create-submit")
    page.wait_for_url("**/#/match/*")
    assert "deals" not in bodies[-1]["options"]
    match_id = page.url.rsplit("/", 1)[1]
    created = requests.get(f"{server}/matches/{match_id}", timeout=10).json()
    assert created["options"].get("deals", games["le-bouffon"]["options_schema"]["properties"]["deals"]["default"]) == 5

    # Tumult Royale: its seconds are a "number", 2.5 is taken; each option's description is shown.
    page.goto(server + "/")
    page.wait_for_selector("#create")
    page.select_option("#create-game", "tumult-royale")
    for name, schema in games["tumult-royale"]["options_schema"]["properties"].items():
        option = page.locator(f"#create .option:has([name={name}])")
        assert option.locator(".option-summary").is_visible() and option.locator(".option-summary").inner_text() \
            == schema["title"], name  # in plain words, the exact rule a click away
        option.locator(".option-more summary").click()
        help_text = option.locator(".option-help")
        assert help_text.is_visible() and help_text.inner_text() == schema["description"], name
    page.locator("select.computer").nth(0).select_option("random")
    page.fill("#create [name=tax_seconds]", "2.5")
    assert page.evaluate("document.querySelector('#create [name=tax_seconds]').checkValidity()")
    page.click("#create-submit")
    page.wait_for_url("**/#/match/*")
    assert bodies[-1]["options"]["tax_seconds"] == 2.5
    assert page.locator(".problem").count() == 0
    assert not errors, errors
    context.close()


def test_events_are_buttons_headers_are_named_focus_stays_in_the_moves_and_face_down_cards_are_named(
        server, browser, finished):
    pia = register(server, "pia")
    context, page, errors = signed_in(browser, server, pia)

    # The replay's events: a list of items, each holding a real button (no role="button" on an item).
    page.goto(f"{server}/#/replay/{finished['jest']}")
    page.wait_for_selector("#events li")
    items = page.locator("#events > li")
    assert items.count() == page.locator("#events > li > button").count() > 0
    assert page.locator("#events li[role]").count() == 0

    # Le Bouffon's table, played from the keyboard: after each move focus is back in the moves area.
    match_id = match_with(server, pia, "le-bouffon", 3, computers={"1": "random", "2": "random"})
    page.goto(f"{server}/#/match/{match_id}")
    for _ in range(3):
        page.wait_for_selector("button.action:enabled", timeout=30_000)
        version = page.inner_text("#version")
        page.locator("button.action:enabled").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("v => document.querySelector('#version').textContent !== v"
                               " || document.querySelector('.problem')", arg=version, timeout=30_000)
        page.wait_for_timeout(200)
        assert page.evaluate("Boolean(document.activeElement?.closest('#moves'))"), \
            page.evaluate("document.activeElement?.outerHTML")
    # No header without a name (a column of marks or actions has one a screen reader reads).
    empty = "[...document.querySelectorAll('th')].filter((th) => !th.textContent.trim()).length"
    assert page.evaluate(empty) == 0
    # And a seat table's column is titled for the eye too: Le Bouffon's "out (1)" / "last (3)" column had a
    # header only a screen reader read (a phone probe).
    heads = page.locator(".le-bouffon table.grid thead th").evaluate_all("ths => ths.map((th) => th.innerText.trim())")
    assert heads == ["seat", "score", "role", "cards", "finished"], heads
    page.goto(server + "/")
    page.wait_for_selector("#lobby-lists table")
    assert page.evaluate(empty) == 0

    # A spectator of a running Jest match sees the offers' face-down cards: each is named.
    jest = match_with(server, pia, "jest", 3, computers={"1": "random", "2": "random"})
    for _ in range(100):
        view = requests.get(f"{server}/matches/{jest}", headers=auth(pia), timeout=10).json()
        if view["observation"]["phase"] == "take":
            break
        if view["legal_actions"]:
            move(server, jest, pia, view["legal_actions"][0])
        time.sleep(0.1)
    page.goto(f"{server}/#/match/{jest}?as=spectator")
    page.wait_for_selector(".jest .back")
    backs = page.locator(".jest .back")
    for i in range(backs.count()):
        assert backs.nth(i).get_attribute("role") == "img"
        assert backs.nth(i).get_attribute("aria-label") == "face-down card"
    assert not errors, errors
    context.close()


def test_the_winner_is_named_absent_seats_are_marked_tournament_tables_name_players_and_the_lobby_is_fresh(
        server, browser, finished):
    context, page, errors = signed_in(browser, server, finished["player"])

    # Fool's Crown's end box names the winner, not a seat index.
    final = requests.get(f"{server}/matches/{finished['fools-crown']}", timeout=10).json()
    winner = final["observation"]["end"]["winner"]
    page.goto(f"{server}/#/match/{finished['fools-crown']}")
    page.wait_for_selector(".fools-crown #end")
    end = page.inner_text(".fools-crown #end")
    assert f"Won by {final['seats'][winner]['name'] or f'seat {winner}'}" in end and "winner 0" not in end

    # A seat whose turn ran out is marked on its table (a computer plays it meanwhile).
    ray = register(server, "ray")
    created = requests.post(f"{server}/matches", headers=auth(ray), timeout=10, json={
        "game": "jest", "seats": 3, "computers": {"1": "random", "2": "random"}, "turn_limit": {"seconds": 1}})
    absent_id = created.json()["id"]
    requests.post(f"{server}/matches/{absent_id}/seats", headers=auth(ray), json={}, timeout=10).raise_for_status()
    requests.post(f"{server}/matches/{absent_id}/start", headers=auth(ray), timeout=10).raise_for_status()
    page.goto(f"{server}/#/match/{absent_id}?as=spectator")
    page.wait_for_selector(".match-head .absent", timeout=15_000)
    assert "ray" in page.locator(".match-head li:has(.absent)").inner_text()

    # A tournament: its list shows the game's title, its tables their players.
    organiser, *players = (register(server, name) for name in ["sue", "tia", "uma", "val"])
    tournament = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Named tables", "format": "swiss", "rounds": 1, "table_size": 3,
        "points": [3, 1, 0]}).json()
    for player in players:
        requests.post(f"{server}/tournaments/{tournament['id']}/players", headers=auth(player),
                      timeout=10).raise_for_status()
    requests.post(f"{server}/tournaments/{tournament['id']}/start", headers=auth(organiser),
                  timeout=10).raise_for_status()
    row = page.locator("tr:has-text('Named tables')")
    for _ in range(50):  # the list is a read model that follows the log
        page.goto(f"{server}/#/tournaments")
        page.wait_for_selector("h1:has-text('Tournaments')")
        page.wait_for_timeout(100)
        if row.count():
            break
        page.reload()
    assert row.locator("td").nth(1).inner_text() == "Jest"
    page.goto(f"{server}/#/tournament/{tournament['id']}")
    page.wait_for_selector("#rounds li")
    assert all(name in page.inner_text("#rounds li") for name in ("tia", "uma", "val"))

    # The lobby: a match opened by someone else shows without a reload (read again when the page is
    # focused, and on a timer).
    page.goto(server + "/")
    page.wait_for_selector("#lobby-lists")
    opened = requests.post(f"{server}/matches", headers=auth(ray), timeout=10,
                           json={"game": "jest", "seats": 3}).json()["id"]
    requests.post(f"{server}/matches/{opened}/seats", headers=auth(ray), json={}, timeout=10).raise_for_status()
    for _ in range(50):  # the list is a read model that follows the log
        page.evaluate("window.dispatchEvent(new Event('focus'))")
        if page.locator(f"tr[data-match='{opened}']").count():
            break
        page.wait_for_timeout(200)
    assert page.locator(f"tr[data-match='{opened}']").count() == 1
    assert not errors, errors
    context.close()


def test_a_table_voided_while_played_ends_its_stream_and_the_page_reads_the_tournament_again(server, browser):
    """A spectator on a tournament's page while the organiser voided a table still being played: the page
    followed the voided match's stream until it said "finished" (a voided match is "cancelled"), and
    reopened it at once each time the server ended it: about 200 requests a second, for good, and the
    tournament, its standings and the next round were never read again."""
    organiser, *players = (register(server, name) for name in ["wes", "xia", "yul", "zed"])
    tournament = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Voided table", "format": "swiss", "rounds": 2, "table_size": 3}).json()
    for player in players[:3]:
        requests.post(f"{server}/tournaments/{tournament['id']}/players", headers=auth(player),
                      timeout=10).raise_for_status()
    started = requests.post(f"{server}/tournaments/{tournament['id']}/start", headers=auth(organiser), timeout=10)
    (table,) = started.json()["rounds"][0]["tables"]
    context, page, errors = signed_in(browser, server, None)
    streams = []
    page.on("request", lambda request: "/stream" in request.url and streams.append(request.url))
    page.goto(f"{server}/#/tournament/{tournament['id']}")
    page.wait_for_selector("#rounds li")
    page.wait_for_timeout(500)
    voided = requests.post(f"{server}/tournaments/{tournament['id']}/sanctions", headers=auth(organiser),
                           timeout=10, json={"kind": "void", "match_id": table["match_id"], "reason": "probe"})
    assert voided.status_code == 201, voided.text
    # The next round, paired by the void, shows; the voided match's stream is not asked for again and again.
    page.wait_for_function("document.querySelectorAll('#rounds li').length >= 2", timeout=15_000)
    before = len(streams)
    page.wait_for_timeout(3000)
    assert len(streams) - before <= 2, streams[before:]
    # The table's page says who called it off and why.
    page.goto(f"{server}/#/match/{table['match_id']}")
    assert page.wait_for_selector("#voided").inner_text() == "Voided by the tournament's organiser: probe."
    assert not errors, errors
    context.close()


def test_an_answer_that_is_no_problem_document_and_no_answer_at_all_are_said_plainly(server, browser):
    """A proxy's HTML error page was shown as its markup in the problem box, and a connection that failed
    as the browser's "Failed to fetch"."""
    kim = register(server, "kim")
    match_id = match_with(server, kim, "jest", 3, computers={"1": "random", "2": "random"})
    context, page, errors = signed_in(browser, server, kim)
    page.route(f"**/matches/{match_id}", lambda route: route.fulfill(
        status=502, content_type="text/html", body="<html><body><h1>502 Bad Gateway</h1></body></html>"))
    page.goto(f"{server}/#/match/{match_id}")
    box = page.wait_for_selector(".problem", timeout=15_000)
    said = box.inner_text()
    assert "<html" not in said and "502" in said and "failed" in said, said
    page.unroute(f"**/matches/{match_id}")
    page.route(f"**/matches/{match_id}", lambda route: route.abort("connectionrefused"))
    page.goto(f"{server}/#/lobby")
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_function("[...document.querySelectorAll('.problem')].some(b => b.innerText.includes('could not be "
                           "reached'))", timeout=15_000)
    context.close()
