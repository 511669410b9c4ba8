"""The organiser's controls on a tournament's page: the API let the organiser void a table, disqualify or
withdraw a player and forfeit the absent after a round's deadline, and the page offered none of it (only
Start). Each is drawn for the organiser only, asks (a reason, then a confirmation), shows a refusal in
words, and draws the tournament again."""

from __future__ import annotations

import time

import pytest
import requests

from tests.web.test_page_followups import auth, register, signed_in, started_swiss

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def answering(page, reason: str = "") -> list[str]:
    """Every dialog accepted (a prompt with ``reason``); their messages, in order."""
    said: list[str] = []

    def accept(dialog):
        said.append(f"{dialog.type}: {dialog.message}")
        dialog.accept(reason) if dialog.type == "prompt" else dialog.accept()

    page.on("dialog", accept)
    return said


def tournament(server: str, tournament_id: str) -> dict:
    answer = requests.get(f"{server}/tournaments/{tournament_id}", timeout=10)
    answer.raise_for_status()
    return answer.json()


def entry_status(view: dict, player: dict) -> str:
    return next(p["status"] for p in view["players"] if p["player_id"] == player["id"])


def opened(browser, server: str, who: dict, tournament_id: str):
    context, page, errors = signed_in(browser, server, who)
    page.goto(f"{server}/#/tournament/{tournament_id}")
    page.wait_for_selector("#rounds a[href*='#/match/']")
    return context, page, errors


def organised(server: str, label: str, **terms) -> tuple[dict, list[dict], dict]:
    """An organiser and three players of a started Swiss Jest tournament named ``label``: the organiser,
    the players and the tournament's view (``terms``: started_swiss's)."""
    org = register(server, f"org-{label}")
    players = [register(server, f"{label}-{i}") for i in range(3)]
    return org, players, started_swiss(server, org, players, label, **terms)


def test_the_organiser_voids_a_table_from_the_page(server, browser):
    org, players, started = organised(server, "void-page")
    (table,) = started["rounds"][0]["tables"]
    context, page, errors = opened(browser, server, org, started["id"])
    said = answering(page, "a marked deck")
    page.click(f"#void-{table['match_id']}")
    page.wait_for_function("id => [...document.querySelectorAll('#rounds a')].some(a => a.href.includes(id)"
                           " && a.textContent === 'voided')", arg=table["match_id"], timeout=10_000)
    assert [line.split(":")[0] for line in said] == ["prompt", "confirm"], said
    view = tournament(server, started["id"])
    assert view["rounds"][0]["tables"][0]["result"]["how"] == "void"
    assert view["sanctions"] == [{"number": 1, "kind": "void", "match_id": table["match_id"],
                                  "reason": "a marked deck"}]
    # Said what it changed, the focus there (the Void button went with the void), its report linked.
    page.wait_for_function("() => document.activeElement?.id === 'organiser-done'", timeout=10_000)
    assert "Table 1 of round 1 is void" in page.inner_text("#organiser-done")
    assert page.get_attribute("#organiser-report", "href") == f"/tournaments/{started['id']}/sanctions/1"
    assert page.locator(f"#void-{table['match_id']}").count() == 0
    assert not errors, errors
    context.close()


def test_the_organiser_disqualifies_a_player_from_the_standings(server, browser):
    org, players, started = organised(server, "dq-page", rounds=2)
    cheat = players[1]
    context, page, errors = opened(browser, server, org, started["id"])
    answering(page, "played for another")
    page.click(f"#disqualify-{cheat['id']}")
    page.wait_for_selector("#standings tr[data-status='disqualified']", timeout=10_000)
    assert cheat["name"] in page.inner_text("#standings tr[data-status='disqualified']")
    assert "(disqualified)" in page.inner_text("#standings tr[data-status='disqualified']")
    view = tournament(server, started["id"])
    assert entry_status(view, cheat) == "disqualified"
    assert view["sanctions"][-1] == {"number": 1, "kind": "disqualify", "player_id": cheat["id"],
                                     "reason": "played for another"}
    page.wait_for_function("() => document.activeElement?.id === 'organiser-done'", timeout=10_000)
    assert "is disqualified" in page.inner_text("#organiser-done")
    # Disqualified: neither disqualified nor withdrawn again; the others still may be.
    assert page.locator(f"#disqualify-{cheat['id']}, #withdraw-{cheat['id']}").count() == 0
    assert page.locator(f"#disqualify-{players[0]['id']}").count() == 1
    assert not errors, errors
    context.close()
    # The player is told why: the reason was asked "its players read it" and shown nowhere (a walk).
    context, page, errors = opened(browser, server, cheat, started["id"])
    page.wait_for_selector("#disqualified-reason")
    assert page.inner_text("#disqualified-reason") == "played for another"
    assert not errors, errors
    context.close()
    # And so is everyone else, in the page's list of sanctions.
    context, page, errors = opened(browser, server, players[0], started["id"])
    page.wait_for_selector("#sanction-list li[data-kind='disqualify']")
    said = page.inner_text("#sanction-list li[data-kind='disqualify']")
    assert said.startswith(f"{cheat['name']} disqualified: \u201cplayed for another\u201d"), said
    assert not errors, errors
    context.close()


