"""The revealed replay's boards of Tumult Royale and Le Bouffon (api/web/games/): Debian's chromium driven by
Playwright against a real `motley serve` process, as tests/web/test_browser.py does (its conftest's browser).

Once a match is finished and revealed (`viewer.sees_all`, the whole `state` in the view), a game's
`reveal(observation, state)` draws what the state holds beyond the observation:

- Tumult Royale: the region tiles still face down at a version, field by field (the state names each
  position's region tile; docs/rules/tumult-royale.md), and the tile under every face-down or held tax
  slot, with the twelve tiles set aside for the round.
- Le Bouffon: every exchange of the deal (docs/rules/le-bouffon.md §3), which an observation shows only to
  its two seats: the gifts chosen while the others still choose, then each seat's cards given and received.

Before the end nothing of it shows: a seat's board holds only what its observation holds.
"""

from __future__ import annotations

import json
import time

import pytest
import requests

from domain.games.tumult_royale import data as D
from tests.web.test_page_followups import auth, match_with, move, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

# A short live collection: the hourglass (and the ready question) end each round's taxes in a second.
TUMULT = {"tax_mode": "live", "tax_seconds": 1, "ready_seconds": 1}
BOUFFON = {"deals": 2}  # the exchanges start with the second deal
EAGER = ("done", "keep", "ready")  # a person who takes a tile keeps it and is soon done: the match moves on


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def seen(base: str, match_id: str, player: dict | None = None, version: int | None = None) -> dict:
    params = {} if version is None else {"version": version}
    answer = requests.get(f"{base}/matches/{match_id}", headers=auth(player) if player else {}, params=params,
                          timeout=10)
    answer.raise_for_status()
    return answer.json()


def play_until(base: str, match_id: str, player: dict, done, seconds: float = 120) -> dict:
    """The player's eager moves until ``done(view)`` holds for the player's view (or the match is over)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = seen(base, match_id, player)
        if done(view):
            return view
        actions = view["legal_actions"]
        if not actions:
            time.sleep(0.05)
            continue
        answer = move(base, match_id, player, next((a for a in actions if a["type"] in EAGER), actions[0]))
        if answer.status_code == 429:  # a peek's cooldown
            time.sleep(0.6)
    raise AssertionError(f"not reached in {seconds} s: {seen(base, match_id, player)['observation']}")


def finished(view: dict) -> bool:
    return view["status"] == "finished"


def first_version(base: str, match_id: str, wanted, player: dict | None = None, better=None) -> dict:
    """The match at the first version where ``wanted(view)`` holds, as the player (or a spectator) reads it;
    with ``better``, the first where both hold if one does in the same stretch of versions (else the first)."""
    last = seen(base, match_id, player)["version"]
    found = None
    for version in range(1, last + 1):
        view = seen(base, match_id, player, version)
        if view["observation"] is None or not wanted(view):
            if found is not None:
                return found
            continue
        found = found or view
        if better is None or better(view):
            return view
    if found is None:
        raise AssertionError("no such version")
    return found


def open_version(page, version: int) -> None:
    page.click(f"#events li[data-version='{version}'] > button")
    page.wait_for_function("v => Number(document.querySelector('#replay-board #version')?.textContent) === v",
                           arg=version)


def tile_code(tile_id: int) -> str:
    commodity, value = D.TILES[tile_id]
    return f"{'BMT'[commodity]}{value}"


COMMODITY = {"B": "bread", "M": "marble", "T": "tools"}


def tile_title(code: str) -> str:
    return f"{COMMODITY[code[0]]} {code[1:]}"  # tumult_royale.js tile(): "bread 2"


def card_ids(locator) -> list[str]:
    """Le Bouffon's card chips as ids: each is titled "<id> (strength s)" (le_bouffon.js card())."""
    return locator.evaluate_all("nodes => nodes.map((n) => n.title.split(' ')[0])")


def field_classes(page) -> dict[int, list[str]]:
    cells = page.locator("#replay-board .tumult-royale table.kingdom td.field").evaluate_all(
        "nodes => nodes.map((n) => [Number(n.dataset.field), n.className])")
    return {field: name.split() for field, name in cells}


# -- Tumult Royale ------------------------------------------------------------------------------------

def hidden_tumult(view: dict) -> bool:
    """A version with face-down region tiles and face-down tax slots."""
    obs = view["observation"]
    return "?" in (obs.get("fields") or "") and "d" in (obs.get("slots") or "")


