#!/usr/bin/env python3
"""How long after its ack a message reaches the display pages (issue 35: within 100 ms).

Starts a server (the debug build, or TIMERBOARD_BIN), opens DISPLAYS display pages in headless
Chromium, each in its own context, then sends ROUNDS edits over HTTP that show a new message. Each
page records, with a MutationObserver, the wall-clock instant its .display-message first holds the
new text; the script records the instant its edit was acked (the HTTP answer arrived). One machine,
one clock: the figure is shown minus acked, so a page that showed it before the ack reached the
script counts as negative. Prints p50, p90, max over every page and round, the slowest three, and
how many sockets the pages opened (one each, unless one reconnected).

    python3 bench/browser/display_message.py [DISPLAYS] [ROUNDS]
"""
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("TIMERBOARD_BIN", str(ROOT / ".build" / "debug" / "timerboard"))
WATCH = """() => {
  window.shownAt = {};
  const message = document.querySelector(".display-message");
  new MutationObserver(() => {
    const text = message.textContent;
    if (!message.hidden && text && !(text in window.shownAt)) window.shownAt[text] = Date.now();
  }).observe(message, {childList: true, characterData: true, subtree: true, attributes: true});
}"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(port, path, secret=None, body=None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {secret}"} if secret else {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def main():
    displays = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    port = free_port()
    server = subprocess.Popen([BINARY, "serve", "--port", str(port), "--data-directory", tempfile.mkdtemp(),
                               "--web-root", str(ROOT / "web-static")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.05)
        board = post(port, "/api/boards", body={"title": "Display latency"})
        secret = board["secrets"]["edit"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
            pages = []
            sockets = []
            for _ in range(displays):
                page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
                page.on("websocket", lambda socket: sockets.append(time.time()))
                page.goto(f"http://127.0.0.1:{port}/b/{board['id']}/display#edit={secret}")
                page.wait_for_selector(".display-message", state="attached")
                page.evaluate(WATCH)
                pages.append(page)
            acked = {}
            for n in range(rounds):
                text = f"Wrap up {n}"
                post(port, f"/api/boards/{board['id']}/edits", secret, {"opId": f"m{n}", "ops": [{"op": "showMessage", "text": text}]})
                acked[text] = time.time() * 1000
                for page in pages:
                    page.wait_for_function("(text) => text in window.shownAt", arg=text)
            delays = [page.evaluate("() => window.shownAt")[text] - at for page in pages for text, at in acked.items()]
            browser.close()
    finally:
        server.terminate()
        server.wait()
    # The three slowest (page, message) pairs, to tell a slow first message from a slow moment.
    worst = [f"{text}: {delay:.0f}" for delay, text in sorted(zip(delays, [text for _ in range(displays) for text in acked]))[-3:]]
    delays.sort()
    p90 = delays[int(len(delays) * 0.9) - 1]
    print(f"{displays} displays x {rounds} messages: shown minus acked, ms: p50 {statistics.median(delays):.1f}, "
          f"p90 {p90:.1f}, max {delays[-1]:.1f}, min {delays[0]:.1f}; slowest: {', '.join(worst)}; sockets opened: {len(sockets)} for {displays} pages (more: a page reconnected)")


if __name__ == "__main__":
    main()
