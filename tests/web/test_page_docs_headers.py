"""The API's docs (Swagger UI at /docs) and a game's rules page share the web client's origin, whose stored
keys any script of the origin could read (README, "The web client"): a security probe found /docs running
an inline script, framable by any site, and the rules page with no policy at all. Both now run their own
files only (the rules page none) and are framed by nobody, and still work, in Debian's chromium."""

from __future__ import annotations

import pytest
import requests

from tests.web.test_page_followups import signed_in

pytestmark = pytest.mark.slow  # a browser and a server process


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def test_the_docs_run_their_own_files_only_and_still_show_the_api(server, browser):
    for path in ("/docs", "/docs/init.js", "/docs/static/swagger-ui-bundle.js"):
        answer = requests.get(f"{server}{path}", timeout=10)
        policy = answer.headers.get("Content-Security-Policy", "")
        assert answer.status_code == 200 and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert answer.headers.get("X-Frame-Options") == "DENY", path
    assert "<script>" not in requests.get(f"{server}/docs", timeout=10).text  # no inline script
    context, page, errors = signed_in(browser, server, None)
    refused = []
    page.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    page.goto(f"{server}/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=20_000)
    assert "Motley" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path[data-path='/matches/{match_id}/moves']", timeout=20_000)
    assert not refused, refused
    assert not errors, errors
    context.close()


def test_a_rules_page_runs_no_script_and_is_framed_by_nobody(server, browser):
    answer = requests.get(f"{server}/games/jest/rules", headers={"Accept": "text/html"}, timeout=10)
    policy = answer.headers.get("Content-Security-Policy", "")
    assert answer.status_code == 200 and "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert answer.headers.get("X-Frame-Options") == "DENY"
    context, page, errors = signed_in(browser, server, None)
    refused = []
    page.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    page.goto(f"{server}/games/jest/rules")
    page.wait_for_selector("body.rules-page h1")
    # Its stylesheet applies (the page's JSON examples wrap: style.css .rules-page pre).
    assert page.evaluate("() => getComputedStyle(document.querySelector('pre') || document.body).whiteSpace") in (
        "pre-wrap", "normal")
    assert not refused, refused
    assert not errors, errors
    context.close()