def test_the_organiser_withdraws_another_player(server, browser):
    org, players, started = organised(server, "wd-page", rounds=2)
    leaving = players[2]
    context, page, errors = opened(browser, server, org, started["id"])
    said = answering(page)
    page.click(f"#withdraw-{leaving['id']}")
    page.wait_for_selector("#standings tr[data-status='withdrawn']", timeout=10_000)
    assert leaving["name"] in page.inner_text("#standings tr[data-status='withdrawn']")
    assert [line.split(":")[0] for line in said] == ["confirm"], said  # no reason: the API takes none
    assert entry_status(tournament(server, started["id"]), leaving) == "withdrawn"
    # Withdrawn, the player may still be disqualified, not withdrawn again.
    assert page.locator(f"#withdraw-{leaving['id']}").count() == 0
    assert page.locator(f"#disqualify-{leaving['id']}").count() == 1
    assert not errors, errors
    context.close()


def test_a_player_who_is_not_the_organiser_sees_no_organiser_controls(server, browser):
    org, players, started = organised(server, "not-mine", rounds=2)
    context, page, errors = opened(browser, server, players[0], started["id"])
    page.wait_for_selector("#standings tr")
    controls = "button.organiser, [id^='void-'], [id^='disqualify-'], [id^='withdraw-'], [id^='forfeit-']"
    assert page.locator(controls).count() == 0
    assert page.inner_text("#organiser") == ""
    assert page.locator("#tournament-withdraw").count() == 1  # their own entry's Withdraw stays
    assert not errors, errors
    context.close()
    # The organiser's page of the same tournament has them (the comparison above is not vacuous).
    context, page, errors = opened(browser, server, org, started["id"])
    page.wait_for_selector(f"#disqualify-{players[0]['id']}")
    assert page.locator("[id^='void-']").count() == 1
    assert not errors, errors
    context.close()


def test_a_refused_void_is_said_in_words_and_changes_nothing(server, browser):
    org, players, started = organised(server, "refused")
    (table,) = started["rounds"][0]["tables"]
    context, page, errors = opened(browser, server, org, started["id"])
    answering(page, "x" * 501)  # the API takes a reason of up to 500 characters
    button = f"#void-{table['match_id']}"
    page.focus(button)
    page.keyboard.press("Enter")
    page.wait_for_selector("#organiser-error .problem", timeout=10_000)
    assert "reason" in page.inner_text("#organiser-error .problem")
    # Nothing changed: the table plays on, no sanction, the button is there with the focus back on it.
    view = tournament(server, started["id"])
    assert view["sanctions"] == [] and view["rounds"][0]["tables"][0]["result"] is None
    page.wait_for_function("id => document.activeElement?.id === id", arg=button[1:], timeout=10_000)
    assert page.inner_text("#organiser").strip() != "" and page.locator("#organiser-done").count() == 0
    assert not errors, errors
    context.close()


