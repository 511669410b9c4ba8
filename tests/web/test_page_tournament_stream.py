"""A tournament's page follows the tournament's own stream (GET /tournaments/{id}/stream, docs/tournaments.md
"Following a tournament"): each version it pushes (tournament and standings) is drawn as it comes, whoever
made it, with nothing read. Before, the page followed up to 3 of its tables' match streams only to learn of
a finish, then read the tournament three times, and read it every 5 s whenever those streams could not
tell what came next (before the start, a player withdrawing, another tab's sanction), and always on the
organiser's page. It reads the tournament on a slow timer only while its stream is refused or broken.
Debian's chromium driven by Playwright against a real `motley serve` process (tests/web/conftest.py)."""

from __future__ import annotations

import time
from urllib.parse import urlparse

import pytest
import requests

from tests.web.test_page_followups import auth, play_out, register, signed_in, started_swiss

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

#: How soon what another client did shows on the page: pushed by the stream, not read on a timer.
PUSHED_MS = 4_000


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def traffic(page, tournament_id: str) -> dict[str, list[str]]:
    """What the page asks the API of the tournament from now on: its reads (GET /tournaments/{id} and its
    standings), its stream's connections, and any match stream it opens."""
    seen: dict[str, list[str]] = {"reads": [], "streams": [], "match_streams": []}

    def sort(request) -> None:
        path = urlparse(request.url).path
        if path in (f"/tournaments/{tournament_id}", f"/tournaments/{tournament_id}/standings"):
            seen["reads"].append(path)
        elif path == f"/tournaments/{tournament_id}/stream":
            seen["streams"].append(path)
        elif path.startswith("/matches/") and path.endswith("/stream"):
            seen["match_streams"].append(path)

    page.on("request", sort)
    return seen


def open_live(browser, server: str, who: dict, tournament_id: str):
    """``who``'s page of the tournament, drawn and its stream answered (200)."""
    context, page, errors = signed_in(browser, server, who)
    with page.expect_response(lambda answer: urlparse(answer.url).path == f"/tournaments/{tournament_id}/stream"
                              and answer.status == 200, timeout=15_000):
        page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#standings tbody tr")
    return context, page, errors


def points(page) -> list[int]:
    return sorted(int(cell) for cell in page.locator("#standings tbody tr td:nth-child(3)").all_inner_texts())


def test_a_spectators_page_draws_results_and_the_next_round_as_the_stream_pushes_them(server, browser):
    organiser, *players = (register(server, name) for name in ["org", *(f"sp{i}" for i in range(6))])
    viewer = register(server, "watcher")
    keys = {player["id"]: player for player in players}
    started = started_swiss(server, organiser, players, "Pushed cup", rounds=2, points=[3, 1, 0])
    tournament_id = started["id"]
    first, second = started["rounds"][0]["tables"]

    context, page, errors = open_live(browser, server, viewer, tournament_id)
    asked = traffic(page, tournament_id)
    assert page.locator("#rounds section").count() == 1

    # A table's result, played elsewhere: its table and the standings are drawn from the stream's push.
    play_out(server, first["match_id"], [keys[p] for p in first["players"]])
    page.wait_for_selector(f"#rounds a[href*='{first['match_id']}'] >> text=finished", timeout=PUSHED_MS)
    page.wait_for_function("[...document.querySelectorAll('#standings tbody tr td:nth-child(3)')]"
                           ".some((cell) => cell.textContent === '3')", timeout=PUSHED_MS)
    assert points(page) == [0, 0, 0, 0, 1, 3]

    # The round's last table: the round keeper pairs round 2, and its tables show without a read.
    play_out(server, second["match_id"], [keys[p] for p in second["players"]])
    page.wait_for_selector("#rounds section[data-round='2'] a[href*='#/match/']", timeout=PUSHED_MS)
    assert points(page) == [0, 0, 1, 1, 3, 3]
    # Nothing read, no table followed: the tournament's one stream told it all.
    assert asked["reads"] == [] and asked["match_streams"] == [], asked

    # The last round played: finished, drawn so, and the stream is not opened again.
    for table in requests.get(f"{server}/tournaments/{tournament_id}", timeout=10).json()["rounds"][1]["tables"]:
        play_out(server, table["match_id"], [keys[p] for p in table["players"]])
    page.wait_for_function("document.querySelector('#tournament-status').textContent === 'finished'",
                           timeout=PUSHED_MS)
    assert page.locator("#rounds >> text=finished").count() == 4
    assert sum(points(page)) == 2 * 2 * (3 + 1)
    connections = len(asked["streams"])
    page.wait_for_timeout(3_000)
    assert asked["reads"] == [] and len(asked["streams"]) == connections, asked

    # A finished tournament's page opens no stream and is not read again.
    again = traffic(page, tournament_id)
    page.reload()
    page.wait_for_function("document.querySelector('#tournament-status')?.textContent === 'finished'")
    page.wait_for_timeout(3_000)
    assert again["streams"] == [] and again["match_streams"] == [], again
    assert len(again["reads"]) == 2, again  # the page's first read: the standings and the tournament
    assert not errors, errors
    context.close()


