"""The web page's follow-ups to the probe of the page (api/web/): Debian's chromium driven by Playwright
against a real `motley serve` process, as tests/web/test_browser.py does (its conftest's browser).

- A tournament page opened before the start follows it to the finish, then stops reading it; a table the
  viewer sits at links to their seat's view.
- A table whose stream is refused (the API holds 4 streams or waiting reads per client address) says so,
  reads the match on a timer meanwhile, and clears the notice when the stream is back.
- A 422 validation problem shows its fields' messages; the register field, the replay slider and the
  leaderboard's game have accessible names, replay events are reached by keyboard, the table has a status
  line for screen readers.
- Start shows only once every seat is taken; the lobby lists a person's own open matches, private ones
  too; Le Bouffon offers each choice once (copies of a card kind are
  interchangeable), Jester's marker moves name their guilds.
- Tumult Royale's peeks wait for the game's 0.6 s cooldown instead of showing a refusal.
"""

from __future__ import annotations

import json
import time
import uuid

import pytest
import requests

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

# The session's one chromium (tests/web/conftest.py): a second sync Playwright in one process fails.


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def register(base: str, name: str) -> dict:
    answer = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    answer.raise_for_status()
    return answer.json()


def auth(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['api_key']}"}


def entered_alone(base: str, name: str, title: str) -> tuple[dict, str]:
    """A new player who organises a one-round Jest tournament and is its only entrant (so its start is
    refused): (the player, the tournament's id)."""
    player = register(base, name)
    created = requests.post(f"{base}/tournaments", headers=auth(player), timeout=10,
                            json={"game": "jest", "name": title, "format": "swiss", "rounds": 1})
    created.raise_for_status()
    tournament_id = created.json()["id"]
    requests.post(f"{base}/tournaments/{tournament_id}/players", headers=auth(player), timeout=10).raise_for_status()
    return player, tournament_id


def started_swiss(base: str, organiser: dict, players, name: str, rounds: int = 1, table_size: int = 3,
                  **terms) -> dict:
    """A Jest Swiss tournament of ``players`` (each registered), started by ``organiser``: its view.
    ``terms``: more of the creation's fields (``round_deadline_seconds``...)."""
    created = requests.post(f"{base}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": name, "format": "swiss", "rounds": rounds, "table_size": table_size, **terms})
    created.raise_for_status()
    tournament_id = created.json()["id"]
    for player in players:
        requests.post(f"{base}/tournaments/{tournament_id}/players", headers=auth(player),
                      timeout=10).raise_for_status()
    started = requests.post(f"{base}/tournaments/{tournament_id}/start", headers=auth(organiser), timeout=10)
    started.raise_for_status()
    return started.json()


def match_with(base: str, creator: dict, game: str, seats: int, people=(), computers=None, options=None) -> str:
    """A match of ``game``: the creator and ``people`` seated, the ``computers`` seats for computers; started
    when every seat is taken."""
    body = {"game": game, "seats": seats, "computers": computers or {}, "options": options or {}}
    created = requests.post(f"{base}/matches", headers=auth(creator), json=body, timeout=10)
    created.raise_for_status()
    match_id = created.json()["id"]
    for player in (creator, *people):
        requests.post(f"{base}/matches/{match_id}/seats", headers=auth(player), json={}, timeout=10).raise_for_status()
    if 1 + len(people) + len(computers or {}) == seats:
        requests.post(f"{base}/matches/{match_id}/start", headers=auth(creator), timeout=10).raise_for_status()
    return match_id


def move(base: str, match_id: str, player: dict, action: dict) -> requests.Response:
    return requests.post(f"{base}/matches/{match_id}/moves", json={"action": action}, timeout=10,
                         headers={**auth(player), "Idempotency-Key": str(uuid.uuid4())})


def play_out(base: str, match_id: str, players: list[dict]) -> dict:
    """Every seated person plays its first legal action until the match is over (through the API)."""
    for _ in range(500):
        match = requests.get(f"{base}/matches/{match_id}", timeout=10).json()
        if match["status"] == "finished":
            return match
        for player in players:
            seen = requests.get(f"{base}/matches/{match_id}", headers=auth(player), timeout=10).json()
            if seen["legal_actions"]:
                move(base, match_id, player, seen["legal_actions"][0])
    raise AssertionError("the match did not finish")


