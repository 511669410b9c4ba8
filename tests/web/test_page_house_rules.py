"""The page flags the house rules (house-rules.md: every [PROPOSAL] rule "is not the publisher's rule.
Flag these in the UI and keep them configurable"): each game in the lobby lists its house rules with their
ids, and the create-match form lists the chosen game's and marks, in words, each option that switches one.
Debian's chromium driven by Playwright against a real `motley serve` process (tests/web/conftest.py)."""

from __future__ import annotations

import pytest
import requests

from tests.web.test_page_followups import auth, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def catalogue(server: str) -> dict:
    answer = requests.get(f"{server}/games", timeout=10)
    answer.raise_for_status()
    return {game["name"]: game for game in answer.json()}


def test_the_lobby_lists_each_games_house_rules_with_their_ids(server, browser):
    crown = catalogue(server)["fools-crown"]
    assert crown["house_rules"]
    context, page, errors = signed_in(browser, server, None)
    page.goto(server + "/")
    box = page.locator("#house-rules-fools-crown")
    box.wait_for()
    summary = box.locator("summary")
    assert "House rules (Motley's, not the publisher's)" in summary.inner_text()
    summary.click()  # folded until opened
    items = box.locator("li")
    assert items.count() == len(crown["house_rules"])
    for item, rule in zip(items.all(), crown["house_rules"]):
        assert item.is_visible()
        assert item.locator(".house-rule-id").inner_text() == rule["id"]
        assert rule["text"] in item.inner_text()
        if rule["option"]:
            assert rule["option"].replace("_", " ") in item.inner_text()
    assert not errors, errors
    context.close()


def test_the_create_form_flags_the_options_that_switch_a_house_rule(server, browser):
    games = catalogue(server)
    crown = games["fools-crown"]
    switched = {rule["option"] for rule in crown["house_rules"] if rule["option"]}
    assert {"commit_order", "safety_cap", "challenge_sat_out"} <= switched
    context, page, errors = signed_in(browser, server, register(server, "hal-house"))
    page.goto(server + "/")
    page.wait_for_selector("#create")
    page.select_option("#create-game", "fools-crown")
    for name in crown["options_schema"]["properties"]:
        label = page.locator(f"#create .option:has([name={name}])")
        badge = label.locator(".house-rule-badge")
        if name not in switched:
            assert badge.count() == 0, name
            continue
        # In words, visible, and part of the field's accessible name and description.
        assert badge.is_visible() and badge.inner_text() == "house rule", name
        ids = [rule["id"] for rule in crown["house_rules"] if rule["option"] == name]
        note = label.locator(".house-rule-note")
        assert note.is_visible() and all(rule_id in note.inner_text() for rule_id in ids), name
        field = page.locator(f"#create [name={name}]")
        assert note.get_attribute("id") in field.get_attribute("aria-describedby").split(), name
        assert "house rule" in label.inner_text()
        # The field's accessible name is its name and the badge, not its description too (which the
        # label held, so a screen reader read 300 characters as the name and then again as the
        # description: a probe of the form).
        role = "checkbox" if crown["options_schema"]["properties"][name]["type"] == "boolean" else "combobox"
        spoken = f"{name.replace('_', ' ')} house rule"
        assert page.get_by_role(role, name=spoken, exact=True).count() == 1, (name, spoken)
        # The option in plain words first (its title); the description, as the game gives it, one click
        # away (a newcomer probe: it opened with house-rule tags).
        schema = crown["options_schema"]["properties"][name]
        assert label.locator(".option-summary").inner_text() == schema["title"], name
        assert label.locator(".option-summary").get_attribute("id") in field.get_attribute("aria-describedby").split()
        described = schema.get("description")
        if described:
            label.locator(".option-more summary").click()
            assert label.locator(".option-help").inner_text() == described
    rules = page.locator("#create-house-rules")
    assert "House rules (Motley's, not the publisher's)" in rules.locator("summary").inner_text()
    rules.locator("summary").click()
    assert [item.inner_text() for item in rules.locator(".house-rule-id").all()] == [
        rule["id"] for rule in crown["house_rules"]]
    # Jester's red chairs are the rulebook's variant: no house rule switches them.
    page.select_option("#create-game", "jester")
    page.wait_for_selector("#create [name=red_chairs]")
    assert page.locator("#create .option:has([name=red_chairs]) .house-rule-badge").count() == 0
    assert page.locator("#create-house-rules li").count() == len(games["jester"]["house_rules"])
    # Tumult Royale: every option switches a house rule, the ready step's bound (TR-READY) and the timer
    # (4.5 digital tax collection) too, which no entry named before audit catalogue26.
    tumult = games["tumult-royale"]
    page.select_option("#create-game", "tumult-royale")
    page.wait_for_selector("#create [name=ready_seconds]")
    for name, rule_id in (("ready_seconds", "TR-READY"), ("tax_seconds", "4.5 digital tax collection"),
                          ("tax_mode", "4.5 asynchronous mode"), ("gamble", "4.5 gamble variant")):
        assert name in tumult["options_schema"]["properties"], name
        label = page.locator(f"#create .option:has([name={name}])")
        assert label.locator(".house-rule-badge").inner_text() == "house rule", name
        assert rule_id in label.locator(".house-rule-note").inner_text(), name
    assert page.locator("#create-house-rules li").count() == len(tumult["house_rules"])
    assert not errors, errors
    context.close()


def test_a_tables_page_says_its_rules_version_and_options_and_which_switch_a_house_rule(server, browser):
    """A person who joined from the lobby's list saw the match's options nowhere (a probe): a Jest match
    with shared ties (house rule R7's option) is won by every player tied at the top, which its page must
    say. Its header names the rules version and each option, marking those that switch a house rule."""
    host, guest = register(server, "Rules host"), register(server, "Rules guest")
    created = requests.post(f"{server}/matches", timeout=10, headers=auth(host),
                            json={"game": "jest", "seats": 3, "options": {"ties": "shared"}})
    assert created.status_code == 201, created.text
    match = created.json()
    context, page, errors = signed_in(browser, server, guest)
    page.goto(f"{server}/#/match/{match['id']}?as=spectator")
    rules = page.locator("#match-rules")
    rules.wait_for()
    text = rules.inner_text()
    assert match["rules_version"] == catalogue(server)["jest"]["rules_version"]
    assert f"rules {match['rules_version']}" in text, text
    assert 'ties shared (the option of house rule R7)' in text, text
    assert 'one player both trophies yes (the option of house rule R4 both trophies)' in text, text
    assert not errors, errors
    context.close()


def test_the_lobbys_list_says_what_an_open_match_is_played_under_before_join(server, browser):
    """The lobby's join seats a person at once: its row now says the match's rules version and options
    (the list's terms), which it did nowhere before (a probe)."""
    host = register(server, "List host")
    created = requests.post(f"{server}/matches", timeout=10, headers=auth(host),
                            json={"game": "le-bouffon", "seats": 3, "options": {"deals": 2, "ties": "shared"}})
    assert created.status_code == 201, created.text
    match = created.json()
    context, page, errors = signed_in(browser, server, register(server, "List guest"))
    page.goto(server + "/")
    listed = page.locator(f'tr[data-match="{match["id"]}"] .listed-rules')
    listed.wait_for(timeout=15_000)
    assert listed.inner_text().strip() == (f'rules {match["rules_version"]} · deals 2 · ties shared · '
                                           'first deal exchange no')
    assert page.locator(f'tr[data-match="{match["id"]}"] button', has_text="join").count() == 1
    assert not errors, errors
    context.close()
