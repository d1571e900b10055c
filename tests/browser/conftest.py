"""Browser fixtures: a headless Chromium (Debian's), one browser context per user, and helpers to
drive a board through its UI, read what a page shows, watch its DOM and take screenshots.

Every wait here is on a condition (Playwright's expect, wait_for_function, the server's revision),
never a sleep.
"""
import json
import os
import re
import threading
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
# Debian's chromium (scripts/install-deps installs it); Playwright never downloads a browser here.
CHROMIUM = os.environ.get("TIMERBOARD_CHROMIUM", "/usr/bin/chromium")
DESKTOP = {"width": 1100, "height": 800}
PHONE = {"width": 390, "height": 844}

# How long a step may take before the test fails: a bound on failure, not a measure of speed.
# CI's browser phase runs two Chromiums and their servers on two busy cores, where a section the
# user had just added once took over 10 s to show (two tests at once, passing alone and on rerun).
WAIT_MS = 20_000
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def browser():
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run scripts/install-deps --test"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def board(server):
    """A fresh board on the test's server (a `BoardRef`: its id, with its secrets and links)."""
    return server.create_board("Kitchen")


def board_path(board, role="edit") -> str:
    """The page of `board` through its `role` link: /b/ID#edit=SECRET."""
    return f"/b/{board}#{role}={board.secrets[role]}"


@pytest.fixture
def user(browser, server, board):
    """`user(name)` opens the board through its edit link as `name` in a browser context of its own
    and waits until the page is live. Returns the page; `page.context` is the user's context (close
    it to leave). `role="view"` or `"owner"` opens it through that link instead, `path` any page
    (not waited on); `board_id` another BoardRef. With `gate=True` the page's WebSocket goes through
    a `SocketGate` (`page.gate`)."""
    contexts = []

    def open_user(name, viewport=None, board_id=None, gate=False, path=None, role="edit"):
        context = browser.new_context(viewport=viewport or DESKTOP)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        # The display name the page sends in hello, as if the user had typed it in earlier.
        context.add_init_script(f"localStorage.setItem('timerboard.name', {name!r})")
        socket_gate = SocketGate(context) if gate else None
        page = context.new_page()
        page.gate = socket_gate
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(error))
        # What the Content-Security-Policy blocked is an error of the page too.
        page.on("console", lambda message: page.errors.append(message.text)
                if message.type == "error" and "Content Security Policy" in message.text else None)
        page.goto(server.http + (path if path is not None else board_path(board_id or board, role)))
        if path is None:
            wait_live(page)
        return page

    yield open_user
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot(request):
    """`screenshot(page, suffix="")` writes artifacts/screenshots/<test-name>[-suffix].png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, suffix=""):
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name) + (f"-{suffix}" if suffix else "")
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


# MARK: a WebSocket between the page and the server that the test controls


class SocketGate:
    """Routes a context's WebSocket to the real server through Playwright, so a test can hold
    what the server sends to this page (`hold`/`release`), lose one of its messages (`lose_next`),
    answer the page's joins with an error as a server that cannot open the board would
    (`refuse_joins`/`allow_joins`), or cut the connection as a network failure would (`drop`: the
    server sees the socket close, new sockets are refused until `restore`). Other page → server
    frames pass at once."""

    def __init__(self, context: BrowserContext):
        self.lock = threading.Lock()
        self.holding = False
        self.held = []  # (route, message) from the server, in arrival order
        self.losing = set()  # types of server messages to lose, once each
        self.refusing = None  # the error a join gets instead of reaching the server, or None
        self.refused = 0  # joins answered with that error
        self.dropped = False
        self.routes = []  # (page side, server side) of the open sockets
        context.route_web_socket(re.compile(r".*/ws(\?.*)?$"), self._route)

    def _route(self, ws: WebSocketRoute):
        if self.dropped:
            ws.close(code=1011, reason="dropped by the test")
            return
        server = ws.connect_to_server()
        self.routes.append((ws, server))
        server.on_message(lambda message: self._from_server(ws, message))
        # Once the page side has a handler, its frames are forwarded by hand.
        ws.on_message(lambda message: self._from_page(ws, server, message))

    def _from_page(self, ws, server, message):
        with self.lock:
            error = self.refusing if self.refusing and json.loads(message).get("type") == "join" else None
            if error:
                self.refused += 1
        if error:
            ws.send(json.dumps(error))
        else:
            server.send(message)

    def _from_server(self, ws, message):
        with self.lock:
            kind = json.loads(message).get("type")
            if kind in self.losing:
                self.losing.discard(kind)
                return
            if self.holding:
                self.held.append((ws, message))
                return
        ws.send(message)

    def lose_next(self, kind: str):
        """The next server message of type `kind` never reaches the page."""
        with self.lock:
            self.losing.add(kind)

    def refuse_joins(self, code="internal", message="the board is loading"):
        """From now on, the page's joins are answered with this error instead of reaching the server."""
        with self.lock:
            self.refusing = {"type": "error", "code": code, "message": message}

    def allow_joins(self):
        with self.lock:
            self.refusing = None

    def hold(self):
        """From now on, keep what the server sends to this page."""
        with self.lock:
            self.holding = True

    def held_types(self):
        return [json.loads(message)["type"] for _, message in self.held]

    def release(self):
        """Deliver what was kept, in order, and pass everything on again."""
        with self.lock:
            self.holding = False
            held, self.held = self.held, []
        for ws, message in held:
            ws.send(message)

    def drop(self):
        """The network fails: every socket closes on both sides; new ones are refused."""
        self.dropped = True
        routes, self.routes = self.routes, []
        for ws, server in routes:
            server.close()
            ws.close()

    def restore(self):
        self.dropped = False


