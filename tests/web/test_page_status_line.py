"""The table's status line (#announce) never contradicts the table (a new-player probe's finding 1), in
Debian's chromium against a real `motley serve` (tests/web/conftest.py).

The line says a burst of updates (the person's move, the computers' answers, their turn again) once,
ANNOUNCE_MS after its first and after the others' moves are read. Meanwhile it kept the last text: "Version
56: your turn." beside a table that showed a computer to act, or the match finished. A line the table has
moved away from is hidden at once now (out of sight, out of the accessibility tree), and the burst said when
it settles. What the line shows is its innerText (a hidden text has none).

Each test watches every state the page draws (a MutationObserver runs right after each redraw) and plays
through the page's own buttons, waiting before each move until the line says "your turn" for the version
shown, so that each of its moves starts from a settled line.
"""

from __future__ import annotations

import random

import pytest

from tests.web.test_page_fifth_probe import read
from tests.web.test_page_followups import match_with, register, signed_in

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


# After each redraw and each change of the line: a line showing "your turn" while the table shows a
# computer to act ("Waiting") or the match finished is recorded in window.contradictions.
WATCH = """() => {
  window.contradictions = []; window.waiting = 0; window.said = [];
  const line = document.querySelector('#announce'), board = document.querySelector('#board');
  const check = () => {
    const status = document.querySelector('#status')?.textContent;
    const waiting = document.querySelector('#moves-heading')?.textContent === 'Waiting';
    if (waiting) window.waiting += 1;
    if ((waiting || status === 'finished') && /your turn/.test(line.innerText))
      window.contradictions.push(`version ${document.querySelector('#version')?.textContent} (${status}`
        + `${waiting ? ', waiting' : ''}): ${line.innerText}`);
  };
  new MutationObserver(check).observe(board, { childList: true, subtree: true });
  new MutationObserver(() => { window.said.push(line.textContent); check(); })
    .observe(line, { childList: true, characterData: true, subtree: true });
}"""

# The line has said the person's turn at the version the table shows (or, the table just opened, nothing).
SETTLED = """() => { const v = document.querySelector('#version')?.textContent;
  const line = document.querySelector('#announce').innerText;
  return line.includes(`Version ${v}: your turn.`) || (!line && !window.said.length); }"""
# The person's turn (an enabled move) or the match over.
READY = """() => document.querySelector('#status')?.textContent === 'finished'
  || document.querySelector('#moves button.action:enabled') !== null"""


def opened(browser, server, name, game, seats, options=None):
    person = register(server, name)
    computers = {str(seat): "basic" for seat in range(1, seats)}
    match_id = match_with(server, person, game, seats, computers=computers, options=options)
    context, page, errors = signed_in(browser, server, person)
    page.on("console", lambda message: errors.append(f"console: {message.text}")
            if message.type == "error" and "Failed to load resource" not in message.text else None)
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector("#version")
    page.evaluate(WATCH)
    return match_id, context, page, errors


def one_move(page, rnd) -> bool:
    """Waits for the person's turn, said on the line, and plays one of its moves; False once finished."""
    page.wait_for_function(READY, timeout=20_000)
    if page.inner_text("#status") == "finished":
        return False
    page.wait_for_function(SETTLED, timeout=5_000)
    version = page.inner_text("#version")
    buttons = page.locator("#moves button.action:enabled")
    button = buttons.nth(rnd.randrange(buttons.count()))
    label = button.inner_text()
    button.click()
    try:  # the move's answer redraws the table (20 s: a CI machine running three browsers at once took over 10)
        page.wait_for_function("v => document.querySelector('#version').textContent !== v", arg=version,
                               timeout=20_000)
    except Exception as error:  # what the page showed instead: a refusal, or nothing at all
        shown = page.evaluate("() => [...document.querySelectorAll('.problem')].map((box) => box.innerText)")
        raise AssertionError(f"version {version}, {label!r} clicked: still version {page.inner_text('#version')}; "
                             f"refusals shown {shown}; the line said {page.evaluate('window.said')}") from error
    return True


def test_a_match_played_to_its_end_leaves_the_line_saying_it_is_over(server, browser):
    match_id, context, page, errors = opened(browser, server, "status-line-end", "fools-crown", 2)
    rnd = random.Random(5)
    for _ in range(60):
        if not one_move(page, rnd):
            break
    else:
        raise AssertionError("the match did not finish")
    assert read(server, match_id)["status"] == "finished"
    page.wait_for_function("() => document.querySelector('#announce').innerText.includes('The match is over.')",
                           timeout=5_000)
    page.wait_for_timeout(2_000)  # and it stays so
    line = page.inner_text("#announce")
    assert "The match is over." in line and "your turn" not in line, line
    assert page.inner_text("#version") == str(read(server, match_id)["version"])
    contradictions = page.evaluate("window.contradictions")
    # Never "your turn" once the table shows the match finished (it said so until the burst settled),
    assert [text for text in contradictions if "(finished" in text] == [], page.evaluate("window.said")
    # nor while it showed a computer to act.
    assert contradictions == [], page.evaluate("window.said")
    assert not errors, errors
    context.close()


def test_after_the_persons_move_the_line_never_says_your_turn_while_a_computer_is_to_act(server, browser):
    match_id, context, page, errors = opened(browser, server, "status-line-play", "le-bouffon", 3, {"deals": 1})
    rnd = random.Random(3)
    for _ in range(8):  # a few moves, each from a line settled on "your turn"
        if not one_move(page, rnd):
            break
    # The table showed the computers to act after the person's moves, the line never "your turn" meanwhile.
    assert page.evaluate("window.waiting") > 0
    assert page.evaluate("window.contradictions") == [], page.evaluate("window.said")
    # Once the burst settles, the line names the turn the table shows.
    page.wait_for_function("""() => { const v = document.querySelector('#version').textContent;
      const line = document.querySelector('#announce').innerText;
      return line.includes(`Version ${v}:`) || line.includes('The match is over.'); }""", timeout=5_000)
    assert read(server, match_id)["version"] >= int(page.inner_text("#version"))
    assert not errors, errors
    context.close()
