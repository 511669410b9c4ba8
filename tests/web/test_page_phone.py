"""The page on a phone (a phone probe: a 390 px wide touch screen), in Debian's chromium against a real
`motley serve` (tests/web/conftest.py): move buttons of 35 px, tax tiles of 38x32 px and organiser buttons
of 25 px were hard to tap, and the rules pages scrolled sideways (940-996 px wide, their JSON examples
unwrapped)."""

from __future__ import annotations

import time

import pytest
import requests

from tests.web.test_page_followups import auth, match_with, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def phone(browser, server, registered=None):
    context, page, errors = signed_in(browser, server, registered, **PHONE)
    return context, page, errors


@pytest.mark.parametrize("game", ["fools-crown", "le-bouffon"])
def test_a_phones_move_buttons_are_44_px_each_way(server, browser, game):
    person = register(server, f"phone-{game}")
    match_id = match_with(server, person, game, 3 if game == "le-bouffon" else 2,
                          computers={"1": "random", "2": "random"} if game == "le-bouffon" else {"1": "random"})
    context, page, errors = phone(browser, server, person)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#moves button.action:enabled", timeout=20_000)
    sizes = page.locator("#moves button.action").evaluate_all(
        "bs => bs.map(b => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])")
    assert sizes and all(height >= 44 and width >= 44 for width, height in sizes), sizes
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("game", ["fools-crown", "tumult-royale", "le-bouffon", "jester", "jest"])
def test_a_rules_page_fits_a_phones_width(server, browser, game):
    context, page, errors = phone(browser, server)
    page.goto(f"{server}/games/{game}/rules")
    page.wait_for_selector("h1")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert not errors, errors
    context.close()


def test_a_move_on_its_way_says_so_until_its_answer_comes(server, browser):
    """A phone probe: on a slow network a move being sent only greyed the buttons, and a player tapped
    again. The moves' heading says what is being sent until the answer redraws the table."""
    person = register(server, "slow-network")
    match_id = match_with(server, person, "jester", 2, computers={"1": "basic"})
    context, page, errors = phone(browser, server, person)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#moves button.action:enabled", timeout=20_000)
    held: list = []
    # The move's request waits for the test (as on a slow network), then goes on.
    page.route(f"**/matches/{match_id}/moves", lambda route: held.append(route))
    button = page.locator("#moves button.action:enabled").first
    label = button.inner_text()
    button.tap()
    page.wait_for_function("() => document.querySelector('#moves-heading').textContent.startsWith('Sending')")
    assert page.inner_text("#moves-heading") == f"Sending: {label}…"
    assert page.get_attribute("#moves", "aria-busy") == "true"
    assert page.locator("#moves button.action:enabled").count() == 0
    for _ in range(50):  # the route's handler runs as the page's events are dispatched
        if held:
            break
        page.wait_for_timeout(100)
    (request,) = held
    request.continue_()
    page.wait_for_function("() => !document.querySelector('#moves-heading')?.textContent.startsWith('Sending')",
                           timeout=20_000)
    assert not errors, errors
    context.close()


def test_a_turn_that_begins_out_of_sight_brings_the_moves_into_view_with_their_clock(server, browser):
    """A phone probe: Tumult Royale's timed taxes began out of sight, and the countdown at the table's top
    went out of sight once the tiles were scrolled to. On a touch screen a turn that begins out of sight
    scrolls the moves into view, and the moves show the clocks that concern them."""
    person, other = register(server, "phone-turns"), register(server, "phone-other")
    created = requests.post(f"{server}/matches", headers=auth(person), timeout=10, json={
        "game": "jester", "seats": 2, "turn_limit": {"seconds": 600}})
    created.raise_for_status()
    match_id = created.json()["id"]
    for player in (person, other):
        joined = requests.post(f"{server}/matches/{match_id}/seats", headers=auth(player), json={}, timeout=10)
        joined.raise_for_status()
    requests.post(f"{server}/matches/{match_id}/start", headers=auth(person), timeout=10).raise_for_status()
    context, page, errors = phone(browser, server, person)
    page.goto(f"{server}/#/match/{match_id}")

    def the_others_turn() -> dict:  # the other seat's view once it is to act (the person's moves made on the page)
        for _ in range(20):
            view = requests.get(f"{server}/matches/{match_id}", headers=auth(other), timeout=10).json()
            if view["legal_actions"]:
                return view
            if page.locator("#moves button.action:enabled").count():
                version = page.inner_text("#version")
                page.locator("#moves button.action:enabled").first.tap()
                page.wait_for_function("v => document.querySelector('#version').textContent !== v", arg=version,
                                       timeout=20_000)
            else:
                page.wait_for_timeout(200)
        raise AssertionError("the other seat was never to act")

    view = the_others_turn()
    page.wait_for_function("() => document.querySelector('#moves-heading')?.textContent === 'Waiting'")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    # Reading the table's foot while the other plays (its seats' cards, the reserve): the moves are above.
    assert page.evaluate("() => document.querySelector('#moves').getBoundingClientRect().bottom < 0")
    moved = requests.post(f"{server}/matches/{match_id}/moves", headers=auth(other), timeout=10,
                          json={"action": view["legal_actions"][0]})
    assert moved.status_code == 201, moved.text
    page.wait_for_selector("#moves button.action:enabled", timeout=20_000)
    top = page.evaluate("() => document.querySelector('#moves').getBoundingClientRect().top")
    assert -1 <= top < page.evaluate("innerHeight"), top  # at the screen's top (to a fraction of a pixel)
    assert "turn clock" in page.inner_text("#moves .moves-clock")  # its own clock beside the moves
    assert not errors, errors
    context.close()


