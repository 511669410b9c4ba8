"""The web client's fixtures: `motley serve` as a real process (SQLite, in-process tasks) and Debian's chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

CHROMIUM = "/usr/bin/chromium"  # Debian's package (.ci/run installs it)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(folder: Path, **settings: str):
    """The service as people reach it: the installed `motley serve` command on a free port (SQLite,
    in-process tasks; ``settings``: more environment, as MOTLEY_AUDITOR_KEY): (base URL, process, log file)."""
    port = free_port()
    env = dict(os.environ, MOTLEY_STORE="sqlite", MOTLEY_SQLITE_PATH=str(folder / "motley.sqlite"),
               MOTLEY_TASKS="inprocess", **settings)
    motley = Path(sys.executable).with_name("motley")
    log = open(folder / "serve.log", "wb")
    process = subprocess.Popen([str(motley), "serve", "--port", str(port)], env=env, stdout=log,
                               stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if requests.get(f"{base}/health", timeout=1).ok:
                return base, process, log
        except (requests.ConnectionError, requests.Timeout):  # still booting on a loaded machine
            pass
        if process.poll() is not None:
            log.close()
            raise AssertionError((folder / "serve.log").read_text())
        time.sleep(0.1)
    stop(process, log)
    raise AssertionError("motley serve did not answer /health")


def stop(process, log) -> None:
    process.terminate()
    process.wait(timeout=10)
    log.close()


@pytest.fixture
def server(tmp_path):
    base, process, log = serve(tmp_path)
    yield base
    stop(process, log)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    assert os.path.exists(CHROMIUM), "install Debian's chromium (apt-get install chromium; .ci/run does it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield UnderTest(launched)
        launched.close()


class UnderTest:
    """The browser, its contexts made with ``bypass_csp`` unless a test says otherwise: Playwright's
    ``wait_for_function`` evaluates its text in the page, which the page's Content-Security-Policy
    (api/web.py) forbids. test_page_policy.py opens the page under the policy itself."""

    def __init__(self, browser) -> None:
        self.browser = browser

    def new_context(self, **options):
        options.setdefault("bypass_csp", True)
        return self.browser.new_context(**options)

    def new_page(self, **options):
        options.setdefault("bypass_csp", True)
        return self.browser.new_page(**options)

    def __getattr__(self, name):
        return getattr(self.browser, name)


@pytest.fixture
def shots(tmp_path):
    """Screenshots of each view, under the test's own output folder."""
    folder = tmp_path / "screenshots"
    folder.mkdir()
    return folder


@pytest.fixture
def own_server(tmp_path):
    """A server of its own: a test that takes every stream slot of the client address."""
    base, process, log = serve(tmp_path)
    yield base
    stop(process, log)


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    """One server for a module's tests (each uses players and matches of its own)."""
    base, process, log = serve(tmp_path_factory.mktemp("serve"))
    yield base
    stop(process, log)


#: The auditor's credential of ``auditor_server``.
AUDITOR_KEY = "s3cret-auditor-credential"


@pytest.fixture(scope="module")
def auditor_server(tmp_path_factory):
    """One server for a module's tests (each uses players and matches of its own), with an auditor."""
    base, process, log = serve(tmp_path_factory.mktemp("serve"), MOTLEY_AUDITOR_KEY=AUDITOR_KEY)
    yield base
    stop(process, log)
