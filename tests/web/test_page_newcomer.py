"""What a new player's probe of the page found (/tmp/probes/newplayer.md, its newcomer problems 3-7 and 9),
each fixed and held here, in Debian's chromium against a real `motley serve` (tests/web/conftest.py):

- the rules were out of reach: each game's card in the lobby and a table's header now link the rules the
  server serves (GET /games/{name}/rules, an HTML page for a browser), and an option's help that cites
  "(docs/rules/<game>.md)" links that mention there too;
- a match's header showed its options as raw JSON (`one player both trophies true`, `ties "shared"`);
- "1 more moves", "1 rounds at tables of 2", "0 card(s)", "after 8 round(s)": counts read singular or plural;
- Jester's final scoring read "Final: type final-scoring" and then each item by its key;
- a profile said "played 2" where the leaderboard said "played 1", neither saying what it counted;
- at a phone's width Tumult Royale's 27 "take tile N" buttons pushed the board off the screen while the
  tax collection's hourglass ran.
"""

from __future__ import annotations

import random
import re
import time

import pytest
import requests

from tests.web.test_page_a11y_second import PHONE
from tests.web.test_page_fifth_probe import finished_fools_crown, open_replay, read
from tests.web.test_page_followups import auth, match_with, move, register, signed_in
from tests.web.test_page_house_rules import catalogue

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def answers_html(server: str, href: str) -> None:
    """``href`` answers 200 with an HTML page, as a browser asks for it."""
    answer = requests.get(server + href, headers={"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"},
                          timeout=10)
    assert answer.status_code == 200, (href, answer.status_code, answer.text[:200])
    assert answer.headers["Content-Type"].startswith("text/html"), (href, answer.headers["Content-Type"])


# -- the rules ----------------------------------------------------------------------------------------
def test_the_lobbys_game_cards_a_tables_header_and_an_options_help_link_the_rules(server, browser):
    """A newcomer looked for the rules of Jest, of Fool's Crown's "strength", of Jester's final scoring,
    and found a summary line, the house rules and "(docs/rules/jest.md)" as plain text: nothing to open."""
    games = catalogue(server)
    ria = register(server, "newcomer-rules")
    context, page, errors = signed_in(browser, server, ria)
    page.goto(server + "/")
    page.wait_for_selector("#create")
    for name, game in games.items():
        # Beside the card's house rules: "Rules", opening in a tab of its own.
        link = page.locator(f"article.game a[href='/games/{name}/rules']")
        assert link.count() == 1, name
        assert link.inner_text() == "Rules", name
        assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel"), name
        named = page.get_by_role("link", name=f"Rules of {game['title']} (opens in a new tab)", exact=True)
        assert named.count() == 1, name
        answers_html(server, link.get_attribute("href"))
    # A browser opening it reads the rules as a page.
    with context.expect_page() as opened:
        page.locator("article.game a[href='/games/jest/rules']").click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == f"{server}/games/jest/rules"
    assert rules.evaluate("document.contentType") == "text/html"
    assert "Jest" in rules.title()
    rules.close()

    # The create form's option help: its "(docs/rules/jest.md)" links Jest's rules, its words unchanged.
    page.select_option("#create-game", "jest")
    described = games["jest"]["options_schema"]["properties"]["ties"]["description"]
    assert "(docs/rules/jest.md)" in described
    assert page.inner_text("#option-summary-ties") == games["jest"]["options_schema"]["properties"]["ties"]["title"]
    page.locator("#create .option:has([name=ties]) .option-more summary").click()  # the exact rule
    help_text = page.locator("#option-help-ties")
    assert help_text.inner_text() == described
    cited = help_text.locator("a")
    assert cited.count() == 1
    assert cited.inner_text() == "docs/rules/jest.md"
    assert cited.get_attribute("href") == "/games/jest/rules"
    assert cited.get_attribute("target") == "_blank" and "noopener" in cited.get_attribute("rel")

    # A table's header links its own game's rules.
    match_id = match_with(server, ria, "fools-crown", 2, computers={"1": "basic"})
    page.goto(f"{server}/#/match/{match_id}")
    header_link = page.locator(".match-head #match-rules a[href='/games/fools-crown/rules']")
    header_link.wait_for()
    assert header_link.get_attribute("target") == "_blank" and "noopener" in header_link.get_attribute("rel")
    answers_html(server, header_link.get_attribute("href"))
    assert not errors, errors
    context.close()


