"""What the second accessibility probe of the page found (keyboard only, the accessibility tree, a 360 px
screen; /tmp/probes/a11y.md F1-F13), each fixed and held here, in Debian's chromium against a real
`motley serve` (tests/web/conftest.py):

- F1 registering or signing in leaves the focus on who the page acts as, not on the body;
- F2 the replay's slider names the event it reaches; F9 the replay has one h1 and skips no level;
- F3 Tumult Royale's field letters contrast 4.5:1; F4 its fields and tax slots are said in words;
- F5 a field at fault is marked invalid and described by its error;
- F6 the table's status line joins updates that come together, and never says the same twice;
- F7 a control focused in a box that scrolls sideways is scrolled into the box's view; F12 such a box,
  a Tab stop, is a named region;
- F8 the lobby's open, watch and replay links are 24 px targets; F10 the create form's and the fork's
  help is shown, not a tooltip; F11 the leaderboard's picker opens a board once the arrow keys stop;
  F13 the player page's current game is marked aria-current;
- and a tournament's table says so in its match's header, with a link to the tournament.
"""

from __future__ import annotations

import re
import time

import pytest
import requests

from tests.web.test_page_fifth_probe import finished_fools_crown, open_replay, read
from tests.web.test_page_followups import auth, match_with, move, register, signed_in, started_swiss

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each

PHONE = {"width": 360, "height": 740}
FOCUSED = "() => document.activeElement?.id || document.activeElement?.tagName"


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def described_by(page, selector: str) -> str:
    """The text of the elements ``selector``'s aria-describedby names (what a screen reader adds to it)."""
    return page.evaluate("""s => (document.querySelector(s).getAttribute('aria-describedby') || '').split(/\\s+/)
        .filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? `<missing ${id}>`).join(' | ')""",
                         selector)


def visible_help(page, selector: str) -> str:
    """The text of ``selector``'s aria-describedby targets, each asserted shown on the page."""
    ids = (page.get_attribute(selector, "aria-describedby") or "").split()
    assert ids, f"{selector} names no description"
    for name in ids:
        assert page.locator(f"#{name}").is_visible(), name
    return described_by(page, selector)


# -- F1 ---------------------------------------------------------------------------------------------
def test_registering_or_signing_in_puts_the_focus_on_who_the_page_acts_as(server, browser):
    context, page, errors = signed_in(browser, server, None, viewport=PHONE)
    page.goto(server + "/")
    page.wait_for_selector("#register-name")
    page.focus("#register-name")
    page.keyboard.type("a11y-reg")
    page.keyboard.press("Enter")
    page.wait_for_selector("#whoami")
    page.wait_for_function("() => document.activeElement?.id === 'whoami'", timeout=5_000)
    assert "a11y-reg" in page.inner_text("#whoami")
    assert page.get_attribute("#whoami", "tabindex") == "-1"  # focusable, out of the Tab order
    # The focus put there from script draws no ring (it looked like a selected box); a control still does.
    ring = "() => getComputedStyle(document.activeElement).outlineStyle"
    assert page.evaluate(ring) == "none"
    page.keyboard.press("Tab")
    page.wait_for_function("() => document.activeElement?.matches('a, button, input')", timeout=5_000)
    assert page.evaluate(ring) != "none"
    context.close()

    kept = register(server, "a11y-key")
    context, page, errors = signed_in(browser, server, None, viewport=PHONE)
    page.goto(server + "/")
    page.click("#sign-in-box summary")
    page.focus("#sign-in-key")
    page.keyboard.type(kept["api_key"])
    page.keyboard.press("Enter")
    page.wait_for_selector("#whoami")
    page.wait_for_function("() => document.activeElement?.id === 'whoami'", timeout=5_000)
    page.wait_for_selector("#create")  # the lobby drawn again as the player: the focus stays put
    page.wait_for_timeout(300)
    assert page.evaluate(FOCUSED) == "whoami"
    assert not errors, errors
    context.close()


# -- F2, F9 -----------------------------------------------------------------------------------------
HEADINGS = "() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((n) => Number(n.tagName[1]))"


def assert_headings_in_order(page) -> None:
    levels = page.evaluate(HEADINGS)
    assert levels.count(1) == 1, levels
    for before, after in zip(levels, levels[1:]):
        assert after <= before + 1, levels


