"""What a web-play probe met playing whole matches from the page.

- Jester's court: a court A button said only "court a: 3", the chairs row showed each taken chair as its
  occupant's seat number and coloured the even chairs red. The chairs are I–X, the odd ones red
  (docs/rules/jester.md, "Chairs: red = odd"), each with its effect (Play A); the round's event card was
  not said.
- A move refused as not the person's turn (another tab of theirs moved first) showed the engine's words,
  "it is not seat 1's turn: seats [0] are to act"."""

from __future__ import annotations

import json

import pytest
import requests

from tests.web.test_page_followups import match_with, register, signed_in
from tests.web.test_page_fourth_probe import against_a_computer, my_turn
from tests.web.test_revealed_boards import finished, play_until

pytestmark = pytest.mark.slow  # a browser and a server process


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def at_a_jester_table(server: str, browser, name: str) -> tuple:
    """A new player's started Jester match against a computer, at the player's turn, its page open:
    (match id, player, context, page, errors)."""
    player = register(server, name)
    match_id = against_a_computer(server, player)
    my_turn(server, match_id, player)
    context, page, errors = signed_in(browser, server, player)
    page.goto(f"{server}/#/match/{match_id}")
    return match_id, player, context, page, errors


def on_the_lobby(server: str, browser, name: str) -> tuple:
    """A new player's lobby page, loaded (its modules importable from the page): (context, page, errors)."""
    context, page, errors = signed_in(browser, server, register(server, name))
    page.goto(f"{server}/#/")
    page.wait_for_selector("#create")
    return context, page, errors


def test_a_court_button_names_its_chair_colour_and_effect_and_the_chairs_row_names_them(server, browser):
    match_id, _, context, page, errors = at_a_jester_table(server, browser, "ida-court")
    page.wait_for_selector(".jester .chairs .chair")

    labels = page.evaluate("""async () => {
        const jester = await import('/web/games/jester.js');
        return Array.from({length: 10}, (_, i) => jester.describe({type: 'court-a', chair: i + 1}));
    }""")
    assert labels[2] == "court A, chair III (red): opponents lose 2 VP (+$2 first)", labels
    assert labels[5] == "court A, chair VI (blue): +1 crown, +1 VP (+$2 first)", labels
    assert len(set(labels)) == 10 and all(("(red)" in label) == (n % 2 == 1) for n, label in enumerate(labels, 1))

    chairs = page.locator(".jester .chairs .chair")
    assert chairs.count() == 10
    classes = chairs.evaluate_all("nodes => nodes.map((n) => n.className)")
    assert [("red" in c.split()) for c in classes] == [n % 2 == 1 for n in range(1, 11)], classes
    third = chairs.nth(2)
    assert third.inner_text().startswith("III") and "opponents lose 2 VP" in third.get_attribute("title")
    # The round's event card, which sets the places' prices: the last one revealed, in words.
    events = requests.get(f"{server}/matches/{match_id}", timeout=10).json()["observation"]["events"]
    names = {1: "city and theater", 2: "city and guilds", 3: "city and court", 4: "theater and guilds",
             5: "theater and court", 6: "guilds and court"}
    assert events, events
    page.wait_for_function("t => document.querySelector('.jester .phase').textContent.includes(t)",
                           arg=f"event E{events[-1]}: {names[events[-1]]} cards cost $2")
    assert not errors, errors
    context.close()


def test_a_move_another_tab_beat_is_told_in_a_persons_words(server, browser):
    match_id, _, context, page, errors = at_a_jester_table(server, browser, "joe-tabs")
    page.wait_for_selector("button.action:enabled", timeout=15_000)
    detail = "it is not seat 0's turn: seats [1] are to act"
    page.route(f"**/matches/{match_id}/moves", lambda route: route.fulfill(
        status=409, content_type="application/problem+json",
        body=json.dumps({"type": "urn:motley:problem:not-your-turn", "title": "Not your turn", "status": 409,
                         "detail": detail, "rule": "turn order"})))
    page.locator("button.action:enabled").first.click()
    page.wait_for_selector("#refusal .problem[role=alert]")
    said = page.inner_text("#refusal .problem")
    assert "another tab or device" in said and "seats [1]" not in said, said
    assert page.get_attribute("#refusal .problem", "title") == detail  # the server's words kept for whoever wants them
    assert not errors, errors
    context.close()


def test_jesters_guild_chips_break_between_words_only(server, browser):
    """On the replay page's narrower column the guild chips read "Theat|er Direc|tors 2"."""
    match_id, _, context, page, errors = at_a_jester_table(server, browser, "kay-chips")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_selector(".jester .players")
    wrap = page.evaluate("""() => {
        const chip = document.createElement('span');
        chip.className = 'chip';
        chip.textContent = 'Theater Directors 2';
        document.querySelector('.jester .players td').appendChild(chip);
        return getComputedStyle(chip).overflowWrap;
    }""")
    assert wrap == "normal", wrap
    assert not errors, errors
    context.close()