def test_the_organiser_forfeits_the_absent_after_the_rounds_deadline(server, browser):
    org, players, started = organised(server, "forfeit", round_deadline_seconds=4)
    tournament_id = started["id"]
    (table,) = started["rounds"][0]["tables"]
    match_id = table["match_id"]
    context, page, errors = opened(browser, server, org, tournament_id)
    # Before the deadline: its countdown, no forfeit (the API would refuse it); after it, drawn by itself.
    before = page.evaluate("id => [!!document.getElementById(`forfeit-${id}`),"
                           " !!document.querySelector('#round-deadline .timer')]", match_id)
    assert before in ([False, True], [True, False]), before  # a countdown, or (opened late) the forfeit
    page.wait_for_selector(f"#forfeit-{match_id}", timeout=15_000)
    assert "deadline has passed" in page.inner_text("#round-deadline")
    said = answering(page)
    page.click(f"#forfeit-{match_id}")
    page.wait_for_selector(f"#forfeit-form-{match_id}")
    page.click(f"#forfeit-submit-{match_id}")  # nobody ticked: said on the page, nothing sent
    page.wait_for_selector("#organiser-error .problem")
    assert "Tick the absent players" in page.inner_text("#organiser-error")
    absent = table["players"][:2]
    for player in absent:
        page.check(f"#forfeit-{match_id}-{player}")
    sent = []
    page.on("request", lambda request: sent.append(request.post_data_json)
            if request.method == "POST" and request.url.endswith("/forfeits") else None)
    page.click(f"#forfeit-submit-{match_id}")
    page.wait_for_function("() => document.activeElement?.id === 'organiser-done'", timeout=10_000)
    # The table's match is named: the forfeit settles that table or none (the round may have moved on).
    assert sent == [{"player_ids": absent, "match_id": match_id}], sent
    assert "Forfeit recorded at table 1 of round 1" in page.inner_text("#organiser-done")
    assert [line.split(":")[0] for line in said] == ["confirm"], said
    result = tournament(server, tournament_id)["rounds"][0]["tables"][0]["result"]
    assert result["how"] == "forfeit"
    ranks = dict(zip(table["players"], result["ranks"]))
    assert all(ranks[p] > ranks[table["players"][2]] for p in absent), ranks
    assert page.locator(f"#forfeit-{match_id}, #forfeit-form-{match_id}").count() == 0
    # The table reads forfeited (it read finished, its match still played on by the computers).
    page.wait_for_function("id => [...document.querySelectorAll('#rounds a')].some(a => a.href.includes(id)"
                           " && a.textContent === 'forfeited')", arg=match_id, timeout=10_000)
    # The match's page says who forfeited them (it said they "resigned").
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#result-how")
    how = page.inner_text("#result-how")
    assert how.count("was forfeited by the tournament's organiser") == 2 and "resigned" not in how, how
    assert not errors, errors
    context.close()


def test_a_forfeit_beside_a_withdrawn_player_says_nobody_is_present_and_cancel_closes_the_form(server, browser):
    """A player withdrawn during the round resigned the table's match: he is not present. The form offered
    him as any player and the confirmation promised the two ticked "the players present its first" while
    the API ranked all three last (a review). Cancel left the button saying its form was open."""
    org, players, started = organised(server, "ff-gone", round_deadline_seconds=3)
    (table,) = started["rounds"][0]["tables"]
    match_id, gone = table["match_id"], table["players"][0]
    requests.delete(f"{server}/tournaments/{started['id']}/players/{gone}", headers=auth(org),
                    timeout=10).raise_for_status()
    context, page, errors = opened(browser, server, org, started["id"])
    page.wait_for_selector(f"#forfeit-{match_id}", timeout=15_000)
    said = answering(page)
    page.click(f"#forfeit-{match_id}")
    assert page.get_attribute(f"#forfeit-{match_id}", "aria-expanded") == "true"
    page.click(f"#forfeit-cancel-{match_id}")
    assert page.locator(f"#forfeit-form-{match_id}").count() == 0
    assert page.get_attribute(f"#forfeit-{match_id}", "aria-expanded") == "false"
    page.click(f"#forfeit-{match_id}")
    page.keyboard.press("Escape")
    assert page.locator(f"#forfeit-form-{match_id}").count() == 0
    page.click(f"#forfeit-{match_id}")
    assert page.is_disabled(f"#forfeit-{match_id}-{gone}")
    assert "withdrawn: not present" in page.inner_text(f"#forfeit-form-{match_id}")
    for player in table["players"][1:]:
        page.check(f"#forfeit-{match_id}-{player}")
    page.click(f"#forfeit-submit-{match_id}")
    page.wait_for_function("() => document.activeElement?.id === 'organiser-done'", timeout=10_000)
    assert len(said) == 1 and "Nobody is present" in said[0], said
    result = tournament(server, started["id"])["rounds"][0]["tables"][0]["result"]
    assert result == {"ranks": [3, 3, 3], "how": "forfeit"}, result
    assert not errors, errors
    context.close()