def signed_in(browser, base: str, registered: dict | None, viewport: dict | None = None, **device):
    """A browser context of its own, holding the key a registration gave (as the register form keeps it).
    ``device``: more of the context's settings (a phone's ``is_mobile``, ``has_touch``...)."""
    context = browser.new_context(viewport=viewport or {"width": 1200, "height": 900}, **device)
    if registered is not None:
        player = json.dumps({"id": registered["id"], "name": registered["name"]})
        context.add_init_script(f"localStorage.setItem('motley.key', {json.dumps(registered['api_key'])});"
                                f"localStorage.setItem('motley.player', {json.dumps(player)});")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def test_a_tournament_page_opened_before_the_start_follows_it_to_the_finish(server, browser):
    organiser, *players = (register(server, name) for name in ["org", "tp0", "tp1", "tp2"])
    created = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Early birds", "format": "swiss", "rounds": 1, "table_size": 3, "points": [3, 1, 0]})
    created.raise_for_status()
    tournament_id = created.json()["id"]
    for player in players:
        requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player),
                      timeout=10).raise_for_status()

    # An entrant waits on the tournament's page for the start.
    context, page, errors = signed_in(browser, server, players[0])
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_function("document.querySelector('#tournament-status')?.textContent === 'open'")
    started = requests.post(f"{server}/tournaments/{tournament_id}/start", headers=auth(organiser), timeout=10)
    started.raise_for_status()
    table = started.json()["rounds"][0]["tables"][0]
    match_id = table["match_id"]
    assert players[0]["id"] in table["players"]

    # The tournament's stream pushes the start: the start and the table show without a reload,
    # and the entrant's own table links to their seat's view, not a spectator's.
    page.wait_for_function("document.querySelector('#tournament-status').textContent === 'active'", timeout=15_000)
    page.wait_for_selector(f"#rounds a[href='#/match/{match_id}']")
    assert page.locator(f"#rounds a[href='#/match/{match_id}?as=spectator']").count() == 0

    play_out(server, match_id, players)
    page.wait_for_function("document.querySelector('#tournament-status').textContent === 'finished'", timeout=20_000)
    points = sorted(int(cell) for cell in page.locator("#standings tbody tr td:nth-child(3)").all_inner_texts())
    assert points == [0, 1, 3]

    # Finished: the page reads it no more.
    reads = []
    page.on("request", lambda request: "/tournaments/" in request.url and reads.append(request.url))
    page.wait_for_timeout(6_500)
    assert reads == []

    # The link opens the table as the entrant's seat.
    page.click(f"#rounds a[href='#/match/{match_id}']")
    page.wait_for_selector("#version")
    assert page.locator(".observation h2").inner_text() == "What your seat sees"
    assert "you are seat" in page.inner_text(".match-head")
    assert not errors, errors
    context.close()


def test_a_refused_stream_shows_a_notice_and_the_table_is_read_until_the_stream_is_back(own_server, browser):
    server = own_server
    ann, bob, cy = (register(server, name) for name in ["ann", "bob", "cy"])
    match_id = match_with(server, ann, "jest", 3, people=[bob, cy])

    # Four streams held by ann already (her other tabs, or a bot of hers): the API refuses the page's stream
    # with 429 (the cap is each player's, each address's without a key).
    held = []
    for _ in range(4):
        answer = requests.get(f"{server}/matches/{match_id}/stream?seconds=120", headers=auth(ann), stream=True,
                              timeout=10)
        assert answer.status_code == 200
        held.append(answer)
    refused = requests.get(f"{server}/matches/{match_id}/stream?seconds=5", headers=auth(ann), timeout=10)
    assert refused.status_code == 429

    context, page, errors = signed_in(browser, server, ann)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#version")
    notice = page.locator("#live-notice[role=status]")
    page.wait_for_function("document.querySelector('#live-notice')?.textContent.includes('paused')", timeout=10_000)
    assert "retrying" in notice.inner_text()
    seen = int(page.inner_text("#version"))

    # Bob offers meanwhile: the page reads the match on its timer and shows it.
    view = requests.get(f"{server}/matches/{match_id}", headers=auth(bob), timeout=10).json()
    move(server, match_id, bob, view["legal_actions"][0]).raise_for_status()
    page.wait_for_function("v => Number(document.querySelector('#version').textContent) > v", arg=seen,
                           timeout=10_000)

    # The other streams end: the page's stream is answered again, and the notice goes.
    for answer in held:
        answer.close()
    page.wait_for_function("document.querySelector('#live-notice').textContent === ''", timeout=30_000)

    # Live again from the stream: cy's offer shows.
    seen = int(page.inner_text("#version"))
    view = requests.get(f"{server}/matches/{match_id}", headers=auth(cy), timeout=10).json()
    move(server, match_id, cy, view["legal_actions"][0]).raise_for_status()
    page.wait_for_function("v => Number(document.querySelector('#version').textContent) > v", arg=seen,
                           timeout=10_000)
    assert notice.inner_text() == ""
    assert not errors, errors
    context.close()


