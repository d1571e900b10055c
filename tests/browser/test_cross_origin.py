"""A page of another site, in a real Chromium (issue 13): it cannot open the board socket, cannot
create a board (JSON fetch, no-cors text/plain fetch, form post) and cannot frame the board page,
while the same script on the server's own page does both. The security headers are checked on the
board page as Chromium received it.

The attacker is a tiny HTTP server of the test's own on another free port, opened as
http://localhost:PORT (another port is another origin, and so is localhost against 127.0.0.1).
What the server created is counted with the operator token (ServerProcess.board_count), never
inferred from what the page could read. The controls run the very same script where it must
succeed (the server's own page, and a server started with --allowed-origin for the attacker), so
the refusals are observed, not assumed."""
import http.server
import threading
from urllib.parse import urlsplit

import pytest

from conftest import DESKTOP, board_path, wait_live

# The script a hostile page runs against the board server: open the socket and say hello, then try
# to create a board every way a page can. Each attempt resolves with what the page could see.
OPEN_SOCKET = """(url) => new Promise(resolve => {
    const ws = new WebSocket(url);
    ws.onopen = () => ws.send(JSON.stringify({type: 'hello', protocol: 1, clientId: 'cross-origin-probe', name: 'probe'}));
    ws.onmessage = event => { resolve({opened: true, first: JSON.parse(event.data).type}); ws.close(); };
    ws.onclose = event => resolve({opened: false, code: event.code});
})"""

POST_JSON = """async (url) => {
    try {
        const response = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                           body: JSON.stringify({title: 'Made by a page'})});
        return {status: response.status, body: await response.json()};
    } catch (error) {
        return {error: String(error)};
    }
}"""

# A "simple" request: no preflight, so it reaches the server whatever it answers; the page only
# ever gets an opaque response.
POST_NO_CORS = """async (url) => {
    const response = await fetch(url, {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},
                                       body: JSON.stringify({title: 'Made by a page'})});
    return {type: response.type, status: response.status};
}"""

ATTACKER_PAGE = """<!doctype html>
<title>Totally harmless</title>
<h1>Cute kittens</h1>
<!-- The classic JSON-by-form trick: a text/plain form whose one field spells a JSON object. -->
<form id="post" method="post" enctype="text/plain" action="{server}/api/boards" target="sink">
  <input type="hidden" name='{{"title":"Made by a form","x":"' value='"}}'>
</form>
<iframe name="sink" title="sink"></iframe>
<iframe id="victim" title="victim" src="{victim}" width="600" height="300"></iframe>
"""


class AttackerSite:
    """A tiny HTTP server on another free port: `/` is ATTACKER_PAGE, filled in by `serve`."""

    def __init__(self):
        site = self
        self.page = ""

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = site.page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        # As the browser names it: another port than the board server's, and another host name.
        self.origin = f"http://localhost:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def serve(self, server, victim_path):
        self.page = ATTACKER_PAGE.format(server=server.http, victim=server.http + victim_path)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def attacker():
    site = AttackerSite()
    yield site
    site.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(10_000)
    yield context
    context.close()


def board_api_statuses(page, server):
    """Every answer to a request for the server's /api/boards the page made, as Chromium got it
    (opaque no-cors answers and the form's included): [(method, status)]."""
    seen = []
    page.on("response", lambda response: seen.append((response.request.method, response.status))
            if response.url == server.http + "/api/boards" else None)
    return seen


def open_attacker(context, attacker, server, board):
    """The attacker page, with its frame of the board page (through the edit link) loaded or
    refused. `page.console_messages`: what Chromium wrote to its console; `page.responses`: every
    response it got, from the first request on; `page.network`: (type, url, status)
    of every response DevTools saw, preflights included (Playwright does not report those)."""
    attacker.serve(server, board_path(board))
    page = context.new_page()
    page.console_messages, page.responses, page.network = [], [], []
    page.on("console", lambda message: page.console_messages.append(message.text))
    page.on("response", lambda response: page.responses.append(response))
    devtools = context.new_cdp_session(page)
    devtools.send("Network.enable")
    devtools.on("Network.responseReceived", lambda event: page.network.append(
        (event.get("type"), event["response"]["url"], event["response"]["status"])))
    page.goto(attacker.origin + "/")
    return page


def said(page, text):
    """Whether Chromium wrote `text` to the page's console (where it reports what it blocked)."""
    return any(text in message for message in page.console_messages)


def victim_frame(page):
    """The attacker page's frame of the board page."""
    return page.locator("#victim").element_handle().content_frame()


