"""A real browser at the table: Playwright drives the system's Chromium (Debian/Ubuntu: `apt-get install chromium`).
Two browser contexts are two friends at a Hearts table with bots in the other seats; they create the table in the
lobby, open their invite links and click through a whole deal. Skips, saying why, without playwright or Chromium."""
from __future__ import annotations

import os
import shutil
import signal
import time

import pytest

from tests.table.server_helpers import free_port, start_server

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
CANDIDATES = (os.environ.get("INTERP_CHROMIUM", ""), "/usr/bin/chromium", "/usr/bin/chromium-browser",
              shutil.which("chromium") or "", shutil.which("chromium-browser") or "")
CHROMIUM = next((path for path in CANDIDATES if path and os.path.isfile(path)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install chromium, or set "
                                                          "INTERP_CHROMIUM to its path)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SHOTS = os.environ.get("INTERP_SCREENSHOTS")  # a folder to keep the screenshots in


class Server:
    """`interp serve` on a free port over a database in `folder`; `kill` ends it with SIGKILL, `start` again."""

    def __init__(self, folder):
        self.db, self.port = str(folder / "tables.sqlite"), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = start_server(self.db, self.port)

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def start(self) -> None:
        self.process = start_server(self.db, self.port)


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path)
    yield running
    running.process.terminate()
    running.process.wait(10)


def create_table(page, base: str) -> list:
    """In the lobby: Hearts, South and North people, West and East bots; the two invite links."""
    page.goto(base + "/")
    page.select_option("#game", "hearts")
    page.wait_for_selector("#new-table[data-game='hearts']")
    page.select_option("select[data-seat='1']", "bot:random")
    page.select_option("select[data-seat='2']", "human")
    page.select_option("select[data-seat='3']", "bot:random")
    page.click("#create")
    page.wait_for_selector("#link-list a[data-seat='2']")
    return [page.get_attribute(f"#link-list a[data-seat='{s}']", "href") for s in (0, 2)]


def take_a_turn(page) -> bool:
    """Make this seat's move if it has one: a multi-card discard by selecting then confirming, a card by
    clicking it, a choice by its button. True when a move was made. The page re-renders as the bots play, so what
    was clickable may be gone a moment later: a click that finds nothing within a second is no move."""
    try:
        if page.locator("#confirm").count():
            for card in page.locator("#hand .card.playable").all()[:3]:
                card.click(timeout=1000)
            page.click("#confirm", timeout=1000)
            return True
        for target in ("#hand .card.playable", "#decision button.move"):
            if page.locator(target).count():
                page.locator(target).first.click(timeout=1000)
                return True
    except sync_api.TimeoutError:
        pass
    return False


def test_browser_two_friends_play_a_whole_deal_of_hearts(server, tmp_path):
    """... and halfway through the server is killed (SIGKILL) and started again: both pages reconnect by themselves
    and the deal goes on where it stood."""
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        lobby = browser.new_page()
        links = create_table(lobby, server.url)
        friends = []
        for link, size in zip(links, ({"width": 1100, "height": 800}, {"width": 390, "height": 844})):  # a phone
            page = browser.new_context(viewport=size).new_page()
            page.goto(link)
            page.wait_for_selector("#hand .card")
            friends.append(page)
        deadline, killed = time.monotonic() + 120, False
        while not all(p.locator("#next").count() for p in friends):
            if not killed and friends[0].locator("#log li").count() > 40:
                hand = friends[0].text_content("#hand")
                server.kill()
                killed = True
                for page in friends:
                    page.wait_for_selector("#connection.lost", timeout=15000)
                server.start()
                for page in friends:
                    page.wait_for_selector("#connection.ok", timeout=15000)
                assert friends[0].text_content("#hand") == hand
            assert time.monotonic() < deadline, "the deal did not end within two minutes"
            moved = False
            for page in friends:
                moved = take_a_turn(page) or moved
            if not moved:
                time.sleep(0.05)
            for page in friends:
                assert page.text_content("#error") in ("", None), page.text_content("#error")
        folder = SHOTS or str(tmp_path)
        for name, page in zip(("south", "north-phone"), friends):
            page.screenshot(path=os.path.join(folder, f"hearts-{name}.png"), full_page=True)
            assert "Deal 1 result" in page.text_content("#between")
            assert page.locator(".sheet tr").count() == 5  # the header and four players
        assert friends[0].text_content("#who") == "you are South"
        friends[0].click("#next")
        friends[1].click("#next")
        friends[0].wait_for_selector("#hand .card", timeout=10000)
        assert "deal 2" in friends[0].text_content("#log")
        browser.close()
