"""The web page's fixes after the probe of its newer features (export, fork, auditor, tournaments,
invitations, keys): Debian's chromium driven by Playwright against a real `motley serve` process, as
tests/web/test_browser.py does (its conftest's browser).

- A key the server refuses (revoked, or replaced elsewhere) signs the page out: it says why, and no
  stream or re-read goes on with the dead key.
- A tournament round's byes show, and the player who has one is told.
- An invitation no longer open (called off, filled, accepted elsewhere) goes when the lobby reads again;
  a refused accept takes it away and says why.
- A double click sends one request: one tournament, one match, one imported copy, and no false refusal
  of "Register" or "accept".
- A seated player forks a version before the start (no seat kept there: the API keeps none).
- At phone width the auditor's Import field stays inside its panel.
- Signing out leaves none of the player's invitations, stream position or dismissed list behind.
"""

from __future__ import annotations

import json

import pytest
import requests

from tests.web.conftest import AUDITOR_KEY
from tests.web.test_page_followups import auth, hide, match_with, play_out, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

WIDER_THAN_THE_SCREEN = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture(scope="module")
def server(auditor_server):
    return auditor_server


def as_auditor(browser, viewport: dict | None = None):
    """A browser context holding the auditor's credential (as "sign in with a key" keeps it)."""
    context = browser.new_context(viewport=viewport or {"width": 1200, "height": 900})
    auditor = json.dumps(json.dumps({"auditor": True, "name": "Auditor"}))
    context.add_init_script(f"localStorage.setItem('motley.key', {json.dumps(AUDITOR_KEY)});"
                            f"localStorage.setItem('motley.player', {auditor});")
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def posts(page, fragment: str) -> list:
    """The URLs of every POST the page sends whose URL ends with ``fragment``."""
    sent: list = []
    page.on("request", lambda request: request.method == "POST" and request.url.split("?")[0].endswith(fragment)
            and sent.append(request.url))
    return sent


def invite(base: str, creator: dict, invited: dict, seats: int = 3, computers=None, unlisted: bool = True) -> str:
    """A Jest match of ``creator`` (seated), unlisted unless said, ``invited`` invited by id."""
    created = requests.post(f"{base}/matches", headers=auth(creator), timeout=10, json={
        "game": "jest", "seats": seats, "computers": computers or {}, "unlisted": unlisted})
    created.raise_for_status()
    match_id = created.json()["id"]
    requests.post(f"{base}/matches/{match_id}/seats", headers=auth(creator), json={}, timeout=10).raise_for_status()
    requests.post(f"{base}/matches/{match_id}/invitations", headers=auth(creator), json={"player_id": invited["id"]},
                  timeout=10).raise_for_status()
    return match_id


def test_a_refused_key_signs_the_page_out_says_why_and_is_sent_no_more(server, browser):
    fred = register(server, "rk-fred")
    second = requests.post(f"{server}/players/me/keys", headers=auth(fred), timeout=10).json()
    context, page, errors = signed_in(browser, server, {**fred, "api_key": second["api_key"]})
    dead = f"Bearer {second['api_key']}"
    sent_dead: list = []
    page.on("request", lambda request: request.headers.get("authorization") == dead and sent_dead.append(request.url))
    refused: list = []
    page.on("response", lambda answer: answer.status == 401 and refused.append(answer.url))
    page.goto(server + "/")
    page.wait_for_selector("#create")
    page.wait_for_selector("#invitations[data-live='true']", state="attached")
    assert "rk-fred" in page.inner_text("#whoami")

    # The key is revoked from elsewhere; the next click here is refused: the page is signed out at once.
    requests.delete(f"{server}/players/me/keys/{second['key_id']}", headers=auth(fred), timeout=10).raise_for_status()
    page.click("#create-submit")
    page.wait_for_selector("#signed-out-reason")
    assert "revoked or replaced" in page.inner_text("#signed-out-reason")
    assert "sign in again" in page.inner_text("#signed-out-reason")
    assert page.locator("#whoami").count() == 0
    assert page.locator("#register").count() == 1 and page.locator("#sign-in-box").count() == 1
    page.wait_for_selector("#view .hint")  # the lobby drawn again for someone signed out
    assert page.locator("#create").count() == 0 and page.locator("#invitations").count() == 0
    assert page.evaluate("localStorage.getItem('motley.key')") is None

    # Nothing goes with the dead key any more: no stream retried, the lobby's re-reads go without it.
    page.wait_for_timeout(500)
    seen = len(sent_dead)
    page.evaluate("window.dispatchEvent(new Event('focus'))")  # the lobby reads its lists again
    page.wait_for_timeout(4_000)
    assert len(sent_dead) == seen, sent_dead[seen:]
    assert len(refused) <= 2, refused  # the click's refusal, and at most the stream's own

    # Signing in again with a working key: the notice goes.
    page.click("#sign-in-box summary")
    page.fill("#sign-in-key", fred["api_key"])
    page.click("#sign-in button[type=submit]")
    page.wait_for_selector("#whoami")
    assert page.locator("#signed-out-reason").count() == 0
    page.wait_for_selector("#create")
    assert not errors, errors
    context.close()