def replay_on_a_phone(server, browser, label: str):
    """A finished, revealed Fool's Crown match of two new players, its replay opened by the first at 360 px:
    (its last version, the context, the page, the page's errors)."""
    ada, ben = register(server, f"ada-{label}"), register(server, f"ben-{label}")
    match_id = finished_fools_crown(server, [ada, ben], reveal_at_end=True)
    context, page, errors = signed_in(browser, server, ada, viewport=PHONE)
    open_replay(page, server, match_id)
    return read(server, match_id)["version"], context, page, errors


def test_the_replay_slider_names_the_event_it_reaches(server, browser):
    last, context, page, errors = replay_on_a_phone(server, browser, "slider")
    page.focus("#slider")
    for step in range(1, 4):
        page.keyboard.press("ArrowLeft")
        version = last - step
        page.wait_for_function("v => document.querySelector('#events li[aria-current]')?.dataset.version === String(v)",
                               arg=version)
        said = page.get_attribute("#slider", "aria-valuetext")
        listed = page.inner_text("#events li[aria-current] button")
        # The event list's line without its number: "version 4 of 7: chance (cards shuffled or dice rolled)"
        assert said == f"version {version} of {last}: {listed.split('. ', 1)[1]}", (said, listed)
    assert not errors, errors
    context.close()


def test_the_replay_has_one_h1_and_skips_no_heading_level(server, browser):
    last, context, page, errors = replay_on_a_phone(server, browser, "headings")
    assert_headings_in_order(page)
    # Rewound to a version being played: the board's headings under the page's one h1.
    page.focus("#slider")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("v => document.querySelector('#version')?.textContent === String(v)", arg=last - 3)
    assert page.inner_text("#status") == "active"
    assert_headings_in_order(page)
    assert not errors, errors
    context.close()


# -- F3, F4 -----------------------------------------------------------------------------------------
def tumult_in_tax(server: str, player: dict) -> str:
    """A Tumult Royale match of ``player`` and two computers (tax collection not timed), played through the
    API into its tax collection, where the player takes tile 0."""
    match_id = match_with(server, player, "tumult-royale", 3, computers={"1": "basic", "2": "basic"},
                          options={"tax_mode": "async"})
    for _ in range(200):
        view = read(server, match_id, player)
        if view["observation"].get("slots") and any(a["type"] == "peek" for a in view["legal_actions"]):
            peek = next(a for a in view["legal_actions"] if a["type"] == "peek")
            move(server, match_id, player, peek).raise_for_status()
            return match_id
        if view["legal_actions"]:
            move(server, match_id, player, view["legal_actions"][0])
        else:
            time.sleep(0.2)
    raise AssertionError("no tax collection")


CONTRAST = """nodes => nodes.filter((n) => n.textContent.trim()).map((n) => {
  const rgba = (text) => text.match(/[\\d.]+/g).map(Number);
  const [r, g, b, a = 1] = rgba(getComputedStyle(n).color);
  const [R, G, B] = rgba(getComputedStyle(n.closest('td')).backgroundColor);
  const mix = [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  const lum = (rgb) => rgb.map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [lum(mix), lum([R, G, B])].sort((x, y) => y - x);
  return [n.closest('td').className, (hi + 0.05) / (lo + 0.05)];
})"""


def test_tumult_royales_field_letters_contrast_enough(server, browser):
    uma = register(server, "uma-contrast")
    match_id = match_with(server, uma, "tumult-royale", 3, computers={"1": "basic", "2": "basic"})
    context, page, errors = signed_in(browser, server, uma)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("table.kingdom td.f-P .letter")
    ratios = page.locator("table.kingdom td.field .letter").evaluate_all(CONTRAST)
    assert ratios
    low = [(name, round(ratio, 2)) for name, ratio in ratios if ratio < 4.5]
    assert not low, low
    assert not errors, errors
    context.close()


def spoken(locator) -> str:
    """What a screen reader reads of a node: its text, leaving out what is hidden from it (aria-hidden)."""
    return locator.evaluate("""node => {
      const walk = (n) => n.nodeType === 3 ? n.textContent
        : n.nodeType === 1 && n.getAttribute('aria-hidden') === 'true' ? '' : [...n.childNodes].map(walk).join('');
      return walk(node).trim();
    }""")