# -- options in words ---------------------------------------------------------------------------------
def test_a_match_header_says_its_options_in_words_not_json(server, browser):
    """The header read `one player both trophies true · ties "highest-card"` and `gamble false`: a yes or
    a no and the option's word, as a person says them."""
    host = register(server, "newcomer-options")
    created = requests.post(f"{server}/matches", timeout=10, headers=auth(host),
                            json={"game": "jest", "seats": 3, "options": {"ties": "shared"}})
    created.raise_for_status()
    jest = created.json()
    created = requests.post(f"{server}/matches", timeout=10, headers=auth(host),
                            json={"game": "le-bouffon", "seats": 3, "options": {"deals": 2, "ties": "shared"}})
    created.raise_for_status()
    bouffon = created.json()
    context, page, errors = signed_in(browser, server, register(server, "newcomer-options-guest"))
    page.goto(f"{server}/#/match/{jest['id']}?as=spectator")
    rules = page.locator("#match-rules")
    rules.wait_for()
    text = rules.inner_text()
    assert f"rules {jest['rules_version']}" in text, text
    assert "ties shared (the option of house rule R7)" in text, text
    assert "one player both trophies yes (the option of house rule R4" in text, text
    assert '"' not in text and "true" not in text, text

    page.goto(f"{server}/#/match/{bouffon['id']}?as=spectator")
    page.wait_for_function("() => document.querySelector('#match-rules')?.textContent.includes('deals')")
    text = page.inner_text("#match-rules")
    assert "deals 2" in text and "ties shared" in text and "first deal exchange no" in text, text
    assert '"' not in text and "false" not in text, text
    # The lobby's list says them alike.
    page.goto(server + "/")
    listed = page.locator(f'tr[data-match="{bouffon["id"]}"] .listed-rules')
    listed.wait_for(timeout=15_000)
    assert listed.inner_text().strip() == (f'rules {bouffon["rules_version"]} · deals 2 · ties shared · '
                                           'first deal exchange no')
    assert not errors, errors
    context.close()


# -- singular and plural ------------------------------------------------------------------------------
def test_counts_read_singular_or_plural(server, browser):
    """"1 moves" in a table's header, "1 rounds at tables of 2" on a tournament's page: one is one."""
    people = [register(server, f"newcomer-count-{i}") for i in range(3)]
    match_id = match_with(server, people[0], "jest", 3, people=people[1:])
    offer = read(server, match_id, people[0])["legal_actions"][0]
    move(server, match_id, people[0], offer).raise_for_status()
    context, page, errors = signed_in(browser, server, people[1])
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_function("() => document.querySelector('.match-head')?.textContent.includes('version')")
    header = page.inner_text(".match-head")
    assert re.search(r"· 1 move ·", header), header
    assert "1 moves" not in header, header
    board = page.inner_text(".jest")
    assert "(s)" not in board, board
    assert "0 cards" in board, board  # the others' Jests, empty yet

    created = requests.post(f"{server}/tournaments", headers=auth(people[0]), timeout=10, json={
        "game": "fools-crown", "name": "Newcomers' one round", "format": "swiss", "rounds": 1, "table_size": 2})
    created.raise_for_status()
    page.goto(f"{server}/#/tournament/{created.json()['id']}")
    page.wait_for_selector("#tournament-title")
    line = page.locator("#tournament-title + p").inner_text()
    assert "1 round at tables of 2" in line, line
    assert not errors, errors
    context.close()


# -- Jester's final scoring ---------------------------------------------------------------------------
def played_out(server: str, match_id: str, player: dict, seconds: float = 420) -> dict:
    """``player`` plays random legal actions (through the API) until the match, against computers, is over."""
    chance = random.Random(20261207)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = read(server, match_id, player)
        if view["status"] == "finished":
            return view
        if view["legal_actions"]:
            move(server, match_id, player, chance.choice(view["legal_actions"]))  # a refusal: read again
        else:
            time.sleep(0.05)  # the computer's turn
    raise AssertionError("the match did not finish in time")


