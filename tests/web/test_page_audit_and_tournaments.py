"""The web page's answers to the usability probe of the page against the API (api/web/): Debian's chromium
driven by Playwright against a real `motley serve` process, as tests/web/test_browser.py does.

- A player exports a match (the key sent, the file named as the answer says) and forks a finished match
  from a past version, which opens.
- The auditor signs in with MOTLEY_AUDITOR_KEY ("Auditor"), reads a running match unredacted at any
  version, exports, imports an export (the copy opens) and verifies a match's chance.
- A tournament page follows its tables with the viewer's key, and a refused stream backs off (every stream
  of the page waits together, longer each time) instead of knocking every few seconds.
- A player creates a tournament, registers and withdraws; its organiser starts it.
- Invitations sent to a player by id show in their lobby (also one sent while it was closed) and are
  accepted there.
- The lobby lists a person's running matches apart.
- A key is replaced (the old one stops working) and another revoked from the page.
"""

from __future__ import annotations

import json

import pytest
import requests

from tests.web.conftest import AUDITOR_KEY
from tests.web.test_page_followups import auth, match_with, play_out, register, signed_in, started_swiss

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each



@pytest.fixture(scope="module")
def server(auditor_server):
    return auditor_server


def first_playing_version(base: str, match_id: str) -> int:
    """The first version at which a person is to act (the match started, its cards dealt)."""
    last = requests.get(f"{base}/matches/{match_id}", timeout=10).json()["version"]
    for version in range(1, last + 1):
        seen = requests.get(f"{base}/matches/{match_id}", params={"version": version}, timeout=10).json()
        if seen["status"] == "active" and seen["to_act"]["kind"] == "players":
            return version
    raise AssertionError("no version with a person to act")


def keyed_requests(page, fragment: str) -> list:
    """(url, Authorization header) of every request of the page whose URL holds ``fragment``."""
    seen: list = []
    page.on("request", lambda request: fragment in request.url
            and seen.append((request.url, request.headers.get("authorization"))))
    return seen


def test_a_player_exports_a_match_and_forks_a_finished_one_from_a_past_position(server, browser):
    kim = register(server, "kim")
    match_id = match_with(server, kim, "jest", 3, computers={"1": "random", "2": "random"})
    finished = play_out(server, match_id, [kim])
    context, page, errors = signed_in(browser, server, kim)
    exports = keyed_requests(page, "/export")

    # Export from the table: fetched with the key (a plain link cannot send it), saved under the name the
    # answer's Content-Disposition gives.
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#export")
    with page.expect_download() as download:
        page.click("#export")
    saved = download.value
    assert saved.suggested_filename == f"match-{match_id}.jsonl"
    expected = requests.get(f"{server}/matches/{match_id}/export", headers=auth(kim), timeout=10)
    with open(saved.path(), "rb") as file:
        assert file.read() == expected.content
    assert exports and all(header == f"Bearer {kim['api_key']}" for _, header in exports)

    # Fork from a past version in the replay: the new match opens, its parent and version as chosen,
    # kim's seat kept for her.
    version = first_playing_version(server, match_id) + 2
    assert version < finished["version"]
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#fork")
    page.click(f"#events li[data-version='{version}'] > button")
    page.wait_for_function("v => Number(document.querySelector('#replay-board #version')?.textContent) === v",
                           arg=version)
    assert page.inner_text("#fork") == f"Fork from version {version}"  # its name says which
    page.click("#fork")
    page.wait_for_function("id => location.hash.startsWith('#/match/') && !location.hash.includes(id)", arg=match_id)
    fork_id = page.evaluate("location.hash").split("/")[-1]
    page.wait_for_selector("#status")
    fork = requests.get(f"{server}/matches/{fork_id}", timeout=10).json()
    assert fork["lineage"]["parent"]["match_id"] == match_id
    assert fork["lineage"]["parent"]["version"] == version
    assert fork["seats"][0]["kept_for"] == kim["id"]
    # The fork says where it came from, and its original names it (a newcomer probe: neither did); the
    # link opens the original's replay at the version forked.
    page.wait_for_selector("#lineage")
    # The fork numbers its own versions: the position is said by both numbers ("at version 12" above
    # "version 11" read as another position than the one chosen: a phone probe).
    prefix_end = fork["lineage"]["parent"]["prefix_end"]
    assert prefix_end != version
    assert page.inner_text("#lineage") == (f"Forked from match {match_id[:8]} at its version {version} (here that "
                                           f"position is version {prefix_end}: a fork numbers its own versions from 1)")
    page.click("#lineage a")
    page.wait_for_function("v => Number(document.querySelector('#replay-board #version')?.textContent) === v",
                           arg=version)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(f"#lineage a[href='#/match/{fork_id}']")
    assert f"{fork_id[:8]} (from version {version})" in page.inner_text("#lineage")
    assert page.locator(".problem").count() == 0
    assert not errors, errors
    context.close()


