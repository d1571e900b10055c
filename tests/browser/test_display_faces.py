"""What a display (/b/ID/display#role=SECRET) draws of one timer, read from across a room: times of
day in the board's zone whatever the screen's own, a progress bar that means something for each
kind, a paused timer that says so, and a scheduled start told in words. Boards are set up through
the REST edits endpoint; every wait is on a condition."""
import re
import time
import uuid
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect

from conftest import clock_script

TV = {"width": 1920, "height": 1080}
BOARD_ZONE = "Asia/Tokyo"
SCREEN_ZONE = "America/New_York"


def edit(server, board, *ops):
    status, body = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit,
                                  body={"opId": uuid.uuid4().hex, "ops": list(ops)})
    assert status == 200, (status, body, ops)
    return body


def timer_op(timer_id, title, minutes=1, seconds=0, **fields):
    return {"op": "addTimer", "id": timer_id, "sectionID": "s", "title": title, "minutes": minutes,
            "seconds": seconds, "position": "last", **fields}


SECTION = {"op": "addSection", "id": "s", "title": "Day", "position": "last"}


@pytest.fixture
def display(browser, server, board):
    """`display(timer_id=None, viewport=TV, scripts=(), **context options)` opens the board's display
    through its view link, with `scripts` run before the page's own, and waits until it is live."""
    contexts = []

    def open_display(timer_id=None, viewport=TV, scripts=(), **options):
        context = browser.new_context(viewport=viewport, **options)
        contexts.append(context)
        for script in scripts:
            context.add_init_script(script)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(error))
        path = f"/b/{board}/display" + (f"/{timer_id}" if timer_id else "")
        page.goto(f"{server.http}{path}#view={board.view}")
        expect(page.locator("#display-connection")).to_have_attribute("data-state", "live")
        return page

    yield open_display
    for context in contexts:
        context.close()


def wall(ms, zone, seconds=True):
    return datetime.fromtimestamp(ms / 1000, ZoneInfo(zone)).strftime("%H:%M:%S" if seconds else "%H:%M")