def test_jesters_final_scoring_names_its_items(server, browser):
    """The final scoring box read "Final: type final-scoring", then a list per item by its key: the items
    by their names in the rules, a seat a column, and the engine's `type` nowhere."""
    jo = register(server, "newcomer-jester")
    match_id = match_with(server, jo, "jester", 2, computers={"1": "basic"})
    final = played_out(server, match_id, jo)["observation"]["final"]
    context, page, errors = signed_in(browser, server, jo)
    page.goto(f"{server}/#/match/{match_id}")
    box = page.locator(".jester .final")
    box.wait_for(timeout=15_000)
    text = box.inner_text()
    assert "type" not in text and "final-scoring" not in text, text
    rows = {row.get_attribute("data-item"): row for row in box.locator("tbody tr").all()}
    assert set(rows) == set(final) - {"type"} | {"fame", "markers_on_board"}, (set(rows), set(final))
    # The Winner's tie-breaks are rows too: fame, then markers on the board (a phone probe's tie on 34 VP),
    # as the engine's `ranking` gives them.
    view = read(server, match_id, jo)["observation"]
    assert [k["key"] for k in view["ranking"]] == ["vp", "fame", "markers_on_board"]
    assert view["ranking"][1]["values"] == view["players"]["fame"]
    for key in ("fame", "markers_on_board"):
        values = next(k["values"] for k in view["ranking"] if k["key"] == key)
        assert [cell.inner_text() for cell in rows[key].locator("td").all()] == [str(v) for v in values]
    assert "sets of 4 different cards in hand" in rows["sets"].inner_text()
    assert "Crown Penalty" in rows["crown_penalty"].inner_text()
    assert [cell.inner_text() for cell in rows["vp"].locator("td").all()] == [str(vp) for vp in final["vp"]]
    assert rows["vp"].locator("th").inner_text() == "final VP (the VP held before, plus the rows above)"
    # Its status line says the game is over (it read "no decision pending": a desktop probe).
    assert "the game is over" in page.inner_text(".jester .phase")
    assert "(s)" not in page.inner_text(".jester")
    assert not errors, errors
    context.close()


# -- what the counts count ----------------------------------------------------------------------------
def test_a_tie_on_jesters_final_vp_says_which_tie_break_decided_it(server, browser):
    """Two seats on 34 VP read "place 1" and "place 2" with nothing saying why, the fame column off a
    phone's screen (a phone probe): the rulebook's Winner ranks equal VP by fame, then by influence
    markers on the board (guilds and royalty spaces)."""
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/")
    page.wait_for_selector("#register-name")
    said = page.evaluate("""async () => {
        const { tieBreaks } = await import("/web/games/jester.js");
        const obs = (vp, fame, markers) => ({ ranking: [{ key: "vp", values: vp }, { key: "fame", values: fame },
                                                        { key: "markers_on_board", values: markers }] });
        return [
            tieBreaks(obs([34, 34, 20], [9, 8, 1], [1, 0, 0]), 3).said,
            tieBreaks(obs([34, 34], [9, 9], [1, 3]), 2).said,
            tieBreaks(obs([34, 34], [9, 9], [2, 2]), 2).said,
            tieBreaks(obs([30, 34], [9, 9], [0, 0]), 2).said,
            tieBreaks({}, 2).said,
            // Three on equal VP, two of them on equal fame (a desktop probe: it read "ranked by fame" whether
            // markers then split the two or they shared a place).
            tieBreaks(obs([30, 30, 30], [5, 5, 3], [4, 2, 1]), 3).said,
            tieBreaks(obs([30, 30, 30], [5, 5, 3], [4, 4, 1]), 3).said,
            tieBreaks(obs([30, 30, 30, 30], [5, 5, 3, 3], [4, 2, 1, 1]), 4).said,
        ];
    }""")
    # The keys are the engine's (the finished view's `ranking`): the page no longer counts markers itself.
    assert said == ["34 VP each: ranked by fame.",
                    "34 VP each: ranked by markers on the board.",
                    "34 VP each: equal fame and markers on the board, so they share the place.",
                    None,
                    None,
                    "30 VP each: ranked by fame; those on equal fame: ranked by markers on the board.",
                    "30 VP each: ranked by fame; those on equal fame: equal markers on the board, so they share "
                    "the place.",
                    "30 VP each: ranked by fame; those on equal fame: ranked by markers on the board; those on "
                    "equal fame: equal markers on the board, so they share the place."]
    assert not errors, errors
    context.close()