# MARK: page helpers


def wait_live(page: Page, timeout=WAIT_MS):
    expect(page.locator("#connection")).to_have_attribute("data-state", "live", timeout=timeout)


def section(page: Page, title: str):
    """The section whose title input shows `title` (a CSS attribute selector would read the
    attribute, not the value, so match on data-shown, the value last written)."""
    return page.locator("[data-kind=section]").filter(has=page.locator(f".section-title[data-shown={css_string(title)}]"))


def timer(page: Page, title: str):
    return page.locator("[data-kind=timer]").filter(has=page.locator(f".timer-title[data-shown={css_string(title)}]"))


def css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def add_section(page: Page, title: str):
    """Adds a section through the form and waits until the server has it (nothing pending)."""
    form = page.locator("form.add-section")
    form.locator("[name=title]").fill(title)
    form.locator("button[type=submit]").click()
    expect(section(page, title)).to_have_count(1)
    wait_synced(page)
    return section(page, title)


def add_timer(page: Page, section_title: str, title: str, minutes=1, seconds=0):
    form = section(page, section_title).locator("form.add-timer")
    form.locator("[name=title]").fill(title)
    form.locator("[name=minutes]").fill(str(minutes))
    form.locator("[name=seconds]").fill(str(seconds))
    form.locator("button[type=submit]").click()
    expect(timer(page, title)).to_have_count(1)
    wait_synced(page)
    return timer(page, title)


def commit(locator, text: str):
    """Types a new value into a title/minutes/seconds input and presses Enter."""
    locator.fill(text)
    locator.press("Enter")


def wait_synced(page: Page, timeout=WAIT_MS):
    """Every local edit of this page is confirmed by the server."""
    expect(page.locator("#connection")).to_have_attribute("data-pending", "0", timeout=timeout)


def wait_rev(page: Page, rev: int, timeout=WAIT_MS):
    """The page has applied revision `rev` (or later)."""
    page.wait_for_function("rev => (window.timerboard.state().rev ?? -1) >= rev", arg=rev, timeout=timeout)


def page_rev(page: Page) -> int:
    return page.evaluate("window.timerboard.state().rev")


def converged(server, board: str, *pages: Page):
    """Waits until every page's edits are in and every page has applied the server's revision,
    then checks that each page shows exactly the server's board. Returns that board."""
    for page in pages:
        wait_synced(page)
    snapshot = server.snapshot(board)
    for page in pages:
        wait_rev(page, snapshot["rev"])
    expected = snapshot_board(snapshot)
    for page in pages:
        assert dom_board(page) == expected, f"{page_name(page)} differs from the server"
    return expected


def page_name(page: Page) -> str:
    return page.evaluate("document.getElementById('user-name')?.value ?? ''")


def dom_board(page: Page):
    """What the page shows: [(section title, expanded, [(timer title, minutes, seconds), ...]), ...]
    in display order, read from the DOM (input values, not the store)."""
    return page.evaluate("""() => [...document.querySelectorAll('#sections > [data-kind=section]')].map(s => [
        s.querySelector('.section-title').value,
        s.dataset.expanded === 'true',
        [...s.querySelectorAll('.timers > [data-kind=timer]')].map(t => [
            t.querySelector('.timer-title').value,
            Number(t.querySelector('.timer-minutes').value),
            Number(t.querySelector('.timer-seconds').value),
        ]),
    ])""")


def snapshot_board(snapshot: dict):
    """The server's snapshot in the shape of dom_board: display order is by order key, then id."""
    key = lambda entity: (entity["order"].encode(), entity["id"].encode())
    sections = sorted(snapshot["sections"], key=key)
    return [
        [s["title"], s["isExpanded"],
         [[t["title"], t["minutes"], t["seconds"]] for t in sorted((t for t in snapshot["timers"] if t["sectionID"] == s["id"]), key=key)]]
        for s in sections
    ]


def toast(page: Page, text):
    """A toast (role=status live region) saying `text` (a string or a regex)."""
    return page.locator("#toasts .toast").filter(has_text=text)


# MARK: watching the DOM