# Every control a phone shows, but the table's move buttons checked above: the lobby's and the create form's.
TAPPED = ("td.row-actions > button, td.row-actions > a, header nav a, header a.brand, #whoami a, summary, select, "
          "input:not([type=checkbox]):not([type=radio]):not([type=hidden])")


def test_a_phones_row_buttons_fields_links_and_folds_are_44_px_tall(server, browser):
    """A phone probe: the lobby's join (and the organiser's Withdraw…) were 24.9 px tall, a rule for table
    rows beating the touch screen's 44 px; the form's fields 30-32 px, the header's links and the folds'
    summaries ("your key", "the exact rule") 18-22 px; another, the header's "Motley" 28 px and "Playing as"'s
    name 18 px."""
    host = register(server, "phone-host")
    match_with(server, host, "jest", 3)  # open: a seat to join in the lobby's row
    person = register(server, "phone-joiner")
    context, page, errors = phone(browser, server, person)
    page.goto(f"{server}/#/")
    page.wait_for_selector("td.row-actions > button, td.row-actions > a")
    page.locator("summary", has_text="the exact rule").first.wait_for()
    heights = page.locator(TAPPED).evaluate_all(
        "ns => ns.filter(n => n.getClientRects().length)"
        ".map(n => [n.outerHTML.slice(0, 60), n.getBoundingClientRect().height])")
    assert len(heights) > 5 and all(height >= 44 for _, height in heights), [h for h in heights if h[1] < 44]
    # As wide too, the short ones: the header's "API" was 24 px wide, a game card's "Rules" 39 (a phone probe).
    widths = page.locator("header nav a, .game-links a").evaluate_all(
        "ns => ns.filter(n => n.getClientRects().length).map(n => [n.textContent, n.getBoundingClientRect().width])")
    assert len(widths) > 5 and all(width >= 44 for _, width in widths), [w for w in widths if w[1] < 44]
    # The join page's "not now" (60 x 22 px).
    page.goto(f"{server}/#/join/{match_with(server, host, 'jest', 3)}")
    box = page.locator("#join-decline").bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44, box
    # The tournaments list's Next and its rows' "standings" (18 px tall: a today probe).
    for i in range(21):
        requests.post(f"{server}/tournaments", headers=auth(host), timeout=10, json={
            "game": "jest", "name": f"Phone cup {i}", "format": "swiss", "rounds": 1}).raise_for_status()
    for _ in range(50):  # the list is a read model: the last few may take a moment
        if requests.get(f"{server}/tournaments", timeout=10).json()["total"] > 20:
            break
        time.sleep(0.1)
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#tournaments-next", timeout=10_000)
    heights = page.locator("#tournaments-next, table.grid td a").evaluate_all(
        "ns => ns.map(n => [n.textContent, n.getBoundingClientRect().height])")
    assert len(heights) > 5 and all(height >= 44 for _, height in heights), [h for h in heights if h[1] < 44]
    assert not errors, errors
    context.close()


def test_a_rating_charts_labels_are_readable_on_a_phone(server, browser):
    """A phone probe: the chart was drawn 520 units wide and shrunk to the phone's width, its axis labels
    about 7 px high, and with many matches its x labels ran into each other. It is drawn as wide as the
    window now, and labels every few points where they would crowd. The history is made up (30 matches)."""
    person = register(server, "phone-chart")
    history = {"history": [{"match_id": None, "place": 1 + i % 3, "mu": 25 + i / 3, "sigma": 8 - i / 5}
                           for i in range(30)]}
    context, page, errors = signed_in(browser, server, person, viewport={"width": 360, "height": 640},
                                      is_mobile=True, has_touch=True)
    page.route(f"**/players/{person['id']}/ratings/jest", lambda route: route.fulfill(json=history))
    page.goto(f"{server}/#/player/{person['id']}/jest")
    page.wait_for_selector("svg.chart circle.dot")
    boxes = page.locator("svg.chart text.tick").evaluate_all(
        "ts => ts.map(t => { const r = t.getBoundingClientRect(); return [r.left, r.right, r.top, r.height]; })")
    assert boxes and min(height for *_, height in boxes) >= 11, boxes
    bottom = max(top for _, _, top, _ in boxes)
    row = sorted((left, right) for left, right, top, _ in boxes if top == bottom)  # the x labels
    assert len(row) > 3 and all(right < left for (_, right), (left, _) in zip(row, row[1:])), row
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not errors, errors
    context.close()