def test_the_organisers_page_draws_what_other_clients_do_without_reading_on_a_timer(server, browser):
    organiser, *players = (register(server, name) for name in ["boss", *(f"op{i}" for i in range(4))])
    created = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Organised", "format": "swiss", "rounds": 1, "table_size": 3})
    created.raise_for_status()
    tournament_id = created.json()["id"]
    for player in players[:3]:
        requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player),
                      timeout=10).raise_for_status()

    context, page, errors = open_live(browser, server, organiser, tournament_id)
    asked = traffic(page, tournament_id)
    assert page.inner_text("#tournament-actions .muted") == "3 registered · you organise it"

    # A fourth player registers: the organiser's page counts him and lists him.
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(players[3]),
                  timeout=10).raise_for_status()
    page.wait_for_function("document.querySelector('#tournament-actions .muted')?.textContent"
                           " === '4 registered · you organise it'", timeout=PUSHED_MS)
    assert page.locator("#standings tbody tr").count() == 4

    # Started from another tab of the organiser's: the round and its tables, and the controls beside them.
    started = requests.post(f"{server}/tournaments/{tournament_id}/start", headers=auth(organiser), timeout=10)
    started.raise_for_status()
    (table,) = started.json()["rounds"][0]["tables"]
    bye = started.json()["rounds"][0]["byes"]
    page.wait_for_function("document.querySelector('#tournament-status').textContent === 'active'",
                           timeout=PUSHED_MS)
    page.wait_for_selector(f"#void-{table['match_id']}", timeout=PUSHED_MS)
    assert page.locator("#rounds li.byes").count() == len(bye) == 1

    # A player at the table withdraws himself, the organiser disqualifies another in another tab: both
    # are marked in the standings, and their rows lose the controls they no longer take.
    leaver, cheat = table["players"][0], table["players"][1]
    requests.delete(f"{server}/tournaments/{tournament_id}/players/{leaver}",
                    headers=auth(next(p for p in players if p["id"] == leaver)), timeout=10).raise_for_status()
    page.wait_for_selector("#standings .entry-status[data-status='withdrawn']", timeout=PUSHED_MS)
    sanction = requests.post(f"{server}/tournaments/{tournament_id}/sanctions", headers=auth(organiser), timeout=10,
                             json={"kind": "disqualify", "player_id": cheat, "reason": "two accounts"})
    assert sanction.status_code == 201, sanction.text
    page.wait_for_selector("#standings .entry-status[data-status='disqualified']", timeout=PUSHED_MS)

    # All along (more than the 5 s the organiser's page was read at), nothing was read: the stream told.
    page.wait_for_timeout(6_000)
    assert asked["reads"] == [] and asked["match_streams"] == [], asked
    assert len(asked["streams"]) <= 1, asked

    # The organiser's own control on the page still works: the void is read back at once (its note said).
    page.on("dialog", lambda dialog: dialog.accept("a test") if dialog.type == "prompt" else dialog.accept())
    page.click(f"#void-{table['match_id']}")
    page.wait_for_selector("#organiser-done", timeout=PUSHED_MS)
    page.wait_for_function("document.querySelector('#tournament-status').textContent === 'finished'",
                           timeout=PUSHED_MS)
    page.wait_for_selector(f"#rounds a[href*='{table['match_id']}'] >> text=voided")
    assert page.locator(".problem").count() == 0
    assert not errors, errors
    context.close()