def test_tumult_royales_fields_and_tax_slots_are_said_in_words(server, browser):
    uma = register(server, "uma-words")
    match_id = tumult_in_tax(server, uma)
    view = read(server, match_id, uma)
    fields = view["observation"]["fields"].replace("/", "")
    field = next(i for i, letter in enumerate(fields) if letter == "P")
    context, page, errors = signed_in(browser, server, uma)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".tumult-royale .slots .slot")

    # A field: its number and type in its name, as the move buttons name fields.
    cell = page.locator(f"table.kingdom td.field[data-field='{field}']")
    assert spoken(cell).startswith(f"field {field}: pasture"), spoken(cell)
    snapshot = cell.aria_snapshot()
    assert f"field {field}: pasture" in snapshot, snapshot

    # The tax slots: the one the player holds, and a face-down one, said as such.
    mine = page.locator(".tumult-royale .slot.mine")
    assert mine.get_attribute("role") == "img"
    assert re.fullmatch(r"tile \d+: held by seat 0 \(yours: you hold it\)", mine.get_attribute("aria-label")), \
        mine.get_attribute("aria-label")
    down = page.locator(".tumult-royale .slot.d").first
    assert re.fullmatch(r"tile \d+: face down", down.get_attribute("aria-label")), down.get_attribute("aria-label")
    assert "face down" in down.aria_snapshot()
    # The slot's drawn text is as it was (the tile's number).
    assert down.text_content() == down.get_attribute("aria-label").split()[1].rstrip(":")
    assert not errors, errors
    context.close()


def test_tumult_royales_target_fields_are_said_to_be_targets(server, browser):
    uma = register(server, "uma-target")
    match_id = match_with(server, uma, "tumult-royale", 3, computers={"1": "basic", "2": "basic"})
    for _ in range(100):  # the computers place their first statues before her, when they rank first
        view = read(server, match_id, uma)
        targets = sorted({a["field"] for a in view["legal_actions"] if isinstance(a.get("field"), int)})
        if targets:
            break
        time.sleep(0.1)
    assert targets
    context, page, errors = signed_in(browser, server, uma)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("table.kingdom td.target")
    said = spoken(page.locator(f"table.kingdom td.field[data-field='{targets[0]}']"))
    assert said.startswith(f"field {targets[0]}: ") and "you may put a statue here" in said, said
    other = next(i for i in range(len(view["observation"]["fields"].replace("/", ""))) if i not in targets)
    assert "statue here" not in spoken(page.locator(f"table.kingdom td.field[data-field='{other}']"))
    assert not errors, errors
    context.close()


# -- F5 ---------------------------------------------------------------------------------------------
def test_a_field_at_fault_is_marked_invalid_and_described_by_its_error(server, browser):
    # Signing in with a key the server refuses: the key's field.
    context, page, errors = signed_in(browser, server, None)
    page.goto(server + "/")
    page.click("#sign-in-box summary")
    page.fill("#sign-in-key", "not-a-real-key")
    page.press("#sign-in-key", "Enter")
    page.wait_for_selector("#sign-in-error .problem")
    assert page.get_attribute("#sign-in-key", "aria-invalid") == "true"
    assert "That key was refused" in described_by(page, "#sign-in-key")

    # Registering a name without a visible character: the name's field, described by the name's lines.
    page.fill("#register-name", "   ")
    page.press("#register-name", "Enter")
    page.wait_for_selector("#register .problem")
    assert page.get_attribute("#register-name", "aria-invalid") == "true"
    said = described_by(page, "#register-name")
    assert said.startswith("name: ") and "visible character" in said, said
    context.close()

    # The tournament form: the name at fault, not the rounds.
    org = register(server, "a11y-org")
    context, page, errors = signed_in(browser, server, org)
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#create-tournament")
    page.fill("#tournament-name", "   ")
    page.click("#create-tournament-submit")
    page.wait_for_selector("#create-tournament .problem")
    assert page.get_attribute("#tournament-name", "aria-invalid") == "true"
    assert "name: " in described_by(page, "#tournament-name")
    assert page.get_attribute("#tournament-rounds", "aria-invalid") is None

    # The match form: the turn limit (the browser's own checks of the form off: the server's refusal shows),
    # its help still described beside the error.
    page.goto(server + "/")
    page.wait_for_selector("#create")
    page.evaluate("() => { document.querySelector('#create').noValidate = true; }")
    page.fill("#create-turn-limit", "0")
    page.click("#create-submit")
    page.wait_for_selector("#create .problem")
    assert page.get_attribute("#create-turn-limit", "aria-invalid") == "true"
    said = described_by(page, "#create-turn-limit")
    assert "seconds each turn may take" in said and "turn_limit.seconds: " in said, said
    # A game's refusal of an option names it in its detail: that option's field.
    page.select_option("#create-game", "le-bouffon")
    page.fill("#create [name=deals]", "0")
    page.fill("#create-turn-limit", "")
    page.click("#create-submit")
    page.wait_for_selector("#create [name=deals][aria-invalid='true']")
    assert page.get_attribute("#create-turn-limit", "aria-invalid") is None  # the last refusal's marks only
    assert described_by(page, "#create-turn-limit") == page.inner_text("#create-turn-limit-help")
    assert "deals" in described_by(page, "#create [name=deals]")
    assert not errors, errors
    context.close()