def test_validation_refusals_name_the_field_and_the_page_is_reachable_without_a_mouse(server, browser):
    context, page, errors = signed_in(browser, server, None)
    page.goto(server + "/")
    page.wait_for_selector("#register-name")
    assert page.get_attribute("#register-name", "aria-label")

    # A name of spaces passes the input's `required`; the API's 422 says which field and why.
    page.fill("#register-name", "   ")
    page.click("#register button[type=submit]")
    page.wait_for_selector("#register .problem")
    assert "name: A name needs a visible character." in page.inner_text("#register .problem")
    page.fill("#register-name", "ada")
    page.click("#register button[type=submit]")
    page.wait_for_selector("#create")
    assert page.get_attribute("#create-turn-limit", "max") == "604800"

    # A match against two computers, played from the table: the status line tells a screen reader what
    # changed (the page's other role=status line, the stream's notice, stays empty while it is live).
    key = page.evaluate("localStorage.getItem('motley.key')")
    ada = {"api_key": key, **json.loads(page.evaluate("localStorage.getItem('motley.player')"))}
    match_id = match_with(server, ada, "jest", 3, computers={"1": "random", "2": "random"})
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#announce[role=status]", state="attached")
    for _ in range(3):
        page.wait_for_selector("button.action:enabled", timeout=30_000)
        version = page.inner_text("#version")
        page.locator("button.action:enabled").first.click()
        page.wait_for_function("v => document.querySelector('#version').textContent !== v", arg=version)
    page.wait_for_function("document.querySelector('#announce').textContent !== ''")
    assert page.inner_text("#live-notice") == ""

    # The replay: the slider is named, and each event is reached with Tab and chosen with Enter.
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#events li")
    assert page.get_attribute("#slider", "aria-label")
    first = page.locator("#events li[data-version='1'] > button")  # a real button in each list item
    assert first.evaluate("node => node.tagName") == "BUTTON"
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#events li.current[data-version='1'][aria-current]")
    page.keyboard.press("Tab")
    page.keyboard.press(" ")
    page.wait_for_selector("#events li.current[data-version='2']")

    page.goto(f"{server}/#/leaderboard/jest")
    page.wait_for_selector("#board-game")
    assert page.get_attribute("#board-game", "aria-label")
    assert not errors, errors
    context.close()


def distinct_kinds(actions: list[dict]) -> set:
    return {(a["type"], tuple(sorted(card.split("#")[0] for card in a.get("cards") or []))) for a in actions}


def test_start_waits_for_every_seat_and_actions_read_apart(server, browser):
    eve, fay = register(server, "eve"), register(server, "fay")

    # An open match with a free seat: no Start button (the server would refuse it), a line saying why.
    open_id = match_with(server, eve, "jest", 3, computers={"2": "basic"})
    context, page, errors = signed_in(browser, server, eve)
    page.goto(f"{server}/#/match/{open_id}")
    page.wait_for_selector("#waiting-for-seats")
    assert "seat 1" in page.inner_text("#waiting-for-seats")
    assert page.locator("#start").count() == 0
    requests.post(f"{server}/matches/{open_id}/seats", headers=auth(fay), json={}, timeout=10).raise_for_status()
    page.wait_for_selector("#start")  # fay seated (the stream): now it may start
    assert page.locator("#waiting-for-seats").count() == 0

    # The lists leave private matches out: the lobby lists eve's own open ones (a private one too) first,
    # asked for as hers, and not again among the others.
    private = requests.post(f"{server}/matches", headers=auth(eve), timeout=10,
                            json={"game": "jest", "seats": 3, "unlisted": True}).json()["id"]
    requests.post(f"{server}/matches/{private}/seats", headers=auth(eve), json={}, timeout=10).raise_for_status()
    page.goto(f"{server}/#/")
    for match in (open_id, private):
        for _ in range(50):  # the list is a read model that follows the log
            page.wait_for_selector("#join-private")
            if page.locator(f"#my-open tr[data-match='{match}']").count():
                break
            page.wait_for_timeout(100)
            page.reload()
        assert page.locator(f"#my-open tr[data-match='{match}']").count() == 1
        assert page.locator(f"tr[data-match='{match}']").count() == 1

    # Jester's marker moves name where the marker goes (the table names the guilds, not their numbers).
    labels = page.evaluate("""async () => {
        const jester = await import('/web/games/jester.js');
        return [{type: 'guild-move', from: 'reserve', to: 5}, {type: 'guild-move', from: 1, to: 6},
                {type: 'tragedy', from: 'reserve', to: 'king'}].map((action) => jester.describe(action));
    }""")
    assert labels[0] == "guild move: a marker from your reserve to Merchants", labels
    assert labels[1] == "guild move: a marker from Master Buffoon to Heralds", labels
    assert labels[2] == "tragedy: a marker from your reserve to king", labels

    # Le Bouffon: legal_actions lists every choice among identical copies of a card; the table offers each
    # choice of kinds once, and no two buttons read alike.
    match_id = match_with(server, eve, "le-bouffon", 3, computers={"1": "random", "2": "random"})
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".le-bouffon")
    checked = 0
    for _ in range(40):
        page.wait_for_selector("button.action:enabled", timeout=30_000)
        view = requests.get(f"{server}/matches/{match_id}", headers=auth(eve), timeout=10).json()
        shown = page.locator("button.action").all_inner_texts()
        kinds = distinct_kinds(view["legal_actions"])
        if int(page.inner_text("#version")) == view["version"] and len(view["legal_actions"]) > len(kinds):
            assert len(shown) == len(set(shown)) == len(kinds), shown
            checked += 1
            if checked == 2:
                break
        version = page.inner_text("#version")
        page.locator("button.action:enabled").first.click()
        page.wait_for_function("v => document.querySelector('#version').textContent !== v"
                               " || document.querySelector('.problem')", arg=version, timeout=30_000)
    assert checked, "eve never had a choice among copies of a card"
    assert not errors, errors
    context.close()