def test_a_refused_stream_falls_back_to_slow_reads_until_it_is_back(server, browser):
    organiser, *players = (register(server, name) for name in ["host", *(f"rf{i}" for i in range(4))])
    viewer = register(server, "onlooker")
    created = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Refused", "format": "swiss", "rounds": 1, "table_size": 3})
    created.raise_for_status()
    tournament_id = created.json()["id"]
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(players[0]),
                  timeout=10).raise_for_status()

    # The stream refused as when the client holds its 4 (api/rates.py): 429, retry after a second.
    context, page, errors = signed_in(browser, server, viewer)
    refusals: list[str] = []

    def refuse(route) -> None:
        refusals.append(route.request.url)
        route.fulfill(status=429, headers={"Retry-After": "1", "Content-Type": "application/problem+json"},
                      body='{"status": 429, "title": "Too Many Requests", "retry_after": 1}')

    stream = f"**/tournaments/{tournament_id}/stream*"
    page.route(stream, refuse)
    asked = traffic(page, tournament_id)
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#standings tbody tr")
    assert refusals

    # Meanwhile the page reads the tournament on its slow timer: a registration shows all the same.
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(players[1]),
                  timeout=10).raise_for_status()
    page.wait_for_function("document.querySelectorAll('#standings tbody tr').length === 2", timeout=15_000)
    assert 4 <= len(asked["reads"]) <= 6, asked  # the first read, then one or two more (each two requests)

    # The stream is answered again: followed, and the timer stops.
    with page.expect_response(lambda answer: urlparse(answer.url).path == f"/tournaments/{tournament_id}/stream"
                              and answer.status == 200, timeout=40_000):
        page.unroute(stream)
    reads = len(asked["reads"])
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(players[2]),
                  timeout=10).raise_for_status()
    page.wait_for_function("document.querySelectorAll('#standings tbody tr').length === 3", timeout=PUSHED_MS)
    page.wait_for_timeout(11_000)
    assert len(asked["reads"]) == reads, asked
    assert not errors, errors
    context.close()


def test_the_organisers_forfeit_control_appears_at_the_deadline_from_what_the_page_holds(server, browser):
    organiser, *players = (register(server, name) for name in ["clock", *(f"dl{i}" for i in range(3))])
    started = started_swiss(server, organiser, players, "Deadline", round_deadline_seconds=3)
    (table,) = started["rounds"][0]["tables"]
    context, page, errors = open_live(browser, server, organiser, started["id"])
    asked = traffic(page, started["id"])
    assert page.locator(f"#forfeit-{table['match_id']}").count() == 0
    assert page.locator("#round-deadline").count() == 1

    # The deadline is the server's clock: the page draws Forfeit absent… again from what it holds, no read.
    page.wait_for_selector(f"#forfeit-{table['match_id']}", timeout=8_000)
    assert "deadline has passed" in page.inner_text("#round-deadline")
    page.wait_for_timeout(2_000)
    assert asked["reads"] == [] and asked["match_streams"] == [], asked
    assert not errors, errors
    context.close()
    # A player is shown the deadline too, and what follows it (a newcomer probe: only the organiser was).
    player_context, player_page, player_errors = open_live(browser, server, players[0], started["id"])
    assert "after it, the organiser may forfeit players absent" in player_page.inner_text("#round-deadline")
    assert player_page.locator("#round-deadline .timer").count() == 1
    assert not player_errors, player_errors
    player_context.close()