def test_the_auditor_signs_in_reads_everything_exports_imports_and_verifies(server, browser, tmp_path):
    ann, bob, cy = (register(server, name) for name in ["aud-ann", "aud-bob", "aud-cy"])
    running = match_with(server, ann, "jest", 3, people=[bob, cy])  # started: hands dealt, nothing revealed
    kim = register(server, "aud-kim")
    done = match_with(server, kim, "jest", 3, computers={"1": "random", "2": "random"})
    play_out(server, done, [kim])

    context, page, errors = signed_in(browser, server, None)
    audited = keyed_requests(page, f"/matches/{running}")
    page.goto(server + "/")
    page.click("#sign-in-box summary")
    page.fill("#sign-in-key", AUDITOR_KEY)
    page.click("#sign-in button[type=submit]")
    page.wait_for_selector("#whoami")
    assert page.inner_text("#whoami") == "Auditor"
    assert page.evaluate("localStorage.getItem('motley.key')") == AUDITOR_KEY
    assert page.locator("#sign-in-error .problem").count() == 0
    page.wait_for_selector("#import")  # the lobby offers the auditor an import, not a player's forms
    assert page.locator("#create").count() == 0

    # A running match, unredacted: the API's view for the auditor (every hand), now and rewound.
    page.goto(f"{server}/#/match/{running}")
    page.wait_for_selector("#board .match-head")
    assert "you are auditor" in page.inner_text(".match-head")
    assert "What the auditor sees" in page.inner_text("#board")
    page.goto(f"{server}/#/replay/{running}")
    page.wait_for_selector("#events li")
    page.click("#events li[data-version='5'] > button")
    page.wait_for_function("Number(document.querySelector('#replay-board #version')?.textContent) === 5")
    assert "you are auditor" in page.inner_text("#replay-board .match-head")
    rewound = [header for url, header in audited if "version=5" in url]
    assert rewound and all(header == f"Bearer {AUDITOR_KEY}" for header in rewound)

    # Export a finished match (the auditor's export is unredacted), import it again: the copy opens.
    page.goto(f"{server}/#/match/{done}")
    page.wait_for_selector("#export")
    with page.expect_download() as download:
        page.click("#export")
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    assert exported.read_bytes() == requests.get(f"{server}/matches/{done}/export",
                                                 headers={"Authorization": f"Bearer {AUDITOR_KEY}"}, timeout=10).content

    # The chance check: every shuffle re-derived from the revealed seed.
    page.click("#verify")
    page.wait_for_function("document.querySelector('#verify-result')?.textContent.includes('verified')")
    assert page.inner_text("#verify-result").startswith("Chance verified")
    assert "not over" not in page.inner_text("#verify-result")
    # The running match verifies what it holds so far, and says the match is not over.
    page.goto(f"{server}/#/match/{running}")
    # (the finished table, its #verify and result, stays drawn until this one is)
    page.wait_for_selector("#status:not(.finished)")
    page.wait_for_selector("#verify")
    page.click("#verify")
    page.wait_for_function("document.querySelector('#verify-result')?.textContent.includes('verified')")
    assert "the match is not over" in page.inner_text("#verify-result")
    page.goto(f"{server}/#/match/{done}")
    page.wait_for_selector("#import-file", state="attached")

    page.set_input_files("#import-file", str(exported))
    page.click("#import-submit")
    page.wait_for_function("id => location.hash.startsWith('#/match/') && !location.hash.includes(id)", arg=done)
    copy_id = page.evaluate("location.hash").split("/")[-1]
    page.wait_for_selector("#status")
    copy = requests.get(f"{server}/matches/{copy_id}", headers={"Authorization": f"Bearer {AUDITOR_KEY}"}, timeout=10)
    assert copy.json()["lineage"]["imported"]
    assert copy.json()["status"] == "finished"
    assert page.locator(".problem").count() == 0
    assert not errors, errors
    context.close()

    # Kim, seated at the copy as at the original, is offered the original's rematch, never the copy's:
    # the server refuses one (an imported copy is a record), and the button stayed there refused.
    kim_context, kim_page, kim_errors = signed_in(browser, server, kim)
    kim_page.goto(f"{server}/#/match/{copy_id}")  # the first table this page draws: nothing stale
    kim_page.wait_for_selector("#status")  # drawn with its controls (one fill)
    assert "seat 0" in kim_page.inner_text(".match-head") and kim_page.locator("#rematch").count() == 0
    kim_page.goto(f"{server}/#/match/{done}")
    kim_page.wait_for_selector("#rematch")  # the original's is offered
    assert not kim_errors, kim_errors
    kim_context.close()