# -- F6 ---------------------------------------------------------------------------------------------
RECORD = """() => { window.said = []; new MutationObserver(() => window.said.push([performance.now(),
  document.querySelector('#announce').textContent])).observe(document.querySelector('#announce'),
  { childList: true, characterData: true, subtree: true }); }"""


def test_the_tables_status_line_joins_updates_that_come_together(server, browser):
    context, page, errors = signed_in(browser, server, None)
    page.goto(server + "/")
    page.fill("#register-name", "a11y-turns")
    page.press("#register-name", "Enter")
    page.wait_for_selector("#whoami")
    key = page.evaluate("localStorage.getItem('motley.key')")
    me = {"api_key": key, "id": page.evaluate("JSON.parse(localStorage.getItem('motley.player')).id")}
    match_id = match_with(server, me, "jest", 3, computers={"1": "basic", "2": "basic"})
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#announce", state="attached")
    page.evaluate(RECORD)
    for _ in range(8):
        if read(server, match_id)["status"] != "active":
            break
        page.wait_for_selector("button.action:enabled", timeout=30_000)
        version = page.inner_text("#version")
        page.locator("button.action:enabled").first.click()
        page.wait_for_function("v => document.querySelector('#version').textContent !== v", arg=version)
        page.wait_for_timeout(600)
    page.wait_for_timeout(800)
    said = [text for _, text in page.evaluate("window.said")]
    times = [at for at, _ in page.evaluate("window.said")]
    assert len(said) >= 2, said
    gaps = [round(b - a) for a, b in zip(times, times[1:])]
    assert min(gaps) >= 300, list(zip(said, gaps))
    assert all(a != b for a, b in zip(said, said[1:])), said
    assert not errors, errors
    context.close()


# -- F12, F7 ----------------------------------------------------------------------------------------
def organised_on_a_phone(server: str, browser, label: str):
    """A started tournament of three entrants, its page opened by its organiser on a 360 px screen, the
    standings' box overflowing: (context, page, errors, players)."""
    org = register(server, f"a11y-org-{label}")
    players = [register(server, f"a11y-{label}-{i}") for i in range(3)]
    started = started_swiss(server, org, players, "Keyboard Cup")
    context, page, errors = signed_in(browser, server, org, viewport=PHONE)
    page.goto(f"{server}/#/tournament/{started['id']}")
    page.wait_for_selector(f"#disqualify-{players[0]['id']}")
    page.wait_for_selector(f"{STANDINGS}[tabindex='0']", state="attached")
    assert page.evaluate("s => ((box) => box.scrollWidth > box.clientWidth)(document.querySelector(s))", STANDINGS)
    return context, page, errors, players


STANDINGS = "#standings > .scroll-x"


def test_a_box_that_scrolls_sideways_is_a_named_region_while_it_is_a_tab_stop(server, browser):
    context, page, errors, _ = organised_on_a_phone(server, browser, "region")
    assert page.get_attribute(STANDINGS, "role") == "region"
    label = page.get_attribute(STANDINGS, "aria-label")
    assert label.startswith("Standings: table of rank, player") and "scrolls sideways" in label, label
    # Wide enough, the box is no Tab stop and no region.
    page.set_viewport_size({"width": 1400, "height": 900})
    page.wait_for_selector(f"{STANDINGS}:not([tabindex])", state="attached")
    page.wait_for_function("s => !document.querySelector(s).hasAttribute('role')", arg=STANDINGS)
    assert not errors, errors
    context.close()