def test_a_clock_and_a_scheduled_start_are_told_in_the_boards_zone_not_the_screens(server, board, display):
    now = int(time.time() * 1000)
    # A start whose hour differs in every zone involved (Tokyo, New York, UTC).
    start_at = (now // 60_000 + 90) * 60_000
    edit(server, board, {"op": "setTimeZone", "timeZone": BOARD_ZONE}, SECTION,
         timer_op("clock", "Tokyo time", 0, 0, kind="clock"),
         timer_op("lunch", "Lunch", 45, 0, startAt=start_at))
    clock = display("clock", timezone_id=SCREEN_ZONE)
    # The first face waits for the server's clock (the first pong, or 1 s).
    expect(clock.locator(".display-countdown")).to_have_text(re.compile(r"\d"))
    shown = clock.locator(".display-countdown").inner_text()
    # The face reads whole seconds; allow the second that passed while reading it.
    candidates = {wall(now + delta, BOARD_ZONE) for delta in range(0, 60_000, 1000)}
    assert shown in candidates, f"{shown!r} is not Tokyo time (Tokyo {wall(now, BOARD_ZONE)}, New York {wall(now, SCREEN_ZONE)})"
    lunch = display("lunch", timezone_id=SCREEN_ZONE)
    expect(lunch.locator(".display-countdown")).to_have_attribute(
        "aria-label", re.compile(f"^45:00, starts at {wall(start_at, BOARD_ZONE, False)}, in "))


# The bar's first computed transform and how many transitions it ran, as the page drew it: read at
# once, so a bar that animated from zero is caught whatever the machine's speed.
FIRST_BAR = """
new MutationObserver((_, observer) => {
  const bar = document.querySelector('.display-progress-bar');
  if (!bar || !bar.style.transform || window.firstBar) return;
  window.firstBar = {transform: getComputedStyle(bar).transform, transitions: bar.getAnimations().length};
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['style']});
"""


def bar_shown(page: Page):
    """The bar's intended fill (its inline scaleX), or None when there is no bar."""
    return page.evaluate("""() => {
      const track = document.querySelector('.display-progress');
      if (track.hidden || getComputedStyle(track).display === 'none') return null;
      return Number(/scaleX\\(([^)]*)\\)/.exec(document.querySelector('.display-progress-bar').style.transform)[1]);
    }""")


def test_the_bar_means_something_for_each_kind_and_does_not_grow_from_zero_on_load(server, board, display):
    now = int(time.time() * 1000)
    edit(server, board, SECTION,
         # Counts to two hours from now: its one-minute length means nothing to it.
         timer_op("doors", "Doors close", 0, 1, kind="toTime", targetAt=now + 7_200_000),
         timer_op("watch", "Stopwatch", 0, 0, kind="countUp"),
         timer_op("clock", "Clock", 0, 0, kind="clock"),
         timer_op("late", "Short talk", 0, 1),
         {"op": "startTimer", "id": "doors"}, {"op": "startTimer", "id": "watch"}, {"op": "startTimer", "id": "late"})
    doors = display("doors")
    # Two seconds into the run (past the length that the old bar divided by): still nearly empty.
    doors.wait_for_timeout(2000)
    expect(doors.locator(".display-countdown")).to_have_text(re.compile(r"^1:5\d:\d\d$"))
    fill = bar_shown(doors)
    assert fill is not None and fill < 0.01, f"a count to two hours away, 2 s in, fills {fill} of its bar"
    for timer_id in ("watch", "clock"):
        page = display(timer_id)
        expect(page.locator(".display-countdown")).not_to_be_empty()
        assert bar_shown(page) is None, f"{timer_id} shows a bar"
    # An overtime timer's bar is full from the first paint: it does not grow from zero.
    context = doors.context.browser.new_context(viewport=TV)
    context.add_init_script(FIRST_BAR)
    page = context.new_page()
    page.goto(f"{server.http}/b/{board}/display/late#view={board.view}")
    expect(page.locator("#display-page")).to_have_attribute("data-phase", "over")
    first = page.evaluate("window.firstBar")
    context.close()
    assert first == {"transform": "matrix(1, 0, 0, 1, 0, 0)", "transitions": 0}, first


# The countdown's text on the page's background, its opacity blended in, as WCAG's contrast ratio.
INK_CONTRAST = """() => {
  const channels = text => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = rgb => rgb.map(c => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const countdown = document.querySelector('.display-countdown');
  const style = getComputedStyle(countdown);
  const bg = channels(getComputedStyle(document.querySelector('#display-page')).backgroundColor);
  const alpha = Number(style.opacity);
  const ink = channels(style.color).map((c, i) => c * alpha + bg[i] * (1 - alpha));
  const [a, b] = [luminance(ink), luminance(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_paused_timer_says_paused_and_stays_legible(server, board, display, scheme):
    # At its warning point from the start: paused, it is amber.
    edit(server, board, SECTION, timer_op("talk", "Talk", 1, 0, warnAt=60_000), timer_op("plain", "Plain", 5),
         {"op": "startTimer", "id": "talk"}, {"op": "startTimer", "id": "plain"})
    edit(server, board, {"op": "pauseTimer", "id": "talk"}, {"op": "pauseTimer", "id": "plain"})
    for timer_id, phase in (("talk", "warn"), ("plain", "")):
        page = display(timer_id, color_scheme=scheme)
        expect(page.locator("#display-page")).to_have_attribute("data-status", "paused")
        expect(page.locator("#display-page")).to_have_attribute("data-phase", phase)
        expect(page.locator(".display-state")).to_have_text("Paused")
        expect(page.locator(".display-state")).to_be_visible()
        ratio = page.evaluate(INK_CONTRAST)
        assert ratio >= 3, f"{scheme}, paused {phase or 'plain'}: the countdown reads {ratio:.2f}:1"
    # Running again: the word goes.
    edit(server, board, {"op": "startTimer", "id": "plain"})
    expect(page.locator("#display-page")).to_have_attribute("data-status", "running")
    expect(page.locator(".display-state")).to_be_hidden()


def test_an_idle_timer_with_a_scheduled_start_says_when_it_starts(server, board, display):
    now = int(time.time() * 1000)
    start_at = (now // 60_000 + 90) * 60_000
    edit(server, board, {"op": "setTimeZone", "timeZone": BOARD_ZONE}, SECTION,
         timer_op("lunch", "Lunch", 45, 0, startAt=start_at))
    page = display("lunch", timezone_id=SCREEN_ZONE)
    expect(page.locator(".display-state")).to_have_text(f"Starts at {wall(start_at, BOARD_ZONE, False)}")
    expect(page.locator(".display-state")).to_be_visible()


# When the page first heard a pong, and when it first drew a countdown, in its own ms since load.
FIRST_DRAW = """(() => {
  window.seen = {pong: null, drawn: null, text: null, phase: null};
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', event => {
        if (window.seen.pong === null && String(event.data).includes('"pong"')) window.seen.pong = performance.now();
      });
    }
  };
  new MutationObserver(() => {
    const countdown = document.querySelector('.display-countdown');
    if (window.seen.drawn !== null || !countdown || !countdown.textContent) return;
    Object.assign(window.seen, {drawn: performance.now(), text: countdown.textContent,
                                phase: document.querySelector('#display-page').dataset.phase});
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();"""


def test_a_display_with_a_wrong_clock_waits_for_the_servers_before_its_first_countdown(server, board, display):
    edit(server, board, SECTION, timer_op("talk", "Talk", 5), {"op": "startTimer", "id": "talk"})
    # Three hours ahead: drawn with its own clock, the five-minute talk would read as long over.
    page = display("talk", scripts=(clock_script(3 * 3_600_000), FIRST_DRAW))
    expect(page.locator(".display-countdown")).to_have_text(re.compile(r"^4:[0-5]\d$"))
    seen = page.evaluate("window.seen")
    # Held for the first pong, or a second at most (a pong slower than that: it draws what it has).
    if seen["pong"] is not None and seen["pong"] < 900:
        assert seen["drawn"] >= seen["pong"], f"drawn before the clock was known: {seen}"
        assert seen["phase"] != "over" and not seen["text"].startswith("+"), seen