def test_the_revealed_replay_of_tumult_royale_shows_the_face_down_regions_and_tax_slots(server, browser):
    uma = register(server, "uma")
    match_id = match_with(server, uma, "tumult-royale", 2, computers={"1": "basic"}, options=TUMULT)
    play_until(server, match_id, uma, finished)
    # A version with face-down regions and face-down slots, one seat holding a tile if any does.
    view = first_version(server, match_id, hidden_tumult, better=lambda v: "h" in v["observation"]["slots"])
    assert view["viewer"]["sees_all"] and view.get("state")
    state, obs = view["state"], view["observation"]

    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#events li")
    open_version(page, view["version"])

    # Every field drawn with its type from the state's region tiles: none face down, those of the tiles still
    # face down at this version marked as revealed.
    n = state["n"]
    types = D.field_types(n, tuple(state["regions"]), (True,) * len(state["face_up"]))
    classes = field_classes(page)
    assert sorted(classes) == list(range(D.num_fields(n)))
    assert page.locator("#replay-board .tumult-royale td.f-down").count() == 0
    hidden_fields = 0
    for field, letter in enumerate(types):
        assert f"f-{letter}" in classes[field], (field, letter, classes[field])
        down = not state["face_up"][D.region_of(n, field)]
        assert ("was-down" in classes[field]) == down, (field, classes[field])
        hidden_fields += down
        if down:
            title = page.locator(f"#replay-board td.field[data-field='{field}']").get_attribute("title")
            assert D.FIELD_NAMES[letter] in title and "revealed" in title, title
    assert hidden_fields == 9 * state["face_up"].count(False) > 0

    # The tax slots: the tile under every face-down or held one, as the state's layout holds it.
    slots = page.locator("#replay-board .tumult-royale .slots .slot")
    assert slots.count() == len(obs["slots"]) == len(state["layout"])
    drawn = slots.evaluate_all("nodes => nodes.map((n) => [n.className, n.dataset.tile ?? null, n.textContent])")
    for slot, (mark, (name, code, text)) in enumerate(zip(obs["slots"], drawn)):
        assert mark in name.split()
        if mark == "k":
            assert code is None and state["layout"][slot] is None
        else:
            assert code == tile_code(state["layout"][slot]), (slot, mark, code)
            if mark == "d":
                assert text == code
    # The twelve tiles set aside for the round, unseen by everyone while it was played.
    aside = page.locator("#replay-board .tumult-royale .set-aside .tile").evaluate_all("ns => ns.map((n) => n.title)")
    assert aside == [tile_title(tile_code(t)) for t in sorted(state["set_aside"])] and len(aside) == D.SET_ASIDE

    # The match's own page, finished and revealed, draws its last version from the state too.
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".tumult-royale table.kingdom td.field")
    assert page.locator(".tumult-royale td.f-down").count() == 0
    assert not errors, errors
    context.close()


def test_an_unfinished_tumult_royale_keeps_its_regions_and_tax_slots_face_down(server, browser):
    vic = register(server, "vic")
    match_id = match_with(server, vic, "tumult-royale", 2, computers={"1": "basic"},
                          options={"tax_mode": "async"})  # no hourglass: the collection waits for vic
    now = play_until(server, match_id, vic, lambda v: hidden_tumult(v) and v["observation"]["phase"] == "tax")
    assert now["status"] == "active" and not now["viewer"]["sees_all"] and "state" not in now
    version = first_version(server, match_id, hidden_tumult, vic)["version"]

    for path in (f"#/replay/{match_id}", f"#/replay/{match_id}?as=spectator"):
        context, page, errors = signed_in(browser, server, vic)
        page.goto(f"{server}/{path}")
        page.wait_for_selector("#events li")
        open_version(page, version)
        board = page.locator("#replay-board .tumult-royale")
        assert board.locator("td.f-down").count() > 0
        assert board.locator("td.was-down").count() == 0
        assert board.locator(".slot.d").count() > 0
        assert board.locator(".slot[data-tile], .slot.shown, .set-aside").count() == 0
        assert not errors, errors
        context.close()

    # The table itself, as vic's seat: its own held tile at most, nothing under the other slots.
    context, page, errors = signed_in(browser, server, vic)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".tumult-royale .slots .slot")
    assert page.locator(".tumult-royale td.f-down").count() > 0
    assert page.locator(".tumult-royale .slot[data-tile], .tumult-royale .slot.shown, .set-aside").count() == 0
    assert not errors, errors
    context.close()


# -- Le Bouffon ----------------------------------------------------------------------------------------

def gives(base: str, match_id: str) -> list[dict]:
    """The match's `give` moves, as events (a revealed match's events are unredacted)."""
    events = requests.get(f"{base}/matches/{match_id}/events", params={"after": 0, "limit": 500}, timeout=10).json()
    assert events["items"][-1]["version"] == events["last_version"]
    return [e for e in events["items"] if e["type"] == "MoveMade" and e["action"]["type"] == "give"]


