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
    """`display(timer_id=None, viewport=TV, **context options)` opens the board's display through its
    view link and waits until it is live."""
    contexts = []

    def open_display(timer_id=None, viewport=TV, **options):
        context = browser.new_context(viewport=viewport, **options)
        contexts.append(context)
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
    shown = clock.locator(".display-countdown").inner_text()
    # The face reads whole seconds; allow the second that passed while reading it.
    candidates = {wall(now + delta, BOARD_ZONE) for delta in range(0, 60_000, 1000)}
    assert shown in candidates, f"{shown!r} is not Tokyo time (Tokyo {wall(now, BOARD_ZONE)}, New York {wall(now, SCREEN_ZONE)})"
    lunch = display("lunch", timezone_id=SCREEN_ZONE)
    expect(lunch.locator(".display-countdown")).to_have_attribute(
        "aria-label", re.compile(f"^45:00, starts at {wall(start_at, BOARD_ZONE, False)}, in "))
