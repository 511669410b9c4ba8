"""The web page against hostile input (the probe's report: a join link that seated whoever opened it, long
names that made the page scroll sideways, names not isolated from the text around them): Debian's
chromium driven by Playwright against a real `motley serve` process, as tests/web/test_browser.py does.

- A join link (#/join/<id>/<code>) shows the match, its creator and terms and a "Join" button: nothing is
  sent before the click, even when the link is followed from another site; no route sends a POST on
  opening.
- Names of 40 characters and a tournament's name of 80 without a space, and an error echoing a 300-character
  route segment, keep every view as wide as the screen, on a phone and on a laptop.
- Names are drawn in <bdi> (isolated from the text beside them: a right-to-left name reorders nothing).
"""

from __future__ import annotations

import pytest
import requests

from tests.web.test_page_followups import auth, match_with, play_out, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

LONG = "W" * 40  # the longest name the API takes, without a space
LONGER = "M" * 40
RTL = "שלום 12"
TOURNAMENT = "X" * 80  # the longest tournament name the API takes
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"
# What sticks out past the screen's right edge (outside the boxes that scroll on their own): for the message.
STICKING_OUT = """() => [...document.querySelectorAll('body *')].filter((node) => !node.closest('.scroll-x')
  && node.getBoundingClientRect().right > window.innerWidth + 1)
  .map((node) => `${node.tagName}#${node.id}.${node.className}`).slice(-6)"""


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def posts(page) -> list:
    """The URLs of every POST the page sends."""
    sent: list = []
    page.on("request", lambda request: request.method == "POST" and sent.append(request.url))
    return sent


def seated(base: str, match_id: str, player: dict) -> bool:
    seats = requests.get(f"{base}/matches/{match_id}", timeout=10).json()["seats"]
    return any(seat["player_id"] == player["id"] for seat in seats)


def test_a_join_link_shows_the_match_and_its_terms_and_seats_nobody_before_join_is_pressed(server, browser):
    mallory, victim = register(server, "jl-mallory"), register(server, "jl-victim")
    # A public Jester match whose turns run out in 5 s and may then be claimed: a seat taken unawares loses.
    created = requests.post(f"{server}/matches", headers=auth(mallory), timeout=10, json={
        "game": "jester", "seats": 2, "turn_limit": {"seconds": 5, "on_timeout": "claim"}})
    created.raise_for_status()
    trap = created.json()["id"]
    requests.post(f"{server}/matches/{trap}/seats", headers=auth(mallory), json={}, timeout=10).raise_for_status()

    context, page, errors = signed_in(browser, server, victim)
    sent = posts(page)
    page.goto(server + "/")
    page.wait_for_selector("#create")
    # A page of another site links to the join route; the victim follows it.
    elsewhere = context.new_page()
    elsewhere.set_content(f'<a id="go" href="{server}/#/join/{trap}/anything">free cards</a>')
    sent_elsewhere = posts(elsewhere)
    elsewhere.click("#go")
    elsewhere.wait_for_selector("#join-confirm")
    elsewhere.wait_for_timeout(1_500)
    assert not sent_elsewhere, sent_elsewhere
    assert not seated(server, trap, victim)
    assert "#/join/" in elsewhere.url
    terms = elsewhere.inner_text("#join-terms")
    assert elsewhere.inner_text("#join-game") == "Jester"
    assert elsewhere.inner_text("#join-creator") == "jl-mallory"
    assert "jl-mallory" in elsewhere.inner_text("#join-seats") and "free" in elsewhere.inner_text("#join-seats")
    assert "5 s per turn" in terms and "claim" in elsewhere.inner_text("#join-turn-limit")
    assert elsewhere.inner_text("#join-rated").startswith("yes")
    assert elsewhere.inner_text("#join-unlisted").startswith("yes: public")
    elsewhere.close()

    # A private match's link with its code: the same question; Join seats the person, and only then.
    created = requests.post(f"{server}/matches", headers=auth(mallory), timeout=10, json={
        "game": "jest", "seats": 3, "unlisted": True, "rated": False})
    created.raise_for_status()
    private = created.json()["id"]
    requests.post(f"{server}/matches/{private}/seats", headers=auth(mallory), json={}, timeout=10).raise_for_status()
    code = requests.get(f"{server}/matches/{private}", headers=auth(mallory), timeout=10).json()["invitation_code"]
    page.goto(f"{server}/#/join/{private}/{code}")
    page.wait_for_selector("#join-confirm")
    page.wait_for_timeout(1_000)
    assert not sent, sent
    assert not seated(server, private, victim)
    assert page.inner_text("#join-unlisted").startswith("no: private")
    assert page.inner_text("#join-rated").startswith("no")
    assert page.inner_text("#join-turn-limit") == "none"
    page.click("#join-confirm")
    page.wait_for_url(f"**/#/match/{private}")
    assert seated(server, private, victim)
    assert [url.split("?")[0] for url in sent] == [f"{server}/matches/{private}/seats"]

    # Opened again once seated: no Join, a link to the table.
    page.goto(f"{server}/#/join/{private}/{code}")
    page.wait_for_selector("#join-hint")
    assert page.locator("#join-confirm").count() == 0 and "already" in page.inner_text("#join-hint")
    assert not errors, errors
    context.close()