def test_the_profile_and_the_leaderboard_say_what_they_count(server, browser):
    """A profile's "played 2" beside the leaderboard's "played 1" (an unrated match and a rated one): each
    now says which matches it counts."""
    players = [register(server, f"newcomer-counts-{i}") for i in range(2)]
    finished_fools_crown(server, players, reveal_at_end=True)  # rated: two people, one moved
    context, page, errors = signed_in(browser, server, players[0])
    page.goto(f"{server}/#/leaderboard/fools-crown")
    page.wait_for_selector("#leaderboard tbody tr")
    headers = page.locator("#leaderboard thead th").all_inner_texts()
    assert "rated matches played" in headers and "rated matches won" in headers, headers
    assert "played" not in headers, headers
    assert "rated matches only" in page.inner_text("#leaderboard-counts")

    page.goto(f"{server}/#/player/{players[0]['id']}/fools-crown")
    page.wait_for_selector("#statistics")
    headers = page.locator("#statistics thead th").all_inner_texts()
    assert "matches played (rated or not)" in headers, headers
    assert "played" not in headers, headers
    said = page.inner_text("#statistics caption")
    assert "rated or not" in said and "leaderboard counts rated matches only" in said, said
    assert not errors, errors
    context.close()


# -- Tumult Royale's tax collection on a phone ----------------------------------------------------------
def test_tumult_royales_take_buttons_are_a_tight_group_on_a_phone(server, browser):
    """At 360 px the 27 "take tile N" buttons filled more than a screen above the board while the hourglass
    ran: a tight group of small buttons by the tile's number, each still named and labelled in full."""
    uma = register(server, "newcomer-tax")
    match_id = match_with(server, uma, "tumult-royale", 3, computers={"1": "basic", "2": "basic"},
                          options={"tax_mode": "async"})
    for _ in range(300):
        view = read(server, match_id, uma)
        if view["observation"].get("slots") and any(a["type"] == "peek" for a in view["legal_actions"]):
            break
        if view["legal_actions"]:
            move(server, match_id, uma, view["legal_actions"][0])
        else:
            time.sleep(0.1)
    else:
        raise AssertionError("no tax collection")
    context, page, errors = signed_in(browser, server, uma, viewport=PHONE)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#actions .compact-group button.action.compact")
    peeks = page.locator("#actions button.action.compact")
    labels = peeks.evaluate_all("nodes => nodes.map((n) => n.textContent)")
    assert len(labels) >= 10 and all(re.fullmatch(r"take tile \d+", label) for label in labels), labels
    tile = int(labels[-1].split()[-1])
    # Drawn by its number; named, and found by its text, as "take tile N" (the other tests click it so).
    drawn = "n => [...n.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join('')"
    assert peeks.last.evaluate(drawn) == str(tile)
    assert page.get_by_role("button", name=f"take tile {tile}", exact=True).count() == 1
    assert page.locator("button.action", has_text=re.compile(f"^take tile {tile}$")).count() == 1
    assert page.get_by_role("group", name="Take tile").count() == 1
    height = page.locator("#moves").evaluate("n => n.getBoundingClientRect().height")
    assert height < 360, height  # 27 full buttons took some 560 px
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Pressed, it takes that tile (unless a computer took it first: refused then, the table drawn as it is).
    page.get_by_role("button", name=f"take tile {tile}", exact=True).click()
    page.wait_for_function("""t => document.querySelector('#refusal .problem')
      || document.querySelector('.tumult-royale .held')?.textContent.startsWith(`You hold tile ${t}`)""",
                           arg=tile, timeout=15_000)
    assert not errors, errors
    context.close()