def test_a_read_answered_after_a_push_of_its_version_keeps_the_pushed_standings(server, browser):
    """A read takes the standings first and the tournament after. When a version is made between the two
    (here another player registers while the standings' answer is still on its way), the read pairs that
    version with older standings. The stream has pushed the version with its own: they are kept. Before,
    the read's were drawn over them and stayed until the next change (the review of the page, 2026-12-05)."""
    organiser, first, second, late, viewer = (register(server, name) for name in
                                              ("Organiser", "First", "Second", "Late", "Viewer"))
    tournament = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Race cup", "format": "swiss", "rounds": 1, "table_size": 3}).json()
    tournament_id = tournament["id"]
    for player in (first, second):
        requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player),
                      timeout=10).raise_for_status()
    context, page, errors = open_live(browser, server, viewer, tournament_id)
    held = []
    page.route(f"**/tournaments/{tournament_id}/standings*",
               lambda route: held.append((route, route.fetch())))  # answered by the server now, delivered later
    page.click("#tournament-register")  # its POST, then the page's read: the standings (held), the tournament
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the read's standings were not asked for"
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(late), timeout=10).raise_for_status()
    rows = "#standings tbody tr"
    page.wait_for_function(f"document.querySelectorAll('{rows}').length === 4", timeout=PUSHED_MS)
    route, answer = held.pop()
    route.fulfill(response=answer)  # the viewer's registration without Late's: 3 rows
    page.unroute(f"**/tournaments/{tournament_id}/standings*")
    page.wait_for_function("!document.querySelector('#tournament-register')", timeout=PUSHED_MS)
    page.wait_for_timeout(1_500)  # the read's tournament answered and drawn
    names = sorted(page.locator(f"{rows} td:nth-child(2)").all_inner_texts())
    assert names == ["First", "Late", "Second", "Viewer"], names
    assert not errors, errors
    context.close()


def test_a_push_leaves_the_focus_on_the_action_a_keyboard_user_is_on(server, browser):
    """A keyboard user on the organiser's Start (after Withdraw, their own entry's) as another player
    registers: the stream's push draws the actions anew and the focus stays on Start. Before, any push
    put it on the first button, Withdraw, one Enter from leaving the tournament (the review of the page)."""
    organiser, first, late = (register(server, name) for name in ("Host", "Early", "Latecomer"))
    tournament = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Focus cup", "format": "swiss", "rounds": 1, "table_size": 3}).json()
    tournament_id = tournament["id"]
    for player in (organiser, first):
        requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player),
                      timeout=10).raise_for_status()
    context, page, errors = open_live(browser, server, organiser, tournament_id)
    assert page.locator("#tournament-actions button").evaluate_all("bs => bs.map(b => b.id)")[:2] == [
        "tournament-withdraw", "tournament-start"]
    page.focus("#tournament-start")
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(late), timeout=10).raise_for_status()
    page.wait_for_function("document.querySelectorAll('#standings tbody tr').length === 3", timeout=PUSHED_MS)
    assert page.evaluate("document.activeElement.id") == "tournament-start"
    assert not errors, errors
    context.close()


def test_the_organiser_calls_off_an_open_tournament_and_a_registered_player_sees_it_pushed(server, browser):
    """An organiser's probe: a tournament made by mistake stayed listed as open for good. Its organiser's
    page calls it off (confirmed), and a registered player's open page is told by the stream."""
    organiser, player = register(server, "Caller"), register(server, "Entrant")
    tournament_id = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Mistake cup", "format": "swiss", "rounds": 1, "table_size": 3}).json()["id"]
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player), timeout=10).raise_for_status()
    context, page, errors = open_live(browser, server, organiser, tournament_id)
    player_context, player_page, player_errors = open_live(browser, server, player, tournament_id)
    assert player_page.locator("#tournament-cancel").count() == 0  # the organiser's alone
    page.once("dialog", lambda dialog: dialog.dismiss())  # a click taken back changes nothing
    page.click("#tournament-cancel")
    page.wait_for_timeout(500)
    assert requests.get(f"{server}/tournaments/{tournament_id}", timeout=10).json()["status"] == "open"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#tournament-cancel")
    page.wait_for_function("document.querySelector('#tournament-status')?.textContent === 'cancelled'",
                           timeout=PUSHED_MS)
    assert requests.get(f"{server}/tournaments/{tournament_id}", timeout=10).json()["status"] == "cancelled"
    assert page.locator("#tournament-actions").count() == 0  # nothing left to do about it
    player_page.wait_for_function("document.querySelector('#tournament-announce').innerText"
                                  ".includes('The tournament was called off.')", timeout=PUSHED_MS)
    assert player_page.inner_text("#tournament-status") == "cancelled"
    # Nobody is ranked in a tournament that never started (each entrant read rank 1).
    player_page.wait_for_function("(cells => cells.length === 1 && cells.every((td) => td.textContent === '–'))"
                                  "([...document.querySelectorAll('#standings tbody td:first-child')])",
                                  timeout=PUSHED_MS)
    assert not errors and not player_errors, (errors, player_errors)
    context.close()
    player_context.close()