def test_tournament_tables_are_followed_with_the_key_and_a_refused_stream_backs_off(own_server, browser):
    server = own_server
    organiser, *players = (register(server, name) for name in ["org", *(f"tk{i}" for i in range(9))])
    started = started_swiss(server, organiser, players, "Crowded")
    tournament_id = started["id"]
    tables = started["rounds"][0]["tables"]
    assert len(tables) == 3
    viewer = players[0]

    # The viewer's four streams are held elsewhere (other tabs of theirs): the page's are refused.
    held = [requests.get(f"{server}/matches/{tables[0]['match_id']}/stream?seconds=120", headers=auth(viewer),
                         stream=True, timeout=10) for _ in range(4)]
    assert all(answer.status_code == 200 for answer in held)

    context, page, errors = signed_in(browser, server, viewer)
    streams = keyed_requests(page, "/stream")
    refusals: list = []
    page.on("response", lambda answer: answer.status == 429 and refusals.append(answer.url))
    console: list = []
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#standings tbody tr")
    page.wait_for_timeout(20_000)

    # Sent with the key (the player's own four, not the address's), and refused (429) a few times in 20 s,
    # not three streams every 5 s (Retry-After) with the standings' waiting reads beside them.
    assert streams and all(header == f"Bearer {viewer['api_key']}" for _, header in streams)
    assert 1 <= len(refusals) <= 6, refusals
    assert len(console) <= 6, console

    # The other streams end: the page follows its tables again, and a finish shows.
    for answer in held:
        answer.close()
    last = tables[-1]
    keys = {player["id"]: player for player in players}
    play_out(server, last["match_id"], [keys[p] for p in last["players"]])
    page.wait_for_selector(f"#rounds a[href*='{last['match_id']}'] >> text=finished", timeout=45_000)
    assert not errors, errors
    context.close()