def test_tumult_royales_fields_to_build_on_show_their_number_and_a_tap_goes_to_their_move(server, browser):
    """A phone probe: the first statue's buttons read "18 (pasture)", "21 (pasture)", the board only letters
    (the number in a title, no hover on a phone), and a tap on a cell did nothing: six outlined pastures
    could not be told apart. A field you may build on shows its number; a tap focuses its button."""
    vic = register(server, "newcomer-fields")
    match_id = match_with(server, vic, "tumult-royale", 2, computers={"1": "basic"}, options={"tax_mode": "async"})
    for _ in range(300):
        view = read(server, match_id, vic)
        if any(a["type"] == "first-statue" for a in view["legal_actions"]):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("no first statue to place")
    fields = sorted({a["field"] for a in view["legal_actions"] if a["type"] == "first-statue"})
    context, page, errors = signed_in(browser, server, vic, viewport=PHONE)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("table.kingdom td.target")
    shown = page.locator("table.kingdom td.target").evaluate_all(
        "cells => cells.map((c) => [Number(c.dataset.field), c.querySelector('.num')?.textContent])")
    assert sorted(f for f, _ in shown) == fields and all(num == str(f) for f, num in shown), shown
    assert page.locator("table.kingdom td:not(.target) .num").count() == 0  # only where you may build
    assert "numbered: where you may put a statue (tap one for its move)" in page.inner_text(".legend")
    # The seats' status column is titled for the eye too (it had a header only a screen reader read).
    heads = page.locator(".tumult-royale table.grid thead th").evaluate_all("ths => ths.map((th) => th.innerText)")
    assert heads[-1] == "now" and all(head.strip() for head in heads), heads
    page.locator(f"table.kingdom td.target[data-field='{fields[-1]}']").click()
    focused = page.evaluate("() => [document.activeElement?.dataset.field, document.activeElement?.textContent,"
                            " document.activeElement?.classList.contains('flash')]")
    assert focused[0] == str(fields[-1]) and str(fields[-1]) in focused[1], focused
    assert focused[2], "a tap draws no focus ring: the button it went to is marked a moment"
    assert not errors, errors
    context.close()


def test_fools_crowns_gambles_are_a_tight_group_after_the_commits(server, browser):
    """A phone probe: holding a Joker, 25 to 35 full-width gamble buttons came before the 6 commits and the
    hand (a page 3,204 px tall). They are a group of small buttons by their cards, after the commits."""
    fay = register(server, "NewcomerGambler")
    for _ in range(40):  # a Joker in the first hand: about one deal in five
        match_id = match_with(server, fay, "fools-crown", 2, computers={"1": "basic"})
        for _ in range(100):
            view = read(server, match_id, fay)
            if view["legal_actions"]:
                break
            time.sleep(0.1)
        gambles = [a for a in view["legal_actions"] if a["type"] == "gamble"]
        if gambles:
            break
    else:
        raise AssertionError("no Joker dealt to the person in 40 matches")
    commits = [a for a in view["legal_actions"] if a["type"] != "gamble"]
    context, page, errors = signed_in(browser, server, fay, viewport=PHONE)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#actions [data-group='gamble'] button.action.compact")
    group = page.locator("#actions [data-group='gamble']")
    assert group.locator("button.action").count() == len(gambles)
    # After every other move, and each drawn by its cards, named in full.
    order = page.locator("#actions > *").evaluate_all("nodes => nodes.map((n) => n.dataset.group || 'button')")
    assert order == ["button"] * len(commits) + ["gamble"], order
    first = group.locator("button.action").first
    drawn = "n => [...n.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join('')"
    assert re.fullmatch(r"(\S+ ?){1,3}", first.evaluate(drawn)) and "gamble" not in first.evaluate(drawn)
    assert "gamble a Joker and draw back to five, discarding" in first.text_content()
    # An option of several house rules says "house rules" (it read "house rule 3.4 step 2, FC-ORDER, FC-SEAL").
    assert re.search(r"\(the option of house rules [^)]*, ", page.inner_text("#match-rules")), \
        page.inner_text("#match-rules")
    height = page.locator("#moves").evaluate("n => n.getBoundingClientRect().height")
    assert height < 44 * len(commits) + 44 * len(gambles) / 2, height
    # The seat table's names break between words only ("Phon|eP" on a phone): each word on one line.
    words = page.locator(".game-view table bdi.name").evaluate_all(r"""names => names.flatMap((name) => {
        const range = document.createRange();
        return [...name.childNodes].filter((c) => c.nodeType === 3).flatMap((text) => {
            const found = [];
            for (const m of text.textContent.matchAll(/\S+/g)) {
                range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
                found.push([m[0], new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]);
            }
            return found;
        });
    })""")
    assert ["NewcomerGambler", 1] in words and all(lines == 1 for _, lines in words), words
    # The lobby's lists still break a long name anywhere: their links stay on the screen (a phone re-check).
    page.goto(f"{server}/#/")
    page.wait_for_selector("#lobby-lists table bdi.name")
    assert page.locator("#lobby-lists table bdi.name").first.evaluate("n => getComputedStyle(n).overflowWrap") \
        == "anywhere"
    assert not errors, errors
    context.close()