def test_a_rounds_byes_show_and_the_player_with_the_bye_is_told(server, browser):
    org, ann, bob, cy = (register(server, name) for name in ["bye-org", "bye-ann", "bye-bob", "bye-cy"])
    created = requests.post(f"{server}/tournaments", headers=auth(org), timeout=10, json={
        "game": "jester", "name": "Odd field", "format": "swiss", "rounds": 1, "table_size": 2})
    created.raise_for_status()
    tournament_id = created.json()["id"]
    for player in (ann, bob, cy):
        requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player),
                      timeout=10).raise_for_status()
    started = requests.post(f"{server}/tournaments/{tournament_id}/start", headers=auth(org), timeout=10)
    started.raise_for_status()
    round_one = started.json()["rounds"][0]
    assert len(round_one["byes"]) == 1
    players = {player["id"]: player for player in (ann, bob, cy)}
    resting = players[round_one["byes"][0]]

    # Anyone sees who sits the round out.
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#rounds li.byes")
    assert page.inner_text("#rounds li.byes") == f"bye: {resting['name']}"
    assert page.locator("#your-bye").count() == 0
    context.close()

    # The player with the bye is told, in the round and above the standings.
    context, page, errors_bye = signed_in(browser, server, resting)
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#rounds li.byes .your-bye")
    assert "you sit this round out" in page.inner_text("#rounds li.byes")
    assert "You have a bye in round 1" in page.inner_text("#your-bye")
    context.close()

    # A player at the table is not.
    playing = next(player for player_id, player in players.items() if player_id != resting["id"])
    context, page, errors_playing = signed_in(browser, server, playing)
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#rounds li.byes")
    assert page.locator("#your-bye").count() == 0 and page.locator(".your-bye").count() == 0
    assert not errors and not errors_bye and not errors_playing, errors + errors_bye + errors_playing
    context.close()