def test_a_box_that_scrolls_sideways_fades_where_its_table_goes_on(server, browser):
    """A phone probe: a wide table scrolled in its box with nothing to show that more columns waited. The
    side that holds more is marked (data-more) and faded (a mask), the other side once scrolled."""
    context, page, errors, _ = organised_on_a_phone(server, browser, "edges")
    page.wait_for_function("s => document.querySelector(s).dataset.more === 'right'", arg=STANDINGS)
    assert "linear-gradient" in page.evaluate("s => getComputedStyle(document.querySelector(s)).maskImage", STANDINGS)
    page.evaluate("s => { const box = document.querySelector(s); box.scrollLeft = 10; }", STANDINGS)
    page.wait_for_function("s => document.querySelector(s).dataset.more === 'left right'", arg=STANDINGS)
    page.evaluate("s => { const box = document.querySelector(s); box.scrollLeft = box.scrollWidth; }", STANDINGS)
    page.wait_for_function("s => document.querySelector(s).dataset.more === 'left'", arg=STANDINGS)
    # Wide enough to show it all, nothing is faded.
    page.set_viewport_size({"width": 1400, "height": 900})
    page.wait_for_function("s => !('more' in document.querySelector(s).dataset)", arg=STANDINGS)
    assert page.evaluate("s => getComputedStyle(document.querySelector(s)).maskImage", STANDINGS) == "none"
    assert not errors, errors
    context.close()


def test_a_focused_organiser_control_is_scrolled_into_view_inside_the_standings_box(server, browser):
    context, page, errors, players = organised_on_a_phone(server, browser, "focus")
    target = f"disqualify-{players[0]['id']}"
    # Tab from the player's link to the row's Disqualify…: shown whole inside the box.
    page.focus(f"#standings a[href^='#/player/{players[0]['id']}']")
    for _ in range(3):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == target:
            break
    assert page.evaluate(FOCUSED) == target
    inside = page.evaluate("""([s, b]) => {
      const c = document.getElementById(s).getBoundingClientRect(), box = document.querySelector(b);
      const o = box.getBoundingClientRect();
      const left = o.left + box.clientLeft;
      return [c.left >= left, c.right <= left + box.clientWidth, c.left, c.right, o.left, o.right];
    }""", [target, STANDINGS])
    assert inside[0] and inside[1], inside
    assert page.evaluate("document.documentElement.scrollWidth") == 360  # only the box scrolled
    assert not errors, errors
    context.close()


# -- F8 ---------------------------------------------------------------------------------------------
def test_the_lobbys_match_links_are_24_px_targets(server, browser):
    kai = register(server, "a11y-targets")
    match_with(server, kai, "jest", 3, computers={"1": "basic", "2": "basic"})
    context, page, errors = signed_in(browser, server, kai, viewport=PHONE)
    page.goto(server + "/")
    page.wait_for_selector("#my-running .row-actions > a")
    sizes = page.locator("#lobby-lists .row-actions > a").evaluate_all(
        "nodes => nodes.map((n) => [n.textContent, n.getBoundingClientRect().width, n.getBoundingClientRect().height])")
    assert sizes
    small = [size for size in sizes if size[1] < 24 or size[2] < 24]
    assert not small, small
    assert not errors, errors
    context.close()


# -- F10 --------------------------------------------------------------------------------------------
def test_the_create_forms_and_the_forks_help_is_shown_not_a_tooltip(server, browser):
    ada, ben = register(server, "ada-help"), register(server, "ben-help")
    context, page, errors = signed_in(browser, server, ada, viewport=PHONE)
    page.goto(server + "/")
    page.wait_for_selector("#create")
    assert "seconds each turn may take" in visible_help(page, "#create-turn-limit")
    assert "invitation code" in visible_help(page, "#create-unlisted")
    assert page.locator("#create label[title]").count() == 0

    match_id = finished_fools_crown(server, [ada, ben], reveal_at_end=True)
    open_replay(page, server, match_id)
    assert "a new match from the version shown" in visible_help(page, "#fork")
    assert page.get_attribute("#fork", "title") == page.inner_text("#fork-help")  # the tooltip says it too
    assert not errors, errors
    context.close()