def test_a_page_of_another_origin_cannot_open_the_socket_create_a_board_or_frame_the_board(
        server, board, attacker, context, screenshot):
    page = open_attacker(context, attacker, server, board)
    assert urlsplit(page.url).port != server.port
    statuses = board_api_statuses(page, server)
    before = server.board_count()

    # The socket: the server refuses the upgrade (403 forbidden), so it never opens.
    assert page.evaluate(OPEN_SOCKET, server.ws) == {"opened": False, "code": 1006}
    assert said(page, "Error during WebSocket handshake: Unexpected response code: 403"), page.console_messages

    # A JSON post needs a preflight, which the server refuses (403, no CORS headers): the fetch
    # fails and the POST itself is never sent.
    answer = page.evaluate(POST_JSON, server.http + "/api/boards")
    assert "error" in answer and "Failed to fetch" in answer["error"], answer
    assert said(page, "Response to preflight request doesn't pass access control check"), page.console_messages
    api = [(kind, status) for kind, url, status in page.network if url == server.http + "/api/boards"]
    assert api == [("Preflight", 403)], page.network
    assert statuses == [], statuses

    # A simple text/plain request reaches the server, which refuses it for its Origin.
    assert page.evaluate(POST_NO_CORS, server.http + "/api/boards") == {"type": "opaque", "status": 0}
    # A form post, the oldest way of all (text/plain, so its body even reads as JSON).
    with page.expect_response(server.http + "/api/boards") as form_answer:
        page.locator("#post").evaluate("form => form.submit()")
    assert form_answer.value.status == 403
    assert [status for method, status in statuses if method == "POST"] == [403, 403], statuses
    assert server.board_count() == before, "a page of another origin created a board"

    # The board page in a frame of the foreign page: refused by frame-ancestors 'none', so the
    # board never loads there (no board, no socket, no presence).
    frame = victim_frame(page)
    assert frame.url.startswith("chrome-error://"), frame.url
    framed = [r for r in page.responses if r.url == server.http + board_path(board).split("#")[0]]
    assert [r.status for r in framed] == [200], "Chromium got the page, and refused to show it"
    assert "frame-ancestors 'none'" in framed[0].all_headers()["content-security-policy"]
    assert said(page, f"Framing '{server.http}/' violates the following Content Security Policy directive: "
                      "\"frame-ancestors 'none'\""), page.console_messages
    assert server.request("GET", "/health")[1]["liveBoards"] == 0, "the framed board joined"
    screenshot(page, "attacker")


def test_the_same_script_on_the_servers_own_page_opens_the_socket_and_creates_a_board(
        server, board, context, screenshot):
    page = context.new_page()
    response = page.goto(server.http + board_path(board))
    wait_live(page)
    statuses = board_api_statuses(page, server)
    before = server.board_count()
    assert page.evaluate(OPEN_SOCKET, server.ws) == {"opened": True, "first": "welcome"}
    answer = page.evaluate(POST_JSON, server.http + "/api/boards")
    assert answer.get("status") == 201 and answer["body"]["title"] == "Made by a page", answer
    assert server.board_count() == before + 1
    # Not JSON, even from the server's own page: nothing is made (415), the request did arrive.
    page.evaluate(POST_NO_CORS, server.http + "/api/boards")
    assert statuses == [("POST", 201), ("POST", 415)], statuses
    assert server.board_count() == before + 1

    # The security headers, as Chromium received them with the board page.
    headers = response.all_headers()
    policy = headers["content-security-policy"]
    directives = {d.strip().split()[0]: d.strip().split()[1:] for d in policy.split(";") if d.strip()}
    assert directives["script-src"] == ["'self'"], policy
    assert directives["frame-ancestors"] == ["'none'"], policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    screenshot(page, "own-origin")


def test_the_refusals_are_the_servers_a_listed_origin_and_a_page_without_frame_ancestors_get_through(
        server_factory, attacker, context):
    """The controls for the first test: the same attacker page and the same scripts, with the
    server listing the attacker's origin (--allowed-origin). The socket opens and the simple posts
    get past the origin check to the content-type check (415: still nothing made), so the first
    test sees the server's refusal of the Origin, not a page that cannot reach the server. With
    frame-ancestors taken out of the board page's policy on its way to Chromium, the frame loads
    the board page, so the first test would see a board page that can be framed."""
    server = server_factory(["--allowed-origin", attacker.origin]).start()
    board = server.create_board("Kitchen")
    page = open_attacker(context, attacker, server, board)
    statuses = board_api_statuses(page, server)
    before = server.board_count()
    assert page.evaluate(OPEN_SOCKET, server.ws) == {"opened": True, "first": "welcome"}
    assert page.evaluate(POST_NO_CORS, server.http + "/api/boards") == {"type": "opaque", "status": 0}
    with page.expect_response(server.http + "/api/boards") as form_answer:
        page.locator("#post").evaluate("form => form.submit()")
    assert form_answer.value.status == 415
    assert statuses == [("POST", 415), ("POST", 415)], statuses
    assert server.board_count() == before
    # Listing an origin does not let it frame the board.
    assert victim_frame(page).url.startswith("chrome-error://")
    page.close()

    def without_frame_ancestors(route):
        response = route.fetch()
        headers = response.headers
        headers["content-security-policy"] = "; ".join(
            d for d in headers["content-security-policy"].split(";") if "frame-ancestors" not in d)
        route.fulfill(response=response, headers=headers)

    context.route(server.http + "/b/*", without_frame_ancestors)
    framed = open_attacker(context, attacker, server, board)
    frame = victim_frame(framed)
    # The board page loads and its scripts run. (Its socket does not open here: Chromium's local
    # network access checks refuse loopback to a page Playwright fulfilled, whatever the server says.)
    frame.wait_for_function("() => typeof window.timerboard?.state === 'function'")
    assert frame.url == server.http + board_path(board)
    assert not said(framed, "frame-ancestors"), framed.console_messages
