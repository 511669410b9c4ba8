"""The page under its Content-Security-Policy (api/web.py): every view a person opens draws without a
single violation (an inline style or script, a file from elsewhere), in headless chromium against a
real `motley serve` process."""

from __future__ import annotations

import json

import pytest

from tests.web.test_page_followups import match_with, play_out, register

pytestmark = pytest.mark.slow  # a browser and a server process: several seconds each


def test_every_view_draws_without_a_content_security_policy_violation(server, browser):
    ann, bob, cy = (register(server, name) for name in ("csp-ann", "csp-bob", "csp-cy"))
    ann_player = {"id": ann["id"], "name": ann["name"]}
    running = match_with(server, ann, "jest", 3, people=[bob, cy])
    done = match_with(server, ann, "le-bouffon", 3, computers={"1": "random", "2": "random"})
    play_out(server, done, [ann])
    context = browser.new_context(bypass_csp=False)  # under the policy, as a person's browser is
    context.add_init_script(f"localStorage.setItem('motley.key', {json.dumps(ann['api_key'])});"
                            f"localStorage.setItem('motley.player', {json.dumps(json.dumps(ann_player))});")
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    violations: list = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)
    context.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                            "console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI))")
    views = ["/", f"/#/match/{running}", f"/#/match/{running}?as=spectator", f"/#/replay/{done}",
             "/#/leaderboard/le-bouffon", f"/#/player/{ann['id']}/le-bouffon", "/#/tournaments"]
    for view in views:
        page.goto(server + view)
        for _ in range(50):  # drawn (wait_for_function would evaluate text in the page: the policy refuses it)
            if not page.inner_text("#view").startswith("Loading"):
                break
            page.wait_for_timeout(200)
        page.wait_for_timeout(400)
        assert not page.inner_text("#view").startswith("Loading"), view
    assert not violations, violations
    assert not errors, errors
    context.close()