def test_no_page_scrolls_sideways_at_320_px(server, browser):
    """A probe at 320 px: every page scrolled sideways by 16 px, the header's links on one line running past
    the window (its "API" link ended at 336 px). They wrap now."""
    person = register(server, "narrow-phone")
    context, page, errors = signed_in(browser, server, person, viewport={"width": 320, "height": 640},
                                      is_mobile=True, has_touch=True)
    for route, ready in (("#/", "h1"), ("#/leaderboard/jest", "#leaderboard"), ("#/tournaments", "h1"),
                         (f"#/player/{person['id']}/jest", "svg.chart")):
        page.goto(f"{server}/{route}")
        page.wait_for_selector(ready)
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, route
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("game, seats", [("jest", 3), ("fools-crown", 2)])
def test_everything_you_see_fits_320_px_when_opened(server, browser, game, seats):
    """A probe at 320 px: opening "everything you see" scrolled the page sideways by 6 px: the options'
    nested list gave its values no room, and a value ("highest-card") stood one letter a line past the edge."""
    person = register(server, f"narrow-{game}")
    match_id = match_with(server, person, game, seats, computers={str(s): "random" for s in range(1, seats)})
    context, page, errors = signed_in(browser, server, person, viewport={"width": 320, "height": 640},
                                      is_mobile=True, has_touch=True)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("details")
    page.evaluate("() => document.querySelectorAll('details').forEach((fold) => { fold.open = true; })")
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert not errors, errors
    context.close()


def test_the_lobby_drawn_again_keeps_the_new_match_form_as_chosen(server, browser):
    """A phone probe chose Tumult Royale and 2 seats in New match just as the lobby was drawn a second time
    (signed in, then the Lobby link a moment later): the form was made anew and said Jest, with 2 seats."""
    person = register(server, "form-keeper")
    context, page, errors = phone(browser, server, person)
    page.goto(f"{server}/")
    page.wait_for_selector("#create")
    page.select_option("#create-game", "tumult-royale")
    page.fill("#create-seats", "2")
    page.dispatch_event("#create-seats", "change")
    page.locator("select.computer").first.select_option(index=1)
    lists = page.evaluate_handle("document.getElementById('lobby-lists')")
    page.evaluate("location.hash = '#/'")  # the route runs again: the lobby is drawn anew
    page.wait_for_function("old => document.getElementById('lobby-lists') !== old", arg=lists)
    assert page.eval_on_selector("#create-game", "e => e.value") == "tumult-royale"
    assert page.input_value("#create-seats") == "2"
    assert page.locator("select.computer").first.evaluate("e => e.selectedIndex") == 1
    assert not errors, errors
    context.close()


def test_a_tumult_royale_fields_number_is_readable_on_a_phone(server, browser):
    """A phone probe: a target field's number on Tumult Royale's board was 10.4 px, the page's only text
    under 11 px."""
    context, page, errors = phone(browser, server)
    page.goto(f"{server}/#/")
    page.wait_for_selector("h1")
    size = page.evaluate("""() => {
        const table = document.createElement('table'); table.className = 'kingdom';
        table.innerHTML = '<tr><td class="field"><span class="num">12</span></td></tr>';
        document.getElementById('view').append(table);
        return parseFloat(getComputedStyle(table.querySelector('.num')).fontSize); }""")
    assert size >= 11, size
    assert not errors, errors
    context.close()


def test_a_rematchs_join_link_is_44_px_tall_on_a_phone(server, browser):
    """A phone probe: "Rematch: join", a player's only way into the rematch, ends a sentence and was
    39.75 px tall."""
    ann, bob = register(server, "rematch-ann"), register(server, "rematch-bob")
    match_id = match_with(server, ann, "jester", 2, people=[bob])
    assert requests.post(f"{server}/matches/{match_id}/resign", headers=auth(bob), timeout=10).status_code == 200
    assert requests.post(f"{server}/matches/{match_id}/rematch", headers=auth(ann), timeout=10).status_code == 201
    context, page, errors = phone(browser, server, bob)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#rematch-join", timeout=15_000)
    height = page.locator("#rematch-join").evaluate("a => a.getBoundingClientRect().height")
    assert height >= 44, height
    assert not errors, errors
    context.close()