def test_the_replays_buttons_stay_on_one_row_on_a_phone(server, browser):
    """A phone probe: at 360 px "« first" and "◀" were on one line, the slider and "▶" on the next, "last »" on
    a third. The slider takes its own row now, the four buttons the next one."""
    gus, ida = register(server, "newcomer-replay-a"), register(server, "newcomer-replay-b")
    match_id = finished_fools_crown(server, [gus, ida], reveal_at_end=True)
    context, page, errors = signed_in(browser, server, gus, viewport=PHONE, is_mobile=True, has_touch=True)
    open_replay(page, server, match_id)
    tops = page.evaluate("""() => ['first', 'back', 'forward', 'last', 'slider'].map((id) =>
        Math.round(document.getElementById(id).getBoundingClientRect().top))""")
    assert len(set(tops[:4])) == 1 and tops[4] < tops[0], tops
    # A tapped button keeps no hover colour on a touch screen (▶ stayed filled and looked selected).
    page.tap("#first")
    page.tap("#forward")
    colours = page.evaluate("""() => ['forward', 'last'].map((id) => getComputedStyle(document.getElementById(id))
        .backgroundColor)""")
    assert colours[0] == colours[1], colours
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors
    context.close()


def test_the_lobbys_finished_matches_say_who_won(server, browser):
    """A newcomer probe: the finished matches' third column was their version, a number meaning nothing to
    a player; it names the winners now."""
    from tests.web.test_page_followups import play_out

    person = register(server, "lobby-winner")
    match_id = match_with(server, person, "jest", 3, computers={"1": "random", "2": "random"})
    finished = play_out(server, match_id, [person])
    # Both computers play "random": a winning one says its seat (a desktop probe: "computer (random)" of three).
    winners = [finished["seats"][seat]["name"] or f"computer (random) (seat {seat})"
               for seat in finished["result"]["winners"]]
    context, page, errors = signed_in(browser, server, person)
    page.goto(server + "/")
    row = page.locator(f"tr[data-match='{match_id}']")
    row.wait_for(timeout=15_000)
    assert row.locator("td.won-by").inner_text() == ", ".join(winners)
    headers = page.locator("section:has(h2:text-is('Finished matches')) thead th").all_inner_texts()
    assert "won by" in headers and "version" not in headers, headers
    # A winner away when it ended (its turn clock ran out: the list's ``absent``) won on the computer's play;
    # "won by" named the person as if it had (a left-alone item). The list's answer is altered to have one.
    listed = requests.get(f"{server}/matches?status=finished&limit=20", timeout=10).json()
    for row in listed["items"]:
        row["winners"], row["absent"] = [0], [0]
    page.route("**/matches?status=finished*", lambda route: route.fulfill(json=listed))
    page.goto(server + "/#/lobby")
    page.reload()
    row = page.locator(f"tr[data-match='{match_id}'] td.won-by")
    row.wait_for(timeout=15_000)
    assert row.inner_text() == f"{finished['seats'][0]['name']} (away: the computer played)", row.inner_text()
    assert not errors, errors
    context.close()
