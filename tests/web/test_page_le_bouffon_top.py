"""Le Bouffon's trick on the table says what its top counts as (api/web/games/le_bouffon.js): k paladins laid
on k+1 weaker cards, or 1 minotaure on a set of 2–4, count as that set's number of cards (house rule 5.4
exceptions; docs/rules/le-bouffon.md §4), which the next play must match. A probe found the page drew the
paladin's chip alone, so a person saw one card where the next play must lay two.

Debian's chromium driven by Playwright against a real `motley serve` process (tests/web/conftest.py)."""

from __future__ import annotations

import time

import pytest
import requests

from tests.web.test_page_followups import match_with, move, register, signed_in
from tests.web.test_revealed_boards import first_version, open_version, seen

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def exception_top(view: dict) -> bool:
    top = ((view["observation"] or {}).get("trick") or {}).get("top")
    return bool(top) and top["count"] != len(top["cards"])


def fewest_cards(view: dict) -> dict:
    """The person lays an exception where one is legal (fewer cards than the top counts), else the smallest
    play, so the match soon meets one; the computers play as they do."""
    actions = view["legal_actions"]
    top = ((view["observation"] or {}).get("trick") or {}).get("top")
    plays = [a for a in actions if a["type"] == "play"]
    if top:
        exceptions = [a for a in plays if len(a["cards"]) < top["count"]]
        if exceptions:
            return exceptions[0]
    return min(plays, key=lambda a: len(a["cards"])) if plays else actions[0]


def played_out(base: str, match_id: str, person: dict, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = seen(base, match_id, person)
        if view["status"] == "finished":
            return
        if not view["legal_actions"]:
            time.sleep(0.05)
            continue
        move(base, match_id, person, fewest_cards(view))
    raise AssertionError("the match did not finish")


def test_the_trick_says_what_a_paladin_or_minotaure_top_counts_as(server, browser):
    person = register(server, "laid-as")
    for _ in range(8):  # about one match in three meets an exception; the person's policy makes it likelier
        match_id = match_with(server, person, "le-bouffon", 3, computers={"1": "basic", "2": "basic"},
                              options={"deals": 2})
        played_out(server, match_id, person)
        try:
            found = first_version(server, match_id, exception_top)
        except AssertionError:
            continue
        break
    else:
        raise AssertionError("no paladin or minotaure exception in eight matches")
    top = found["observation"]["trick"]["top"]
    assert top["kind"] in ("paladin", "minotaure") and top["count"] > len(top["cards"]), top

    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#events li")
    open_version(page, found["version"])
    trick = page.inner_text("#replay-board .trick")
    laid = len(top["cards"])
    assert (f"{laid} {top['kind']}{'' if laid == 1 else 's'} counting as {top['count']} cards of strength "
            f"{top['strength']}") in trick, trick
    # The public draw of roles says so, and who got which (a desktop probe: "chance (cards shuffled or dice
    # rolled)" said neither).
    events = requests.get(f"{server}/matches/{match_id}/events", timeout=10).json()["items"]
    drawn = [e for e in events if e["type"] == "ChanceDrawn" and (e["outcome"] or {}).get("type") == "roles"]
    assert drawn, [e["type"] for e in events]
    said = page.inner_text(f"#events li[data-version='{drawn[0]['version']}']")
    assert f"roles · laid-as: {drawn[0]['outcome']['roles'][0]}, " in said, said
    assert not errors, errors
    context.close()
    assert requests.get(f"{server}/matches/{match_id}", timeout=10).json()["status"] == "finished"


def test_the_table_traces_the_totals_deal_by_deal(server, browser):
    """A newcomer read each seat's total and nothing of how it was made (the deals' points were in the event
    list only): the table has a column of points per scored deal, the engine's ``scored``, before the total."""
    person = register(server, "deal-by-deal")
    match_id = match_with(server, person, "le-bouffon", 3, computers={"1": "basic", "2": "basic"},
                          options={"deals": 2})
    played_out(server, match_id, person)
    scored = seen(server, match_id, person)["observation"]["scored"]
    assert [deal["deal"] for deal in scored] == [1, 2]
    context, page, errors = signed_in(browser, server, person)
    page.goto(f"{server}/#/match/{match_id}")
    table = page.locator(".le-bouffon table.grid")
    table.wait_for(timeout=15_000)
    headers = [cell.inner_text() for cell in table.locator("thead th").all()]
    assert headers[:2] == ["seat", "total"] and headers[-2:] == ["deal 1", "deal 2"], headers
    for seat, row in enumerate(table.locator("tbody tr").all()):
        points = [cell.inner_text() for cell in row.locator("td.deal-points").all()]
        assert points == [str(deal["points"][seat]) for deal in scored], (seat, points)
        assert int(row.locator("td.total").inner_text()) == sum(deal["points"][seat] for deal in scored)
    assert not errors, errors
    context.close()
    # On a phone's 360 px the totals are in sight, not past the deals in the table's own scroll box.
    context, page, errors = signed_in(browser, server, person, viewport={"width": 360, "height": 740})
    page.goto(f"{server}/#/match/{match_id}")
    total = page.locator(".le-bouffon table.grid tbody tr td.total").first
    total.wait_for(timeout=15_000)
    box = total.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert not errors, errors
    context.close()