def test_the_revealed_replay_of_le_bouffon_shows_every_exchange(server, browser):
    wes = register(server, "wes")
    match_id = match_with(server, wes, "le-bouffon", 4, computers={"1": "basic", "2": "basic", "3": "basic"},
                          options=BOUFFON)
    play_until(server, match_id, wes, finished)
    given = gives(server, match_id)
    assert len(given) == 2  # the second deal: the roi's and the héritier's gifts

    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#events li")

    # The first gift is in, the other giver still chooses: the chosen cards, named by their giver.
    chosen = seen(server, match_id, version=given[0]["version"])
    assert chosen["viewer"]["sees_all"] and chosen["state"]["phase"] == "exchange"
    open_version(page, chosen["version"])
    gifts = chosen["state"]["gifts"]
    givers = [seat for seat, gift in enumerate(gifts) if gift]
    assert givers == [given[0]["seat"]]
    items = page.locator("#replay-board #every-exchange li[data-seat]")
    assert items.count() == 1
    assert card_ids(items.locator(".gift .bcard")) == gifts[givers[0]]
    assert items.first.get_attribute("data-seat") == str(givers[0])

    # Both gifts in: every seat's exchange, cards given and received, as the state holds them.
    swapped = seen(server, match_id, version=given[1]["version"])
    exchanged = swapped["state"]["exchanged"]
    assert swapped["state"]["phase"] == "play" and all(exchanged)
    open_version(page, swapped["version"])
    for seat, exchange in enumerate(exchanged):
        item = page.locator(f"#replay-board #every-exchange li[data-seat='{seat}']")
        assert card_ids(item.locator(".gave .bcard")) == exchange["gave"], seat
        assert card_ids(item.locator(".received .bcard")) == exchange["received"], seat
        partner = exchanged.index(next(e for e in exchanged if e["received"] == exchange["gave"]))
        assert f"to {swapped['seats'][partner]['name'] or f'seat {partner}'}" in item.inner_text()

    # The match's own page, finished: the last deal's exchanges are there too.
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#every-exchange li[data-seat]")
    assert page.locator("#every-exchange li[data-seat]").count() == 4
    # ... but no "Every hand (revealed)" of empty hands: the last deal's scoring gathered them, and the last
    # player, never out, keeps its cards hidden (a web-play probe: it said "empty", "you are out").
    assert page.locator("#every-hand").count() == 0
    assert not errors, errors
    context.close()
    context, page, errors = signed_in(browser, server, wes)  # and the player's own hand is not "out"
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".le-bouffon .hand")
    hand = page.inner_text(".le-bouffon .hand")
    assert "hands are gathered" in hand and "you are out" not in hand, hand
    assert page.locator("#every-hand").count() == 0
    # The last place is "last", never "out", and the deal's count of cards played is gone (it read "0
    # cards played this deal" and "out (4)" of the player never out: a newcomer probe).
    places = page.locator(".le-bouffon table.grid tbody td:nth-child(5)").all_inner_texts()  # seat, score, role, cards
    assert sorted(places) == ["last (4)", "out (1)", "out (2)", "out (3)"], places
    assert "played this deal" not in page.inner_text(".le-bouffon")
    assert not errors, errors
    context.close()


def test_an_unfinished_le_bouffon_shows_a_seat_only_its_own_exchange(server, browser):
    xia = register(server, "xia")
    match_id = match_with(server, xia, "le-bouffon", 4, computers={"1": "basic", "2": "basic", "3": "basic"},
                          options=BOUFFON)
    now = play_until(server, match_id, xia, lambda v: v["observation"]["deal"] == 2
                     and v["observation"]["phase"] == "play")
    assert now["status"] == "active" and "state" not in now and now["observation"]["exchange"]
    version = gives(server, match_id)[-1]["version"]  # the exchange is done
    mine = seen(server, match_id, xia, version)["observation"]
    in_sight = {*mine["hand"], *mine["played"], *mine["exchange"]["gave"], *mine["exchange"]["received"]}

    context, page, errors = signed_in(browser, server, xia)
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#events li")
    open_version(page, version)
    assert page.locator("#every-exchange").count() == 0
    exchange = page.locator("#replay-board .le-bouffon .exchange")
    assert card_ids(exchange.locator(".bcard")) == mine["exchange"]["gave"] + mine["exchange"]["received"]
    # Every card on the board is one xia's observation holds: the others' exchange stays theirs.
    shown = set(card_ids(page.locator("#replay-board .bcard")))
    assert shown and shown <= in_sight, shown - in_sight
    assert "every_exchange" not in json.dumps(mine) and page.locator("#every-hand").count() == 0
    context.close()

    # A spectator sees no exchange at all.
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/replay/{match_id}")
    page.wait_for_selector("#events li")
    open_version(page, version)
    assert page.locator("#every-exchange, #replay-board .le-bouffon .exchange").count() == 0
    assert not errors, errors
    context.close()