def test_invitations_no_longer_open_go_and_a_refused_accept_says_why(server, browser):
    ann, dee, eve = (register(server, name) for name in ["dead-ann", "dead-dee", "dead-eve"])
    context, page, errors = signed_in(browser, server, dee)
    page.goto(server + "/")
    page.wait_for_selector("#invitations[data-live='true']", state="attached")

    # Filled by another while the lobby is in the background (it reads nothing then, and the stream tells
    # an invited player nothing of it): "accept" is refused; the invitation goes and the refusal says why.
    full = invite(server, ann, dee, computers={"2": "random"}, unlisted=False)
    page.wait_for_selector(f"#invitations li[data-match='{full}']", timeout=15_000)
    hide(page, True)
    requests.post(f"{server}/matches/{full}/seats", headers=auth(eve), json={}, timeout=10).raise_for_status()
    page.click(f"#invitations li[data-match='{full}'] .accept-invitation")
    page.wait_for_selector("#invitation-error .problem")
    assert "no longer open" in page.inner_text("#invitation-error .problem")
    assert page.locator(f"#invitations li[data-match='{full}']").count() == 0
    assert full not in (page.evaluate(f"localStorage.getItem('motley.invitations.{dee['id']}')") or "")

    # Filled by others, called off, and accepted in another tab: each goes when the lobby reads again
    # (shown again: at once), whatever the stream tells dee of them.
    filled = invite(server, ann, dee, computers={"2": "random"}, unlisted=False)
    cancelled = invite(server, ann, dee)
    taken = invite(server, ann, dee)
    for match_id in (filled, cancelled, taken):
        page.wait_for_selector(f"#invitations li[data-match='{match_id}']", timeout=15_000)
    requests.post(f"{server}/matches/{filled}/seats", headers=auth(eve), json={}, timeout=10).raise_for_status()
    requests.post(f"{server}/matches/{cancelled}/cancel", headers=auth(ann), timeout=10).raise_for_status()
    requests.post(f"{server}/matches/{taken}/seats", headers=auth(dee), json={}, timeout=10).raise_for_status()
    still = invite(server, ann, dee)
    page.wait_for_selector(f"#invitations li[data-match='{still}']", timeout=15_000)
    hide(page, False)
    for match_id in (filled, cancelled, taken):
        page.wait_for_selector(f"#invitations li[data-match='{match_id}']", state="detached", timeout=5_000)
    assert page.locator(f"#invitations li[data-match='{still}']").count() == 1
    assert not errors, errors
    context.close()


def test_a_double_click_sends_one_request(server, browser, tmp_path):
    gil = register(server, "dbl-gil")
    context, page, errors = signed_in(browser, server, gil)

    # One tournament.
    tournaments = posts(page, "/tournaments")
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#create-tournament")
    page.fill("#tournament-name", "Double trouble")
    page.fill("#tournament-rounds", "1")
    page.dblclick("#create-tournament-submit")
    page.wait_for_url("**/#/tournament/*")
    tournament_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#tournament-register")
    page.wait_for_timeout(500)
    assert len(tournaments) == 1, tournaments
    listed = requests.get(f"{server}/tournaments", timeout=10).json()["items"]
    named = [t for t in listed if t["name"] == "Double trouble"]
    assert len(named) == 1

    # Register once, without a false "already registered".
    entries = posts(page, f"/tournaments/{tournament_id}/players")
    page.dblclick("#tournament-register")
    page.wait_for_selector("#tournament-withdraw")
    page.wait_for_timeout(500)
    assert len(entries) == 1, entries
    assert page.locator("#tournament-error .problem").count() == 0

    # One match.
    created = posts(page, "/matches")
    page.goto(server + "/")
    page.wait_for_selector("#create")
    page.dblclick("#create-submit")
    page.wait_for_url("**/#/match/*")
    page.wait_for_selector("#status")
    page.wait_for_timeout(500)
    assert len(created) == 1, created
    mine = requests.get(f"{server}/matches", params={"status": "open", "player": gil["id"]}, headers=auth(gil),
                        timeout=10).json()["items"]
    assert len(mine) == 1

    # Accept an invitation once, without a false refusal.
    hal = register(server, "dbl-hal")
    invited = invite(server, hal, gil)
    page.goto(server + "/")
    page.wait_for_selector(f"#invitations li[data-match='{invited}']", timeout=15_000)
    seats = posts(page, f"/matches/{invited}/seats")
    page.dblclick(f"#invitations li[data-match='{invited}'] .accept-invitation")
    page.wait_for_url(f"**/#/match/{invited}")
    page.wait_for_selector("#status")
    page.wait_for_timeout(500)
    assert len(seats) == 1, seats
    assert page.locator(".problem").count() == 0
    assert not errors, errors
    context.close()

    # One imported copy (the auditor's import).
    done = match_with(server, gil, "jest", 3, computers={"1": "random", "2": "random"})
    play_out(server, done, [gil])
    exported = tmp_path / "export.jsonl"
    exported.write_bytes(requests.get(f"{server}/matches/{done}/export",
                                      headers={"Authorization": f"Bearer {AUDITOR_KEY}"}, timeout=10).content)
    context, page, errors = as_auditor(browser)
    imports = posts(page, "/matches/import")
    page.goto(server + "/")
    page.wait_for_selector("#import-file", state="attached")
    page.set_input_files("#import-file", str(exported))
    page.dblclick("#import-submit")
    page.wait_for_function("id => location.hash.startsWith('#/match/') && !location.hash.includes(id)", arg=done)
    page.wait_for_selector("#status")
    page.wait_for_timeout(500)
    assert len(imports) == 1, imports
    assert page.locator(".problem").count() == 0
    assert not errors, errors
    context.close()