def test_tumult_royale_peeks_wait_for_the_cooldown_instead_of_failing(server, browser):
    gus = register(server, "gus")
    match_id = match_with(server, gus, "tumult-royale", 2, computers={"1": "random"}, options={"tax_seconds": 90})
    # Through the API, the seat plays its first legal action until it may lift a tile (the live tax).
    for _ in range(200):
        view = requests.get(f"{server}/matches/{match_id}", headers=auth(gus), timeout=10).json()
        if any(action["type"] == "peek" for action in view["legal_actions"]):
            break
        if view["legal_actions"]:
            move(server, match_id, gus, view["legal_actions"][0])
        else:
            time.sleep(0.1)
    else:
        raise AssertionError("no tax collection reached")

    context, page, errors = signed_in(browser, server, gus)
    refusals = []
    page.on("response", lambda answer: answer.status == 429 and "/moves" in answer.url and refusals.append(answer.url))
    page.goto(f"{server}/#/match/{match_id}")
    peek = page.locator("button.action", has_text="take tile")
    back = page.locator("button.action", has_text="put the tile back")
    # Lift a tile, put it back and lift one again at once: the next peek waits out the 0.6 s (its buttons
    # held, or the page waits as the server says), and no refusal is shown.
    lifted = 0
    for _ in range(6):
        peek.first.wait_for(timeout=30_000)
        page.locator("button.action:enabled", has_text="take tile").first.click()
        page.wait_for_selector(".tumult-royale .held .tile, .problem", timeout=10_000)
        if page.locator(".problem").count():  # a computer took that tile first: another one
            problem = page.inner_text(".problem")
            assert "between these actions" not in problem, problem
            continue
        lifted += 1
        if lifted == 3:
            break
        back.first.click()
        page.wait_for_selector(".tumult-royale .held .tile", state="detached", timeout=10_000)
    assert lifted >= 2
    assert refusals == []  # the page never sent a peek the cooldown refuses
    assert not errors, errors
    context.close()


def test_jest_at_the_end_names_who_won_each_trophy(server, browser):
    hal = register(server, "hal")
    match_id = match_with(server, hal, "jest", 3, computers={"1": "random", "2": "random"})
    final = play_out(server, match_id, [hal])
    winners = final["observation"]["trophy_winners"]  # card -> seat, or null: nobody met its condition
    assert winners
    seats = final["seats"]

    context, page, errors = signed_in(browser, server, hal)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".jest .trophies li")
    assert page.inner_text(".jest .trophies h3") == "Trophies won"
    assert page.locator(".jest .trophies li").count() == len(winners)
    for card, seat in winners.items():
        row = page.locator(f".jest .trophies li[data-card='{card}']")
        assert row.count() == 1, card
        if seat is None:
            assert "unclaimed" in row.inner_text()
            continue
        name = seats[seat]["name"] or f"seat {seat}"
        if [other["name"] for other in seats].count(seats[seat]["name"]) > 1:  # two computers alike: told apart
            name += f" (seat {seat})"
        assert row.locator(".trophy-winner").inner_text() == f"won by {name}" + (" (you)" if seat == 0 else "")
        assert row.locator(".trophy-winner").get_attribute("data-seat") == str(seat)
    assert not errors, errors
    context.close()