def test_the_first_tab_stop_skips_to_the_persons_first_move(server, browser):
    """A keyboard-only turn took 13 Tab presses to the first move, Resign the one before it."""
    match_id, _, context, page, errors = at_a_jester_table(server, browser, "lea-skip")
    page.wait_for_selector("button.action:enabled", timeout=15_000)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip"
    assert page.is_visible("#skip")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.matches('#actions button.action:enabled')")
    assert page.evaluate("location.hash") == f"#/match/{match_id}"  # the router's hash is left alone
    page.goto(f"{server}/#/tournaments")  # no moves there: the view's heading
    page.reload()  # a new document: Tab starts from the top again (the hash change put the focus on the h1)
    page.wait_for_selector("h1")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.tagName") == "H1"
    assert not errors, errors
    context.close()


def test_tumult_royale_labels_say_the_tiles_paid_the_ready_step_and_where_a_region_is(server, browser):
    """A second web-play probe: "statue on field 29 (pasture), pay 3 bread, 2 marble, tools" named tools,
    not paid; "ready" and "reveal region 0" said nothing a person could place; a result's winners were
    seat numbers beside scores named by player."""
    context, page, errors = on_the_lobby(server, browser, "moe-labels")
    match = {"observation": {"fields": "PPPFFF/PPPFFF/PPPFFF/MMM???/MMM???/MMM???"}}
    labels = page.evaluate("""async (match) => {
        const tumult = await import('/web/games/tumult_royale.js');
        return [
          {type: 'place', field: 0, pay: {bread: [3], marble: [2], tools: []}},
          {type: 'place', field: 3, pay: {tools: [1, 1]}},
          {type: 'ready'},
          {type: 'reveal', region: 3},
        ].map((action) => tumult.describe(action, match));
    }""", match)
    assert labels[0].endswith("pay bread 3 + marble 2"), labels
    assert labels[1].endswith("pay tools 1 + tools 1"), labels
    assert "hourglass" in labels[2], labels
    assert labels[3] == "reveal the region tile at row 2, column 2 (regions of 3 × 3 fields)", labels
    named = page.evaluate("""async () => {
        const render = await import('/web/render.js');
        const seats = [{name: 'ann'}, {name: 'bob'}, {name: 'cy'}];
        return render.generic({winners: [1], scores: [3, 9, 1]}, seats).textContent;
    }""")
    assert "winnersbob" in named.replace(" ", "") and "winners1" not in named.replace(" ", ""), named
    assert not errors, errors
    context.close()


def test_fools_crowns_gamble_and_pass_say_what_they_do(server, browser):
    """ "gamble 2♠" said nothing of the Joker it sacrifices, "pass" nothing of the challenge it declines."""
    context, page, errors = on_the_lobby(server, browser, "ned-labels")
    labels = page.evaluate("""async () => {
        const crown = await import('/web/games/fools_crown.js');
        const match = {seats: [{name: 'ned'}, {name: 'ona'}]};
        return [{type: 'gamble', cards: ['2S']}, {type: 'pass'}].map((a) => crown.describe(a, match, (c) => c));
    }""")
    assert labels == ["gamble a Joker and draw back to five, discarding 2S", "pass (no challenge)"], labels
    assert not errors, errors
    context.close()


def test_tumult_royale_says_why_a_seat_that_is_done_or_passed_has_no_move(server, browser):
    """After "done collecting" or "pass" the page said only "X, Y to act": both are final for the round
    (docs/rules/tumult-royale.md)."""
    context, page, errors = on_the_lobby(server, browser, "pat-idle")
    said = page.evaluate("""async () => {
        const render = await import('/web/render.js');
        const at = (observation) => render.idleOf({game: 'tumult-royale', your_seat: 0, observation});
        return [at({phase: 'tax', collecting: [false, true, true]}),
                at({phase: 'tax', collecting: [true, true, false]}),
                at({phase: 'placement', passed: [true, false, false]}),
                at({phase: 'placement', passed: [false, true, false]}),
                render.idleOf({game: 'jest', your_seat: 0, observation: {}})];
    }""")
    assert said == ["You are done collecting taxes this round.", None,
                    "You passed: you place no more statues this round.", None, None], said
    assert not errors, errors
    context.close()


def test_a_finished_jest_shows_every_card_in_the_jests_not_empty_hands(server, browser):
    """A second web-play probe: the finished page listed three empty hands "revealed", every offer as
    "no offer", and the player's hand as "empty: both cards offered"."""
    quinn = register(server, "quinn-jest")
    match_id = match_with(server, quinn, "jest", 3, computers={"1": "random", "2": "random"})
    play_until(server, match_id, quinn, finished)
    context, page, errors = signed_in(browser, server, quinn)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".jest .trophies")
    assert page.locator("#every-hand").count() == 0
    board = page.inner_text(".jest")
    assert "no offer" not in board and "both cards offered" not in board, board
    assert "every card is in a Jest" in board, board
    # And what each part of each Jest scored (house rule R6): the page gave a total alone.
    breakdowns = requests.get(f"{server}/matches/{match_id}", timeout=10).json()["observation"]["breakdown"]
    shown = page.locator(".jest-breakdown").all_inner_texts()
    assert len(shown) == 3, shown
    for text, breakdown in zip(shown, breakdowns):
        parts = len(breakdown["cards"]) + (breakdown["joker"] is not None) + len(breakdown["pairs"])
        assert len(text.split(" · ")) == parts, (text, breakdown)
    for text, breakdown in zip(shown, breakdowns):  # (the Joker is in a Jest, unless a trophy left aside)
        if breakdown["joker"] is not None:
            assert f"Joker {'+4' if breakdown['joker'] else '0'}" in text, shown
    assert not errors, errors
    context.close()