def test_no_route_sends_a_post_when_it_is_opened(server, browser):
    ann, bob = register(server, "nr-ann"), register(server, "nr-bob")
    match_id = match_with(server, ann, "jest", 3, computers={"1": "basic", "2": "basic"})
    open_id = match_with(server, ann, "jest", 3)
    tournament = requests.post(f"{server}/tournaments", headers=auth(ann), timeout=10, json={
        "game": "jest", "name": "No posts", "format": "swiss", "rounds": 1, "table_size": 3})
    tournament.raise_for_status()
    context, page, errors = signed_in(browser, server, bob)
    sent = posts(page)
    routes = ["#/", f"#/match/{match_id}", f"#/match/{open_id}", f"#/match/{match_id}?as=spectator",
              f"#/replay/{match_id}", f"#/join/{open_id}/x", "#/leaderboard/jest", f"#/player/{ann['id']}/jest",
              "#/tournaments", f"#/tournament/{tournament.json()['id']}"]
    for route in routes:
        page.goto(f"{server}/{route}")
        page.wait_for_selector("#view h1")
        page.wait_for_timeout(700)
    assert not sent, sent
    assert not seated(server, open_id, bob)
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("width", [375, 1280])
def test_long_names_and_titles_keep_every_view_as_wide_as_the_screen(server, browser, width):
    long, longer = register(server, LONG), register(server, LONGER)
    # Le Bouffon (a wide board with the seats' names), played to the end: the result and every hand.
    done = match_with(server, long, "le-bouffon", 4, people=[longer], computers={"2": "basic", "3": "basic"},
                      options={"deals": 1})
    play_out(server, done, [long, longer])
    running = match_with(server, long, "le-bouffon", 4, people=[longer], computers={"2": "basic", "3": "basic"})
    waiting = match_with(server, long, "jester", 3, people=[longer])
    created = requests.post(f"{server}/tournaments", headers=auth(long), timeout=10, json={
        "game": "jest", "name": TOURNAMENT, "format": "swiss", "rounds": 1, "table_size": 3})
    created.raise_for_status()
    tournament = created.json()["id"]
    for player in (long, longer):
        requests.post(f"{server}/tournaments/{tournament}/players", headers=auth(player), timeout=10).raise_for_status()

    context, page, errors = signed_in(browser, server, long, viewport={"width": width, "height": 800})
    views = {
        "lobby": ("#/", "#whoami"),
        "player": (f"#/player/{long['id']}/le-bouffon", "#view h1"),
        "table": (f"#/match/{running}", ".game-view"),
        "finished table": (f"#/match/{done}", "#result"),
        "replay": (f"#/replay/{done}", "#replay-board .match-head"),
        "spectator": (f"#/replay/{running}?as=spectator", "#replay-board .match-head"),
        "join": (f"#/join/{waiting}/x", "#join-terms"),
        "leaderboard": ("#/leaderboard/le-bouffon", "#leaderboard"),
        "tournaments": ("#/tournaments", "#view table"),
        "tournament": (f"#/tournament/{tournament}", "#standings table"),
        "long error": ("#/leaderboard/" + "C" * 300, ".problem"),
    }
    wide = {}
    for name, (route, ready) in views.items():
        page.goto(f"{server}/{route}")
        page.wait_for_selector(ready)
        page.wait_for_timeout(300)
        if page.evaluate(OVERFLOW) > 0:
            wide[name] = (page.evaluate(OVERFLOW), page.evaluate(STICKING_OUT))
    assert not wide, wide
    assert LONG in page.inner_text("#whoami")
    assert not errors, errors
    context.close()


def test_names_are_isolated_from_the_text_around_them(server, browser):
    rtl, ann = register(server, RTL), register(server, "bd-ann")
    match_id = match_with(server, rtl, "jest", 3, people=[ann], computers={"2": "basic"})
    play_out(server, match_id, [rtl, ann])
    context, page, errors = signed_in(browser, server, rtl)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#result")
    isolated = "(node) => getComputedStyle(node).unicodeBidi"
    assert page.locator("#whoami bdi").inner_text() == RTL
    assert page.locator("#whoami bdi").evaluate(isolated) == "isolate"
    assert page.locator(".match-head ol.seats li bdi").all_inner_texts()[:2] == [RTL, "bd-ann"]
    assert page.locator("#result li bdi").count() == 3
    assert RTL in page.locator("#result li bdi").all_inner_texts()
    page.goto(f"{server}/#/player/{rtl['id']}/jest")
    page.wait_for_selector("#view h1 bdi")
    assert page.locator("#view h1 bdi").inner_text() == RTL
    page.goto(f"{server}/#/leaderboard/jest")
    page.wait_for_selector("#leaderboard")
    assert RTL in page.locator("#leaderboard td bdi").all_inner_texts()
    assert not errors, errors
    context.close()


def test_a_join_link_to_a_match_whose_empty_seats_are_kept_offers_no_join(server, browser):
    """A rematch keeps its seats for its players: the link offered a stranger Join, which the server then
    refused (the page counted a seat kept for someone else as free)."""
    ann, bob, cy, dan = (register(server, name) for name in ("kept-ann", "kept-bob", "kept-cy", "kept-dan"))
    old = match_with(server, ann, "jest", 3, people=[bob, cy])
    for player in (bob, cy):
        requests.post(f"{server}/matches/{old}/resign", headers=auth(player), timeout=10).raise_for_status()
    rematch = requests.post(f"{server}/matches/{old}/rematch", headers=auth(ann), timeout=10)
    rematch.raise_for_status()
    context, page, errors = signed_in(browser, server, dan)
    page.goto(f"{server}/#/join/{rematch.json()['id']}/anything")
    page.wait_for_selector("#join-hint")
    assert page.locator("#join-confirm").count() == 0
    assert "Every seat is taken" in page.inner_text("#join-hint")
    context.close()
    context, page, errors = signed_in(browser, server, bob)  # the seat kept for bob is his to take
    page.goto(f"{server}/#/join/{rematch.json()['id']}/anything")
    page.wait_for_selector("#join-confirm")
    assert not errors, errors
    context.close()