def test_withdrawing_a_player_during_his_bye_says_the_bye_then_scores_nothing(server, browser):
    """Four players at tables of three: one sits the round out. Withdrawn (or disqualified) during it,
    his bye scores nothing (docs/tournaments.md); the confirmation did not say so (an organiser's walk)."""
    org = register(server, "org-bye-page")
    players = [register(server, f"bye-page-{i}") for i in range(4)]
    started = started_swiss(server, org, players, "Bye from the page", rounds=2)
    (bye,) = started["rounds"][0]["byes"]
    context, page, errors = opened(browser, server, org, started["id"])
    said = answering(page)
    page.click(f"#withdraw-{bye}")
    page.wait_for_selector("#standings tr[data-status='withdrawn']", timeout=10_000)
    assert len(said) == 1 and "Their bye in this round then scores nothing." in said[0], said
    # The page draws the standings the tournament's stream pushes with the withdrawal: the bye scores 0
    # there at once; the standings read model (GET /standings) says so as it catches up.
    assert page.locator("#standings tr[data-status='withdrawn'] td").nth(2).inner_text() == "0"
    for _ in range(50):
        rows = requests.get(f"{server}/tournaments/{started['id']}/standings", timeout=10).json()["items"]
        if next(r for r in rows if r["player_id"] == bye)["points"] == 0:
            break
        time.sleep(0.2)
    assert next(r for r in rows if r["player_id"] == bye)["points"] == 0
    assert not errors, errors
    context.close()


def test_a_player_ticked_absent_then_withdrawn_is_not_sent_with_the_forfeit(server, browser):
    """Ticked absent, then withdrawn with the page's own button: the form drew his box disabled but still
    sent him, each try a 409, and his box could not be unticked (a review). He is left out."""
    org, players, started = organised(server, "ff-ticked", round_deadline_seconds=3)
    (table,) = started["rounds"][0]["tables"]
    match_id, (absent, leaving, present) = table["match_id"], table["players"]
    context, page, errors = opened(browser, server, org, started["id"])
    page.wait_for_selector(f"#forfeit-{match_id}", timeout=15_000)
    said = answering(page)
    page.click(f"#forfeit-{match_id}")
    for player in (absent, leaving):
        page.check(f"#forfeit-{match_id}-{player}")
    page.click(f"#withdraw-{leaving}")
    page.wait_for_selector(f"#forfeit-{match_id}-{leaving}:disabled", timeout=10_000)
    sent = []
    page.on("request", lambda request: sent.append(request.post_data_json)
            if request.method == "POST" and request.url.endswith("/forfeits") else None)
    page.click(f"#forfeit-submit-{match_id}")
    page.wait_for_function("() => document.activeElement?.id === 'organiser-done'", timeout=10_000)
    assert sent == [{"player_ids": [absent], "match_id": match_id}], sent
    assert "Forfeit" in said[-1] and "withdrawn" not in said[-1], said
    assert tournament(server, started["id"])["rounds"][0]["tables"][0]["result"]["how"] == "forfeit"
    assert not errors, errors
    context.close()


def test_the_organisers_page_shows_a_withdrawal_made_elsewhere_while_its_tables_play(server, browser):
    """While the page followed its playing tables' streams it read the tournament again only when a match
    finished: a player withdrawing himself showed up on the organiser's page ~20 s later, offered all the
    while (a walk). The organiser's page reads it again every few seconds."""
    org, players, started = organised(server, "wd-elsewhere", rounds=2)
    context, page, errors = opened(browser, server, org, started["id"])
    page.wait_for_selector(f"#withdraw-{players[0]['id']}")
    requests.delete(f"{server}/tournaments/{started['id']}/players/{players[0]['id']}", headers=auth(players[0]),
                    timeout=10).raise_for_status()
    page.wait_for_selector("#standings tr[data-status='withdrawn']", timeout=12_000)
    assert page.locator(f"#withdraw-{players[0]['id']}").count() == 0
    assert not errors, errors
    context.close()
