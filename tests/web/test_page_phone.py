"""The page on a phone (a phone probe: a 390 px wide touch screen), in Debian's chromium against a real
`motley serve` (tests/web/conftest.py): move buttons of 35 px, tax tiles of 38x32 px and organiser buttons
of 25 px were hard to tap, and the rules pages scrolled sideways (940-996 px wide, their JSON examples
unwrapped)."""

from __future__ import annotations

import pytest

from tests.web.test_page_followups import match_with, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def phone(browser, server, registered=None):
    context, page, errors = signed_in(browser, server, registered, **PHONE)
    return context, page, errors


@pytest.mark.parametrize("game", ["fools-crown", "le-bouffon"])
def test_a_phones_move_buttons_are_44_px_each_way(server, browser, game):
    person = register(server, f"phone-{game}")
    match_id = match_with(server, person, game, 3 if game == "le-bouffon" else 2,
                          computers={"1": "random", "2": "random"} if game == "le-bouffon" else {"1": "random"})
    context, page, errors = phone(browser, server, person)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#moves button.action:enabled", timeout=20_000)
    sizes = page.locator("#moves button.action").evaluate_all(
        "bs => bs.map(b => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])")
    assert sizes and all(height >= 44 and width >= 44 for width, height in sizes), sizes
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("game", ["fools-crown", "tumult-royale", "le-bouffon", "jester", "jest"])
def test_a_rules_page_fits_a_phones_width(server, browser, game):
    context, page, errors = phone(browser, server)
    page.goto(f"{server}/games/{game}/rules")
    page.wait_for_selector("h1")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert not errors, errors
    context.close()


def test_a_move_on_its_way_says_so_until_its_answer_comes(server, browser):
    """A phone probe: on a slow network a move being sent only greyed the buttons, and a player tapped
    again. The moves' heading says what is being sent until the answer redraws the table."""
    person = register(server, "slow-network")
    match_id = match_with(server, person, "jester", 2, computers={"1": "basic"})
    context, page, errors = phone(browser, server, person)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#moves button.action:enabled", timeout=20_000)
    held: list = []
    # The move's request waits for the test (as on a slow network), then goes on.
    page.route(f"**/matches/{match_id}/moves", lambda route: held.append(route))
    button = page.locator("#moves button.action:enabled").first
    label = button.inner_text()
    button.tap()
    page.wait_for_function("() => document.querySelector('#moves-heading').textContent.startsWith('Sending')")
    assert page.inner_text("#moves-heading") == f"Sending: {label}…"
    assert page.get_attribute("#moves", "aria-busy") == "true"
    assert page.locator("#moves button.action:enabled").count() == 0
    for _ in range(50):  # the route's handler runs as the page's events are dispatched
        if held:
            break
        page.wait_for_timeout(100)
    (request,) = held
    request.continue_()
    page.wait_for_function("() => !document.querySelector('#moves-heading')?.textContent.startsWith('Sending')",
                           timeout=20_000)
    assert not errors, errors
    context.close()