# The presence area: who else is on the board (#presence, the .me-dot colour), how in step their
# clocks are (#sync-status, from presence's clockError) and the marks that show what someone else
# is editing (data-editing-by and its colour on a section header or timer row). Presence changes
# whenever people focus or leave fields or measure their clocks again, so DOM assertions exclude
# exactly these, and nothing else.
PRESENCE_AREA = {"subtrees": ["#presence", ".me-dot", "#sync-status"], "attributes": ["data-editing-by", "style"],
                 "on": ".section-header, [data-kind=timer]"}

WATCH_SCRIPT = """(presence) => {
    // Every element of the page outside the presence area is remembered; a MutationObserver
    // records every change.
    const root = document.body;
    const outside = el => !presence.subtrees.some(s => el.closest(s));
    window.__watched = [root, ...root.querySelectorAll('*')].filter(outside);
    window.__watchedSet = new Set(window.__watched);
    window.__records = [];
    window.__observer?.disconnect();
    window.__observer = new MutationObserver(records => window.__records.push(...records));
    window.__observer.observe(root, {childList: true, attributes: true, characterData: true, subtree: true,
                                      attributeOldValue: true, characterDataOldValue: true});
}"""

REPORT_SCRIPT = """(presence) => {
    window.__records.push(...window.__observer.takeRecords());
    const root = document.body;
    const describe = node => {
        const element = node instanceof Element ? node : node.parentElement;
        const entity = element?.closest('[data-kind]');
        const name = element ? `${element.tagName.toLowerCase()}${element.id ? '#' + element.id : ''}` +
            [...element.classList].map(c => '.' + c).join('') : '?';
        return (node instanceof Element ? '' : `${node.nodeName} in `) + name +
            (entity ? ` of ${entity.dataset.kind} ${entity.dataset.id}` : '');
    };
    const outside = el => !presence.subtrees.some(s => el.closest(s));
    const inPresenceArea = record => {
        const element = record.target instanceof Element ? record.target : record.target.parentElement;
        if (!element || !outside(element)) return true;
        return record.type === 'attributes' && presence.attributes.includes(record.attributeName) && element.matches(presence.on);
    };
    return {
        // Elements there now that were not when watching began.
        created: [root, ...root.querySelectorAll('*')].filter(el => outside(el) && !window.__watchedSet.has(el)).map(describe),
        // Elements that were there and are gone (removed, or replaced by a copy).
        missing: window.__watched.filter(el => !root.contains(el)).map(describe),
        records: window.__records.filter(r => !inPresenceArea(r)).map(r => ({
            type: r.type,
            target: describe(r.target),
            attribute: r.attributeName,
            oldValue: r.oldValue,
            added: [...r.addedNodes].map(describe),
            removed: [...r.removedNodes].map(describe),
        })),
    };
}"""


def watch_dom(page: Page):
    """Starts recording every DOM change of the page; `dom_changes(page)` reports them."""
    page.evaluate(WATCH_SCRIPT, PRESENCE_AREA)


def dom_changes(page: Page):
    """What changed in the page since watch_dom, outside the presence area (PRESENCE_AREA):
    elements created, elements gone, and the mutation records."""
    return page.evaluate(REPORT_SCRIPT, PRESENCE_AREA)


def mutated(changes) -> set:
    """The mutation records as a set of (type, target, attribute or added/removed nodes)."""
    return {(r["type"], r["target"], r["attribute"] or f"+{r['added']} -{r['removed']}") for r in changes["records"]}


# MARK: pages with a clock of their own (test_timer_countdown.py)


def clock_script(skew_ms: int) -> str:
    """An init script that moves the page's clock `skew_ms` ahead (behind if negative), as a
    computer whose clock is wrong would: Date.now and performance.timeOrigin (web-static/clock.js
    reads timeOrigin + performance.now()). The true time stays available as window.__realNow()."""
    return f"""(() => {{
        const skew = {int(skew_ms)};
        const realNow = Date.now.bind(Date);
        const origin = performance.timeOrigin;
        window.__realNow = realNow;
        Date.now = () => realNow() + skew;
        Object.defineProperty(performance, 'timeOrigin', {{ get: () => origin + skew, configurable: true }});
    }})();"""


@pytest.fixture
def user_with_script(browser, server, board):
    """`user_with_script(name, script, viewport=None)`: like `user`, with `script` run in the page
    before its own scripts (for example `clock_script(7000)`)."""
    contexts = []

    def open_user(name, script, viewport=None):
        context = browser.new_context(viewport=viewport or {"width": 1100, "height": 800})
        contexts.append(context)
        context.add_init_script(f"localStorage.setItem('timerboard.name', {name!r})")
        context.add_init_script(script)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(error))
        # What the Content-Security-Policy blocked is an error of the page too.
        page.on("console", lambda message: page.errors.append(message.text)
                if message.type == "error" and "Content Security Policy" in message.text else None)
        page.goto(server.http + board_path(board))
        wait_live(page)
        return page

    yield open_user
    for context in contexts:
        context.close()