def test_the_standings_show_the_tie_breaks_in_the_organisers_order(server, browser):
    """An organiser's probe: with tie-breaks ["wins", "opponents-points"] each row read "opponents points 9
    · wins 2" (the API's fixed order), so a row ranked above another by its wins looked wrongly placed; and
    a player with no table played yet read "average place null"."""
    organiser, player = register(server, "Order host"), register(server, "Order entrant")
    tournament_id = requests.post(f"{server}/tournaments", headers=auth(organiser), timeout=10, json={
        "game": "jest", "name": "Order cup", "format": "swiss", "rounds": 1, "table_size": 3,
        "tie_breaks": ["average-place", "wins", "opponents-points"]}).json()["id"]
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player), timeout=10).raise_for_status()
    context, page, errors = open_live(browser, server, organiser, tournament_id)
    cell = page.inner_text("#standings tbody tr td:nth-child(4)")
    assert cell == "average place – · wins 0 · opponents points 0", cell
    late = register(server, "Order late")  # and as the stream pushes the standings
    requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(late), timeout=10).raise_for_status()
    page.wait_for_function("document.querySelectorAll('#standings tbody tr').length === 2", timeout=PUSHED_MS)
    cells = page.locator("#standings tbody tr td:nth-child(4)").all_inner_texts()
    assert cells == ["average place – · wins 0 · opponents points 0"] * 2, cells
    assert not errors, errors
    context.close()


def test_a_finished_table_lists_its_places_and_its_computers(server, browser):
    """An organiser's probe: each table read "table 2 (P5, P6, P7): finished", no places, and nothing of
    the computer that sat there (and came first). A table names its computers, and once it has a result
    its players' places."""
    organiser = register(server, "Places host")
    players = [register(server, f"Places {name}") for name in ("Ann", "Bob")]
    t = started_swiss(server, organiser, players, "Places cup", table_size=3, computer="random")
    table = t["rounds"][0]["tables"][0]
    assert table["computers"] == 1, table
    context, page, errors = open_live(browser, server, organiser, t["id"])
    item = page.locator("[data-round='1'] li").first
    assert "1 computer" in item.inner_text() and "places" not in item.inner_text(), item.inner_text()
    play_out(server, table["match_id"], players)
    page.wait_for_function("document.querySelector(\"[data-round='1'] li .table-places\")", timeout=PUSHED_MS)
    read = requests.get(f"{server}/tournaments/{t['id']}", timeout=10).json()
    ranks = read["rounds"][0]["tables"][0]["result"]["ranks"]
    by_id = {p["id"]: p["name"] for p in players}
    expected = ", ".join(f"{by_id[p]} {rank}" for p, rank in zip(table["players"], ranks))
    assert expected in item.inner_text(), (expected, item.inner_text())
    assert not errors, errors
    context.close()


def test_a_finished_tournament_table_offers_no_rematch(server, browser):
    """A newcomer probe: a finished tournament table offered Rematch, which made an unrelated casual match;
    the tournament pairs the next table itself."""
    organiser, *players = (register(server, name) for name in ["norem", *(f"nr{i}" for i in range(3))])
    started = started_swiss(server, organiser, players, "No rematch", round_deadline_seconds=1)
    (table,) = started["rounds"][0]["tables"]
    present = next(p for p in players if p["id"] == table["players"][0])
    time.sleep(1.5)  # past the round's deadline: the absent may be forfeited
    forfeited = requests.post(f"{server}/tournaments/{started['id']}/forfeits", headers=auth(organiser), timeout=10,
                              json={"player_ids": table["players"][1:], "match_id": table["match_id"]})
    assert forfeited.status_code == 200, forfeited.text
    context, page, errors = signed_in(browser, server, present)
    page.goto(f"{server}/#/match/{table['match_id']}")
    page.wait_for_function("document.querySelector('#status')?.textContent === 'finished'", timeout=15_000)
    assert page.locator("#tournament-table").count() == 1 and page.locator("#rematch").count() == 0
    assert not errors, errors
    context.close()