def test_a_player_creates_a_tournament_registers_withdraws_and_the_organiser_starts_it(server, browser):
    org, ann, bob = (register(server, name) for name in ["t-org", "t-ann", "t-bob"])
    context, page, errors = signed_in(browser, server, org)
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#create-tournament")
    for field in ["#tournament-game", "#tournament-name", "#tournament-table-size", "#tournament-format",
                  "#tournament-rounds"]:  # every field has a label
        assert page.locator(f"label:has({field})").count() == 1
    page.select_option("#tournament-game", "jest")
    page.fill("#tournament-name", "Club night")
    page.fill("#tournament-table-size", "3")
    page.select_option("#tournament-format", "round-robin")
    page.fill("#tournament-rounds", "1")
    page.click("#create-tournament-submit")
    page.wait_for_url("**/#/tournament/*")
    tournament_id = page.url.rsplit("/", 1)[1]
    page.wait_for_function("document.querySelector('#tournament-status')?.textContent === 'open'")
    made = requests.get(f"{server}/tournaments/{tournament_id}", timeout=10).json()
    assert (made["name"], made["game"], made["format"], made["table_size"], made["rounds_planned"],
            made["organiser"]) == ("Club night", "jest", "round-robin", 3, 1, org["id"])

    def entrants() -> set:
        tournament = requests.get(f"{server}/tournaments/{tournament_id}", timeout=10).json()
        return {p["player_id"] for p in tournament["players"] if p["status"] == "registered"}

    # Register, withdraw (asked first), register again: by keyboard.
    page.focus("#tournament-register")
    page.keyboard.press("Enter")
    page.wait_for_selector("#tournament-withdraw")
    assert entrants() == {org["id"]}
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#tournament-withdraw")
    page.wait_for_selector("#tournament-register")
    assert entrants() == set()
    page.click("#tournament-register")
    page.wait_for_selector("#tournament-withdraw")
    for player in (ann, bob):
        requests.post(f"{server}/tournaments/{tournament_id}/players", headers=auth(player),
                      timeout=10).raise_for_status()

    # Another player sees Register, not Start (only the organiser starts).
    other, other_page, other_errors = signed_in(browser, server, register(server, "t-cy"))
    other_page.goto(f"{server}/#/tournament/{tournament_id}")
    other_page.wait_for_selector("#tournament-register")
    assert other_page.locator("#tournament-start").count() == 0
    other.close()

    page.wait_for_function("document.querySelector('#tournament-actions')?.textContent.includes('3 registered')",
                           timeout=15_000)
    page.click("#tournament-start")
    page.wait_for_function("document.querySelector('#tournament-status').textContent === 'active'", timeout=15_000)
    page.wait_for_selector("#rounds li a")
    assert requests.get(f"{server}/tournaments/{tournament_id}", timeout=10).json()["status"] == "active"
    assert page.locator(".problem").count() == 0
    assert not errors and not other_errors, errors + other_errors
    context.close()


def test_invitations_sent_by_id_show_in_the_lobby_and_are_accepted(server, browser):
    ann, bob = register(server, "inv-ann"), register(server, "inv-bob")

    def invited_match() -> str:
        created = requests.post(f"{server}/matches", headers=auth(ann), timeout=10, json={
            "game": "jest", "seats": 3, "computers": {"2": "random"}, "unlisted": True})
        created.raise_for_status()
        match_id = created.json()["id"]
        requests.post(f"{server}/matches/{match_id}/seats", headers=auth(ann), json={}, timeout=10).raise_for_status()
        requests.post(f"{server}/matches/{match_id}/invitations", headers=auth(ann), json={"player_id": bob["id"]},
                      timeout=10).raise_for_status()
        return match_id

    context, page, errors = signed_in(browser, server, bob)
    page.goto(server + "/")
    page.wait_for_selector("#invitations[data-live='true']", state="attached")
    assert page.locator("#invitations").is_hidden()  # nothing yet
    first = invited_match()
    page.wait_for_function("id => document.querySelector(`#invitations li[data-match='${id}']`)"
                           "?.textContent.includes('inv-ann invites you')", arg=first, timeout=15_000)
    # Said in a sentence of its own, not as the box read out with its buttons (a keyboard probe).
    assert page.inner_text("#invitations-said") == "New invitation: Jest by inv-ann."
    assert page.get_attribute("#invitations-said", "role") == "status"
    assert page.get_attribute("#invitations", "aria-live") is None

    # One sent while bob's lobby is closed shows when he comes back (the stream resumed where it stopped).
    page.goto(f"{server}/#/leaderboard/jest")
    page.wait_for_selector("#board-game")
    page.wait_for_timeout(500)
    second = invited_match()
    page.goto(server + "/")
    page.wait_for_selector(f"#invitations li[data-match='{second}']", timeout=15_000)
    assert page.locator(f"#invitations li[data-match='{first}']").count() == 1

    # Accept: bob takes the seat and the table opens; the invitation goes.
    page.click(f"#invitations li[data-match='{first}'] .accept-invitation")
    page.wait_for_url(f"**/#/match/{first}")
    seated = requests.get(f"{server}/matches/{first}", timeout=10).json()["seats"]
    assert bob["id"] in [seat["player_id"] for seat in seated]
    page.goto(server + "/")
    page.wait_for_selector(f"#invitations li[data-match='{second}']")
    assert page.locator(f"#invitations li[data-match='{first}']").count() == 0
    assert not errors, errors
    context.close()

    # A browser that never followed bob's stream (his key signed in anew) lists the one still open:
    # the stream had told of it only as it came (GET /players/me/invitations).
    context, page, errors = signed_in(browser, server, bob)
    page.goto(server + "/")
    page.wait_for_selector(f"#invitations li[data-match='{second}']", timeout=15_000)
    # Listed at once, named once its match is read (the list's rows do not name the creator): waited
    # for, as the page does it after the list (asserted at once, it failed on a loaded machine).
    page.wait_for_function("id => document.querySelector(`#invitations li[data-match='${id}']`)"
                           "?.textContent.includes('inv-ann invites you')", arg=second, timeout=15_000)
    assert page.locator(f"#invitations li[data-match='{first}']").count() == 0  # joined
    assert not errors, errors
    context.close()