# -- F11 --------------------------------------------------------------------------------------------
def test_the_leaderboards_picker_opens_a_board_once_the_arrow_keys_stop(server, browser):
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/leaderboard/jest")
    page.wait_for_selector("#board-game")
    page.wait_for_timeout(300)
    boards: list[str] = []
    page.on("request", lambda request: "/leaderboards/" in request.url and boards.append(request.url))
    page.focus("#board-game")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => location.hash === '#/leaderboard/fools-crown'", timeout=5_000)
    page.wait_for_timeout(1_000)
    assert len(boards) == 1 and "/leaderboards/fools-crown" in boards[0], boards
    assert page.evaluate(FOCUSED) == "board-game"
    assert not errors, errors
    context.close()


# -- F13 --------------------------------------------------------------------------------------------
def test_the_player_pages_current_game_is_marked_current(server, browser):
    pia = register(server, "a11y-player")
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/player/{pia['id']}/jester")
    page.wait_for_selector("a.current")
    assert page.locator("a[aria-current='page']").all_inner_texts() == ["Jester"]
    assert page.get_attribute("a.current", "aria-current") == "page"
    assert not errors, errors
    context.close()


def test_a_rating_history_shows_an_unlisted_match_without_a_link_to_replay_null(server, browser):
    """Another reader's copy of a player's rating history names no unlisted match (match_id null): the
    page linked its place to "#/replay/null" (a ratings probe)."""
    ann, bob, cy = (register(server, f"unlisted-{name}") for name in ("ann", "bob", "cy"))
    created = requests.post(f"{server}/matches", json={"game": "jest", "seats": 3, "unlisted": True},
                            headers=auth(ann), timeout=10).json()
    for who in (ann, bob, cy):
        requests.post(f"{server}/matches/{created['id']}/seats", json={"invitation_code": created["invitation_code"]},
                      headers=auth(who), timeout=10).raise_for_status()
    requests.post(f"{server}/matches/{created['id']}/start", headers=auth(ann), timeout=10).raise_for_status()
    for who in (ann, bob, cy):  # every seat offers at once (Jest R3): each makes its first move
        legal = requests.get(f"{server}/matches/{created['id']}", headers=auth(who), timeout=10).json()["legal_actions"]
        requests.post(f"{server}/matches/{created['id']}/moves", json={"action": legal[0]}, headers=auth(who),
                      timeout=10).raise_for_status()
    for who in (bob, cy):
        requests.post(f"{server}/matches/{created['id']}/resign", headers=auth(who), timeout=10).raise_for_status()
    history_path = f"{server}/players/{ann['id']}/ratings/jest"
    deadline = time.monotonic() + 20
    while not requests.get(history_path, timeout=10).json()["history"] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [row["match_id"] for row in requests.get(history_path, timeout=10).json()["history"]] == [None]
    context, page, errors = signed_in(browser, server, None)
    page.goto(f"{server}/#/player/{ann['id']}/jest")
    page.wait_for_selector("text=(an unlisted match)")
    assert page.locator("a[href='#/replay/null']").count() == 0
    assert not errors, errors
    context.close()


# -- a tournament's table ---------------------------------------------------------------------------
def test_a_tournament_tables_match_says_so_and_links_to_its_tournament(server, browser):
    org = register(server, "a11y-tour-org")
    players = [register(server, f"a11y-tour-{i}") for i in range(3)]
    started = started_swiss(server, org, players, "Table Talk")
    table = started["rounds"][0]["tables"][0]
    view = requests.get(f"{server}/matches/{table['match_id']}", headers=auth(players[0]), timeout=10).json()
    assert view["tournament"]["id"] == started["id"]
    context, page, errors = signed_in(browser, server, players[0])
    page.goto(f"{server}/#/match/{table['match_id']}")
    link = page.locator(f".match-head a[href='#/tournament/{started['id']}']")
    link.wait_for()
    assert page.inner_text(".match-head .tournament-table") == (
        f"Tournament table: round {view['tournament']['round']}, table {view['tournament']['table']}")
    link.click()
    page.wait_for_selector("#tournament-title")
    assert "Table Talk" in page.inner_text("#tournament-title")

    # Any other match says nothing of the kind.
    other = match_with(server, players[0], "jest", 3, computers={"1": "basic", "2": "basic"})
    page.goto(f"{server}/#/match/{other}")
    page.wait_for_selector(".match-head #version")
    assert page.locator(".match-head .tournament-table").count() == 0
    assert not errors, errors
    context.close()