def test_a_seated_player_forks_a_version_before_the_start(server, browser):
    kai = register(server, "fork-kai")
    match_id = match_with(server, kai, "jest", 3, computers={"1": "random", "2": "random"})
    play_out(server, match_id, [kai])
    assert requests.get(f"{server}/matches/{match_id}", params={"version": 1}, timeout=10).json()["status"] == "open"
    context, page, errors = signed_in(browser, server, kai)
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#fork")
    page.click("#first")
    page.wait_for_function("Number(document.querySelector('#replay-board #version')?.textContent) === 1")
    assert "none kept" in page.get_attribute("#fork", "title")
    page.click("#fork")
    page.wait_for_function("id => location.hash.startsWith('#/match/') && !location.hash.includes(id)", arg=match_id)
    fork_id = page.evaluate("location.hash").split("/")[-1]
    page.wait_for_selector("#status")
    fork = requests.get(f"{server}/matches/{fork_id}", headers=auth(kai), timeout=10).json()
    assert fork["lineage"]["parent"] == {**fork["lineage"]["parent"], "match_id": match_id, "version": 1}
    assert fork["status"] == "open"
    assert page.locator(".problem").count() == 0
    assert not errors, errors
    context.close()


def test_at_phone_width_the_auditors_import_field_stays_inside_its_panel(server, browser):
    lee = register(server, "phone-lee")
    done = match_with(server, lee, "jest", 3, computers={"1": "random", "2": "random"})
    play_out(server, done, [lee])
    context, page, errors = as_auditor(browser, viewport={"width": 375, "height": 740})
    for path in ["/", f"/#/match/{done}"]:
        page.goto(server + path)
        page.wait_for_selector("#import-file", state="attached")
        page.wait_for_timeout(300)
        assert page.evaluate(WIDER_THAN_THE_SCREEN) <= 0, path
        assert page.evaluate("""() => {
            const field = document.querySelector('#import-file').getBoundingClientRect();
            const panel = document.querySelector('#import');
            const inner = panel.getBoundingClientRect().right - parseFloat(getComputedStyle(panel).borderRightWidth);
            return field.right <= inner; }"""), path
    assert not errors, errors
    context.close()


def test_signing_out_leaves_none_of_the_players_invitation_data(server, browser):
    ann, bob = register(server, "so-ann"), register(server, "so-bob")
    context, page, errors = signed_in(browser, server, bob)
    page.goto(server + "/")
    page.wait_for_selector("#invitations[data-live='true']", state="attached")
    kept = invite(server, ann, bob)
    dismissed = invite(server, ann, bob)
    page.wait_for_selector(f"#invitations li[data-match='{kept}']", timeout=15_000)
    page.wait_for_selector(f"#invitations li[data-match='{dismissed}']", timeout=15_000)
    page.click(f"#invitations li[data-match='{dismissed}'] button:has-text('dismiss')")
    stored = page.evaluate("Object.keys(localStorage)")
    kept = {f"motley.invitations.{bob['id']}", f"motley.feed.{bob['id']}", f"motley.dismissed.{bob['id']}"}
    assert kept <= set(stored)

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#sign-out")
    page.wait_for_selector("#register")
    assert [name for name in page.evaluate("Object.keys(localStorage)") if name.startswith("motley.")] == []
    assert not errors, errors
    context.close()