def test_the_lobby_lists_your_running_matches_apart(server, browser):
    dee = register(server, "run-dee")
    mine = match_with(server, dee, "jest", 3, computers={"1": "random", "2": "random"})
    others = [register(server, name) for name in ["run-x", "run-y", "run-z"]]
    theirs = match_with(server, others[0], "jest", 3, people=others[1:])
    context, page, errors = signed_in(browser, server, dee)
    page.goto(server + "/")
    page.wait_for_selector(f"#my-running tr[data-match='{mine}']")
    assert page.locator(f"tr[data-match='{mine}']").count() == 1  # not again among everyone's
    assert page.locator(f"#my-running tr[data-match='{theirs}']").count() == 0
    assert page.locator(f"tr[data-match='{theirs}']").count() == 1
    assert not errors, errors
    context.close()


def test_a_key_is_replaced_and_another_revoked_from_the_page(server, browser):
    ned = register(server, "key-ned")
    other = requests.post(f"{server}/players/me/keys", headers=auth(ned), timeout=10).json()
    context, page, errors = signed_in(browser, server, ned)
    page.goto(server + "/")
    page.wait_for_selector("#whoami")
    page.click("#your-key summary")
    page.wait_for_selector("#key-list li")
    assert page.locator("#key-list li").count() == 2

    # Revoke the other key (asked first): it is refused from now on.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(f"#key-list li[data-key-id='{other['key_id']}'] .revoke-key")
    page.wait_for_function("document.querySelectorAll('#key-list li').length === 1")
    assert requests.get(f"{server}/players/me", headers={"Authorization": f"Bearer {other['api_key']}"},
                        timeout=10).status_code == 401

    # Replace this browser's key: the new one is kept and works, the old one no longer does.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#rotate-key")
    page.wait_for_selector("#keys-note")
    key = page.evaluate("localStorage.getItem('motley.key')")
    assert key != ned["api_key"]
    assert requests.get(f"{server}/players/me", headers={"Authorization": f"Bearer {key}"}, timeout=10).json()["id"] \
        == ned["id"]
    assert requests.get(f"{server}/players/me", headers=auth(ned), timeout=10).status_code == 401
    assert json.loads(page.evaluate("localStorage.getItem('motley.player')"))["id"] == ned["id"]
    assert "key-ned" in page.inner_text("#whoami")
    page.wait_for_function("document.querySelectorAll('#key-list li').length === 1")
    assert page.inner_text("#api-key") == key
    assert not errors, errors
    context.close()


def test_a_match_of_an_older_rules_version_links_its_own_versions_rules(server, browser):
    """A versions probe: the rules page of an older version was refused; a match of one (an imported
    copy, or a fork of an old match) linked the current rules. Its link now names its version, and the
    page it opens says which version it is about."""
    from tests.conftest import ROOT

    recorded = (ROOT / "tests" / "fixtures" / "histories" / "jester" / "1.4.0" / "2p-2000.jsonl").read_text()
    copy = requests.post(f"{server}/matches/import", data=recorded, timeout=30, headers={
        "Content-Type": "application/x-ndjson", "Authorization": f"Bearer {AUDITOR_KEY}"})
    assert copy.status_code == 201, copy.text
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/match/{copy.json()['id']}")
    link = page.wait_for_selector("#match-rules-link")
    href = link.get_attribute("href")
    assert href == "/games/jester/rules?rules_version=1.4.0", href
    rules = requests.get(f"{server}{href}", headers={"Accept": "text/html"}, timeout=10)
    assert rules.status_code == 200 and "You asked for the rules of Jester 1.4.0" in rules.text
    assert not errors, errors
    context.close()