def hide(page, hidden: bool) -> None:
    """The page as the browser reports it when its tab is in the background (or shown again)."""
    page.evaluate("""hidden => {
        Object.defineProperty(document, 'visibilityState', {value: hidden ? 'hidden' : 'visible', configurable: true});
        Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""", hidden)


def test_a_finished_table_learns_of_a_rematch_and_joins_the_kept_seat(server, browser):
    ivy, jon = register(server, "ivy"), register(server, "jon")
    match_id = match_with(server, ivy, "jest", 3, people=[jon], computers={"2": "random"})
    play_out(server, match_id, [ivy, jon])

    # Jon stays on the finished table; a spectator has it open in a background tab.
    context, page, errors = signed_in(browser, server, jon)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#status.finished")
    page.wait_for_selector("#rematch")
    watcher_context, watcher, watcher_errors = signed_in(browser, server, None)
    # The finished match's stream answers once and the page closes it: wait for that, or a stream answered
    # late (a busy server) would carry the rematch to the hidden page without any read.
    streams_over = []
    for ending in ("requestfinished", "requestfailed"):  # the page aborts the stream it stops
        watcher.on(ending, lambda request: f"/matches/{match_id}/stream" in request.url and streams_over.append(1))
    watcher.goto(f"{server}/#/match/{match_id}")
    watcher.wait_for_selector("#status.finished")
    for _ in range(150):
        if streams_over:
            break
        watcher.wait_for_timeout(100)
    assert streams_over
    hide(watcher, True)
    reads = []
    # (the events a table's status line says the moves from are read once per update drawn, not counted)
    watcher.on("request", lambda request: f"/matches/{match_id}" in request.url and "/stream" not in request.url
               and "/events?" not in request.url and reads.append(request.url))
    assert page.locator("#rematch-next").count() == 0

    # Ivy asks for a rematch (her own page goes there): jon's table, whose stream ended at the finish,
    # learns of it by reading the match again, and offers the seat kept for him.
    answer = requests.post(f"{server}/matches/{match_id}/rematch", headers=auth(ivy), timeout=10)
    assert answer.status_code == 201
    new_id = answer.json()["id"]
    page.wait_for_selector(f"#rematch-join[href='#/match/{new_id}']", timeout=15_000)
    assert page.inner_text("#rematch-join") == "Rematch: join"
    assert page.locator("#rematch").count() == 0  # the link leads there now

    # The hidden page read nothing meanwhile; shown again, it reads at once and offers to watch.
    page.wait_for_timeout(5_000)
    assert reads == []
    assert watcher.locator("#rematch-next").count() == 0
    hide(watcher, False)
    watcher.wait_for_selector(f"#rematch-watch[href='#/match/{new_id}?as=spectator']", timeout=3_000)
    # The rematch known, the finished table reads the match no more.
    known = len(reads)
    watcher.wait_for_timeout(5_000)
    assert len(reads) == known
    assert not watcher_errors, watcher_errors
    watcher_context.close()

    # Jon follows the link: seated in the seat kept for him, on the new table.
    page.click("#rematch-join")
    page.wait_for_function("id => location.hash === `#/match/${id}`", arg=new_id)
    page.wait_for_selector("#start")  # every seat taken now
    assert "you are seat 1" in page.inner_text(".match-head")
    rematch = requests.get(f"{server}/matches/{new_id}", timeout=10).json()
    assert rematch["seats"][1]["player_id"] == jon["id"]
    assert rematch["rematch"]["of"] == match_id
    assert not errors, errors
    context.close()


def test_a_player_who_watched_its_match_as_a_spectator_then_sees_its_own_seat(server, browser):
    """Chromium kept the spectator's view of the match and revalidated it for the seat's request (the
    same ETag for every viewer, so the server said 304): "view as your seat" still said "you are
    spectator" and offered no move on the player's own turn, until a reload."""
    ann, bob, cy = (register(server, name) for name in ("cache-ann", "cache-bob", "cache-cy"))
    match_id = match_with(server, ann, "jest", 3, people=[bob, cy])  # Jest: every seat offers at once
    context, page, errors = signed_in(browser, server, ann)
    page.goto(f"{server}/#/match/{match_id}?as=spectator")
    page.wait_for_selector("#board .match-head")
    assert "you are spectator" in page.inner_text(".match-head")
    page.click("text=view as your seat")
    page.wait_for_selector("#actions button.action", timeout=10_000)
    assert "you are spectator" not in page.inner_text(".match-head")
    assert not errors, errors
    context.close()
